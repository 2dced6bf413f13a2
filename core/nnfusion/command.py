"""NNFusion's command line for a model and a kernel DB: the one place that knows its flags.

Which values a DB's rows need is ``kernel_db.settings``; running it is ``compiler``. The
command that makes kernelscope's rows compute the right numbers (kernel_db reference §5,
checked with the real compiler):

* ``-fkernel_cache_path=DB``: NNFusion reads the DB from there instead of
  ``~/.cache/nnfusion/kernel_cache.db``;
* ``-fproduct_name=GPU``: the name under which the rows' ``Miscs.external_profile`` times are
  read (the CUDA device name, e.g. ``NVIDIA H200``); without it every row counts as 10 µs;
* ``-fbiasadd_fix=true`` when a Convolution+Add+Relu row reads a per-channel bias (TVM's
  kernels do): the fix rewrites the Add's constant so that its first C elements hold the
  bias. It needs that operand to be a constant: NNFusion imports an ONNX Conv bias as a
  Broadcast of it, so for such a model the command adds ``-fconst_folding_backend=CPU``
  (alone, the fix segfaults on the Broadcast). That folding runs NNFusion's slow CPU
  reference kernels (minutes to hours for ResNet-50), so the model kernelscope writes for
  NNFusion (``onnx_model``) holds each bias already broadcast, and needs the fix alone.
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass

BIAS_FLAG = "-fbiasadd_fix=true"
FOLDING_FLAG = "-fconst_folding_backend=CPU"
MODEL_PLACEHOLDER = "MODEL.onnx"  # where a command shown for any model has the model


@dataclass
class Flags:
    """The NNFusion flags a kernel DB needs (see the module docstring)."""

    product_name: str | None = None
    bias_fix: bool = False
    const_folding: bool = True  # with bias_fix: the model's biases are not constants yet

    def args(self) -> list[str]:
        out = []
        if self.product_name:
            out.append(f"-fproduct_name={self.product_name}")
        if self.bias_fix:
            out.append(BIAS_FLAG)
            if self.const_folding:
                out.append(FOLDING_FLAG)
        return out


def command_line(
    model: str | os.PathLike[str],
    db: str | os.PathLike[str],
    flags: Flags,
    binary: str = "nnfusion",
) -> list[str]:
    """The argv that compiles ``model`` with the kernels of ``db``."""
    return [binary, str(model), "-f", "onnx", f"-fkernel_cache_path={db}", *flags.args()]


def shell_text(argv: list[str]) -> str:
    """``argv`` as one line a POSIX shell runs as it is."""
    return shlex.join(argv)
