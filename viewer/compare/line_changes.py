"""Compare mode in the hot-lines panel: "biggest regressions" and "biggest improvements", the
source lines whose metric grew or shrank most between the baseline and the new profile, per
pass (``Comparison.line_changes``), in the kernel shown or over the whole model."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QTableView

from kernelscope.core.compare import FASTER, SLOWER, WITHIN_NOISE, LineChange
from kernelscope.core.ncu import label_of

from ..code.delegates import BarDelegate
from ..code.delta_delegate import DeltaDelegate, DeltaRole
from ..widgets.columns import fit_column
from ..widgets.formatting import format_number
from ..widgets.roles import BarRole, KeyRole, SortRole
from ..workers.jobs import JobFn
from .controller import CompareController, metric_key

Index = QModelIndex | QPersistentModelIndex
_TITLES = ["Δ", "Base", "New", "Kernel", "Line", "Source"]
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
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


class LineChangesModel(QAbstractTableModel):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[LineChange] = []

    def set_rows(self, rows: list[LineChange]) -> None:
        self.beginResetModel()
        self._rows = rows
        self.endResetModel()

    def change(self, row: int) -> LineChange:
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
        c, col = self._rows[index.row()], index.column()
        text = (c.row.new_text if c.row.new_text is not None else c.row.base_text) or ""
        if role == KeyRole:
            return index.row()
        if role == Qt.ItemDataRole.DisplayRole:
            delta = format_number(c.delta)
            return [
                f"+{delta}" if c.delta > 0 else delta,
                format_number(c.base_value),
                format_number(c.new_value),
                c.kernel,
                _where(c),
                text.strip(),
            ][col]
        if role == SortRole:
            return [c.delta, c.base_value, c.new_value, c.kernel, c.row.new_line, text][col]
        if role == DeltaRole and col == 0:
            top = max((abs(r.delta) for r in self._rows), default=0.0)
            return (c.delta / top if top > 0 else 0.0, _status(c))
        if role == BarRole and col in (1, 2):
            top = max(max(r.base_value or 0.0, r.new_value or 0.0) for r in self._rows)
            value = c.base_value if col == 1 else c.new_value
            return (value or 0.0) / top if top > 0 else 0.0
        if role == Qt.ItemDataRole.TextAlignmentRole and col < 3:
            return _RIGHT
        if role == Qt.ItemDataRole.ToolTipRole:
            noise = "within noise" if c.within_noise else "beyond noise"
            names = c.kernel if c.base_kernel == c.new_kernel else f"{c.base_kernel} → {c.kernel}"
            return f"{names}: {c.row.kind}; {noise} (±{format_number(c.noise)})"
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
