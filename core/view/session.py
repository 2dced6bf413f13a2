"""The one owner of what a document was opened from: its live ``Profile`` and workspace.

A ``Profile`` reads files on demand (the report, the profile cache) and is not meant for two
threads at once. A ``ViewDocument`` holds values (the kernel list, metric names,
descriptions) that any thread may read; everything that reads files goes through the
``ProfileSession`` the document was opened with, one thread at a time (in the viewer, its
``document`` lane): the kernels' views (``kernel``), the reports saved beside the build
(``saved_profiles``) and the feature functions of ``features`` (Details, roofline, headroom,
export facts, hot lines, a comparison of two documents), which hand back finished values.
The openers (``open_document``...) return the session; its ``document`` is the value a
window shows.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from ..errors import KernelscopeError
from ..workspace import Workspace

if TYPE_CHECKING:
    from ..ncu import Profile
    from .document import KernelView, ViewDocument

T = TypeVar("T")


class ProfileSession:
    """A document's live data: the profile (None for a build alone) and the workspace it is
    laid over (None for a report alone); its kernels' views, made on first use and kept.
    Every read of the profile holds the session's lock. ``document``: the values shown."""

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
        self._title = document.title
        self._load_kernel = load_kernel
        self._kernels: dict[str, KernelView] = {}
        self._lock = threading.RLock()

    @property
    def has_profile(self) -> bool:
        return self._profile is not None

    def kernel(self, name: str) -> KernelView:
        """I/O on the first call for a kernel (instructions, SASS, sources); kept after."""
        with self._lock:
            view = self._kernels.get(name)
            if view is None:
                view = self._kernels[name] = self._load_kernel(name)
            return view

    def read(self, what: str, fn: Callable[[Profile], T]) -> T:
        """I/O: ``fn`` of the profile, with the session held (``fn`` keeps nothing of the
        profile); a ``KernelscopeError`` naming ``what`` when there is no profile."""
        with self._lock:
            if self._profile is None:
                raise KernelscopeError(
                    f"{self._title} has no Nsight Compute profile: {what} comes from one",
                    hint="open a report, or profile the workspace (Build & Profile, or "
                    "kernelscope profile WORKSPACE) and open it again",
                )
            return fn(self._profile)

    def saved_profiles(self) -> list[Path]:
        """I/O (one folder listing): the other reports attached to the document's build,
        oldest first; none for a report alone."""
        if self.workspace is None:
            return []
        return [p for p in self.workspace.profiles() if p != self.document.path]

    def descriptions(self) -> dict[str, str]:
        """I/O: NVIDIA's description of each metric read so far (none without a report)."""
        with self._lock:
            return dict(self._profile.metric_descriptions()) if self._profile else {}

    def both(self, other: ProfileSession) -> _Both:
        """Hold this session and ``other`` together (in one order whoever asks, so that two
        threads holding them never wait on each other)."""
        return _Both(sorted((self, other), key=id))


class _Both:
    def __init__(self, sessions: list[ProfileSession]) -> None:
        self._sessions = sessions

    def __enter__(self) -> None:
        for s in self._sessions:
            s._lock.acquire()

    def __exit__(self, *exc: object) -> None:
        for s in reversed(self._sessions):
            s._lock.release()
