"""Table models of one kernel's code: source lines of one file, and its SASS instructions.

Both keep only references to the core objects; a row is highlighted when it is painted
(``SpansRole``; source rows with what they continue from the rows above), and a selection
change repaints just the rows whose highlight changed.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from kernelscope.core.view import SASS_COUNT, KernelView, Metrics

from ..widgets.formatting import format_number
from ..widgets.roles import BarRole, HighlightRole, KeyRole, SortRole, SpansRole
from .highlight import Highlighter, Span, continuations

Index = QModelIndex | QPersistentModelIndex
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
SHOWN_METRICS = 2  # profile metrics shown as columns; the metric box offers all of them


def column_metrics(names: list[str]) -> list[str]:
    """The metric columns of a code pane: the first profile metrics and the SASS count."""
    return [*[n for n in names if n != SASS_COUNT][:SHOWN_METRICS], SASS_COUNT]


class CodeModel(QAbstractTableModel):
    """Rows of code with a leading label column, metric columns and a code column."""

    def __init__(self, highlighter: Highlighter, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._highlighter = highlighter
        self._texts: list[str] = []
        self._metrics: list[Metrics] = []
        self._metric_names: list[str] = []
        self._max: dict[str, float] = {}
        self._highlight: set[int] = set()  # row numbers
        # what a metric means (its header's tooltip); the pane gives the document's
        self.describe: Callable[[str], str] = lambda name: ""

    # subclasses fill these
    code_title = "Code"

    def _label(self, row: int) -> str:
        raise NotImplementedError

    def _extra_columns(self) -> list[str]:
        return []

    def _extra(self, row: int, column: int) -> str:
        return ""

    def _spans(self, row: int) -> list[Span]:
        return self._highlighter.line(self._texts[row])

    def _reset(self, texts: list[str], metrics: list[Metrics], names: list[str]) -> None:
        self.beginResetModel()
        self._texts = texts
        self._metrics = metrics
        self._metric_names = names
        self._max = {n: max((m.get(n, 0.0) for m in metrics), default=0.0) for n in names}
        self._highlight = set()
        self.endResetModel()

    @property
    def code_column(self) -> int:
        return 1 + len(self._metric_names)

    def metric_values(self, name: str) -> list[float]:
        return [m.get(name, 0.0) for m in self._metrics]

    def text(self, row: int) -> str:
        return self._texts[row]

    def set_highlight(self, rows: set[int]) -> None:
        changed = rows ^ self._highlight
        self._highlight = set(rows)
        if not changed:
            return
        last = self.columnCount() - 1
        # one signal per contiguous run keeps repaints to the rows that changed
        ordered = sorted(r for r in changed if 0 <= r < len(self._texts))
        start = prev = None
        for r in [*ordered, None]:
            if start is not None and (r is None or r != prev + 1):
                self.dataChanged.emit(self.index(start, 0), self.index(prev, last))
                start = None
            if r is not None and start is None:
                start = r
            prev = r

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._texts)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 2 + len(self._metric_names) + len(self._extra_columns())

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        metric, horizontal = section - 1, orientation == Qt.Orientation.Horizontal
        if horizontal and role == Qt.ItemDataRole.ToolTipRole:
            names = self._metric_names
            return self.describe(names[metric]) or None if 0 <= metric < len(names) else None
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        titles = ["#", *self._metric_names, self.code_title, *self._extra_columns()]
        return titles[section] if 0 <= section < len(titles) else None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row, col = index.row(), index.column()
        if role == HighlightRole:
            return row in self._highlight
        if role == KeyRole:
            return row
        code = self.code_column
        if col == 0:
            if role == Qt.ItemDataRole.DisplayRole:
                return self._label(row)
            if role == Qt.ItemDataRole.TextAlignmentRole:
                return _RIGHT
            if role == SortRole:
                return row
        elif col < code:
            name = self._metric_names[col - 1]
            value = self._metrics[row].get(name)
            if role == Qt.ItemDataRole.DisplayRole:
                return format_number(value)
            if role in (SortRole, Qt.ItemDataRole.ToolTipRole):
                return value if role == SortRole else f"{name}: {format_number(value)}"
            if role == BarRole:
                top = self._max[name]
                return (value or 0.0) / top if top > 0 else 0.0
            if role == Qt.ItemDataRole.TextAlignmentRole:
                return _RIGHT
        elif col == code:
            if role == Qt.ItemDataRole.DisplayRole:
                return self._texts[row]
            if role == SpansRole:
                return self._spans(row)
        elif role == Qt.ItemDataRole.DisplayRole:
            return self._extra(row, col - code - 1)
        return None


class SourceModel(CodeModel):
    """The lines of one file of a kernel; row r is line r + 1."""

    code_title = "Source"

    def __init__(self, cuda: Highlighter, parent: QObject | None = None) -> None:
        super().__init__(cuda, parent)
        self.kernel: KernelView | None = None
        self.file = ""
        self._openings: list[str] = []  # per row: the comment, string... it continues

    def set_file(self, kernel: KernelView | None, file: str, metric_names: list[str]) -> None:
        self.kernel, self.file = kernel, file
        source = kernel.files.get(file) if kernel else None
        texts = source.lines if source else []
        per_line = kernel.file_metrics(file) if kernel else {}
        metrics = [per_line.get(n + 1, {}) for n in range(len(texts))]
        self._openings = continuations(texts)
        self._reset(list(texts), metrics, metric_names)

    def _spans(self, row: int) -> list[Span]:
        return self._highlighter.line(self._texts[row], self._openings[row])

    def _label(self, row: int) -> str:
        return str(row + 1)


class SassModel(CodeModel):
    """The instructions of one kernel, with their offset and source line."""

    code_title = "SASS"

    def __init__(self, sass: Highlighter, parent: QObject | None = None) -> None:
        super().__init__(sass, parent)
        self.kernel: KernelView | None = None

    def set_kernel(self, kernel: KernelView | None, metric_names: list[str]) -> None:
        self.kernel = kernel
        insns = kernel.instructions if kernel else []
        metrics = kernel.instruction_metrics if kernel else []
        self._reset([i.text for i in insns], metrics, metric_names)

    def _label(self, row: int) -> str:
        assert self.kernel is not None
        return f"{self.kernel.instructions[row].offset:04x}"

    def _extra_columns(self) -> list[str]:
        return ["Line"]

    def _extra(self, row: int, column: int) -> str:
        assert self.kernel is not None
        insn = self.kernel.instructions[row]
        if insn.file is None:
            return ""
        where = f"{os.path.basename(insn.file)}:{insn.line}"
        if insn.inlined_at:
            f, n = insn.inlined_at[-1]
            where += f" ← {os.path.basename(f)}:{n}"
        return where
