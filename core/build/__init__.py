"""Building a model: ONNX or Relax -> TVM -> one .cu file per kernel -> a cubin with line
information -> SASS with its line table -> a workspace. TVM is imported only while building,
and ``build_in_child`` keeps it out of the calling process altogether."""

from .model_loader import parse_shapes
from .pipeline import BuildRequest, build_in_child, build_model, default_workspace
from .relax_pipelines import PIPELINES

__all__ = [
    "PIPELINES",
    "BuildRequest",
    "build_in_child",
    "build_model",
    "default_workspace",
    "parse_shapes",
]
