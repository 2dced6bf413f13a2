"""Table model over the kernel DB's entry summaries, with the open profile's time beside each."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from ..widgets.formatting import format_number
from ..widgets.roles import KeyRole, SortRole

if TYPE_CHECKING:  # the DB (sqlite-utils) is imported when it is first read
    from kernelscope.core.kernel_db import EntrySummary

Index = QModelIndex | QPersistentModelIndex

COLUMNS = ("Kernel", "Op type", "Identifier", "NNFusion", "Stored µs", "Profile µs")
STORED, PROFILE = 4, 5


class KernelDbModel(QAbstractTableModel):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[EntrySummary] = []
        self._profile_us: dict[str, float] = {}  # kernel name -> mean µs in the open profile

    def set_entries(self, rows: list[EntrySummary]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def set_profile_times(self, times_us: dict[str, float]) -> None:
        self._profile_us = dict(times_us)
        if self._rows:
            self.dataChanged.emit(self.index(0, PROFILE), self.index(len(self._rows) - 1, PROFILE))

    def entry(self, row: int) -> EntrySummary:
        return self._rows[row]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(COLUMNS):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        if role == Qt.ItemDataRole.ToolTipRole and section == PROFILE:
            return "Mean time of the same kernel in the profile open in the window"
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        e = self._rows[index.row()]
        column = index.column()
        if role == KeyRole:
            return e.key
        if role in (Qt.ItemDataRole.DisplayRole, SortRole):
            value = self._value(e, column)
            if role == SortRole:
                return value if value is not None else -1.0
            if isinstance(value, float):
                return format_number(value)
            return "" if value is None else value
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == 3 and not e.usable:
                return "Not usable by NNFusion: " + "; ".join(e.reasons)
            if column == STORED and e.device_name:
                return f"measured on {e.device_name}"
            if column in (0, 2):
                return self._value(e, column)
        if role == Qt.ItemDataRole.ForegroundRole and column == 3 and not e.usable:
            return QBrush(QColor("#b00040"))
        if role == Qt.ItemDataRole.TextAlignmentRole and column >= STORED:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _value(self, e: EntrySummary, column: int) -> str | float | None:
        if column == 0:
            return e.kernel_name
        if column == 1:
            return e.op_type
        if column == 2:
            return e.identifier
        if column == 3:
            return "yes" if e.usable else "no"
        if column == STORED:
            return e.time_us
        return self._profile_us.get(e.kernel_name)
