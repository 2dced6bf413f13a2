"""A model that crashes TVM 0.27: ``tvm.compile`` segfaults (in s_tir Tensorize, while dlight
schedules the matmul for tensor cores) on one float16 1x1 convolution, 128 -> 96 channels on
a 16x16 image, after ``ToMixedPrecision`` -- the smallest piece of MobileNetV2 that does it
(found by cutting MobileNetV2 down; 64 input channels or an 8x8 image compile fine). The
build tests use it to check that such a crash cannot take kernelscope down. Compiling it
takes about a minute of one core before the crash: TVM first parses its CUDA tensor
intrinsics (``tvm.s_tir.tensor_intrin.cuda``)."""

from tvm import relax
from tvm.relax.frontend import nn


class Pointwise(nn.Module):
    def __init__(self) -> None:
        self.conv = nn.Conv2D(128, 96, 1, bias=False)

    def forward(self, x: nn.Tensor) -> nn.Tensor:
        return self.conv(x)


mod, _ = Pointwise().export_tvm({"forward": {"x": nn.spec.Tensor((1, 128, 16, 16), "float32")}})
mod = relax.transform.ToMixedPrecision(out_dtype="float16")(mod)
