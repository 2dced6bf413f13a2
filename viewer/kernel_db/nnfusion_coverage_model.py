"""The Coverage tab's table: one row per distinct lookup NNFusion makes for the model
(identifier, DeviceType), its status, the DB row that serves it and why none does."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QBrush

from ..widgets.formatting import format_number
from ..widgets.nnfusion_colours import colour
from ..widgets.rows_model import Column, RowsModel

if TYPE_CHECKING:  # the DB (sqlite-utils) is imported when it is first read
    from kernelscope.core.kernel_db import CoverageItem

STATUS, NODES, ROW, TIME, IDENTIFIER, WHY = 0, 3, 4, 5, 6, 7
# Sorting by status puts what needs doing first.
STATUS_ORDER = ("missing", "wrong", "flagged", "covered", "nnfusion")
STATUS_TIPS = {
    "covered": "NNFusion takes a row of the DB",
    "wrong": "NNFusion takes a row that computes something else",
    "flagged": "kernelscope holds a kernel for it but keeps it from NNFusion",
    "missing": "NNFusion could take it from the DB, which has no row: Build missing builds it",
    "nnfusion": "NNFusion never takes this type from a DB: its own kernels run",
}


def _cell(
    title: str,
    get: Callable[[CoverageItem], str | int | float | None],
    number: bool = False,
    tip: str | None = None,
) -> Column[CoverageItem]:
    """A column showing ``get``'s value (a float as a number, None as nothing) and sorting
    by it (None first)."""

    def text(item: CoverageItem) -> str:
        value = get(item)
        if isinstance(value, float):
            return format_number(value)
        return "" if value is None else str(value)

    def value(item: CoverageItem) -> Any:
        found = get(item)
        return found if found is not None else -1.0

    return Column(title, value, text, number=number, tip=tip)


class CoverageModel(RowsModel["CoverageItem"]):
    """One row per distinct lookup (identifier, DeviceType)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(
            [
                Column(
                    "Status",
                    lambda i: STATUS_ORDER.index(i.status),
                    lambda i: i.status,
                    number=False,
                ),
                _cell("Device", lambda i: i.lookup.device_type),
                _cell("Op type", lambda i: i.lookup.op_type),
                _cell(
                    "Nodes",
                    lambda i: i.lookup.count,
                    number=True,
                    tip="How many nodes of NNFusion's graph look this identifier up",
                ),
                _cell(
                    "Row",
                    lambda i: (i.row.kernel_name or i.row.key[:12]) if i.row is not None else None,
                    tip="The DB row NNFusion takes (or the one kernelscope keeps from it)",
                ),
                _cell(
                    "Row µs",
                    self._time,
                    number=True,
                    tip="The row's measured time on the command's GPU",
                ),
                _cell("Identifier", lambda i: i.identifier),
                _cell(
                    "Why",
                    lambda i: i.why or None,
                    tip="Why no row serves it, or why the row is wrong for it",
                ),
            ],
            parent,
        )
        self._gpu: str | None = None  # the GPU whose row times are shown

    def set_items(self, items: Sequence[CoverageItem], gpu: str | None) -> None:
        self._gpu = gpu
        self.set_rows(items)

    def item(self, row: int) -> CoverageItem:
        return self.rows[row]

    def _time(self, item: CoverageItem) -> float | None:
        row = item.row
        if row is None or not row.times:
            return None
        return row.times.get(self._gpu) if self._gpu else next(iter(row.times.values()))

    def key(self, row: CoverageItem, number: int) -> str | None:
        return row.row.key if row.row is not None else None

    def tooltip(self, row: CoverageItem, column: int) -> str | None:
        if column == STATUS:
            return STATUS_TIPS.get(row.status)
        if column == ROW and row.row is not None:
            return f"key {row.row.key}"
        if column == IDENTIFIER:
            nodes = ", ".join(row.lookup.origins[:8])
            more = "…" if len(row.lookup.origins) > 8 else ""
            return f"{row.identifier}\nONNX nodes: {nodes}{more}" if nodes else row.identifier
        if column == WHY and row.why:
            return row.why
        return None

    def role_data(self, row: CoverageItem, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.ForegroundRole and column == STATUS:
            return QBrush(colour(row.status))
        return None
