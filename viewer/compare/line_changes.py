"""Compare mode in the hot-lines panel: "biggest regressions" and "biggest improvements", the
source lines whose metric grew or shrank most between the baseline and the new profile, per
pass (``Comparison.line_changes``), in the kernel shown or over the whole model."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QTableView

from kernelscope.core.compare import FASTER, SLOWER, WITHIN_NOISE, LineChange
from kernelscope.core.ncu import label_of

from ..code.delegates import BarDelegate
from ..code.delta_delegate import DeltaDelegate, DeltaRole
from ..widgets.columns import fit_column
from ..widgets.formatting import format_number
from ..widgets.rows_model import Column, RowsModel
from ..workers.jobs import JobFn
from .controller import CompareController, metric_key

RANKINGS = ["Hottest lines", "Biggest regressions", "Biggest improvements"]


def _status(change: LineChange) -> str:
    if change.within_noise:
        return WITHIN_NOISE
    return SLOWER if change.delta > 0 else FASTER


def _where(change: LineChange) -> str:
    row = change.row
    if row.new_line is None:
        return f"base {row.base_line} (removed)"
    if row.base_line is None:
        return f"{row.new_line} (added)"
    return (
        str(row.new_line) if row.base_line == row.new_line else f"{row.new_line} ← {row.base_line}"
    )


def _text(change: LineChange) -> str:
    return (change.row.new_text if change.row.new_text is not None else change.row.base_text) or ""


class LineChangesModel(RowsModel[LineChange]):
    """One row per changed source line; ``KeyRole`` gives the row's number (``change``)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(
            [
                Column(
                    "Δ",
                    lambda c: c.delta,
                    lambda c: (
                        f"+{format_number(c.delta)}" if c.delta > 0 else format_number(c.delta)
                    ),
                ),
                Column(
                    "Base",
                    lambda c: c.base_value,
                    lambda c: format_number(c.base_value),
                    bar=lambda c: (c.base_value or 0.0) / self._top if self._top > 0 else 0.0,
                ),
                Column(
                    "New",
                    lambda c: c.new_value,
                    lambda c: format_number(c.new_value),
                    bar=lambda c: (c.new_value or 0.0) / self._top if self._top > 0 else 0.0,
                ),
                Column("Kernel", lambda c: c.kernel, lambda c: c.kernel, number=False),
                Column("Line", lambda c: c.row.new_line, _where, number=False),
                Column("Source", _text, lambda c: _text(c).strip(), number=False),
            ],
            parent,
        )
        self._top = 0.0  # the largest value, either side: the bars' full width
        self._top_delta = 0.0

    def set_rows(self, rows: Sequence[LineChange]) -> None:
        self._top = max((max(r.base_value or 0.0, r.new_value or 0.0) for r in rows), default=0.0)
        self._top_delta = max((abs(r.delta) for r in rows), default=0.0)
        super().set_rows(rows)

    def change(self, row: int) -> LineChange:
        return self.rows[row]

    def key(self, row: LineChange, number: int) -> int:
        return number

    def tooltip(self, row: LineChange, column: int) -> str:
        noise = "within noise" if row.within_noise else "beyond noise"
        names = (
            row.kernel if row.base_kernel == row.new_kernel else f"{row.base_kernel} → {row.kernel}"
        )
        return f"{names}: {row.row.kind}; {noise} (±{format_number(row.noise)})"

    def role_data(self, row: LineChange, column: int, role: int) -> Any:
        if role == DeltaRole and column == 0:
            top = self._top_delta
            return (row.delta / top if top > 0 else 0.0, _status(row))
        return None


class LineChanges:
    """What the hot-lines panel asks in compare mode: the ranking job, and the rows shown."""

    def __init__(self, controller: CompareController, parent: QObject) -> None:
        self.controller = controller
        self.model = LineChangesModel(parent)
        self._delta: DeltaDelegate | None = None
        self._bars: BarDelegate | None = None

    def job(self, metric: str, kernel: str | None, worse: bool) -> JobFn | None:
        return self.controller.line_changes_job(metric, kernel, worse)

    def show(self, table: QTableView, rows: list[LineChange], metric: str, worse: bool) -> str:
        """Put the rows in ``table``; the caption for them."""
        self.model.set_rows(rows)
        if table.model() is not self.model:
            table.setModel(self.model)
            self._delta = DeltaDelegate(table)
            self._bars = BarDelegate(table)
            table.setItemDelegateForColumn(0, self._delta)
            table.setItemDelegateForColumn(1, self._bars)
            table.setItemDelegateForColumn(2, self._bars)
        chars = table.fontMetrics().horizontalAdvance("0")
        for column, width in enumerate([10, 9, 9, 30, 14]):
            if column < 3:  # the change and both values, whole
                fit_column(table, column, width)
            else:
                table.setColumnWidth(column, chars * width)
        key = metric_key(metric)
        label = label_of(key) if key else metric
        grew = "grew" if worse else "shrank"
        passes = " per pass" if self._per_pass() else ""
        lines = "line" if len(rows) == 1 else "lines"
        return f"{len(rows)} {lines} whose {label} {grew} most{passes}, new − baseline"

    def _per_pass(self) -> bool:
        diff = self.controller.diff
        return diff is not None and (diff.base.passes != 1 or diff.new.passes != 1)

    def location(self, row: int) -> tuple[str, int | None]:
        """The kernel and line of the new build a row goes to (a removed line: the kernel)."""
        change = self.model.change(row)
        return change.new_kernel or change.kernel, change.row.new_line
