"""The kernel list: one row per kernel, fixed columns plus the profile's kernel metrics."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from kernelscope.core.ncu import TIME_US
from kernelscope.core.view import KernelSummary, ViewDocument

from ..widgets.formatting import format_dims, format_number
from ..widgets.roles import BarRole, KeyRole, SortRole
from ..widgets.sorting import SortLastRole

Index = QModelIndex | QPersistentModelIndex


@dataclass
class _Column:
    title: str
    value: Callable[[KernelSummary], Any]  # raw value, used for sorting and bars
    text: Callable[[KernelSummary], str]
    bar: bool = False
    # other roles the column answers itself (compare mode's delta bars and tooltips)
    roles: Callable[[KernelSummary, int], Any] | None = None


def _static_columns() -> list[_Column]:
    return [
        _Column("Kernel", lambda s: s.name, lambda s: s.name),
        _Column("Fused ops", lambda s: len(s.ops), lambda s: ", ".join(_short(o) for o in s.ops)),
        _Column("Grid", lambda s: math.prod(s.grid), lambda s: format_dims(s.grid)),
        _Column("Block", lambda s: math.prod(s.block), lambda s: format_dims(s.block)),
        _Column("Registers", lambda s: s.registers or 0, lambda s: format_number(s.registers)),
        # the build's counts: blank, not 0, for a report opened without its workspace
        _Column(
            "SASS",
            lambda s: s.sass_instructions or 0,
            lambda s: format_number(s.sass_instructions),
            True,
        ),
        _Column("Lines", lambda s: s.source_lines or 0, lambda s: format_number(s.source_lines)),
        _Column("Top stall", lambda s: s.top_stall, lambda s: s.top_stall),
    ]


# What the build's columns mean (the profile's columns say it with their metric's description).
_STATIC_TIPS = {
    "Kernel": "The kernel's name, as TVM wrote it",
    "Fused ops": "The Relax operators TVM fused into this kernel",
    "Grid": "Blocks per launch (x×y×z)",
    "Block": "Threads per block (x×y×z)",
    "Registers": "Registers per thread (the build's cubin, else launch__registers_per_thread)",
    "SASS": "SASS instructions in the kernel (the build's; blank for a report opened alone)",
    "Lines": "Lines of the kernel's .cu file (the build's; blank for a report opened alone)",
    "Top stall": "The stall reason with most warp samples over the whole kernel",
}


def _metric_column(name: str) -> _Column:
    return _Column(
        name,
        lambda s: s.metrics.get(name, 0.0),
        lambda s: format_number(s.metrics.get(name)),
        True,
    )


def _short(op: str) -> str:
    return op.removeprefix("relax.")


class KernelListModel(QAbstractTableModel):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[KernelSummary] = []
        self._columns: list[_Column] = _static_columns()
        self._max: list[float] = []
        self._unlaunched: frozenset[str] = frozenset()
        self._document: ViewDocument | None = None
        self._own = 0  # rows of the document; compare mode adds the baseline's own after them

    def set_document(self, document: ViewDocument | None) -> None:
        self._document = document
        self.set_comparison([])

    def set_comparison(
        self, columns: Sequence[_Column], extra_rows: Sequence[KernelSummary] = ()
    ) -> None:
        """Compare mode: ``columns`` right after the kernel's name, and ``extra_rows`` for
        kernels only the baseline has (they have no key: there is nothing to open); no
        columns: the document alone."""
        document = self._document
        self.beginResetModel()
        self._unlaunched = document.never_launched if document else frozenset()
        # kernels the model never launches last (dimmed), also in program order
        rows = list(document.summaries) if document else []
        self._rows = sorted(rows, key=lambda s: s.name in self._unlaunched)
        self._own = len(self._rows)
        self._rows += extra_rows
        static = _static_columns()
        names = document.kernel_metric_names if document else ()
        # compared, "New µs" is the time per pass: the profile's total would repeat it
        metrics = [_metric_column(m) for m in names if not (columns and m == TIME_US)]
        # name first, then what the profile measured, then the build facts
        self._columns = [static[0], *columns, *metrics, *static[1:]]
        self._max = [
            max((float(c.value(r)) for r in self._rows), default=0.0) if c.bar else 0.0
            for c in self._columns
        ]
        self.endResetModel()

    def row_of(self, name: str) -> int:
        for i, r in enumerate(self._rows):
            if r.name == name:
                return i
        return -1

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._columns)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        horizontal = orientation == Qt.Orientation.Horizontal
        if horizontal and role == Qt.ItemDataRole.DisplayRole and 0 <= section < len(self._columns):
            return self._columns[section].title
        if horizontal and role == Qt.ItemDataRole.ToolTipRole and 0 <= section < len(self._columns):
            return self._column_tip(self._columns[section].title)
        return None

    def _column_tip(self, title: str) -> str | None:
        document = self._document
        if document is not None and title in document.kernel_metric_names:
            return document.metric_description(title) or None
        return _STATIC_TIPS.get(title)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row, col = self._rows[index.row()], self._columns[index.column()]
        if col.roles is not None and (answer := col.roles(row, role)) is not None:
            return answer
        if index.row() >= self._own:  # only in the baseline
            if role == KeyRole:
                return None
            if role == Qt.ItemDataRole.ForegroundRole:
                return QColor(Qt.GlobalColor.gray)
        if role == Qt.ItemDataRole.DisplayRole:
            return col.text(row)
        if role == SortRole:
            return col.value(row)
        if role == KeyRole:
            return row.name
        if role == BarRole and col.bar:
            top = self._max[index.column()]
            return float(col.value(row)) / top if top > 0 else 0.0
        if role == SortLastRole:
            return row.name in self._unlaunched
        if role == Qt.ItemDataRole.ForegroundRole and row.name in self._unlaunched:
            return QApplication.palette().color(
                QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text
            )
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = _tooltip(row)
            if row.name in self._unlaunched:
                tip += "<br><i>never launched: TVM keeps it, the model runs it as a view</i>"
            return tip
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() > 0 and col.bar:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


def _tooltip(row: KernelSummary) -> str:
    lines = [f"<b>{row.name}</b>"]
    if row.ops:
        lines.append("Fused Relax operators:<br>" + "<br>".join(f"• {op}" for op in row.ops))
    if row.grid:
        lines.append(f"grid {format_dims(row.grid)}, block {format_dims(row.block)}")
    return "<br>".join(lines)
