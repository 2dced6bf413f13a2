"""Read a report for the first time in a short-lived child process, filling ``ncu_cache``.

NVIDIA's report reader (``ncu_report``) costs hundreds of MB once loaded, a process never
gives that memory back, and it is C++ that can crash. A long-lived process (the viewer) never
loads it: a child interpreter reads everything the viewer will ask for into the
content-keyed cache and exits, and the parent loads small pickles. When the child fails, its
error (or its crash, with its stderr) is raised in the parent: the parent never falls back to
loading the reader itself.

The child reads in the order a window needs it, and says when each part is there:

1. the hottest kernel's view (its line data, SASS and source files: what a window shows
   first), then every launch's per-instruction table (line data: the hot lines);
2. kernel by kernel, hottest first, what its view shows;
3. every launch's Details metrics; then ``COMPLETE``.

``ChildReader`` is the parent's side: it runs the child (``run``, blocking, in a worker
thread) and lets other threads wait for a part (``wait_part`` for a cache part, the
``await_child`` of ``Profile.open``; ``wait_kernel`` before a kernel's view is read), so that
the first kernel shows while the rest is read.

Run as ``python -m kernelscope.core.view.prefill REPORT [WORKSPACE]`` by ``ChildReader``.
"""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path
from typing import Any

from ..errors import Cancelled, KernelscopeError
from ..ncu.cache import ProfileCache, content_key
from ..process import ChildChannel, child_main, run_child
from ..tasks import Cancel, ProgressFn, no_progress

COMPLETE = "complete"  # cache part written last: everything the viewer reads is there
# What COMPLETE holds: which views the cache serves. A report read alone serves every view (a
# view over a workspace takes SASS and line tables from the workspace, the rest from the
# report); a report read over a workspace lacks the report's own SASS, so it serves only
# views over a workspace.
ALL_VIEWS = "all views"
WORKSPACE_VIEWS = "views over a workspace"
# Progress steps the child sends besides "read": the line data of every launch is there; a
# kernel (the message) has all its view needs.
TABLES_READY = "tables-ready"
KERNEL_READY = "kernel-ready"
# Launches read into the cache between two ``Profile.forget``: the child's memory then grows
# by ~0.05 MB a launch, not ~0.4 MB (a 500-launch ``--set full`` report: 330 MB, not 470).
_BATCH = 64


def is_cached(report: str | os.PathLike[str], *, over_workspace: bool = False) -> bool:
    """Whether the cache has everything a view of ``report`` reads: alone, or over the
    workspace it was built in (``over_workspace``)."""
    try:
        done = ProfileCache(content_key([Path(report)])).load(COMPLETE)
    except OSError:
        return False
    return done == ALL_VIEWS or (over_workspace and done is not None)


def fill_cache(
    report: str | os.PathLike[str],
    progress: ProgressFn = no_progress,
    workspace: str | os.PathLike[str] | None = None,
) -> None:
    """Read every part of ``report`` the viewer uses into the cache (what the child does);
    with the ``workspace`` the report is shown over, what that view reads."""
    # imported here: the child loads NVIDIA's reader before these load numpy (``__main__``)
    from ..ncu import Profile
    from ..workspace import Workspace
    from .from_profile import kernel_from_profile

    path = Path(report)
    ws = Workspace.open(workspace) if workspace is not None else None
    profile = Profile.open(path, workspace=ws)
    # the hottest kernel first: the one a window selects when the report opens
    kernels = sorted(profile.kernels(), key=lambda k: -(k.duration_ns or 0.0))
    count = len(kernels)
    ids = [x.id for x in profile.launches]
    for i, kernel in enumerate(kernels):
        progress("read", i / max(count, 1), f"reading {kernel.name}")
        kernel_from_profile(profile, kernel.name, ws)  # its line data, SASS and sources
        progress(KERNEL_READY, None, kernel.name)
        profile.forget()  # what is stored is not kept: memory stays flat with launches
        if i == 0:
            for k in range(0, len(ids), _BATCH):  # every launch's line data
                profile.prefetch(ids[k : k + _BATCH])
                profile.forget()
            progress(TABLES_READY, None, "line data read")
    for k, launch_id in enumerate(ids):
        progress("read", None, f"reading the Details of launch {launch_id}")
        profile.launch_metrics(launch_id)  # the Details view and the roofline
        if k % _BATCH == _BATCH - 1:
            profile.forget()
    cache = ProfileCache(content_key([path]))
    if cache.load(COMPLETE) != ALL_VIEWS:  # a read over a workspace narrows nothing
        cache.store(COMPLETE, ALL_VIEWS if ws is None else WORKSPACE_VIEWS)


