"""Opening a timeline file, whichever kind it is."""

from __future__ import annotations

from pathlib import Path

from ..errors import KernelscopeError
from ..tasks import Cancel, ProgressFn, no_progress
from .model import Timeline
from .nsys import read_nsys

TIMELINE_SUFFIXES = (".json", ".sqlite", ".nsys-rep")


def open_timeline(
    path: Path, progress: ProgressFn = no_progress, cancel: Cancel | None = None
) -> Timeline:
    """A saved kernelscope timeline (.json) or an Nsight Systems export/report."""
    if path.suffix == ".json":
        return Timeline.load(path)
    if path.suffix in (".sqlite", ".nsys-rep"):
        return read_nsys(path, progress, cancel)
    raise KernelscopeError(
        f"{path}: not a timeline (open a workspace, a .json timeline, an Nsight Systems "
        ".sqlite export or a .nsys-rep report)"
    )
