"""A build workspace on disk: the manifest (model, kernels, launch facts), the split sources,
the cubin and its SASS line table. Every other feature reads builds through this package."""

from .manifest import KernelInfo, Manifest, OpInfo, TensorInfo, TunedFrom
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
    Workspace,
    check_target_folder,
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
    "SassInstruction",
    "TensorInfo",
    "TunedFrom",
    "Workspace",
    "branch_target",
    "check_target_folder",
    "read_sass",
    "staged_workspace",
    "write_sass",
]
