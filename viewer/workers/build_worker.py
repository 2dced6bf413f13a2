"""Runs a core build, then optionally a profile, in a QThread; Cancel sets an Event.

Signals: ``built`` when the workspace is on disk (the window shows it at once), then
``profiled`` when an Nsight Compute report has been added to it, or ``failed``.
``profile_skipped`` says why profiling could not run on this machine.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from PySide6.QtCore import QThread, Signal


class BuildThread(QThread):
    progress = Signal(str, float, str)  # step, fraction (-1 when unknown), message
    built = Signal(str)  # workspace path
    profiled = Signal(str)  # report path
    profile_skipped = Signal(str)  # why this machine cannot profile
    failed = Signal(object)  # the exception

    def __init__(
        self,
        request: object,  # a kernelscope.core.build.pipeline.BuildRequest
        profile_request: Callable[[str], object] | None = None,  # workspace -> ProfileRequest
    ) -> None:
        super().__init__()
        self.request = request
        self.profile_request = profile_request
        self.cancel_event = threading.Event()

    def cancel(self) -> None:
        self.cancel_event.set()

    def run(self) -> None:
        from kernelscope.core.build import build_in_child  # TVM runs in a child process

        try:
            workspace = build_in_child(
                self.request,  # type: ignore[arg-type]
                progress=self._report,
                cancel=self.cancel_event,
            )
        except Exception as exc:  # any failure, bug or not, must reach the dialog
            self.failed.emit(exc)
            return
        self.built.emit(str(workspace.path))
        if self.profile_request is not None:
            self._profile(str(workspace.path))

    def _profile(self, workspace: str) -> None:
        from kernelscope.core.profiling import profile_workspace, profiling_problem

        request = self.profile_request(workspace)  # type: ignore[misc]
        problem = None if getattr(request, "host", None) else profiling_problem()
        if problem:
            self.profile_skipped.emit(problem)
            return
        try:
            result = profile_workspace(
                request,  # type: ignore[arg-type]
                progress=self._report,
                cancel=self.cancel_event,
            )
        except Exception as exc:
            self.failed.emit(exc)
        else:
            self.profiled.emit(str(result.report))

    def _report(self, step: str, fraction: float | None, message: str) -> None:
        self.progress.emit(step, -1.0 if fraction is None else fraction, message)
