"""Building a model: ONNX or Relax -> TVM -> one .cu file per kernel -> a cubin with line
information -> SASS with its line table -> a workspace. TVM is imported only while building,
and ``build_in_child`` keeps it out of the calling process altogether."""

from .model_loader import PARAMS_MODES, model_format, parse_shapes
from .pipeline import (
    BuildPlan,
    BuildRequest,
    build_in_child,
    build_model,
    default_arch,
    default_workspace,
    plan_build,
)
from .relax_pipelines import PIPELINES

__all__ = [
    "PARAMS_MODES",
    "PIPELINES",
    "BuildPlan",
    "BuildRequest",
    "build_in_child",
    "build_model",
    "default_arch",
    "default_workspace",
    "model_format",
    "parse_shapes",
    "plan_build",
]
