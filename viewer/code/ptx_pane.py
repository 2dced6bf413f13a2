"""The kernel's PTX (nvcc's, kept by the build), one row per line, beside the SASS.

Rows follow the one selection: a source line or a SASS instruction highlights the PTX rows
it belongs to, a PTX row selects its source line and the SASS instructions assembled from
it. The metric columns are the sums over those instructions (``KernelView.ptx_metrics``);
a kernel without PTX (a report on its own, a workspace built before kernelscope kept PTX)
shows why instead.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QObject
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QLabel

from kernelscope.core.view import KernelView, Selection

from .code_models import CodeModel, column_metrics
from .code_pane import CodePane
from .highlight import Highlighter
from .metric_columns import MetricColumns


class PtxModel(CodeModel):
    """The PTX rows of one kernel, labelled with their line in the build's ``module.ptx``."""

    code_title = "PTX"

    def __init__(self, ptx: Highlighter, parent: QObject | None = None) -> None:
        super().__init__(ptx, parent)
        self.kernel: KernelView | None = None

    def set_kernel(self, kernel: KernelView | None, metric_names: list[str]) -> None:
        self.kernel = kernel
        rows = kernel.ptx.rows if kernel else ()
        metrics = kernel.ptx_metrics if kernel else []
        self._reset([r.text.expandtabs(4) for r in rows], metrics, metric_names)

    def _label(self, row: int) -> str:
        assert self.kernel is not None
        return str(self.kernel.ptx.rows[row].line)

    def _extra_columns(self) -> list[str]:
        return ["Line"]

    def _extra(self, row: int, column: int) -> str:
        assert self.kernel is not None
        frames = self.kernel.ptx.rows[row].frames
        if not frames:
            return ""
        (f, n), outer = frames[0], frames[1:]
        where = f"{os.path.basename(f)}:{n}"
        if outer:
            where += f" ← {os.path.basename(outer[-1][0])}:{outer[-1][1]}"
        return where


class PtxPane(CodePane):
    def __init__(self, selection: Selection, ptx: Highlighter, columns: MetricColumns) -> None:
        super().__init__(selection, PtxModel(ptx), "PTX", columns)
        self.setObjectName("ptx_pane")
        self.table.setToolTip(
            "nvcc's PTX of the kernel: click a row for its source line and the SASS "
            "assembled from it"
        )
        self.missing = QLabel(self.table.viewport())
        self.missing.setObjectName("ptx_missing")
        self.missing.setWordWrap(True)
        self.missing.hide()
        selection.kernel_changed.connect(self._on_kernel)
        selection.document_changed.connect(self._on_kernel)
        selection.selection_changed.connect(self._on_selection)

    @property
    def ptx_model(self) -> PtxModel:
        assert isinstance(self.model, PtxModel)
        return self.model

    def row_chosen(self, row: int) -> None:
        self.selection.select_ptx_row(row)

    def _on_kernel(self) -> None:
        kernel = self.selection.kernel
        document = self.selection.document
        names = column_metrics(list(document.line_metric_names)) if document else []
        self.ptx_model.set_kernel(kernel, names)
        self.configure_columns()
        self.title.setText(f"PTX — {kernel.name}" if kernel else "PTX")
        self.title.setToolTip(kernel.name if kernel else "")  # the title may be cut
        if kernel is not None and not kernel.ptx.rows:
            self.missing.setText(f"No PTX for {kernel.name}: {kernel.ptx.note}.")
            self.missing.resize(self.table.viewport().width() - 20, 80)
            self.missing.move(10, 10)
            self.missing.show()
        else:
            self.missing.hide()
        self.refresh_heat()

    def showEvent(self, event: QShowEvent) -> None:
        """A tab raised after a line was chosen: bring its rows into view."""
        super().showEvent(event)
        if self.selection.ptx_row >= 0:
            self.show_row(self.selection.ptx_row, center=True)

    def _on_selection(self) -> None:
        self.ptx_model.set_highlight(self.selection.ptx_rows)
        if self.selection.ptx_row >= 0:
            self.show_row(self.selection.ptx_row)
