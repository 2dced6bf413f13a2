"""The Timeline pane's tables: every call of the pass in time order, and the time share of
each kernel and of each Relax operator type (``Timeline.kernel_shares``/``op_shares``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from kernelscope.core.timeline import Agreement, CallAgreement, Share, Timeline, TimelineCall

from ..widgets.formatting import format_number
from ..widgets.roles import BarRole, KeyRole, SortRole

Index = QModelIndex | QPersistentModelIndex
Row = TypeVar("Row")
RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


@dataclass(frozen=True)
class Column(Generic[Row]):
    title: str
    value: Callable[[Row], Any]  # for sorting (and the bar)
    text: Callable[[Row], str]
    bar: Callable[[Row], float] | None = None  # 0..1
    number: bool = True


def _us(value: float | None) -> str:
    return "" if value is None else f"{value:,.2f}"


def _signed(value: float | None) -> str:
    return "" if value is None else f"{value:+,.2f}"


def _pct(share: float) -> str:
    return f"{100 * share:.1f}%"


class _RowsModel(QAbstractTableModel, Generic[Row]):
    """Rows of one kind under fixed columns; ``KeyRole`` gives the row object itself."""

    def __init__(self, columns: list[Column[Row]], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.columns = columns
        self.rows: list[Row] = []

    def set_rows(self, rows: list[Row]) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.columns)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (
            orientation == Qt.Orientation.Horizontal
            and role == Qt.ItemDataRole.DisplayRole
            and 0 <= section < len(self.columns)
        ):
            return self.columns[section].title
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        row, column = self.rows[index.row()], self.columns[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return column.text(row)
        if role == Qt.ItemDataRole.ToolTipRole:
            return column.text(row)
        if role == SortRole:
            return column.value(row)
        if role == BarRole:
            return column.bar(row) if column.bar else None
        if role == KeyRole:
            return row
        if role == Qt.ItemDataRole.TextAlignmentRole and column.number:
            return RIGHT
        return None


class CallsModel(_RowsModel[TimelineCall]):
    """One row per call: index, start, duration (with its share of the pass), ncu's duration
    of the same launches and the difference (when a report of the workspace has the pass),
    kernel, operators."""

    NCU_COLUMNS = (3, 4)  # after "Time µs"; hidden while no report has the pass

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(
            [
                Column("#", lambda c: c.index, lambda c: str(c.index)),
                Column("Start µs", lambda c: c.start_us, lambda c: _us(c.start_us)),
                Column(
                    "Time µs",
                    lambda c: c.duration_us,
                    lambda c: _us(c.duration_us),
                    bar=lambda c: c.duration_us / self.peak if self.peak else 0.0,
                ),
                Column(
                    "ncu µs",
                    lambda c: self._ncu(c).ncu_us or 0.0,
                    lambda c: _us(self._ncu(c).ncu_us),
                ),
                Column(
                    "Δ µs",
                    lambda c: self._ncu(c).diff_us or 0.0,
                    lambda c: _signed(self._ncu(c).diff_us),
                ),
                Column("Share", lambda c: c.duration_us, lambda c: _pct(self._share(c))),
                Column("Kernel", lambda c: c.name, lambda c: c.name, number=False),
                Column(
                    "Operators",
                    lambda c: c.ops or c.op_type,
                    lambda c: c.ops or c.op_type,
                    number=False,
                ),  # fmt: skip
            ],
            parent,
        )
        self.total = 0.0
        self.peak = 0.0
        self.ncu: dict[int, CallAgreement] = {}

    def set_timeline(self, timeline: Timeline | None) -> None:
        calls = timeline.calls if timeline else []
        self.total = sum(c.duration_us for c in calls)
        self.peak = max((c.duration_us for c in calls), default=0.0)
        self.ncu = {}
        self.set_rows(calls)

    def set_agreement(self, agreement: Agreement | None) -> None:
        """ncu's figures of the shown calls (``core.timeline.ncu_agreement``)."""
        self.ncu = {c.index: c for c in agreement.calls} if agreement else {}
        first, last = self.NCU_COLUMNS
        if self.rows:
            self.dataChanged.emit(self.index(0, first), self.index(len(self.rows) - 1, last))

    def _ncu(self, call: TimelineCall) -> CallAgreement:
        return self.ncu.get(call.index) or CallAgreement(call.index, call.duration_us)

    def _share(self, call: TimelineCall) -> float:
        return call.duration_us / self.total if self.total else 0.0


class SharesModel(_RowsModel[Share]):
    """Time per kernel or per operator type: calls, total, share (a bar), mean."""

    def __init__(self, what: str, parent: QObject | None = None) -> None:
        super().__init__(
            [
                Column(what, lambda s: s.name, lambda s: s.name, number=False),
                Column("Calls", lambda s: s.calls, lambda s: format_number(s.calls)),
                Column("Total µs", lambda s: s.total_us, lambda s: _us(s.total_us)),
                Column("Share", lambda s: s.share, lambda s: _pct(s.share), bar=lambda s: s.share),
                Column("Mean µs", lambda s: s.mean_us, lambda s: _us(s.mean_us)),
            ],
            parent,
        )
