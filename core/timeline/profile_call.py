"""Nsight Compute on one call of a timeline: the one path of ``kernelscope timeline
--profile N`` and the window's Profile This Kernel."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import KernelscopeError
from ..profiling import ProfileResult, profile_workspace, profiling_problem
from ..tasks import Cancel, ProgressFn, no_progress
from .model import Timeline


def profile_call(
    timeline: Timeline,
    index: int,
    workspace: Path,
    *,
    kernel: str | None = None,
    warmup: int = 1,
    progress: ProgressFn = no_progress,
    cancel: Cancel | None = None,
    **options: Any,
) -> ProfileResult:
    """Profile call ``index`` of ``timeline`` (its first kernel unless ``kernel``) of the
    model in ``workspace``, after ``warmup`` passes: exactly that launch, its kernel checked
    (ncu's shortened names included), no report kept otherwise. ``options``: the rest of
    ProfileRequest (``set``, ``host`` and its SSH settings, ``inputs``...)."""
    request = timeline.selection(index, kernel, warmup=warmup).profile_request(workspace, **options)
    if not request.host and (problem := profiling_problem()):
        raise KernelscopeError(
            f"cannot profile on this machine: {problem}",
            hint="measure the timeline on a GPU host (kernelscope timeline WS --host "
            "user@gpu-box, or Run on: user@gpu-box in the window), then profile its calls there",
        )
    return profile_workspace(request, progress=progress, cancel=cancel)
