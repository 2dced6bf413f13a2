"""A pre-norm transformer encoder block (the TVM side of tests/data/inductor/'s transformer):
LayerNorm -> QKV Linear -> softmax(QK^T/sqrt(d)) V -> Linear + residual, LayerNorm -> Linear ->
GELU -> Linear + residual; batch 8, sequence 128, width 256, 4 heads, MLP 1024, fp32. The
PyTorch twin is tests/data/torch/transformer_block.py's Block."""

from tvm.relax.frontend import nn
from tvm.relax.frontend.nn import op

B, S, D, H, F = 8, 128, 256, 4, 1024


class Block(nn.Module):
    def __init__(self) -> None:
        self.ln1 = nn.LayerNorm(D)
        self.qkv = nn.Linear(D, 3 * D)
        self.proj = nn.Linear(D, D)
        self.ln2 = nn.LayerNorm(D)
        self.fc1 = nn.Linear(D, F)
        self.fc2 = nn.Linear(F, D)

    def forward(self, x: nn.Tensor) -> nn.Tensor:
        qkv = op.reshape(self.qkv(self.ln1(x)), (B, S, 3, H, D // H))
        qkv = op.permute_dims(qkv, [2, 0, 3, 1, 4])
        q, k, v = op.split(qkv, 3, axis=0)
        q, k, v = (op.reshape(t, (B, H, S, D // H)) for t in (q, k, v))
        scores = op.matmul(q, op.permute_dims(k, [0, 1, 3, 2])) * (1.0 / (D // H) ** 0.5)
        att = op.matmul(op.softmax(scores, axis=-1), v)
        att = op.reshape(op.permute_dims(att, [0, 2, 1, 3]), (B, S, D))
        x = x + self.proj(att)
        return x + self.fc2(op.gelu(self.fc1(self.ln2(x))))


mod, _ = Block().export_tvm({"forward": {"x": nn.spec.Tensor((B, S, D), "float32")}})
