"""Opens documents off the GUI thread; the newest request wins.

Every ``open()`` gets a generation number and its own QThread running
``core.documents.open_document``. A result arrives through a queued signal and is dropped
when a newer ``open()`` (or ``cancel()``) came after it, as KDAB Hotspot drops stale jobs, so
what is on screen stays until the document that is wanted is ready. Cancelling also stops
the child process reading an uncached report (``read_in_child``); a thread that cannot be
stopped finishes in the background and its result is thrown away.
"""

from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import QObject, QThread, Signal

from kernelscope.core.view import open_document


class OpenThread(QThread):
    opened = Signal(int, object)  # generation, ViewDocument
    failed = Signal(int, object)  # generation, exception

    def __init__(self, generation: int, paths: list[Path]) -> None:
        super().__init__()
        self.generation = generation
        self.paths = paths
        self.cancel_event = threading.Event()

    def run(self) -> None:
        try:
            document = open_document(self.paths, read_in_child=True, cancel=self.cancel_event)
        except Exception as exc:  # any failure, bug or not, must reach the error dialog
            self.failed.emit(self.generation, exc)
        else:
            self.opened.emit(self.generation, document)


class DocumentLoader(QObject):
    opened = Signal(object, str)  # ViewDocument, path(s) (joined by ", "): the newest only
    failed = Signal(object, str)  # exception, path(s)
    busy_changed = Signal(bool)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._generation = 0
        self._wanted: list[Path] | None = None
        self._threads: list[OpenThread] = []

    @property
    def busy(self) -> bool:
        return self._wanted is not None

    def open(self, path: str | Path | list[str] | list[Path]) -> None:
        """Open one path, or several CSV exports of one report together."""
        self._stop_running()
        self._generation += 1
        self._wanted = [Path(p) for p in path] if isinstance(path, list) else [Path(path)]
        thread = OpenThread(self._generation, self._wanted)
        thread.opened.connect(self._on_opened)
        thread.failed.connect(self._on_failed)
        thread.finished.connect(lambda t=thread: self._forget(t))
        self._threads.append(thread)
        thread.start()
        self.busy_changed.emit(True)

    def cancel(self) -> None:
        """Drop the pending request; the document on screen stays."""
        if self._wanted is None:
            return
        self._stop_running()
        self._generation += 1
        self._wanted = None
        self.busy_changed.emit(False)

    def wait(self, timeout_ms: int = 30000) -> bool:
        """Block until every thread ended (window closing, tests); False on timeout."""
        ok = all(t.wait(timeout_ms) for t in list(self._threads))
        for thread in list(self._threads):
            self._forget(thread)
        return ok

    def shutdown(self) -> None:
        self.cancel()
        self.wait()

    def _stop_running(self) -> None:
        for thread in self._threads:
            thread.cancel_event.set()

    def _forget(self, thread: OpenThread) -> None:
        if thread in self._threads and thread.isFinished():
            self._threads.remove(thread)
            thread.deleteLater()

    def _on_opened(self, generation: int, document: object) -> None:
        if generation != self._generation or self._wanted is None:
            return  # stale: a newer request is on its way, or it was cancelled
        paths, self._wanted = self._wanted, None
        self.busy_changed.emit(False)
        self.opened.emit(document, ", ".join(str(p) for p in paths))

    def _on_failed(self, generation: int, error: BaseException) -> None:
        if generation != self._generation or self._wanted is None:
            return
        paths, self._wanted = self._wanted, None
        self.busy_changed.emit(False)
        self.failed.emit(error, ", ".join(str(p) for p in paths))
