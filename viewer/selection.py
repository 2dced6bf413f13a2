"""The one selection every pane follows: document, kernel, file, line, instruction, metric.

Panes never talk to each other; they change this object and redraw when it signals
(the glue/napari pattern). Correlation happens here: choosing a source line selects the
instructions it produced, choosing an instruction selects its source line.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from kernelscope.core.view import SASS_COUNT, KernelView, ViewDocument


class SelectionState(QObject):
    document_changed = Signal()
    kernel_changed = Signal()
    file_changed = Signal()
    metric_changed = Signal()
    # line / instruction / correlated sets changed (one signal: they always move together)
    selection_changed = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document: ViewDocument | None = None
        self.kernel: KernelView | None = None
        self.file: str = ""
        self.metric: str = SASS_COUNT
        self.line: int = 0  # 1-based line in ``file``; 0 when none
        self.instruction: int = -1  # index into kernel.instructions; -1 when none
        self.lines: set[int] = set()  # lines of ``file`` to highlight
        self.instructions: set[int] = set()  # instructions to highlight

    def set_document(self, document: ViewDocument | None) -> None:
        self.document = document
        self.kernel = None
        self.file = ""
        self._clear()
        if document is not None and (
            self.metric == SASS_COUNT or self.metric not in document.line_metric_names
        ):
            self.metric = document.line_metric_names[0]  # the profile's first, if any
        self.document_changed.emit()
        self.kernel_changed.emit()
        self.file_changed.emit()
        self.selection_changed.emit()

    def set_kernel(self, name: str) -> None:
        if self.document is None or (self.kernel is not None and self.kernel.name == name):
            return
        self.kernel = self.document.kernel(name)
        self.file = self.kernel.main_file
        self._clear()
        self.kernel_changed.emit()
        self.file_changed.emit()
        self.selection_changed.emit()

    def set_file(self, file: str) -> None:
        if self.kernel is None or file == self.file or file not in self.kernel.files:
            return
        self.file = file
        self._clear()
        self.file_changed.emit()
        self.selection_changed.emit()

    def set_metric(self, metric: str) -> None:
        if metric != self.metric:
            self.metric = metric
            self.metric_changed.emit()

    def select_line(self, line: int) -> None:
        """A source line was chosen: highlight it and every instruction it produced."""
        if self.kernel is None:
            return
        self.line = line
        self.lines = {line}
        self.instructions = set(self.kernel.instructions_at(self.file, line))
        self.instruction = min(self.instructions) if self.instructions else -1
        self.selection_changed.emit()

    def select_instruction(self, index: int) -> None:
        """An instruction was chosen: show its source line (switching file if needed)."""
        kernel = self.kernel
        if kernel is None or not 0 <= index < len(kernel.instructions):
            return
        line = kernel.line_of(index, self.file)
        if line is None:
            location = kernel.location_of(index)
            if location is not None and location[0] in kernel.files:
                self.file = location[0]
                line = location[1]
                self.file_changed.emit()
        self.instruction = index
        self.line = line or 0
        self.lines = {line} if line else set()
        self.instructions = set(kernel.instructions_at(self.file, line)) if line else set()
        self.instructions.add(index)
        self.selection_changed.emit()

    def _clear(self) -> None:
        self.line = 0
        self.instruction = -1
        self.lines = set()
        self.instructions = set()
