"""NNFusion: its kernel identifiers, the ``Function`` JSON of a KernelCache row, the scan of a
TVM kernel's CUDA source that block fusion needs, what NNFusion looks up for an ONNX model,
its command line, and running the real compiler."""

from .command import MODEL_PLACEHOLDER, Flags, command_line, shell_text
from .compiler import ENV, NNFusionLog, NNFusionRun, find_nnfusion, run_nnfusion
from .onnx_graph import SUPPORT_OP_LIST, Lookup, NNFusionGraph, nnfusion_graph
from .onnx_model import InitializerModel, find_model, nnfusion_copy_path, write_initializer_model

__all__ = [
    "ENV",
    "MODEL_PLACEHOLDER",
    "SUPPORT_OP_LIST",
    "Flags",
    "InitializerModel",
    "Lookup",
    "NNFusionGraph",
    "NNFusionLog",
    "NNFusionRun",
    "command_line",
    "find_model",
    "find_nnfusion",
    "nnfusion_copy_path",
    "nnfusion_graph",
    "run_nnfusion",
    "shell_text",
    "write_initializer_model",
]
