"""Compare mode under the SASS pane: per opcode, how many instructions each build has and, when
both profiles measured them, how often they executed (``KernelComparison.opcodes``), largest
change first; and whether the two instruction streams align instruction by instruction."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import (
    QLabel,
    QVBoxLayout,
    QWidget,
)

from kernelscope.core.compare import FASTER, SLOWER, WITHIN_NOISE, KernelComparison, OpcodeDelta

from ..code.delta_delegate import DeltaDelegate, DeltaRole
from ..widgets.columns import fit_column, rows_table
from ..widgets.formatting import format_number, format_signed
from ..widgets.rows_model import Column, RowsModel

DELTA_COLUMNS = (3, 6)


def _status(change: float | None) -> str | None:
    """Counts are exact: any change is real (more instructions: red, fewer: blue)."""
    if change is None:
        return None
    return WITHIN_NOISE if change == 0 else SLOWER if change > 0 else FASTER


def _opcode_column(title: str, value: Callable[[OpcodeDelta], Any], delta: bool) -> Column[Any]:
    show = format_signed if delta else format_number
    return Column(title, value, lambda o: show(value(o)))


class OpcodeModel(RowsModel[OpcodeDelta]):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(
            [
                Column("Opcode", lambda o: o.opcode, lambda o: o.opcode, number=False),
                _opcode_column("Base", lambda o: o.base_count, False),
                _opcode_column("New", lambda o: o.new_count, False),
                _opcode_column("Δ count", lambda o: o.count_delta, True),
                _opcode_column("Base executed", lambda o: o.base_executed, False),
                _opcode_column("New executed", lambda o: o.new_executed, False),
                _opcode_column("Δ executed", lambda o: o.executed_delta, True),
            ],
            parent,
        )
        self._top = (0.0, 0.0)

    def set_rows(self, rows: Sequence[OpcodeDelta]) -> None:
        counts = [abs(r.count_delta) for r in rows]
        executed = [abs(d) for r in rows if (d := r.executed_delta) is not None]
        self._top = (float(max(counts, default=0)), max(executed, default=0.0))
        super().set_rows(rows)

    def key(self, row: OpcodeDelta, number: int) -> None:
        return None

    def tooltip(self, row: OpcodeDelta, column: int) -> None:
        return None

    def role_data(self, row: OpcodeDelta, column: int, role: int) -> Any:
        if role == DeltaRole and column in DELTA_COLUMNS:
            value = self.columns[column].value(row)
            top = self._top[0 if column == 3 else 1]
            return ((value or 0.0) / top if top > 0 else 0.0, _status(value))
        return None


class OpcodeTable(QWidget):
    """The per-opcode table and a caption saying how far the streams align."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("opcode_table")
        self.model = OpcodeModel(self)
        self.comparison: KernelComparison | None = None  # shown
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.table = rows_table(self.model)
        self.table.setSortingEnabled(False)
        self._delta = DeltaDelegate(self.table)
        for column in DELTA_COLUMNS:
            self.table.setItemDelegateForColumn(column, self._delta)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.setSpacing(2)
        layout.addWidget(self.caption)
        layout.addWidget(self.table, 1)
        self.setMaximumHeight(150)  # a few rows (it scrolls): the SASS above keeps its lines
        # as low as its header and a row (it scrolls): the SASS above it keeps its lines in a
        # low window
        row = self.table.verticalHeader().defaultSectionSize()
        self.table.setMinimumHeight(self.table.horizontalHeader().sizeHint().height() + row)

    def show_comparison(self, comp: KernelComparison | None) -> None:
        self.comparison = comp
        changed = [o for o in comp.opcodes if o.count_delta or o.executed_delta] if comp else []
        self.model.set_rows(changed)
        for column, width in enumerate([16, 7, 7, 10, 12, 12, 13]):
            fit_column(self.table, column, width)
        if comp is None:
            self.caption.setText("")
            return
        aligned = f"{comp.instructions_aligned:.0%} of the instructions align"
        rows = (
            "per-instruction deltas in the SASS columns"
            if comp.instructions
            else "too few for per-instruction deltas"
        )
        same = "" if changed else "; every opcode is the same on both sides"
        self.caption.setText(f"SASS by opcode, new − baseline: {aligned}, {rows}{same}")