def fill_cache_in_child(
    report: str | os.PathLike[str],
    cancel: Cancel | None = None,
    timeout: float | None = None,
    progress: ProgressFn | None = None,
    workspace: str | os.PathLike[str] | None = None,
) -> None:
    """Fill the cache for a ``.ncu-rep`` from a child process (all of it, then return).

    Returns at once when the cache is already complete. ``cancel`` kills the child (raising
    ``Cancelled``), as does a ``timeout`` in seconds (raising ``KernelscopeError``). The
    child's ``KernelscopeError`` (a damaged report...) is raised here as it was raised
    there; a crash is a ``KernelscopeError`` with the child's stderr as its details.
    """
    if is_cached(report, over_workspace=workspace is not None):
        return
    reader = ChildReader(
        report, workspace=workspace, cancel=cancel, timeout=timeout, progress=progress
    )
    reader.run()


class ChildReader:
    """The parent's side of one child that reads a report into the cache.

    ``run()`` blocks until the child has exited (call it in a worker thread); meanwhile
    ``wait_part(part)`` and ``wait_kernel(name)`` block other threads until what they need is
    in the cache, the child has finished, failed, or ``close()`` was called (they then
    return, or raise the child's error, ``Cancelled`` after close)."""

    def __init__(
        self,
        report: str | os.PathLike[str],
        *,
        workspace: str | os.PathLike[str] | None = None,
        cancel: Cancel | None = None,
        timeout: float | None = None,
        progress: ProgressFn | None = None,
    ) -> None:
        self.report = Path(report)
        self.workspace = Path(workspace) if workspace is not None else None
        self._cancel = cancel
        self._timeout = timeout
        self._progress = progress
        self._changed = threading.Condition()
        self._tables = False
        self._kernels: set[str] = set()
        self._done = False
        self._error: BaseException | None = None

    def run(self) -> None:
        args = [str(self.report)] + ([str(self.workspace)] if self.workspace else [])
        try:
            run_child(
                "kernelscope.core.view.prefill",
                args,
                f"reading {self.report.name}",
                progress=self._on_progress,
                cancel=self._cancel,
                timeout=self._timeout,
            )
        except BaseException as exc:
            self._finish(exc)
            raise
        self._finish(None)

    def close(self) -> None:
        """Stop waiting (the window opened something else): waiters raise ``Cancelled``."""
        self._finish(Cancelled(f"reading {self.report.name}"))

    def _finish(self, error: BaseException | None) -> None:
        with self._changed:
            if not self._done:
                self._done, self._error = True, error
            self._changed.notify_all()

    def _on_progress(self, step: str, fraction: float | None, message: str) -> None:
        with self._changed:
            if step == TABLES_READY:
                self._tables = True
            elif step == KERNEL_READY:
                self._kernels.add(message)
            self._changed.notify_all()
        if self._progress is not None and step not in (TABLES_READY, KERNEL_READY):
            self._progress(step, fraction, message)

    def _wait(self, ready: Any) -> None:
        with self._changed:
            self._changed.wait_for(lambda: ready() or self._done)
            if not ready() and self._error is not None:
                if isinstance(self._error, KernelscopeError | Cancelled):
                    raise self._error
                raise KernelscopeError(f"reading {self.report.name} failed: {self._error}")

    def wait_part(self, part: str) -> None:
        """Until the cache part is there: a launch's table once every table is, anything
        else when the child is done."""
        if part.startswith("launch-"):
            self._wait(lambda: self._tables)
        else:
            self._wait(lambda: False)

    def wait_kernel(self, name: str) -> None:
        """Until a kernel's view can be read from the cache."""
        self._wait(lambda: name in self._kernels)


def _child(channel: ChildChannel, report: str, workspace: str | None) -> dict[str, Any]:
    with channel.step("ncu_report"):
        fill_cache(report, channel.progress, workspace)
    return {}


if __name__ == "__main__":
    from ..ncu import load_reader_first

    load_reader_first()  # before numpy: see there
    child_main(lambda channel: _child(channel, sys.argv[1], sys.argv[2] if sys.argv[2:] else None))
