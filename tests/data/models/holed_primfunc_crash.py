"""A model that crashes TVM 0.27: ``tvm.compile`` segfaults (a null dereference in its TIR
passes) on a module holding a TIR function whose statement list has a hole, something a buggy
frontend or a hand-written pass can produce. The build tests use it to check that such a crash
cannot take kernelscope down. It crashes with every apache-tvm-ffi release TVM 0.27 runs with,
within seconds (the float16 convolution the tests used before crashed only with
apache-tvm-ffi 0.1.15, whose serialiser was the bug)."""

from tvm import tirx
from tvm.relax.frontend import nn


class Relu(nn.Module):
    def forward(self, x: nn.Tensor) -> nn.Tensor:
        return nn.op.relu(x)


mod, _ = Relu().export_tvm({"forward": {"x": nn.spec.Tensor((1, 64), "float32")}})
holed = tirx.SeqStmt([tirx.Evaluate(0), None])  # type: ignore[list-item]
mod["holed"] = tirx.PrimFunc([], holed).with_attr("global_symbol", "holed")
