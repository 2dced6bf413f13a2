"""The kernel's SASS, one row per instruction; double-click a branch to follow it."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex

from kernelscope.core.view import KernelView, Selection

from .code_models import SassModel, column_metrics
from .code_pane import CodePane
from .highlight import Highlighter
from .metric_columns import MetricColumns


class SassPane(CodePane):
    def __init__(self, selection: Selection, sass: Highlighter, columns: MetricColumns) -> None:
        super().__init__(selection, SassModel(sass), "SASS", columns)
        self.setObjectName("sass_pane")
        self.table.doubleClicked.connect(self._on_double_click)
        self.table.setToolTip("Double-click a branch to jump to its target")
        selection.kernel_changed.connect(self._on_kernel)
        selection.document_changed.connect(self._on_kernel)
        selection.selection_changed.connect(self._on_selection)

    @property
    def sass_model(self) -> SassModel:
        assert isinstance(self.model, SassModel)
        return self.model

    def shows(self, kernel: KernelView | None) -> bool:
        """This kernel's instructions are on screen (a kernel chosen comes next)."""
        return self.sass_model.kernel is kernel

    def row_chosen(self, row: int) -> None:
        self.selection.select_instruction(row)

    def follow_branch(self) -> bool:
        """Jump to where the selected branch goes. False if it is not a branch."""
        target = self.selection.branch_target()
        if target is None:
            return False
        self.show_row(target, center=True)
        self.selection.select_instruction(target)
        return True

    def _on_double_click(self, index: QModelIndex) -> None:
        self.selection.select_instruction(index.row())
        self.follow_branch()

    def _on_kernel(self) -> None:
        kernel = self.selection.kernel
        document = self.selection.document
        profiled = (
            [n for n in document.line_metric_names if kernel and _has(kernel, n)]
            if document
            else []
        )
        names = column_metrics(profiled)[:-1]  # no instruction count on an instruction
        self.sass_model.set_kernel(kernel, names)
        self.configure_columns()
        self.title.setText(f"SASS — {kernel.name}" if kernel else "SASS")
        self.title.setToolTip(kernel.name if kernel else "")  # the title may be cut
        self.refresh_heat()

    def _on_selection(self) -> None:
        self.sass_model.set_highlight(self.selection.instructions)
        focus = self.selection.focus_instruction()  # a chosen line's hottest instruction
        if focus >= 0:
            self.show_row(focus)


def _has(kernel: KernelView, name: str) -> bool:
    return any(name in m for m in kernel.instruction_metrics)
