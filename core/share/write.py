"""Share a document as one web page: choose the kernels, collect, write (what ``kernelscope
share`` and the window's File > Share as Web Page… both run)."""

from __future__ import annotations

import importlib.metadata
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..tasks import Cancel, ProgressFn, check_cancel, no_progress
from ..view import ProfileSession
from .collect import choose_kernels, collect_page
from .page import write_page


@dataclass(frozen=True)
class SharedPage:
    path: Path
    size: int  # bytes
    kernels: list[str]  # the kernels whose source and SASS it holds


def share_page(
    session: ProfileSession,
    out: str | os.PathLike[str],
    *,
    baseline: ProfileSession | None = None,
    kernels: Sequence[str] | None = None,
    pattern: str | None = None,
    top: int | None = None,
    keep_paths: bool = False,
    progress: ProgressFn = no_progress,
    cancel: Cancel | None = None,
) -> SharedPage:
    """Write ``session``'s document as a page to ``out``: ``kernels`` (the window's selection),
    else those ``pattern`` matches, else the ``top`` slowest (10 by default), compared with
    ``baseline`` when given. I/O (reads the profile, writes the file): call it off the GUI
    thread."""
    summaries = session.document.summaries
    known = {s.name for s in summaries}
    chosen = [k for k in kernels or () if k in known] or choose_kernels(summaries, pattern, top)
    page = collect_page(
        session,
        baseline=baseline,
        kernels=chosen,
        keep_paths=keep_paths,
        progress=progress,
        cancel=cancel,
    )
    check_cancel(cancel, "sharing")
    progress("write", 0.95, f"writing {Path(out).name}")
    path = write_page(page, out, generator=f"kernelscope {_version()}")
    progress("write", 1.0, f"wrote {path.name}")
    return SharedPage(path, path.stat().st_size, page.kernels)


def _version() -> str:
    try:
        return importlib.metadata.version("kernelscope")
    except importlib.metadata.PackageNotFoundError:
        return "(not installed)"
