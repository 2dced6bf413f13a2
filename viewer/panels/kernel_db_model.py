"""Table model over the kernel DB's entry summaries, with what NNFusion makes of each row
(usable, ambiguous, kept and why) and the open profile's time beside each."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush

from ..widgets.formatting import format_number
from ..widgets.roles import KeyRole, SortRole
from .nnfusion_colours import colour

if TYPE_CHECKING:  # the DB (sqlite-utils) is imported when it is first read
    from kernelscope.core.kernel_db import EntrySummary, RowVerdict

Index = QModelIndex | QPersistentModelIndex

COLUMNS = ("Kernel", "Op type", "NNFusion", "Why", "Stored µs", "Profile µs", "Identifier")
NNFUSION, WHY, STORED, PROFILE, IDENTIFIER = 2, 3, 4, 5, 6
ALLOW_HINT = (
    "Export options: let NNFusion use ambiguous rows, then export the kernel again "
    "to make it usable anyway"
)


class KernelDbModel(QAbstractTableModel):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[EntrySummary] = []
        self._profile_us: dict[str, float] = {}  # kernel name -> mean µs in the open profile
        self._verdicts: dict[str, RowVerdict] = {}  # key -> what NNFusion makes of it

    def set_entries(self, rows: list[EntrySummary]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def set_verdicts(self, verdicts: dict[str, RowVerdict]) -> None:
        """What NNFusion makes of each row (read with the DB); rows without one show the
        exporter's usable flag."""
        self._verdicts = dict(verdicts)
        if self._rows:
            self.dataChanged.emit(self.index(0, NNFUSION), self.index(len(self._rows) - 1, WHY))

    def set_profile_times(self, times_us: dict[str, float]) -> None:
        self._profile_us = dict(times_us)
        if self._rows:
            self.dataChanged.emit(self.index(0, PROFILE), self.index(len(self._rows) - 1, PROFILE))

    def entry(self, row: int) -> EntrySummary:
        return self._rows[row]

    def state(self, row: int) -> tuple[str, str, bool]:
        """(state, why, ambiguous) of a row: see ``core.kernel_db.RowVerdict``."""
        e = self._rows[row]
        v = self._verdicts.get(e.key)
        if v is not None:
            return v.state, v.why, v.ambiguous
        return ("usable", "", False) if e.usable else ("kept", "; ".join(e.reasons), False)

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
        if role == Qt.ItemDataRole.ToolTipRole:
            return {
                NNFUSION: "Whether NNFusion's kernel selection takes the row",
                PROFILE: "Mean time of the same kernel in the profile open in the window",
                WHY: "Why NNFusion cannot use the row, or what to know when it does",
            }.get(section)
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        e = self._rows[index.row()]
        column = index.column()
        if role == KeyRole:
            return e.key
        if role in (Qt.ItemDataRole.DisplayRole, SortRole):
            value = self._value(index.row(), column)
            if role == SortRole:
                return value if value is not None else -1.0
            if isinstance(value, float):
                return format_number(value)
            return "" if value is None else value
        if role == Qt.ItemDataRole.ToolTipRole:
            if column in (NNFUSION, WHY):
                return self._tooltip(index.row())
            if column == STORED and e.device_name:
                return f"measured on {e.device_name}"
            if column in (0, IDENTIFIER):
                return self._value(index.row(), column)
        if role == Qt.ItemDataRole.ForegroundRole and column == NNFUSION:
            state = self.state(index.row())[0]
            return None if state == "usable" else QBrush(colour(state))
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (STORED, PROFILE):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _tooltip(self, row: int) -> str | None:
        state, why, ambiguous = self.state(row)
        if state == "usable":
            return why or "NNFusion takes this row"
        if state == "ambiguous":
            return f"Usable, but NNFusion may run it for another computation: {why}"
        text = f"Not usable by NNFusion: {why}"
        return f"{text}\n{ALLOW_HINT}" if ambiguous else text

    def _value(self, row: int, column: int) -> str | float | None:
        e = self._rows[row]
        if column == 0:
            return e.kernel_name
        if column == 1:
            return e.op_type
        if column == IDENTIFIER:
            return e.identifier
        if column == NNFUSION:
            state, _, ambiguous = self.state(row)
            if state == "usable":
                return "yes"
            if state == "ambiguous":
                return "yes, ambiguous"
            return "no, ambiguous" if ambiguous else "no"
        if column == STORED:
            return e.time_us
        if column == PROFILE:
            return self._profile_us.get(e.kernel_name)
        return self.state(row)[1]  # WHY
