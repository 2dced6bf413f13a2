"""A build workspace on disk: the manifest (model, kernels, launch facts), the split sources,
the cubin and its SASS line table. Every other feature reads builds through this package."""

from .manifest import KernelInfo, Manifest, OpInfo, TensorInfo, TunedFrom
from .ptx import (
    PTX,
    PTX_LINES,
    PtxKernel,
    PtxRow,
    parse_ptx,
    read_ptx_lines,
    relative_file_table,
    write_ptx_lines,
)
from .sass_table import (
    KernelSass,
    Location,
    SassInstruction,
    branch_target,
    frame_index,
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
    "PTX",
    "PTX_LINES",
    "SASS",
    "KernelInfo",
    "KernelSass",
    "Location",
    "Manifest",
    "OpInfo",
    "OtherModelError",
    "PtxKernel",
    "PtxRow",
    "SassInstruction",
    "TensorInfo",
    "TunedFrom",
    "Workspace",
    "branch_target",
    "check_target_folder",
    "frame_index",
    "other_model_in",
    "parse_ptx",
    "read_ptx_lines",
    "relative_file_table",
    "read_sass",
    "staged_workspace",
    "write_ptx_lines",
    "write_sass",
]
