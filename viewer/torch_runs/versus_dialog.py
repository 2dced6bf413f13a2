"""TVM against torch.compile: the per-operator-group table of ``core.inductor.versus_tvm``
(Compare With… between a TVM workspace and a torch.compile run folder), for an LLM and its
twin profiled step by step also per step (``core.inductor.versus_steps``), and the selected
row's slowest kernel of each compiler side by side (source and SASS with their samples): of
one pass's group, or of one step's group, as that step's reports have it."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase, QTextCursor
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from kernelscope.core.inductor import STEPS_HEADER, format_steps, step_rows, steps_notes
from kernelscope.core.ncu import SAMPLES as SAMPLES_KEY
from kernelscope.core.ncu import label_of
from kernelscope.core.view import versus_kernels, versus_step_kernels

from ..widgets.screen_fit import resize_within_screen
from ..workers.jobs import Latest, Workers

if TYPE_CHECKING:
    from kernelscope.core.inductor import StepsVersus, Versus
    from kernelscope.core.view import KernelView

SAMPLES = label_of(SAMPLES_KEY)  # the views key their counts by label


class VersusDialog(QDialog):
    """Both compilers' kernel time per operator group, the faster one, the kernel to look at
    first on each side, what differs in how they fuse; below, those two kernels."""

    def __init__(
        self,
        versus: Versus,
        header: list[str],
        cells: list[list[str]],
        workers: Workers,
        parent: QWidget | None = None,
        *,
        steps: StepsVersus | None = None,
    ) -> None:
        """``steps``: the comparison per step (an LLM against its twin, both profiled step
        by step), shown on a tab of its own beside the per-group one."""
        super().__init__(parent)
        self.versus = versus
        self.setWindowTitle("TVM against torch.compile")
        layout = QVBoxLayout(self)
        title = QLabel(
            f"TVM <b>{versus.tvm_workspace.path.name}</b> ({versus.tvm_report}) against "
            f"Inductor <b>{versus.run.path.name}</b> ({versus.inductor_report}): kernel time of "
            "one forward pass per operator group; select a group to see its slowest kernels"
        )
        title.setWordWrap(True)
        layout.addWidget(title)
        columns = [*header, "TVM's slowest kernel", "Inductor's slowest kernel"]
        slowest = {
            r.group: (r.tvm.slowest() or "", r.inductor.slowest() or "") for r in versus.rows
        }
        rows = [[*row, *slowest.get(row[0], ("", ""))] for row in cells]
        self.table = _table(columns, rows, numbers=range(1, 5), parent=self)
        _single_rows(self.table)
        self.steps = steps
        self.steps_table: QTableWidget | None = None
        # each per-step row's (step, group): what its kernels are read by
        self._step_keys = [(s.label, r.group) for s, r in step_rows(steps)] if steps else []
        if steps is not None:
            self.steps_table = _table(
                list(STEPS_HEADER),
                format_steps(steps, every_row=True),
                numbers=range(2, 6),
                parent=self,
            )
            _single_rows(self.steps_table)
        said = [*versus.notes, *(steps_notes(steps) if steps is not None else [])]
        self.notes = QLabel("<br>".join(f"• {html.escape(n)}" for n in dict.fromkeys(said)))
        self.notes.setWordWrap(True)
        self.sides = [_Side("TVM"), _Side("Inductor")]
        panes = QSplitter(Qt.Orientation.Horizontal)
        for side in self.sides:
            panes.addWidget(side.tabs)
        split = QSplitter(Qt.Orientation.Vertical)
        if self.steps_table is not None:
            tables = QTabWidget()
            tables.addTab(self.table, "One pass, by operator group")
            tables.addTab(self.steps_table, "Each step, by operator group")
            split.addWidget(tables)
        else:
            split.addWidget(self.table)
        split.addWidget(panes)
        layout.addWidget(split, 1)
        layout.addWidget(self.notes)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.kernels = Latest(workers, "document", "reading both kernels", self)
        self.kernels.result.connect(self._show)
        self.kernels.failed.connect(lambda error, _group: self._failed(error))
        self.table.itemSelectionChanged.connect(self._selected)
        if self.steps_table is not None:
            self.steps_table.itemSelectionChanged.connect(self._step_selected)
        resize_within_screen(self, 1300, 800)

    def _selected(self) -> None:
        rows = {i.row() for i in self.table.selectedItems()}
        if len(rows) != 1:
            return
        item = self.table.item(rows.pop(), 0)
        group = item.text() if item is not None else "total"
        if group == "total":
            return
        for side in self.sides:
            side.waiting()
        self.kernels.submit(lambda _ctx: versus_kernels(self.versus, group), group)

    def _step_selected(self) -> None:
        """A per-step row: that step's slowest kernel of the group on each side (of the
        whole step on its total row)."""
        table, steps = self.steps_table, self.steps
        rows = {i.row() for i in table.selectedItems()} if table is not None else set()
        if steps is None or len(rows) != 1:
            return
        step, group = self._step_keys[rows.pop()]
        for side in self.sides:
            side.waiting()
        self.kernels.submit(
            lambda _ctx: versus_step_kernels(steps, step, group), f"{step}: {group}"
        )

    def _show(self, views: tuple[KernelView | None, KernelView | None], group: str) -> None:
        for side, view in zip(self.sides, views, strict=True):
            side.show(view)

    def _failed(self, error: BaseException) -> None:
        for side in self.sides:
            side.message(f"cannot read the kernel: {error}")


def _single_rows(table: QTableWidget) -> None:
    table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
    table.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)


def _table(
    header: list[str], rows: list[list[str]], *, numbers: range, parent: QWidget
) -> QTableWidget:
    """A read-only table of text cells, the ``numbers`` columns aligned right."""
    table = QTableWidget(len(rows), len(header), parent)
    table.setHorizontalHeaderLabels(header)
    table.verticalHeader().setVisible(False)
    right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
    for i, row in enumerate(rows):
        for j, text in enumerate(row):
            item = QTableWidgetItem(text)
            item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
            if j in numbers:
                item.setTextAlignment(right)
            table.setItem(i, j, item)
    table.resizeColumnsToContents()
    return table


class _Side:
    """One compiler's kernel: its source with each line's samples, and its SASS."""

    def __init__(self, compiler: str) -> None:
        self.compiler = compiler
        self.tabs = QTabWidget()
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.source, self.sass = QPlainTextEdit(), QPlainTextEdit()
        for pane, name in ((self.source, "Source"), (self.sass, "SASS")):
            pane.setReadOnly(True)
            pane.setFont(font)
            pane.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
            self.tabs.addTab(pane, f"{compiler} {name}")

    def waiting(self) -> None:
        self.message("reading…")

    def message(self, text: str) -> None:
        self.source.setPlainText(text)
        self.sass.setPlainText("")

    def show(self, view: KernelView | None) -> None:
        if view is None:
            self.message(f"{self.compiler} has no kernel in this group")
            return
        lines = view.files[view.main_file].lines
        per_line = view.file_metrics(view.main_file)
        rows = [f"{self.compiler}: {view.name} ({view.main_file})", ""]
        hottest, top = 0, -1.0
        for n, text in enumerate(lines, start=1):
            value = per_line.get(n, {}).get(SAMPLES, 0.0)
            if value > top:
                hottest, top = n, value
            rows.append(f"{n:5d} {int(value) if value else '':>7} {text}")
        self.source.setPlainText("\n".join(rows))
        cursor = QTextCursor(self.source.document().findBlockByNumber(hottest + 1))
        self.source.setTextCursor(cursor)
        self.source.centerCursor()
        sass = [
            f"{insn.offset:04x} {int(m.get(SAMPLES, 0.0)) or '':>7} {insn.text}"
            for insn, m in zip(view.instructions, view.instruction_metrics, strict=False)
        ]
        self.sass.setPlainText("\n".join(sass))
