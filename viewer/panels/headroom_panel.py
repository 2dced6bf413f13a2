"""The headroom list: per kernel its TVM operators and shapes, the time it took, the time the
roofline allows for the work it did, the time its operators need, and the microseconds the
model could save; sortable, most savings first, kernels never launched last. Double-click
(or Enter) a row to select its kernel.

The rows are ``view.read_headroom`` (what ``kernelscope details REPORT -w WS`` prints),
computed once per document on the document lane when the panel is first shown.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHeaderView,
    QLabel,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from kernelscope.core.roofline import Headroom, HeadroomRow
from kernelscope.core.view import Selection, ViewDocument, read_headroom

from ..code.delegates import BarDelegate
from ..widgets.formatting import format_us
from ..widgets.messages import error_html
from ..widgets.roles import BarRole, KeyRole, SortRole
from ..widgets.sorting import LastRowsProxy, SortLastRole
from ..workers.jobs import Latest, Workers

Index = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True)
class _Column:
    title: str
    text: Callable[[HeadroomRow], str]
    value: Callable[[HeadroomRow], Any]
    tip: str
    number: bool = False


COLUMNS = (
    _Column("Kernel", lambda r: r.kernel, lambda r: r.kernel, "the kernel"),
    _Column(
        "Savings µs",
        lambda r: format_us(r.savings_ns) if r.launched else "-",
        lambda r: r.savings_ns,
        "measured − the operator-bound ideal (measured − roofline time when the operators "
        "cannot be costed): the most a better schedule or tuning could save",
        True,
    ),
    _Column(
        "Measured µs",
        lambda r: format_us(r.measured_ns) if r.launched else "-",
        lambda r: r.measured_ns,
        "the kernel's launches' durations, summed",
        True,
    ),
    _Column(
        "Roofline µs",
        lambda r: format_us(r.roofline_ns),
        lambda r: -1.0 if r.roofline_ns is None else r.roofline_ns,
        "max(FLOPs / peak, bytes / bandwidth) for the work and traffic the counters measured: "
        "what a perfect schedule of this kernel's instructions would take",
        True,
    ),
    _Column(
        "Operator µs",
        lambda r: format_us(r.operator_ns),
        lambda r: -1.0 if r.operator_ns is None else r.operator_ns,
        "max(FLOPs / peak, minimal bytes / DRAM bandwidth) from the analytic cost of the fused "
        "Relax operators and their shapes: what the operators need, whatever the schedule",
        True,
    ),
    _Column("Launches", lambda r: str(r.launches), lambda r: r.launches, "launches profiled", True),
    _Column(
        "Bound",
        lambda r: " / ".join(
            part for part in (r.bound, f"op {r.operator_bound}" if r.operator_bound else "") if part
        ),
        lambda r: r.bound,
        "what limits the measured work on the roofline (compute, dram, l2, l1) / what bounds "
        "the operators' own needs",
    ),
    _Column(
        "Operators",
        lambda r: "; ".join(r.ops),
        lambda r: "; ".join(r.ops),
        "the fused Relax operators with their shapes (from the workspace's manifest)",
    ),
    _Column("Note", lambda r: r.note, lambda r: r.note, "why a column is empty"),
)
SAVINGS = 1


class HeadroomModel(QAbstractTableModel):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[HeadroomRow] = []
        self._top = 0.0

    def set_headroom(self, headroom: Headroom | None) -> None:
        self.beginResetModel()
        self._rows = list(headroom.rows) if headroom else []
        self._top = max((r.savings_ns for r in self._rows), default=0.0)
        self.endResetModel()

    def row_of(self, kernel: str) -> int:
        return next((i for i, r in enumerate(self._rows) if r.kernel == kernel), -1)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(COLUMNS):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section].title
        if role == Qt.ItemDataRole.ToolTipRole:
            return COLUMNS[section].tip
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row, col = self._rows[index.row()], COLUMNS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return col.text(row)
        if role == SortRole:
            return col.value(row)
        if role == KeyRole:
            return row.kernel
        if role == SortLastRole:
            return not row.launched
        if role == BarRole and index.column() == SAVINGS:
            return row.savings_ns / self._top if self._top > 0 else 0.0
        if role == Qt.ItemDataRole.ForegroundRole and not row.launched:
            return QApplication.palette().color(
                QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text
            )
        if role == Qt.ItemDataRole.ToolTipRole:
            lines = [f"<b>{html.escape(row.kernel)}</b>"]
            lines += [f"• {html.escape(op)}" for op in row.ops]
            if row.note:
                lines.append(html.escape(row.note))
            return "<br>".join(lines)
        if role == Qt.ItemDataRole.TextAlignmentRole and col.number:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class HeadroomPanel(QWidget):
    def __init__(self, selection: Selection, workers: Workers) -> None:
        super().__init__()
        self.setObjectName("headroom_panel")
        self.selection = selection
        self.headroom: Headroom | None = None
        self._latest = Latest(workers, "document", "computing the headroom list", self)
        self._latest.result.connect(self._on_headroom)
        self._latest.failed.connect(self._on_failed)
        self._stale = True
        self.shown = False  # set_shown: whether its dock's tab is on screen
        self.model = HeadroomModel(self)
        self.proxy = LastRowsProxy(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(SortRole)
        self.caption = QLabel()
        self.caption.setObjectName("headroom_caption")
        self.caption.setWordWrap(True)
        self.caption.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setShowGrid(False)
        self.table.setWordWrap(False)
        self.table.setAlternatingRowColors(True)
        self.table.setToolTip("Double-click (or Enter) to select the kernel")
        self._bars = BarDelegate(self.table)
        self.table.setItemDelegateForColumn(SAVINGS, self._bars)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.caption)
        layout.addWidget(self.table, 1)
        self.table.activated.connect(self._go)
        selection.document_changed.connect(self._on_document)
        selection.kernel_changed.connect(self._on_kernel)
        self.caption.setText("Open a report or a profiled workspace for its headroom list.")

    @property
    def busy(self) -> bool:
        return self._latest.busy

    def set_shown(self, shown: bool) -> None:
        """Whether the pane is on screen (its dock's tab is the current one: a tabbed dock
        stays ``isVisible()`` behind another); it reads what it shows only then."""
        self.shown = shown
        if shown and self._stale:
            self.refresh()

    def _on_document(self) -> None:
        self._latest.cancel()
        self.headroom = None
        self.model.set_headroom(None)
        self._stale = True
        self.refresh()

    def refresh(self) -> None:
        if not self.shown:
            self._stale = True
            return
        self._stale = False
        document = self.selection.document
        if document is None:
            self.caption.setText("Open a report or a profiled workspace for its headroom list.")
            return
        if not document.has_profile:
            self.caption.setText(
                f"{html.escape(document.title)} has no Nsight Compute profile: the headroom "
                "list compares measured times with the roofline's. Profile the workspace or "
                "open a report."
            )
            return
        if self.headroom is None:
            self.caption.setText("Computing the headroom list…")
            session = self.selection.open_session()
            self._latest.submit(lambda context: read_headroom(session), document)

    def _on_headroom(self, headroom: Headroom, document: ViewDocument) -> None:
        if document is not self.selection.document:
            return
        self.headroom = headroom
        self.model.set_headroom(headroom)
        self.table.sortByColumn(SAVINGS, Qt.SortOrder.DescendingOrder)
        chars = self.fontMetrics().horizontalAdvance("0")
        for column, width in enumerate([36, 12, 12, 12, 12, 9, 22, 60]):
            self.table.setColumnWidth(column, chars * width)
        parts = [html.escape(headroom.summary(), quote=False)]
        notes = headroom.notes
        if document.workspace_path is None:  # the CLI's "-w" means nothing in the window
            notes = [n for n in notes if not n.startswith("no workspace given")]
            notes.append(
                "a report on its own: open the build's workspace with this report attached "
                "(kernelscope import REPORT -w WORKSPACE) for the operator column"
            )
        parts += [html.escape(n, quote=False) for n in notes]
        self.caption.setText("<br>".join(parts))
        self._on_kernel()

    def _on_failed(self, error: BaseException, document: object) -> None:
        self.caption.setText(error_html("Cannot compute the headroom list", error))

    def _on_kernel(self) -> None:
        """Show the selected kernel's row (without selecting anything else)."""
        kernel = self.selection.kernel
        if kernel is None or self.headroom is None:
            return
        index = self.proxy.mapFromSource(self.model.index(self.model.row_of(kernel.name), 0))
        if index.isValid() and index.row() != self.table.currentIndex().row():
            self.table.selectionModel().setCurrentIndex(
                index,
                QItemSelectionModel.SelectionFlag.ClearAndSelect
                | QItemSelectionModel.SelectionFlag.Rows,
            )
            self.table.scrollTo(index)

    def _go(self, index: QModelIndex) -> None:
        kernel = self.proxy.data(index, KeyRole)
        if kernel:
            self.selection.show(str(kernel))
