"""The one table model of the viewer's plain tables: rows of one kind under fixed columns.

A column says its title, its header tip, the text a cell shows, the value it sorts by
(``SortRole``), an optional bar (``BarRole``, 0..1) and whether it is a number (right
aligned). ``KeyRole`` gives what ``key`` makes of the row (the row itself unless a subclass
says otherwise: its number, say); a subclass answers further roles in ``role_data``.

A view may sort the model itself (``sort``: one Python sort of the rows) instead of through a
``QSortFilterProxyModel``, whose every comparison calls back into Python: the way for tables
of a million rows (an Nsight Systems export's calls), where a proxy took minutes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)

from .roles import BarRole, KeyRole, SortRole

Index = QModelIndex | QPersistentModelIndex
Row = TypeVar("Row")
Proxy = TypeVar("Proxy", bound=QSortFilterProxyModel)
RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


@dataclass(frozen=True)
class Column(Generic[Row]):
    title: str
    value: Callable[[Row], Any]  # for sorting (and the bar)
    text: Callable[[Row], str]
    bar: Callable[[Row], float] | None = None  # 0..1
    number: bool = True
    tip: str | None = None  # the header's tooltip
    # roles the column answers itself, before the model (None: the model's answer)
    roles: Callable[[Row, int], Any] | None = None
    # the rows always come in this column's ascending order: sorting by it is no sort
    given_order: bool = False


class RowsModel(QAbstractTableModel, Generic[Row]):
    """Rows of one kind under fixed columns."""

    def __init__(self, columns: Sequence[Column[Row]], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.columns = list(columns)
        self.rows: list[Row] = []
        self._given: list[Row] = []  # the rows in the order they were set
        self._sorted_by: tuple[int, Qt.SortOrder] = (-1, Qt.SortOrder.AscendingOrder)

    def set_rows(self, rows: Sequence[Row]) -> None:
        self.beginResetModel()
        self._given = list(rows)
        self.rows = self._ordered(*self._sorted_by)
        self.rows_reordered()
        self.endResetModel()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """The rows sorted by ``column``'s value (stable; -1: in the order they were set),
        the views' selection and current row kept on their rows."""
        self._sorted_by = (column, order)
        self.layoutAboutToBeChanged.emit()
        old, self.rows = self.rows, self._ordered(column, order)
        before = self.persistentIndexList()
        if before:
            where = {id(row): i for i, row in enumerate(self.rows)}
            after = [self.index(where[id(old[i.row()])], i.column()) for i in before]
            self.changePersistentIndexList(before, after)
        self.rows_reordered()
        self.layoutChanged.emit()

    def _ordered(self, column: int, order: Qt.SortOrder) -> list[Row]:
        if not 0 <= column < len(self.columns):
            return list(self._given)
        if self.columns[column].given_order:
            ascending = order == Qt.SortOrder.AscendingOrder
            return list(self._given) if ascending else self._given[::-1]
        value = self.columns[column].value

        def key(row: Row) -> tuple[bool, Any]:
            v = value(row)
            return (v is not None, v)  # rows without a value first (last, descending)

        return sorted(self._given, key=key, reverse=order == Qt.SortOrder.DescendingOrder)

    def rows_reordered(self) -> None:
        """Called when the rows were set or sorted: a subclass drops what it knows of their
        positions."""

    def key(self, row: Row, number: int) -> Any:
        """What ``KeyRole`` gives for ``row``, row ``number`` of the model."""
        return row

    def header_tip(self, section: int) -> str | None:
        """A header's tooltip: its column's unless a subclass says otherwise."""
        return self.columns[section].tip

    def tooltip(self, row: Row, column: int) -> Any:
        """A cell's tooltip: its text unless a subclass says otherwise."""
        return self.columns[column].text(row)

    def role_data(self, row: Row, column: int, role: int) -> Any:
        """What a subclass answers for the roles this model leaves (None: nothing)."""
        return None

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.columns)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self.columns):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.columns[section].title
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.header_tip(section)
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        row, column = self.rows[index.row()], self.columns[index.column()]
        if column.roles is not None and (answer := column.roles(row, role)) is not None:
            return answer
        if role == Qt.ItemDataRole.DisplayRole:
            return column.text(row)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.tooltip(row, index.column())
        if role == SortRole:
            return column.value(row)
        if role == BarRole and column.bar is not None:
            return column.bar(row)
        if role == KeyRole:
            return self.key(row, index.row())
        if role == Qt.ItemDataRole.TextAlignmentRole and column.number:
            return RIGHT
        return self.role_data(row, index.column(), role)


def sort_by_role(proxy: Proxy, model: QAbstractItemModel) -> Proxy:
    """``proxy`` over ``model``, sorting by each column's value (``SortRole``), not its text."""
    proxy.setSourceModel(model)
    proxy.setSortRole(SortRole)
    return proxy
