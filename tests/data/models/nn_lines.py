"""A tiny ``tvm.relax.frontend.nn`` model whose operators each come from a known line
(tests/tvm_build/test_provenance.py checks the lines the build records: keep them where
they are, or update the test)."""

from tvm.relax.frontend import nn
from tvm.relax.frontend.nn import op


class Block(nn.Module):
    def __init__(self) -> None:
        self.up = nn.Linear(64, 128, bias=False, dtype="float32")
        self.down = nn.Linear(128, 64, bias=False, dtype="float32")

    def forward(self, x: nn.Tensor) -> nn.Tensor:
        h = self.up(x)
        h = op.relu(h)
        h = self.down(h)
        return op.softmax(h + x, axis=-1)


spec = {"forward": {"x": nn.spec.Tensor([8, 64], "float32")}}
mod, _ = Block().export_tvm(spec)
