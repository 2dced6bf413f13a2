"""The side-by-side view of a kernel's two sources in compare mode: the baseline's file on the
left, the new one on the right, one row per aligned pair (``KernelComparison.rows``), each side
with its line number and the chosen metric, and the change between them.

Rows are tinted by kind: changed lines amber, lines only in the baseline red on the left,
lines only in the new build green on the right. Choosing a row with a new line selects that
line, so the SASS pane and the hot lines follow as they do for the source pane.
"""

from __future__ import annotations

import os
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QStyleOptionViewItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from kernelscope.core.compare import BASE_ONLY, CHANGED, NEW_ONLY, KernelComparison, LineRow
from kernelscope.core.view import Selection

from ..code.code_pane import CodeTable
from ..code.delegates import BarDelegate, CodeDelegate, PlainDelegate
from ..code.delta_delegate import DeltaDelegate, DeltaRole
from ..code.highlight import Highlighter, Span, continuations
from ..widgets.elided_label import ElidedLabel
from ..widgets.formatting import format_number
from ..widgets.roles import BarRole, HighlightRole, KeyRole, SortRole, SpansRole, item_data

Index = QModelIndex | QPersistentModelIndex
TintRole = Qt.ItemDataRole.UserRole + 21  # QColor behind a cell: what kind of row it is
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
BASE_LINE, BASE_VALUE, BASE_CODE, NEW_LINE, NEW_VALUE, DELTA, NEW_CODE = range(7)
_TINTS = {
    CHANGED: QColor(230, 170, 40, 50),
    BASE_ONLY: QColor(214, 58, 52, 45),
    NEW_ONLY: QColor(40, 170, 90, 45),
}


