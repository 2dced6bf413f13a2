"""The Steps dock: the step ledger of an LLM's profile, as ``kernelscope steps`` prints it.

Above, each profiled step with its symbolic values (seq len, batch, cached tokens) and its time
by operator group; beside, each kernel at each binding it ran at, flagged where the grid ncu
recorded is not the one the build's grid expression gives. Choosing a step shows its rows
only; choosing a row selects that kernel and launch through the window's one ``Selection``, so
the source, the SASS and Details (that launch's) follow. The ledger (``view.read_ledger``) is
read once per document on the document lane, when the pane is first shown.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QSortFilterProxyModel, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from kernelscope.core.ncu import Ledger, group_shares
from kernelscope.core.view import Selection, ViewDocument, read_ledger

from ..code.delegates import BarDelegate
from ..widgets.columns import fit_column, rows_table
from ..widgets.formatting import format_us
from ..widgets.messages import error_html
from ..widgets.roles import KeyRole
from ..widgets.rows_model import sort_by_role
from ..widgets.shown import ShownGate
from ..workers.jobs import Latest, Workers
from .model import TIME, LedgerModel, StepsModel

NO_STEPS = (
    "This profile has no steps. The ledger splits an LLM's profiled steps by operator group: "
    "<code>kernelscope profile WORKSPACE --steps prefill=128,decode=32 --profile-steps "
    "decode:0-3</code>, then open the workspace."
)
ALL_STEPS = "All steps"


class StepsPane(QWidget):
    error = Signal(str, object)  # title, exception

    def __init__(self, selection: Selection, workers: Workers) -> None:
        super().__init__()
        self.setObjectName("steps_pane")
        self.selection = selection
        self.ledger: Ledger | None = None
        self._asked: ViewDocument | None = None  # the document whose ledger was asked for
        self._latest = Latest(workers, "document", "reading the step ledger", self)
        self._latest.result.connect(self._on_ledger)
        self._latest.failed.connect(self._on_failed)
        self.gate = ShownGate(self.refresh)
        self.caption = QLabel(NO_STEPS)
        self.caption.setObjectName("steps_caption")
        self.caption.setWordWrap(True)
        self.caption.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.step_box = QComboBox()
        self.step_box.setObjectName("steps_choice")
        self.step_box.setToolTip("The kernels of all steps, or of one step")
        self.step_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.step_box.currentIndexChanged.connect(self._on_step_chosen)
        self.steps_model = StepsModel(self)
        self.steps = rows_table(self.steps_model)
        self.steps.setObjectName("steps_table")
        self.steps.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.steps.setToolTip("Choose a step to list its kernels only")
        self._step_bars = BarDelegate(self.steps)
        self.rows_model = LedgerModel(self)
        self.proxy = sort_by_role(QSortFilterProxyModel(self), self.rows_model)
        self.rows = rows_table(self.proxy)
        self.rows.setObjectName("ledger_table")
        self.rows.setSortingEnabled(True)
        self.rows.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.rows.setAlternatingRowColors(True)
        self.rows.setToolTip("Choose a row to select that kernel's launch in every pane")
        self._row_bars = BarDelegate(self.rows)
        self.rows.setItemDelegateForColumn(TIME, self._row_bars)
        self.split = QSplitter(Qt.Orientation.Horizontal)
        self.split.addWidget(self.steps)
        right = QWidget()
        column = QVBoxLayout(right)
        column.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        bar.addWidget(QLabel("Kernels of"))
        bar.addWidget(self.step_box)
        bar.addStretch(1)
        column.addLayout(bar)
        column.addWidget(self.rows, 1)
        self.split.addWidget(right)
        self.split.setStretchFactor(0, 5)
        self.split.setStretchFactor(1, 6)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.caption)
        layout.addWidget(self.split, 1)
        self.split.hide()
        self.steps.selectionModel().currentRowChanged.connect(self._on_step_row)
        self.rows.selectionModel().currentRowChanged.connect(self._on_row)
        selection.document_changed.connect(self._on_document)
        selection.kernel_changed.connect(self._on_kernel)
        selection.launch_changed.connect(self._on_kernel)

    @property
    def busy(self) -> bool:
        return self._latest.busy

    # ---- reading ------------------------------------------------------------------------------
    def _on_document(self) -> None:
        self._latest.cancel()
        self._asked = None
        self._set_ledger(None)
        self.refresh()

    def refresh(self) -> None:
        if not self.gate.due():
            return
        document = self.selection.document
        if document is None or not document.steps:
            why = document.notes[0] if document is not None and document.notes else ""
            text = NO_STEPS
            if why.startswith("the kernel list cannot show steps"):
                text = html.escape(why) + "<br>" + NO_STEPS
            self.caption.setText(text)
            return
        if self.ledger is None and self._asked is not document:
            self._asked = document  # once per document (a newer one replaces the request)
            self.caption.setText("Reading the step ledger…")
            session = self.selection.open_session()
            self._latest.submit(lambda context: read_ledger(session), document)

    def _on_ledger(self, ledger: Ledger, document: ViewDocument) -> None:
        if document is not self.selection.document:
            return
        self._set_ledger(ledger)

    def _on_failed(self, error: BaseException, document: object) -> None:
        self.caption.setText(error_html("Cannot read the step ledger", error))

    def _set_ledger(self, ledger: Ledger | None) -> None:
        self.ledger = ledger
        self.steps_model.set_ledger(ledger)
        for c in range(6, self.steps_model.columnCount()):  # the groups' columns: bars
            self.steps.setItemDelegateForColumn(c, self._step_bars)
        self.step_box.blockSignals(True)
        self.step_box.clear()
        if ledger is not None:
            self.step_box.addItem(f"{ALL_STEPS} ({len(ledger.steps)})", None)
            for s in ledger.steps:
                self.step_box.addItem(f"{s.label} ({s.launches} launches)", s.label)
        self.step_box.blockSignals(False)
        self.rows_model.set_ledger(ledger)
        self.split.setVisible(ledger is not None)
        if ledger is None:
            return
        self.rows.sortByColumn(TIME, Qt.SortOrder.DescendingOrder)
        for c in range(self.steps_model.columnCount()):
            fit_column(self.steps, c, 6)
        for c, chars in enumerate((30, 10, 22, 10, 8, 9)):
            fit_column(self.rows, c, chars, most=48)
        shares = ", ".join(f"{g} {share:.0%}" for g, share in group_shares(ledger.steps).items())
        text = (
            f"<b>{len(ledger.steps)} steps</b>, {format_us(ledger.duration_ns)} µs "
            f"(ncu: serialised launches, base clocks): {html.escape(shares)}"
        )
        flags = ledger.flags
        if flags:
            text += (
                f"<br>⚠ {len(flags)} row{'s' * (len(flags) > 1)} whose grid disagrees with its "
                f"bindings: {html.escape(flags[0])}"
            )
        self.caption.setText(text)
        self._on_kernel()

    # ---- choosing ----------------------------------------------------------------------------
    def _on_step_row(self, current: QModelIndex, previous: QModelIndex) -> None:
        label = self.steps_model.data(current, KeyRole) if current.isValid() else None
        index = self.step_box.findData(label) if label else 0
        self.step_box.setCurrentIndex(max(index, 0))

    def _on_step_chosen(self, index: int) -> None:
        step = self.step_box.itemData(index) if index >= 0 else None
        self.rows_model.set_ledger(self.ledger, step)
        self._on_kernel()

    def _on_row(self, current: QModelIndex, previous: QModelIndex) -> None:
        key = self.proxy.data(current, KeyRole) if current.isValid() else None
        if not key:
            return
        kernel, launch = key
        view = self.selection.kernel
        if view is not None and view.name == kernel and self.selection.launch == launch:
            return
        self.selection.show(kernel, launch=launch)

    def _on_kernel(self) -> None:
        """Show the row of the selected kernel (and launch), selecting nothing else."""
        view = self.selection.kernel
        if view is None or self.ledger is None:
            return
        row = self.rows_model.row_of(view.name, self.selection.launch)
        index = self.proxy.mapFromSource(self.rows_model.index(row, 0))
        if index.isValid() and index.row() != self.rows.currentIndex().row():
            self.rows.selectionModel().blockSignals(True)
            self.rows.selectionModel().setCurrentIndex(
                index,
                QItemSelectionModel.SelectionFlag.ClearAndSelect
                | QItemSelectionModel.SelectionFlag.Rows,
            )
            self.rows.selectionModel().blockSignals(False)
            self.rows.viewport().update()
            self.rows.scrollTo(index)
