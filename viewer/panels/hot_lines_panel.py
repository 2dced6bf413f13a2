"""The hot-lines panel: the top lines of the kernel or of the whole model for the metric."""

from __future__ import annotations

import os
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from kernelscope.core.view import HotLine, hot_lines

from ..code.delegates import BarDelegate
from ..selection import SelectionState
from ..widgets.formatting import format_number
from ..widgets.roles import BarRole, KeyRole, SortRole

Index = QModelIndex | QPersistentModelIndex
_TITLES = ["Value", "Share", "Kernel", "Location", "Top stall", "Source"]


class HotLinesModel(QAbstractTableModel):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[HotLine] = []

    def set_rows(self, rows: list[HotLine]) -> None:
        self.beginResetModel()
        self._rows = rows
        self.endResetModel()

    def hot_line(self, row: int) -> HotLine:
        return self._rows[row]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(_TITLES)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return _TITLES[section] if 0 <= section < len(_TITLES) else None
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        h, col = self._rows[index.row()], index.column()
        if role == KeyRole:
            return index.row()
        if role == Qt.ItemDataRole.DisplayRole:
            return [
                format_number(h.value),
                f"{100 * h.share:.1f}%",
                h.kernel,
                f"{os.path.basename(h.file)}:{h.line}",
                h.stall,
                h.text,
            ][col]
        if role == SortRole:
            return [h.value, h.share, h.kernel, (h.file, h.line), h.stall, h.text][col]
        if role == BarRole and col in (0, 1):
            top = self._rows[0].value if self._rows else 0.0
            return h.value / top if top > 0 else 0.0
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{h.file}:{h.line}"
        return None


class HotLinesPanel(QWidget):
    def __init__(self, state: SelectionState) -> None:
        super().__init__()
        self.setObjectName("hot_lines")
        self.state = state
        self.model = HotLinesModel(self)
        self.scope = QComboBox()
        self.scope.addItems(["This kernel", "Whole model"])
        self.scope.setToolTip("Rank the lines of the selected kernel, or of every kernel")
        self.caption = QLabel()
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setShowGrid(False)
        self.table.setWordWrap(False)
        self._bars = BarDelegate(self.table)
        self.table.setItemDelegateForColumn(0, self._bars)
        self.table.setItemDelegateForColumn(1, self._bars)
        self.table.setToolTip("Double-click (or Enter) to go to the line")
        top = QHBoxLayout()
        top.addWidget(self.scope)
        top.addWidget(self.caption, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        self.scope.currentIndexChanged.connect(self.refresh)
        self.table.activated.connect(self._go)
        state.document_changed.connect(self.refresh)
        state.kernel_changed.connect(self._on_kernel)
        state.metric_changed.connect(self.refresh)

    def _on_kernel(self) -> None:
        if self.scope.currentIndex() == 0:
            self.refresh()

    def refresh(self) -> None:
        document, kernel = self.state.document, self.state.kernel
        whole = self.scope.currentIndex() == 1
        if document is None or (kernel is None and not whole):
            self.model.set_rows([])
            self.caption.setText("")
            return
        rows = hot_lines(document, self.state.metric, None if whole else kernel.name)
        self.model.set_rows(rows)
        self.caption.setText(f"Top {len(rows)} lines by {self.state.metric}")
        chars = self.fontMetrics().horizontalAdvance("0")
        for column, width in enumerate([10, 8, 30, 26, 18]):
            self.table.setColumnWidth(column, chars * width)

    def _go(self, index: QModelIndex) -> None:
        h = self.model.hot_line(index.row())
        self.state.set_kernel(h.kernel)
        self.state.set_file(h.file)
        self.state.select_line(h.line)
