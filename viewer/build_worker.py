"""Runs a core build in a QThread, reporting progress by signals; Cancel sets an Event."""

from __future__ import annotations

import threading

from PySide6.QtCore import QThread, Signal


class BuildThread(QThread):
    progress = Signal(str, float, str)  # step, fraction (-1 when unknown), message
    succeeded = Signal(str)  # workspace path
    failed = Signal(object)  # the exception

    def __init__(self, request: object) -> None:  # a kernelscope.core.build.BuildRequest
        super().__init__()
        self.request = request
        self.cancel_event = threading.Event()

    def cancel(self) -> None:
        self.cancel_event.set()

    def run(self) -> None:
        from kernelscope.core.build import build_model  # imports TVM: only when building

        try:
            workspace = build_model(
                self.request,  # type: ignore[arg-type]
                progress=self._report,
                cancel=self.cancel_event,
            )
        except Exception as exc:  # any failure, bug or not, must reach the dialog
            self.failed.emit(exc)
        else:
            self.succeeded.emit(str(workspace.path))

    def _report(self, step: str, fraction: float | None, message: str) -> None:
        self.progress.emit(step, -1.0 if fraction is None else fraction, message)
