"""The kernel list dock: a filter box over a sortable table; choosing a row opens the kernel."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemDelegate,
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from kernelscope.core.ncu import KernelSummary
from kernelscope.core.view import Selection

from ..code.delegates import BarDelegate
from ..code.delta_delegate import DeltaDelegate
from ..widgets.columns import fit_column, widest_text
from ..widgets.roles import BarRole, KeyRole, item_data
from ..widgets.rows_model import Column, sort_by_role
from ..widgets.sorting import LastRowsProxy
from .kernel_list_model import KernelListModel


class KernelList(QWidget):
    # compare mode: a row of a kernel only the baseline has was chosen (its name; nothing opens)
    baseline_only_chosen = Signal(str)

    def __init__(self, selection: Selection) -> None:
        super().__init__()
        self.setObjectName("kernel_list")
        self.selection = selection
        self.model = KernelListModel(self)
        self.proxy = sort_by_role(
            LastRowsProxy(self), self.model
        )  # kernels never launched stay last
        self.proxy.setFilterKeyColumn(-1)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter kernels and fused ops (regex)…")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self.proxy.setFilterRegularExpression)
        # a report of an LLM's steps: all of them, or one step's kernels and times
        self.step = QComboBox()
        self.step.setObjectName("kernel_list_step")
        self.step.setToolTip(
            "A report of an LLM's steps (kernelscope profile --steps): the kernels of all "
            "the profiled steps, or of one step with their times in it"
        )
        self.step.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.step.hide()
        self.step.currentIndexChanged.connect(self._on_step)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.setShowGrid(False)
        self.table.setWordWrap(False)
        self.table.setAlternatingRowColors(True)
        self._bars = BarDelegate(self.table)
        self._delta = DeltaDelegate(self.table)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        top = QHBoxLayout()
        top.addWidget(self.filter, 1)
        top.addWidget(self.step)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        self.table.selectionModel().currentRowChanged.connect(self._on_current)
        selection.document_changed.connect(self._on_document)
        selection.kernel_changed.connect(self._on_kernel)
        # a kernel that failed to load leaves the list on the one still shown
        selection.loading_changed.connect(lambda loading: None if loading else self._on_kernel())

    def _on_document(self) -> None:
        document = self.selection.document
        self.model.set_document(document)
        self._fill_steps(document.steps if document is not None else {})
        for column in range(self.model.columnCount()):
            bar = self.model.data(self.model.index(0, column), BarRole) is not None
            delegate = self._bars if bar else self.table.itemDelegate()
            self.table.setItemDelegateForColumn(column, delegate)
        # the time (and Tuned, and the fused operators) beside the name
        self.fit_columns(1 + self.model.tuned_shown + self.model.ops_shown)
        # hottest first when a profile measured time, else program order (column -1 sorted
        # descending would be program order reversed)
        timed = bool(self.selection.document and self.selection.document.kernel_metric_names)
        self.table.sortByColumn(
            1 if timed else -1,
            Qt.SortOrder.DescendingOrder if timed else Qt.SortOrder.AscendingOrder,
        )

    def _fill_steps(self, steps: dict) -> None:
        self.step.blockSignals(True)
        self.step.clear()
        if steps:
            total = sum(len(k.launches) for kernels in steps.values() for k in kernels)
            self.step.addItem(f"All steps ({total} launches)", None)
            for label, kernels in steps.items():
                launches = sum(len(k.launches) for k in kernels)
                self.step.addItem(f"{label} ({launches} launches)", label)
        self.step.blockSignals(False)
        self.step.setVisible(bool(steps))

    def _on_step(self) -> None:
        self.model.set_step(self.step.currentData())
        self._on_kernel()  # the kernel shown stays chosen where the step has it

    def show_comparison(
        self,
        columns: Sequence[Column[KernelSummary]] = (),
        extra_rows: Sequence[KernelSummary] = (),
        change: str = "",
    ) -> None:
        """Compare mode: ``columns`` after the kernel's name and ``extra_rows`` for kernels
        only the baseline has (``KernelListModel.set_comparison``), the column titled
        ``change`` drawn as a diverging bar and sorted worst first; no columns: the
        document's own list, as it was."""
        current = self.selection.kernel
        model = self.model
        model.set_comparison(columns, extra_rows)
        change_column = -1
        for column in range(model.columnCount()):
            title = model.headerData(column, Qt.Orientation.Horizontal)
            delegate: QAbstractItemDelegate
            if columns and title == change:
                delegate, change_column = self._delta, column
            elif model.data(model.index(0, column), BarRole) is not None:
                delegate = self._bars
            else:
                delegate = self.table.itemDelegate()
            self.table.setItemDelegateForColumn(column, delegate)
        # compared: the change and the ratio beside the name, else the time
        self.fit_columns((2 if columns else 1) + self.model.tuned_shown + self.model.ops_shown)
        if change_column >= 0:  # worst regressions first
            self.table.sortByColumn(change_column, Qt.SortOrder.DescendingOrder)
        elif model.columnCount() > 1 and self.selection.document is not None:
            has_times = bool(self.selection.document.kernel_metric_names)
            self.table.sortByColumn(1 if has_times else -1, Qt.SortOrder.DescendingOrder)
        if current is not None:  # a reset forgot the current row: the kernel shown
            index = self.proxy.mapFromSource(model.index(model.row_of(current.name), 0))
            if index.isValid():
                self.table.selectionModel().setCurrentIndex(
                    index,
                    QItemSelectionModel.SelectionFlag.ClearAndSelect
                    | QItemSelectionModel.SelectionFlag.Rows,
                )

    def fit_columns(self, beside: int) -> None:
        """Each column as wide as its widest figure; the name as wide as the longest one but
        no wider than what the ``beside`` columns after it leave of the list's width, so
        that they show without scrolling."""
        chars = self.table.fontMetrics().horizontalAdvance("0")
        # long text (fused ops) is cut
        widths = [fit_column(self.table, c, 8, 24) for c in range(1, self.model.columnCount())]
        if self.table.isVisible():
            room = self.table.maximumViewportSize().width()
            room -= self.table.verticalScrollBar().sizeHint().width() + sum(widths[:beside])
        else:  # no width to share yet
            room = chars * 34
        names = widest_text(self.table, 0) + chars * 2
        name = max(chars * 14, min(room, names))
        self.table.setColumnWidth(0, name)
        if self.model.ops_shown and room < name:  # the operators, last beside it, are cut
            ops = widths[beside - 1] - (name - room)
            self.table.setColumnWidth(beside, max(chars * 8, ops))

    def _on_kernel(self) -> None:
        kernel = self.selection.kernel
        if kernel is None:
            return
        row = self.model.row_of(kernel.name)
        index = self.proxy.mapFromSource(self.model.index(row, 0))
        if index.isValid() and index.row() != self.table.currentIndex().row():
            self.table.selectionModel().setCurrentIndex(
                index,
                QItemSelectionModel.SelectionFlag.ClearAndSelect
                | QItemSelectionModel.SelectionFlag.Rows,
            )

    def _on_current(self, current: QModelIndex, previous: QModelIndex) -> None:
        name = item_data(current, KeyRole) if current.isValid() else None
        if name:
            self.selection.show(name)
        elif current.isValid():  # compare mode's rows of kernels only in the baseline
            shown = item_data(current.siblingAtColumn(0), Qt.ItemDataRole.DisplayRole)
            self.baseline_only_chosen.emit(shown)

    def selected_names(self) -> list[str]:
        """Kernels selected in the list, in the list's order."""
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()})
        names = [item_data(self.proxy.index(r, 0), KeyRole) for r in rows]
        return [n for n in names if n]

    def select_first(self) -> None:
        if self.proxy.rowCount() > 0:
            self.table.selectRow(0)