class DiffModel(QAbstractTableModel):
    """The aligned rows of one kernel's two sources."""

    def __init__(self, cuda: Highlighter, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._highlighter = cuda
        self.comparison: KernelComparison | None = None
        self._rows: tuple[LineRow, ...] = ()
        self._metric = ""
        self._values: list[tuple[float | None, float | None, float | None, str | None]] = []
        self._top = (0.0, 0.0)  # largest value (either side), largest |change|
        self._openings: tuple[dict[int, str], dict[int, str]] = ({}, {})
        self._highlight: set[int] = set()
        self._row_of_line: dict[int, int] = {}

    def set_comparison(self, comp: KernelComparison | None, metric: str) -> None:
        self.beginResetModel()
        self.comparison, self._metric = comp, metric
        self._rows = comp.rows if comp is not None else ()
        self._values = (
            [
                (
                    comp.value(r, metric, "base"),
                    comp.value(r, metric, "new"),
                    comp.delta(r, metric),
                    comp.status(r, metric),
                )
                for r in self._rows
            ]
            if comp is not None
            else []
        )
        sides = [v for a, b, _, _ in self._values for v in (a, b) if v is not None]
        changes = [abs(d) for _, _, d, _ in self._values if d is not None]
        self._top = (max(sides, default=0.0), max(changes, default=0.0))
        self._openings = (self._continuations("base"), self._continuations("new"))
        self._row_of_line = {r.new_line: i for i, r in enumerate(self._rows) if r.new_line}
        self._highlight = set()
        self.endResetModel()

    def _continuations(self, side: str) -> dict[int, str]:
        texts = [
            (r.base_line, r.base_text) if side == "base" else (r.new_line, r.new_text)
            for r in self._rows
        ]
        present = [(n, t) for n, t in texts if n is not None and t is not None]
        openings = continuations([t for _, t in present])
        return {n: o for (n, _), o in zip(present, openings, strict=True)}

    @property
    def metric(self) -> str:
        return self._metric

    def widest_text(self, column: int) -> str:
        """About the widest number of a value or change column: its largest, signed for
        the change, never narrower than a short decimal (as ``CodeModel.widest_text``)."""
        if column in (BASE_VALUE, NEW_VALUE):
            text = format_number(self._top[0])
        elif column == DELTA:
            text = "+" + format_number(self._top[1])
        else:
            return ""
        return max(text, "-00.00", key=len)

    def row(self, index: int) -> LineRow:
        return self._rows[index]

    def row_of_line(self, new_line: int) -> int:
        """The row of a line of the new source, -1 if it has none."""
        return self._row_of_line.get(new_line, -1)

    def set_highlight(self, new_lines: set[int]) -> None:
        rows = {self._row_of_line[n] for n in new_lines if n in self._row_of_line}
        changed = rows ^ self._highlight
        self._highlight = rows
        for r in changed:
            self.dataChanged.emit(self.index(r, 0), self.index(r, NEW_CODE))

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 7

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        titles = ["#", "Base", "Baseline source", "#", "New", "Δ", "New source"]
        return titles[section] if 0 <= section < len(titles) else None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        r, col = index.row(), index.column()
        row = self._rows[r]
        base_value, new_value, delta, status = self._values[r]
        left = col <= BASE_CODE
        present = row.base_line is not None if left else row.new_line is not None
        if role == HighlightRole:
            return r in self._highlight
        if role == KeyRole:
            return r
        if role == TintRole:
            tint = _TINTS.get(row.kind)
            if row.kind == BASE_ONLY and not left or row.kind == NEW_ONLY and left:
                return None
            return tint
        if col in (BASE_LINE, NEW_LINE):
            number = row.base_line if col == BASE_LINE else row.new_line
            if role == Qt.ItemDataRole.DisplayRole:
                return str(number) if number is not None else ""
            if role == Qt.ItemDataRole.TextAlignmentRole:
                return _RIGHT
            if role == SortRole:
                return number
        elif col in (BASE_VALUE, NEW_VALUE):
            value = base_value if col == BASE_VALUE else new_value
            if role == Qt.ItemDataRole.DisplayRole:  # zero left blank, as the source pane does
                return format_number(value or None) if present else ""
            if role == BarRole:
                return (value or 0.0) / self._top[0] if self._top[0] > 0 else 0.0
            if role == Qt.ItemDataRole.TextAlignmentRole:
                return _RIGHT
            if role == SortRole:
                return value
        elif col == DELTA:
            if role == Qt.ItemDataRole.DisplayRole:
                text = format_number(delta or None)
                return f"+{text}" if delta is not None and delta > 0 else text
            if role == DeltaRole:
                return ((delta or 0.0) / self._top[1] if self._top[1] > 0 else 0.0, status)
            if role == Qt.ItemDataRole.TextAlignmentRole:
                return _RIGHT
            if role == Qt.ItemDataRole.ToolTipRole and self.comparison is not None:
                noise = self.comparison.noise_band(row, self._metric)
                return f"{status}; noise ±{format_number(noise)}" if status else None
            if role == SortRole:
                return delta
        else:
            if role == Qt.ItemDataRole.DisplayRole:
                return (row.base_text if col == BASE_CODE else row.new_text) or ""
            if role == SpansRole:
                return self._spans(row, left)
            if role == Qt.ItemDataRole.ToolTipRole and row.kind != "same":
                return row.kind
        return None

    def _spans(self, row: LineRow, left: bool) -> list[Span]:
        line, text = (row.base_line, row.base_text) if left else (row.new_line, row.new_text)
        if line is None or text is None:
            return []
        return self._highlighter.line(text, self._openings[0 if left else 1].get(line, ""))


class _Tinted:
    """Fills a cell with its ``TintRole`` colour before the delegate paints it."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        tint = item_data(index, TintRole)
        if tint is not None:
            painter.fillRect(option.rect, tint)
        super().paint(painter, option, index)  # type: ignore[misc]


class _TintedCode(_Tinted, CodeDelegate):
    pass


class _TintedBar(_Tinted, BarDelegate):
    pass


class _TintedPlain(_Tinted, PlainDelegate):
    pass


class _TintedDelta(_Tinted, DeltaDelegate):
    pass


class DiffPane(QWidget):
    """Header (what is compared, a button back to the single source) and the aligned table."""

    single_requested = Signal()  # the user wants the new source alone (the source pane)

    def __init__(self, selection: Selection, cuda: Highlighter) -> None:
        super().__init__()
        self.setObjectName("diff_pane")
        self.selection = selection
        self.model = DiffModel(cuda, self)
        self.table = CodeTable(self)
        self.table.setModel(self.model)
        self.table.horizontalHeader().setStretchLastSection(False)
        self._delegates = {
            "code": _TintedCode(self.table),
            "bar": _TintedBar(self.table),
            "plain": _TintedPlain(self.table),
            "delta": _TintedDelta(self.table),
        }
        for column, kind in enumerate(["plain", "bar", "code", "plain", "bar", "delta", "code"]):
            self.table.setItemDelegateForColumn(column, self._delegates[kind])
        self.title = ElidedLabel("Side by side")  # cut with "…", the summary apart from it
        self.summary = QLabel()
        self.single = QToolButton()
        self.single.setObjectName("diff_single")
        self.single.setText("New Source Only")
        self.single.setToolTip("Show the new build's source alone, with the baseline's metric")
        self.single.clicked.connect(self.single_requested)
        header = QHBoxLayout()
        header.setContentsMargins(4, 2, 4, 2)
        header.setSpacing(12)
        header.addWidget(self.title, 1)
        header.addWidget(self.summary)
        header.addWidget(self.single)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(header)
        layout.addWidget(self.table, 1)
        self._syncing = False
        self.table.clicked.connect(lambda index: self._chosen(index.row()))
        self.table.selectionModel().currentRowChanged.connect(self._on_current_row)
        selection.selection_changed.connect(self._on_selection)

    def show_comparison(self, comp: KernelComparison | None, metric: str) -> None:
        if comp is not None and comp is self.model.comparison and metric == self.model.metric:
            self._on_selection()
            return
        self.model.set_comparison(comp, metric)
        if comp is None:
            self.title.setText("Side by side")
            self.summary.setText("")
            return
        base = os.path.basename(comp.base_file or "") or "baseline"
        new = os.path.basename(comp.new_file or "") or "new"
        self.title.setText(f"Side by side — {new if base == new else f'{base} ↔ {new}'}")
        self.title.setToolTip(f"baseline: {comp.base_file}\nnew: {comp.new_file}")
        kinds = [r.kind for r in comp.rows]
        self.summary.setText(
            f"{kinds.count(CHANGED)} changed, {kinds.count(BASE_ONLY)} only in base, "
            f"{kinds.count(NEW_ONLY)} only in new"
        )
        self._size_columns()
        self._on_selection()

    def _size_columns(self) -> None:
        chars = self.table.fontMetrics().horizontalAdvance("0")
        fixed = {BASE_LINE: 6, BASE_VALUE: 9, NEW_LINE: 6, NEW_VALUE: 9, DELTA: 10}
        metrics = self.table.fontMetrics()
        widths = {  # never narrower than the widest number (9-digit counts)
            column: max(
                chars * width, metrics.horizontalAdvance(self.model.widest_text(column)) + chars * 2
            )
            for column, width in fixed.items()
        }
        for column, width in widths.items():
            self.table.setColumnWidth(column, width)
        room = self.table.viewport().width() - sum(widths.values())
        for column in (BASE_CODE, NEW_CODE):
            self.table.setColumnWidth(column, max(chars * 40, room // 2))

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._size_columns()

    def _chosen(self, row: int) -> None:
        if 0 <= row < self.model.rowCount():
            line = self.model.row(row).new_line
            if line is not None:
                self.selection.select_line(line)

    def _on_current_row(self, current: QModelIndex, previous: QModelIndex) -> None:
        if not self._syncing and current.isValid():
            self._chosen(current.row())

    def _on_selection(self) -> None:
        self.model.set_highlight(self.selection.lines)
        row = self.model.row_of_line(self.selection.line) if self.selection.line else -1
        if row < 0:
            return
        self.table.updateGeometries()  # a reset's scroll range is otherwise laid out later
        first, last = self.table.visible_rows()
        if not first <= row <= last:
            height = self.table.rowHeight(0) or 1
            visible = max(1, self.table.viewport().height() // height)
            self.table.verticalScrollBar().setValue(max(0, (row - visible // 2) * height))
        self._syncing = True
        try:
            self.table.selectionModel().setCurrentIndex(
                self.model.index(row, 0),
                QItemSelectionModel.SelectionFlag.ClearAndSelect
                | QItemSelectionModel.SelectionFlag.Rows,
            )
        finally:
            self._syncing = False
