"""NNFusion: its kernel identifiers, the ``Function`` JSON of a KernelCache row, the scan of a
TVM kernel's CUDA source that block fusion needs, what NNFusion looks up for an ONNX model,
its command line, and running the real compiler."""

from .command import shell_text
from .onnx_model import InitializerModel, find_model, nnfusion_copy_path, write_initializer_model

__all__ = [
    "InitializerModel",
    "find_model",
    "nnfusion_copy_path",
    "shell_text",
    "write_initializer_model",
]
