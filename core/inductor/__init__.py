"""torch.compile (Inductor and Triton) run folders, opened like a kernelscope workspace.

``open_run(path)`` reads a run folder (what ``TORCH_COMPILE_DEBUG=1``,
``TORCHINDUCTOR_CACHE_DIR`` and ``TRITON_CACHE_DIR`` wrote, with or without an Nsight Compute
report) into an ``InductorRun``: each Triton kernel with its provenance (the FX nodes and ATen
operators it fuses), its file, its autotune configuration, its Triton cache entry (cubin, PTX)
and the wrapper lines that launch it; ``run_workspace(run)`` makes (once, in kernelscope's
cache) the workspace every other feature reads: the Triton files as sources, SASS from the
cubins (nvdisasm, no GPU), the PTX. ``versus_tvm`` compares it with a TVM workspace operator
group by operator group.
"""

from __future__ import annotations

from .derived import derived_folder, open_workspace, run_report, run_workspace
from .run_folder import InductorRun, TritonKernel, WrapperLaunch, is_run_folder, open_run

__all__ = [
    "InductorRun",
    "TritonKernel",
    "WrapperLaunch",
    "derived_folder",
    "is_run_folder",
    "open_run",
    "open_workspace",
    "run_report",
    "run_workspace",
]
