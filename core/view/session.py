"""The one owner of what a document was opened from: its live ``Profile`` and workspace.

A ``Profile`` reads files on demand (the report, the profile cache) and is not meant for two
threads at once. A ``ViewDocument`` holds values (the kernel list, metric names,
descriptions) that any thread may read; everything that reads files goes through the
``ProfileSession`` the document was opened with: the kernels' views (``kernel``), the reports
saved beside the build (``saved_profiles``) and the named queries of ``features``
(Details, roofline, headroom, export facts, hot lines, a comparison of two documents), which
hand back finished values. The openers (``open_document``...) return the session; its
``document`` is the value a window shows.

Callers get values, never the ``Profile``: no public method returns it or passes it to a
callback. The session reads it for those named queries alone (``_read_profile``, which only this
package's ``features`` calls; tests/view/test_view_confinement.py checks both).

Confinement: once opened, a live profile is touched on one thread alone, the *profile thread*
(``PROFILE_THREAD``), whichever thread asks. A session's reads are handed to it and the caller
waits for the answer (a viewer job, a test, the CLI alike), so that no two threads ever read a
profile, not even one after the other. Every session's reads run there, so a comparison of
two documents (which reads both profiles in one call) is an ordinary call on that thread and
two documents' reads take turns, as the viewer's one document lane had them do. The opening
itself reads the profile on the opener's thread, before the session exists; from then on the
session alone does.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import KernelscopeError
from ..workspace import Workspace

if TYPE_CHECKING:
    from ..ncu import Profile
    from .document import KernelView, ViewDocument

T = TypeVar("T")

PROFILE_THREAD = "kernelscope-profile"  # the name of the thread that reads live profiles


class _ProfileThread:
    """One daemon thread that runs the calls handed to it in turn (a daemon: a read blocked
    on a file or a child process never keeps the program from exiting)."""

    def __init__(self) -> None:
        self._calls: queue.SimpleQueue[tuple[Callable[[], Any], Future[Any]]] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._starting = threading.Lock()

    def on_it(self) -> bool:
        """The caller is the profile thread."""
        return self._thread is not None and threading.current_thread() is self._thread

    def run(self, fn: Callable[[], T]) -> T:
        """``fn()`` on the profile thread, waited for: its value, or what it raised. Called
        on the profile thread (a feature that asks its session again), it runs at once."""
        if self.on_it():
            return fn()
        future: Future[T] = Future()
        self._calls.put((fn, future))
        with self._starting:
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name=PROFILE_THREAD, daemon=True)
                self._thread.start()
        return future.result()

    def _loop(self) -> None:
        while True:
            fn, future = self._calls.get()
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn())
            except BaseException as exc:  # the caller's to handle, bug or not
                future.set_exception(exc)


_THREAD = _ProfileThread()


def on_profile_thread(fn: Callable[[], T]) -> T:
    """``fn()`` on the profile thread, waited for: where the later reads of a comparison of
    two sessions' profiles run (``features.compare_documents``)."""
    return _THREAD.run(fn)


class ProfileSession:
    """A document's live data: the profile (None for a build alone) and the workspace it is
    laid over (None for a report alone); its kernels' views, made on first use and kept.
    Every read of the profile runs on the profile thread. ``document``: the values shown."""

    def __init__(
        self,
        document: ViewDocument,
        load_kernel: Callable[[str], KernelView],
        *,
        profile: Profile | None = None,
        workspace: Workspace | None = None,
    ) -> None:
        self.document = document
        self.workspace = workspace  # the build the kernels come from, if any
        self._profile = profile
        self._load_kernel = load_kernel
        self._kernels: dict[str, KernelView] = {}  # touched on the profile thread alone

    @property
    def has_profile(self) -> bool:
        return self._profile is not None

    def kernel(self, name: str) -> KernelView:
        """I/O on the first call for a kernel (instructions, SASS, sources); kept after."""
        return _THREAD.run(lambda: self._kernel(name))

    def _kernel(self, name: str) -> KernelView:
        view = self._kernels.get(name)
        if view is None:
            view = self._kernels[name] = self._load_kernel(name)
        return view

    def _read_profile(self, what: str, fn: Callable[[Profile], T]) -> T:
        """I/O: ``fn`` of the profile, on the profile thread, for ``features``' named queries
        alone (``fn`` returns values and keeps nothing of the profile); a
        ``KernelscopeError`` naming ``what`` when there is no profile."""
        profile = self._profile
        if profile is None:
            raise KernelscopeError(
                f"{self.document.title} has no Nsight Compute profile: {what} comes from one",
                hint="open a report, or profile the workspace (Build & Profile, or "
                "kernelscope profile WORKSPACE) and open it again",
            )
        return _THREAD.run(lambda: fn(profile))

    def saved_profiles(self) -> list[Path]:
        """I/O (one folder listing): the other reports attached to the document's build,
        oldest first; none for a report alone."""
        if self.workspace is None:
            return []
        return [p for p in self.workspace.profiles() if p != self.document.path]

    def descriptions(self) -> dict[str, str]:
        """I/O: NVIDIA's description of each metric read so far (none without a report)."""
        if self._profile is None:
            return {}
        return self._read_profile("metric descriptions", lambda p: dict(p.metric_descriptions()))
