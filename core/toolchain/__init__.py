"""The NVIDIA tools (nvcc, nvdisasm, cuobjdump, ncu): finding them, and compiling with nvcc
the way TVM does plus line information."""

from .find import find_all, find_tool, how_to_get, local_gpu_arch, ncu_report_dir

__all__ = [
    "find_all",
    "find_tool",
    "how_to_get",
    "local_gpu_arch",
    "ncu_report_dir",
]
