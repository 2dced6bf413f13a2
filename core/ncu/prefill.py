"""Read a report for the first time in a short-lived child process, filling ``ncu_cache``.

NVIDIA's report reader (``ncu_report``) costs hundreds of MB once loaded, a process never
gives that memory back, and it is C++ that can crash. A long-lived process (the viewer)
calls ``fill_cache_in_child`` before ``Profile.open``: a child interpreter reads everything
the viewer will ask for (the kernel list, every launch's instruction table, SASS and
embedded sources) into the content-keyed cache and exits; the parent then loads small
pickles and never imports the reader. A report already cached costs a stat and one small
file read. When the child fails, its error (or its crash, with its stderr) is raised in the
parent: the parent never falls back to loading the reader itself.

Run as ``python -m kernelscope.core.ncu.prefill REPORT`` by ``fill_cache_in_child``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from ..process import ChildChannel, child_main, run_child
from ..tasks import Cancel, ProgressFn, no_progress
from .cache import ProfileCache, content_key

COMPLETE = "complete"  # cache part written last: everything the viewer reads is there


def is_cached(report: str | os.PathLike[str]) -> bool:
    try:
        return ProfileCache(content_key([Path(report)])).load(COMPLETE) is not None
    except OSError:
        return False


def fill_cache(report: str | os.PathLike[str], progress: ProgressFn = no_progress) -> None:
    """Read every part of ``report`` the viewer uses into the cache (what the child does)."""
    from ..view import document_from_profile
    from .profile import Profile

    path = Path(report)
    profile = Profile.open(path)
    document = document_from_profile(profile)  # kernel list and per-kernel totals
    count = len(document.summaries)
    for i, summary in enumerate(document.summaries):
        progress("read", i / max(count, 1), f"reading {summary.name}")
        document.kernel(summary.name)  # instructions, SASS and embedded sources
    for launch in profile.launches:
        progress("read", None, f"reading the Details of launch {launch.id}")
        profile.launch_metrics(launch.id)  # the Details view and the roofline
    ProfileCache(content_key([path])).store(COMPLETE, True)


def fill_cache_in_child(
    report: str | os.PathLike[str],
    cancel: Cancel | None = None,
    timeout: float | None = None,
    progress: ProgressFn | None = None,
) -> None:
    """Fill the cache for a ``.ncu-rep`` from a child process.

    Returns at once when the cache is already complete. ``cancel`` kills the child (raising
    ``Cancelled``), as does a ``timeout`` in seconds (raising ``KernelscopeError``). The
    child's ``KernelscopeError`` (a damaged report...) is raised here as it was raised
    there; a crash is a ``KernelscopeError`` with the child's stderr as its details.
    """
    if is_cached(report):
        return
    run_child(
        "kernelscope.core.ncu.prefill",
        [str(report)],
        f"reading {Path(report).name}",
        progress=progress,
        cancel=cancel,
        timeout=timeout,
    )


def _child(channel: ChildChannel, report: str) -> dict[str, Any]:
    with channel.step("ncu_report"):
        fill_cache(report, channel.progress)
    return {}


if __name__ == "__main__":
    child_main(lambda channel: _child(channel, sys.argv[1]))
