"""A model whose ``tvm.compile`` really crashes (SIGSEGV), so that the build tests can check
that such a crash cannot take kernelscope down. It registers TVM's CUDA post-processing hook
(``tvm_callback_cuda_postproc``, which code generation calls with each module's source) with
a function that reads address 0: the crash happens inside TVM's compile, in the build child.

(The model used before, a float16 1x1 convolution that segfaulted in s_tir Tensorize, crashed
only with apache-tvm-ffi 0.1.15, which TVM 0.27.0.post1 was not built with; with 0.1.14 it
compiles.)"""

import ctypes

import tvm_ffi
from tvm.relax.frontend import nn


class Tiny(nn.Module):
    def forward(self, x: nn.Tensor) -> nn.Tensor:
        return nn.relu(x)


mod, _ = Tiny().export_tvm({"forward": {"x": nn.spec.Tensor((4, 8), "float32")}})


def _crash(code: str, target: object = None) -> str:
    ctypes.string_at(0)  # a real SIGSEGV, inside TVM's CUDA code generation
    return code


tvm_ffi.register_global_func("tvm_callback_cuda_postproc", _crash, override=True)
