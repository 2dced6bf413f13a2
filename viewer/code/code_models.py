"""Table models of one kernel's code: source lines of one file, and its SASS instructions.

Both keep only references to the core objects; a row is highlighted when it is painted
(``SpansRole``; source rows with what they continue from the rows above), and a selection
change repaints just the rows whose highlight changed.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from kernelscope.core.view import SASS_COUNT, KernelView, Metrics

from ..widgets.formatting import format_compact, format_number
from ..widgets.roles import BarRole, HighlightRole, KeyRole, SortRole, SpansRole
from .delta_delegate import DeltaRole
from .highlight import Highlighter, Span, continuations

Index = QModelIndex | QPersistentModelIndex
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


def column_metrics(names: Sequence[str]) -> list[str]:
    """The metric columns a code pane has: the profile's metrics, then the SASS count (which
    of them show is the user's choice, ``metric_columns``)."""
    return [*[n for n in names if n != SASS_COUNT], SASS_COUNT]


def _runs(rows: Sequence[int]) -> list[tuple[int, int]]:
    """The first and last row of each run of consecutive numbers in sorted ``rows``."""
    runs: list[tuple[int, int]] = []
    for r in rows:
        if runs and r == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], r)
        else:
            runs.append((r, r))
    return runs


@dataclass(frozen=True)
class DeltaColumn:
    """A column compare mode puts before the code: per row the baseline's value of the chosen
    metric or, with ``statuses``, its change (a diverging bar coloured by how it changed);
    None where the row has no counterpart."""

    title: str
    values: Sequence[float | None]
    statuses: Sequence[str | None] | None = None  # SLOWER / FASTER / WITHIN_NOISE per row
    tip: str = ""

    @property
    def diverging(self) -> bool:
        return self.statuses is not None


class CodeModel(QAbstractTableModel):
    """Rows of code with a leading label column, metric columns (then compare mode's delta
    columns, ``set_delta_columns``) and a code column."""

    def __init__(self, highlighter: Highlighter, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._highlighter = highlighter
        self._texts: list[str] = []
        self._metrics: Sequence[Metrics] = []
        self._metric_names: list[str] = []
        self._max: dict[str, float] = {}
        self._highlight: set[int] = set()  # row numbers
        self._deltas: list[DeltaColumn] = []
        self._delta_max: list[float] = []
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

    def _reset(self, texts: list[str], metrics: Sequence[Metrics], names: list[str]) -> None:
        self.beginResetModel()
        self._texts = texts
        self._metrics = metrics
        self._metric_names = names
        self._max = {n: max((m.get(n, 0.0) for m in metrics), default=0.0) for n in names}
        self._highlight = set()
        self._deltas, self._delta_max = [], []
        self.endResetModel()

    def set_delta_columns(self, columns: Sequence[DeltaColumn]) -> None:
        """Compare mode's columns for the rows shown now (none: leave compare mode); they go
        with the next reset. Inserted and removed as columns, so that the view keeps its
        scroll position and current row."""
        first = 1 + len(self._metric_names)
        if self._deltas:
            self.beginRemoveColumns(QModelIndex(), first, first + len(self._deltas) - 1)
            self._deltas, self._delta_max = [], []
            self.endRemoveColumns()
        if columns:
            self.beginInsertColumns(QModelIndex(), first, first + len(columns) - 1)
            self._deltas = list(columns)
            self._delta_max = [
                max((abs(v) for v in c.values if v is not None), default=0.0) for c in columns
            ]
            self.endInsertColumns()

    @property
    def has_delta_columns(self) -> bool:
        return bool(self._deltas)

    def is_delta_column(self, column: int) -> bool:
        """Whether ``column`` is one of compare mode's diverging (change) columns."""
        k = column - 1 - len(self._metric_names)
        return 0 <= k < len(self._deltas) and self._deltas[k].diverging

    def widest_text(self, column: int) -> str:
        """About the widest text a metric or delta column shows: its largest value (most
        digits), signed in a change column, and never narrower than a short decimal; a
        metric column's numbers are compact (``format_compact``: five characters at most)."""
        k = column - 1 - len(self._metric_names)
        if 0 <= k < len(self._deltas):
            top = self._delta_max[k]
            sign = "+" if self._deltas[k].diverging else ""
            return max(sign + format_number(top), "-00.00", key=len)
        if 0 < column <= len(self._metric_names):
            return max(format_compact(self._max[self._metric_names[column - 1]]), "0.00", key=len)
        return ""

    def longest_text(self) -> int:
        """The characters of the longest row of code (tabs as the code delegate draws them)."""
        return max((len(t.expandtabs(4)) for t in self._texts), default=0)

    def widest_label(self) -> str:
        """The longest row label (line number, SASS offset): the label column's width."""
        count = self.rowCount()
        return max((self._label(r) for r in {0, count - 1}), key=len) if count else ""

    @property
    def metric_names(self) -> list[str]:
        """The metrics with a column, in column order (from column 1)."""
        return list(self._metric_names)

    @property
    def code_column(self) -> int:
        return 1 + len(self._metric_names) + len(self._deltas)

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
        for start, end in _runs(ordered):
            self.dataChanged.emit(self.index(start, 0), self.index(end, last))

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._texts)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self.code_column + 1 + len(self._extra_columns())

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        metric, horizontal = section - 1, orientation == Qt.Orientation.Horizontal
        if horizontal and role == Qt.ItemDataRole.ToolTipRole:
            names = self._metric_names
            return self.describe(names[metric]) or None if 0 <= metric < len(names) else None
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        deltas = [c.title for c in self._deltas]
        titles = ["#", *self._metric_names, *deltas, self.code_title, *self._extra_columns()]
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
        elif col > len(self._metric_names) and col < code:
            return self._delta_data(row, col - 1 - len(self._metric_names), role)
        elif col < code:
            name = self._metric_names[col - 1]
            value = self._metrics[row].get(name)
            if role == Qt.ItemDataRole.DisplayRole:  # narrow: the tooltip has the number
                return format_compact(value)
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

    def _delta_data(self, row: int, k: int, role: int) -> Any:
        column = self._deltas[k]
        value = column.values[row] if row < len(column.values) else None
        if role == Qt.ItemDataRole.DisplayRole:  # zero left blank, as the metric columns do
            text = format_number(value or None)
            return f"+{text}" if column.diverging and value is not None and value > 0 else text
        if role == SortRole:
            return value
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _RIGHT
        if role == Qt.ItemDataRole.ToolTipRole:
            return column.tip or None
        top = self._delta_max[k]
        fraction = (value or 0.0) / top if top > 0 else 0.0
        if role == DeltaRole and column.statuses is not None:
            status = column.statuses[row] if row < len(column.statuses) else None
            return (fraction, status)
        if role == BarRole and not column.diverging:
            return fraction
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
