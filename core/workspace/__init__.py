"""A build workspace on disk: the manifest (model, kernels, launch facts), the split sources,
the cubin and its SASS line table. Every other feature reads builds through this package."""

from .manifest import KernelInfo, Manifest, OpInfo, TensorInfo
from .sass_table import (
    KernelSass,
    Location,
    SassInstruction,
    branch_target,
    read_sass,
    write_sass,
)
from .workspace import (
    MANIFEST,
    PROFILES,
    SASS,
    OtherModelError,
    Workspace,
    check_target_folder,
    other_model_in,
    staged_workspace,
)

__all__ = [
    "MANIFEST",
    "PROFILES",
    "SASS",
    "KernelInfo",
    "KernelSass",
    "Location",
    "Manifest",
    "OpInfo",
    "OtherModelError",
    "SassInstruction",
    "TensorInfo",
    "Workspace",
    "branch_target",
    "check_target_folder",
    "other_model_in",
    "read_sass",
    "staged_workspace",
    "write_sass",
]
