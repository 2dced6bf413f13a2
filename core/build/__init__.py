"""Building a model: ONNX or Relax -> TVM -> one .cu file per kernel -> a cubin with line
information -> SASS with its line table -> a workspace. TVM is imported only while building."""

from .model_loader import PARAMS_MODES, model_format, parse_shapes
from .pipeline import BuildRequest, build_model, default_arch

__all__ = [
    "PARAMS_MODES",
    "BuildRequest",
    "build_model",
    "default_arch",
    "model_format",
    "parse_shapes",
]
