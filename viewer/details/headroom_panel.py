"""The headroom list: per kernel its TVM operators and shapes, the time it took, the time the
roofline allows for the work it did, the time its operators need, and the microseconds the
model could save; sortable, most savings first, kernels never launched last. Double-click
(or Enter) a row to select its kernel.

The rows are ``view.read_headroom`` (what ``kernelscope details REPORT -w WS`` prints),
computed once per document on the document lane when the panel is first shown. In compare
mode (``set_baseline``) the list stays the shown run's, recomputed on it (the tuned run,
after Build & Profile Tuned), with a "Before µs" column: the matched kernel's savings in the
baseline's list, and both totals in the caption.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import (
    QItemSelectionModel,
    QModelIndex,
    QObject,
    Qt,
)
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from kernelscope.core.compare import ProfileDiff
from kernelscope.core.roofline import Headroom, HeadroomRow
from kernelscope.core.view import ProfileSession, Selection, ViewDocument, read_headroom

from ..code.delegates import BarDelegate
from ..widgets.columns import rows_table
from ..widgets.formatting import format_us
from ..widgets.messages import error_html
from ..widgets.roles import BarRole, KeyRole
from ..widgets.rows_model import Column, RowsModel, sort_by_role
from ..widgets.shown import ShownGate
from ..widgets.sorting import LastRowsProxy, SortLastRole
from ..workers.jobs import Latest, Workers

COLUMNS: tuple[Column[HeadroomRow], ...] = (
    Column(
        "Kernel",
        lambda r: r.kernel,
        lambda r: r.kernel,
        number=False,
        tip="the kernel",
    ),
    Column(
        "Savings µs",
        lambda r: r.savings_ns,
        lambda r: format_us(r.savings_ns) if r.launched else "-",
        number=True,
        tip="measured − the operator-bound ideal (measured − roofline time when the operators "
        "cannot be costed): the most a better schedule or tuning could save",
    ),
    Column(
        "Measured µs",
        lambda r: r.measured_ns,
        lambda r: format_us(r.measured_ns) if r.launched else "-",
        number=True,
        tip="the kernel's launches' durations, summed",
    ),
    Column(
        "Roofline µs",
        lambda r: -1.0 if r.roofline_ns is None else r.roofline_ns,
        lambda r: format_us(r.roofline_ns),
        number=True,
        tip="max(FLOPs / peak, bytes / bandwidth) for the work and traffic the counters measured: "
        "what a perfect schedule of this kernel's instructions would take",
    ),
    Column(
        "Operator µs",
        lambda r: -1.0 if r.operator_ns is None else r.operator_ns,
        lambda r: format_us(r.operator_ns),
        number=True,
        tip="max(FLOPs / peak, minimal bytes / DRAM bandwidth) from the analytic cost of the fused "
        "Relax operators and their shapes: what the operators need, whatever the schedule",
    ),
    Column(
        "Launches",
        lambda r: r.launches,
        lambda r: str(r.launches),
        number=True,
        tip="launches profiled",
    ),
    Column(
        "Bound",
        lambda r: r.bound,
        lambda r: " / ".join(
            part for part in (r.bound, f"op {r.operator_bound}" if r.operator_bound else "") if part
        ),
        number=False,
        tip="what limits the measured work on the roofline (compute, dram, l2, l1) / what bounds "
        "the operators' own needs",
    ),
    Column(
        "Operators",
        lambda r: "; ".join(r.ops),
        lambda r: "; ".join(r.ops),
        number=False,
        tip="the fused Relax operators with their shapes (from the workspace's manifest)",
    ),
    Column(
        "Note",
        lambda r: r.note,
        lambda r: r.note,
        number=False,
        tip="why a column is empty",
    ),
)
SAVINGS = 1
BEFORE = "Before µs"
WIDTHS = {"Kernel": 36, "Operators": 22, "Note": 60, "Bound": 22, "Launches": 9}  # chars; else 12


class HeadroomModel(RowsModel[HeadroomRow]):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(COLUMNS, parent)
        self._top = 0.0

    def set_before(self, before: dict[str, float] | None) -> None:
        """Compare mode: a "Before µs" column after the savings, the baseline's savings of
        each kernel (ns, by this run's kernel name); None: no such column."""
        self.beginResetModel()
        self.columns = list(COLUMNS)
        if before is not None:
            self.columns.insert(
                SAVINGS + 1,
                Column(
                    BEFORE,
                    lambda r: before.get(r.kernel, -1.0),
                    lambda r: format_us(before[r.kernel]) if r.kernel in before else "-",
                    number=True,
                    tip="the same kernel's savings in the baseline's headroom list (the untuned "
                    "run's, when comparing a tuned build): what there was to gain before",
                ),
            )
        self.endResetModel()

    def set_headroom(self, headroom: Headroom | None) -> None:
        rows = list(headroom.rows) if headroom else []
        self._top = max((r.savings_ns for r in rows), default=0.0)
        self.set_rows(rows)

    def row_of(self, kernel: str) -> int:
        return next((i for i, r in enumerate(self.rows) if r.kernel == kernel), -1)

    def key(self, row: HeadroomRow, number: int) -> str:
        return row.kernel

    def tooltip(self, row: HeadroomRow, column: int) -> str:
        lines = [f"<b>{html.escape(row.kernel)}</b>"]
        lines += [f"• {html.escape(op)}" for op in row.ops]
        if row.note:
            lines.append(html.escape(row.note))
        return "<br>".join(lines)

    def role_data(self, row: HeadroomRow, column: int, role: int) -> Any:
        if role == SortLastRole:
            return not row.launched
        if role == BarRole and column == SAVINGS:
            return row.savings_ns / self._top if self._top > 0 else 0.0
        if role == Qt.ItemDataRole.ForegroundRole and not row.launched:
            return QApplication.palette().color(
                QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text
            )
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
        self._before = Latest(workers, "document", "computing the baseline's headroom list", self)
        self._before.result.connect(self._on_before)
        self._before.failed.connect(self._on_failed)
        # compare mode: the baseline's session, this run's kernel -> the baseline's, and the
        # baseline's list once computed
        self._baseline: tuple[ProfileSession, dict[str, str]] | None = None
        self.baseline_headroom: Headroom | None = None
        self.gate = ShownGate(self.refresh)  # reads only while its tab is on screen
        self.model = HeadroomModel(self)
        self.proxy = sort_by_role(LastRowsProxy(self), self.model)
        self.caption = QLabel()
        self.caption.setObjectName("headroom_caption")
        self.caption.setWordWrap(True)
        self.caption.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.table = rows_table(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setToolTip("Double-click (or Enter) to select the kernel")
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)  # Tune…
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
        return self._latest.busy or self._before.busy

    def set_baseline(self, session: ProfileSession | None, diff: ProfileDiff | None) -> None:
        """Compare mode's baseline and the comparison's kernel matches (None: not comparing)."""
        self._before.cancel()
        self.baseline_headroom = None
        pairs = {d.match.new: d.match.base for d in diff.kernels} if diff is not None else {}
        matched = {new: base for new, base in pairs.items() if new and base}
        self._baseline = (session, matched) if session is not None and diff is not None else None
        self._set_before(None)
        self.refresh()

    def _on_document(self) -> None:
        self._latest.cancel()
        self.headroom = None
        self.model.set_headroom(None)
        self.set_baseline(None, None)  # compare mode says so again once it has compared

    def refresh(self) -> None:
        if not self.gate.due():
            return
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
        if self._baseline is not None and self.baseline_headroom is None and not self._before.busy:
            base = self._baseline[0]
            self._before.submit(lambda context: read_headroom(base), self._baseline)

    def _on_before(self, headroom: Headroom, baseline: object) -> None:
        if baseline is not self._baseline or self._baseline is None:
            return
        self.baseline_headroom = headroom
        saved = {r.kernel: r.savings_ns for r in headroom.rows if r.launched}
        before = {new: saved[base] for new, base in self._baseline[1].items() if base in saved}
        self._set_before(before)

    def _set_before(self, before: dict[str, float] | None) -> None:
        """The "Before µs" column (``HeadroomModel.set_before``), the widths and caption
        that follow from it."""
        self.model.set_before(before)
        self._fit_columns()
        self._show_caption()

    def _on_headroom(self, headroom: Headroom, document: ViewDocument) -> None:
        if document is not self.selection.document:
            return
        self.headroom = headroom
        self.model.set_headroom(headroom)
        self.table.sortByColumn(SAVINGS, Qt.SortOrder.DescendingOrder)
        self._fit_columns()
        self._show_caption()
        self._on_kernel()

    def _fit_columns(self) -> None:
        chars = self.fontMetrics().horizontalAdvance("0")
        for column, spec in enumerate(self.model.columns):
            self.table.setColumnWidth(column, chars * WIDTHS.get(spec.title, 12))

    def _show_caption(self) -> None:
        headroom, document = self.headroom, self.selection.document
        if headroom is None or document is None:
            return
        parts = [html.escape(headroom.summary(), quote=False)]
        before = self.baseline_headroom
        if self._baseline is not None and before is not None:
            parts.insert(
                0,
                f"<b>Recomputed on this run</b>: {format_us(headroom.savings_ns)} µs to save; "
                f"the baseline {html.escape(self._baseline[0].document.title)} had "
                f"{format_us(before.savings_ns)} µs (Before µs: each kernel's there).",
            )
        notes = headroom.notes
        if document.workspace_path is None:  # the CLI's "-w" means nothing in the window
            notes = [n for n in notes if not n.startswith("no workspace given")]
            notes.append(
                "a report on its own: open the build's workspace and attach this report to it "
                "(Build & Profile > Import Report…) for the operator column"
            )
        parts += [html.escape(n, quote=False) for n in notes]
        self.caption.setText("<br>".join(parts))

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

    def selected_names(self) -> list[str]:
        """The kernels of the selected rows."""
        rows = self.table.selectionModel().selectedRows()
        return [str(k) for k in (self.proxy.data(i, KeyRole) for i in rows) if k]

    def savings_us(self) -> dict[str, float] | None:
        """kernel -> microseconds to save, once the list was computed (None before)."""
        if self.headroom is None:
            return None
        return {row.kernel: row.savings_us for row in self.headroom.rows}

    def _go(self, index: QModelIndex) -> None:
        kernel = self.proxy.data(index, KeyRole)
        if kernel:
            self.selection.show(str(kernel))
