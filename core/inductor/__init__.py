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

from typing import TYPE_CHECKING

from ..lazy import lazy_getattr

if TYPE_CHECKING:
    from .derived import open_workspace, run_report, run_workspace
    from .launches import report_problems, tie_launches
    from .run_folder import InductorRun, is_run_folder, open_run
    from .step_versus import (
        STEPS_HEADER,
        StepsVersus,
        format_steps,
        open_versus_steps,
        step_rows,
        steps_json,
        steps_notes,
    )
    from .versus import VERSUS_HEADER, Versus, format_versus, open_versus, versus_pair

# Imported on first use (as ``ncu`` and ``view``): the CLI asks ``is_run_folder`` of every
# folder it is given, and that must not load the build, the report reader or numpy.
_EXPORTS = {
    "open_workspace": ".derived",
    "run_report": ".derived",
    "run_workspace": ".derived",
    "report_problems": ".launches",
    "tie_launches": ".launches",
    "InductorRun": ".run_folder",
    "is_run_folder": ".run_folder",
    "open_run": ".run_folder",
    "VERSUS_HEADER": ".versus",
    "Versus": ".versus",
    "format_versus": ".versus",
    "open_versus": ".versus",
    "versus_pair": ".versus",
    "STEPS_HEADER": ".step_versus",
    "StepsVersus": ".step_versus",
    "format_steps": ".step_versus",
    "step_rows": ".step_versus",
    "steps_notes": ".step_versus",
    "open_versus_steps": ".step_versus",
    "steps_json": ".step_versus",
}

__all__ = [
    "InductorRun",
    "VERSUS_HEADER",
    "Versus",
    "format_versus",
    "is_run_folder",
    "open_run",
    "open_versus",
    "open_workspace",
    "report_problems",
    "run_report",
    "run_workspace",
    "tie_launches",
    "versus_pair",
    "STEPS_HEADER",
    "StepsVersus",
    "format_steps",
    "step_rows",
    "steps_notes",
    "open_versus_steps",
    "steps_json",
]

__getattr__ = lazy_getattr(__name__, _EXPORTS, globals())
