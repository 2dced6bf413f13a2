"""What the source and SASS panes share: a fast table of code rows, a heat strip, search and
"next / previous hot row" for the chosen metric."""

from __future__ import annotations

import re
from collections.abc import Sequence

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QPoint, QSize, Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QStyledItemDelegate,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from kernelscope.core.view import Selection

from ..widgets.elided_label import ElidedLabel
from .code_models import CodeModel, DeltaColumn
from .delegates import BarDelegate, CodeDelegate, PlainDelegate
from .delta_delegate import DeltaDelegate
from .heat_strip import HeatStrip
from .metric_columns import MetricColumns

# What a code pane keeps on screen however small the window (issue 30): the docks give way
# first. At 1280x720 with the kernel list and one more dock open there is room for this.
CODE_CHARS, CODE_LINES = 60, 15
METRIC_CHARS = 5  # a metric column: a compact number (``format_compact``) and 10 px


class CodeTable(QTableView):
    """A table tuned for long code listings: fixed row height, no per-row size queries."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # (characters of code, lines) kept on screen (``keep_room``); None: no such minimum
        self.room: tuple[int, int] | None = None
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setShowGrid(False)
        self.setWordWrap(False)
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        vertical = self.verticalHeader()
        vertical.hide()
        vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vertical.setDefaultSectionSize(self.fontMetrics().height() + 2)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setHighlightSections(False)
        header.setTextElideMode(Qt.TextElideMode.ElideRight)
        header.setStretchLastSection(True)
        self._bar = BarDelegate(self)
        self._code = CodeDelegate(self)
        self._plain = PlainDelegate(self)
        self._delta = DeltaDelegate(self)

    def configure_columns(self, model: CodeModel) -> None:
        """Delegates and widths from the model's layout, computed, never measured per row:
        the label as wide as the longest, metric columns narrow (compact numbers, the header
        elided: its tooltip says what it is), compare mode's columns as wide as their
        widest number."""
        metrics = self.fontMetrics()
        chars = metrics.horizontalAdvance("0")
        code = model.code_column
        for column in range(model.columnCount()):
            delegate: QStyledItemDelegate
            values = metrics.horizontalAdvance(model.widest_text(column)) + chars
            if column == code:  # its longest row, at least the room kept for code
                longest = max(CODE_CHARS, min(model.longest_text(), 160)) + 2
                delegate, width = self._code, chars * longest
            elif 0 < column <= len(model.metric_names):
                least = metrics.horizontalAdvance("0" * METRIC_CHARS) + 10
                delegate, width = self._bar, max(least, values + 10 - chars)
            elif 0 < column < code:  # compare mode's baseline value or change
                title = str(model.headerData(column, Qt.Orientation.Horizontal))
                header = metrics.horizontalAdvance(title) + chars * 2
                width = max(min(max(chars * 9, header), chars * 12), values + chars)
                delegate = self._delta if model.is_delta_column(column) else self._bar
            else:  # the label (PlainDelegate keeps 4 px a side), or the SASS pane's Line
                label = model.widest_label() if column == 0 else "0" * 16
                delegate, width = self._plain, metrics.horizontalAdvance(label) + 10
            self.setItemDelegateForColumn(column, delegate)
            self.setColumnWidth(column, width)

    def keep_room(self, chars: int, lines: int) -> None:
        """Never narrower or lower than ``chars`` characters of code after the label and
        one metric column, and ``lines`` rows (the layouts and the docks respect it)."""
        self.room = (chars, lines)
        self.updateGeometry()

    def minimumSizeHint(self) -> QSize:
        if self.room is None:
            return super().minimumSizeHint()
        chars, lines = self.room
        advance = self.fontMetrics().horizontalAdvance("0")
        frame = 2 * self.frameWidth()
        bar = self.style().pixelMetric(self.style().PixelMetric.PM_ScrollBarExtent)
        label = advance * 5 + 10  # a 5-digit line number
        metric = advance * METRIC_CHARS + 10
        width = label + metric + advance * (chars + 1) + bar + frame
        header = self.horizontalHeader().sizeHint().height()
        height = header + lines * self.verticalHeader().defaultSectionSize() + bar + frame
        return QSize(width, height)

    def visible_rows(self) -> tuple[int, int]:
        first = self.rowAt(0)
        last = self.rowAt(self.viewport().height() - 1)
        count = self.model().rowCount() if self.model() else 0
        return max(first, 0), (last if last >= 0 else count - 1)


class CodePane(QWidget):
    """Header row (title + pane-specific controls), code table and heat strip."""

    def __init__(
        self, selection: Selection, model: CodeModel, title: str, columns: MetricColumns
    ) -> None:
        super().__init__()
        self.selection = selection
        self.model = model
        self.columns = columns
        model.describe = self._describe_metric
        self.table = CodeTable(self)
        self.table.setModel(model)
        self.table.keep_room(CODE_CHARS, CODE_LINES)
        header = self.table.horizontalHeader()
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(self._column_menu)
        self.heat = HeatStrip(self)
        # a long kernel or file name is cut (with "…"), not widening the pane (and narrowing
        # the docks)
        self.title = ElidedLabel(title)
        self.header = QHBoxLayout()
        self.header.setContentsMargins(4, 2, 4, 2)
        self.header.addWidget(self.title, 1)
        body = QHBoxLayout()
        body.setContentsMargins(0, 0, 0, 0)
        body.setSpacing(0)
        body.addWidget(self.table, 1)
        body.addWidget(self.heat)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(self.header)
        layout.addLayout(body, 1)
        self._layout = layout
        self._syncing = False  # true while the pane follows the state, not the user
        self.heat.row_clicked.connect(self._on_heat_click)
        self.table.verticalScrollBar().valueChanged.connect(self._update_visible)
        self.table.clicked.connect(lambda index: self.row_chosen(index.row()))
        self.table.selectionModel().currentRowChanged.connect(self._on_current_row)
        selection.metric_changed.connect(self.refresh_heat)
        selection.metric_changed.connect(self.show_columns)
        columns.changed.connect(self.show_columns)

    def show_comparison(self, columns: Sequence[DeltaColumn] | None) -> None:
        """Compare mode's columns before the code (None or none: the pane's own alone),
        keeping the width the code column has and the rows' scroll position."""
        model, table = self.model, self.table
        if not columns and not model.has_delta_columns:
            return
        code_width = table.columnWidth(model.code_column)
        model.set_delta_columns(columns or [])
        self.configure_columns()
        table.setColumnWidth(model.code_column, code_width)

    def configure_columns(self) -> None:
        """Widths and delegates for the model's columns (after a reset), the metric columns
        the user chose shown."""
        self.table.configure_columns(self.model)
        self.show_columns()

    def show_columns(self) -> None:
        """Show the metric columns the user chose (``MetricColumns``), hide the others."""
        names = self.model.metric_names
        shown = self.columns.shown(names, self.selection.metric)
        # every column: a reset keeps the header's hidden flags by position, and another
        # kernel's metric column may be this one's code column
        for column in range(self.model.columnCount()):
            metric = names[column - 1] if 1 <= column <= len(names) else None
            self.table.setColumnHidden(column, metric is not None and metric not in shown)

    def _column_menu(self, position: QPoint) -> None:
        header = self.table.horizontalHeader()
        menu = self.columns.menu(self, self.model.metric_names)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(header.mapToGlobal(position))

    def add_below(self, widget: QWidget) -> None:
        """Put ``widget`` under the code (compare mode's opcode table under the SASS)."""
        self._layout.addWidget(widget)

    def _describe_metric(self, name: str) -> str:
        document = self.selection.document
        return document.metric_description(name) if document is not None else ""

    # subclasses: a row was chosen by the user
    def row_chosen(self, row: int) -> None:
        raise NotImplementedError

    def _on_current_row(self, current: QModelIndex, previous: QModelIndex) -> None:
        if not self._syncing and current.isValid():
            self.row_chosen(current.row())

    def _on_heat_click(self, row: int) -> None:
        self.show_row(row, center=True)
        self.row_chosen(row)

    def refresh_heat(self) -> None:
        self.heat.set_values(self.model.metric_values(self.selection.metric))
        self._update_visible()

    def _update_visible(self) -> None:
        self.heat.set_visible_rows(*self.table.visible_rows())

    def show_row(self, row: int, *, center: bool = False, select: bool = True) -> None:
        """Scroll to ``row`` (only if it is off screen, unless ``center``) and make it current."""
        if not 0 <= row < self.model.rowCount():
            return
        index = self.model.index(row, 0)
        first, last = self.table.visible_rows()
        if center or not first <= row <= last:
            # scroll vertically only: scrollTo() would also bring the code cell into view
            height = self.table.rowHeight(0) or 1
            visible = max(1, self.table.viewport().height() // height)
            self.table.verticalScrollBar().setValue(max(0, (row - visible // 2) * height))
        if select:
            self._syncing = True
            try:
                self.table.selectionModel().setCurrentIndex(
                    index,
                    QItemSelectionModel.SelectionFlag.ClearAndSelect
                    | QItemSelectionModel.SelectionFlag.Rows,
                )
            finally:
                self._syncing = False
        self._update_visible()

    def current_row(self) -> int:
        index = self.table.currentIndex()
        return index.row() if index.isValid() else -1

    def find_text(self, pattern: str, *, regex: bool, case: bool, backwards: bool = False) -> bool:
        """Move to the next (previous) row whose code matches; wraps around. False if none."""
        flags = 0 if case else re.IGNORECASE
        try:
            matcher = re.compile(pattern if regex else re.escape(pattern), flags)
        except re.error:
            return False
        count = self.model.rowCount()
        if not pattern or count == 0:
            return False
        start = self.current_row()
        step = -1 if backwards else 1
        for k in range(1, count + 1):
            row = (start + step * k) % count
            if matcher.search(self.model.text(row)):
                self.show_row(row, center=True)
                self.row_chosen(row)
                return True
        return False

    def step_hot(self, backwards: bool = False) -> bool:
        """Go to the next hotter-to-colder row for the chosen metric (or back up)."""
        values = self.model.metric_values(self.selection.metric)
        ranking = sorted((r for r, v in enumerate(values) if v > 0), key=lambda r: -values[r])
        if not ranking:
            return False
        current = self.current_row()
        if current in ranking:
            position = ranking.index(current) + (-1 if backwards else 1)
            row = ranking[position % len(ranking)]
        else:
            row = ranking[-1 if backwards else 0]
        self.show_row(row, center=True)
        self.row_chosen(row)
        return True
