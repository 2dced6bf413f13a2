"""The selection's Qt side: kernels it asks for are loaded on the document lane.

``core.view.Selection`` holds the state and its correlation; the panes subscribe to its
signals directly. All this adapter adds is the worker: a kernel's first load may read the
report, so it runs off the GUI thread, and the newest request wins (a kernel clicked past
while loading is dropped from the queue).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from kernelscope.core.view import KernelView, Selection, ViewDocument

from .workers.jobs import Latest, Workers


class KernelLoader(QObject):
    failed = Signal(str, object)  # title, exception: the window shows its error dialog

    def __init__(self, selection: Selection, workers: Workers, parent: QObject) -> None:
        super().__init__(parent)
        self.selection = selection
        self._latest = Latest(workers, "document", "loading a kernel", self)
        self._latest.result.connect(self._on_loaded)
        self._latest.failed.connect(self._on_failed)
        selection.kernel_requested.connect(self._load)

    def _load(self, document: ViewDocument, name: str) -> None:
        session = self.selection.open_session()  # the document's: asked for as it is shown
        self._latest.submit(lambda context: session.kernel(name), (document, name))

    def _on_loaded(self, view: KernelView, request: tuple[ViewDocument, str]) -> None:
        self.selection.kernel_loaded(request[0], view)

    def _on_failed(self, error: BaseException, request: tuple[ViewDocument, str]) -> None:
        document, name = request
        self.selection.kernel_failed(document, name)
        self.failed.emit(f"Cannot show {name}", error)
