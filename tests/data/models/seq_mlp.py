"""A one-function model over a symbolic sequence length, the first thing a user of an LLM
tries: token embedding, RMSNorm, a gated MLP and a vocabulary projection, ``forward`` over
``input_ids: int32[1, seq_len]`` with its weights as plain parameters."""

from tvm.relax.frontend import nn
from tvm.relax.frontend.nn import op

VOCAB, D, F = 256, 128, 256


class SeqMLP(nn.Module):
    def __init__(self) -> None:
        self.embed = nn.Embedding(VOCAB, D, dtype="float16")
        self.norm = nn.RMSNorm(D, axes=-1, bias=False, dtype="float16")
        self.up = nn.Linear(D, 2 * F, bias=False, dtype="float16")
        self.down = nn.Linear(F, D, bias=False, dtype="float16")
        self.head = nn.Linear(D, VOCAB, bias=False, dtype="float16")

    def forward(self, input_ids: nn.Tensor) -> nn.Tensor:
        x = self.norm(self.embed(input_ids))
        gate, up = op.split(self.up(x), 2, axis=-1)
        return self.head(x + self.down(op.silu(gate) * up))


mod, _ = SeqMLP().export_tvm({"forward": {"input_ids": nn.spec.Tensor([1, "seq_len"], "int32")}})
