"""The kernel's CUDA source, one row per line, with a file switcher for headers."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLabel

from kernelscope.core.view import KernelView, Selection

from .code_models import SourceModel, column_metrics
from .code_pane import CodePane
from .highlight import Highlighter
from .metric_columns import MetricColumns


class SourcePane(CodePane):
    def __init__(self, selection: Selection, cuda: Highlighter, columns: MetricColumns) -> None:
        super().__init__(selection, SourceModel(cuda), "Source", columns)
        self.setObjectName("source_pane")
        self.files = QComboBox()
        self.files.setToolTip("Files this kernel's instructions come from")
        # as wide as a typical kernel file's name, whatever the kernel: a longer one is elided
        # (its tooltip and the title say it), the docks keep their width
        self.files.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.files.setMinimumContentsLength(24)
        self.header.addWidget(self.files)
        self.missing = QLabel(self.table.viewport())
        self.missing.setWordWrap(True)
        self.missing.hide()
        self.files.activated.connect(self._on_file_chosen)
        selection.kernel_changed.connect(self._on_kernel)
        selection.file_changed.connect(self._on_file)
        selection.selection_changed.connect(self._on_selection)
        selection.document_changed.connect(self._on_file)

    @property
    def source_model(self) -> SourceModel:
        assert isinstance(self.model, SourceModel)
        return self.model

    def shows(self, kernel: KernelView | None, file: str) -> bool:
        """This file of this kernel is on screen (a kernel or file chosen comes next)."""
        model = self.source_model
        return model.kernel is kernel and model.file == file

    def line_texts(self) -> list[str]:
        """The text of each line of the file shown."""
        model = self.source_model
        return [model.text(r) for r in range(model.rowCount())]

    def row_chosen(self, row: int) -> None:
        self.selection.select_line(row + 1)

    def _on_kernel(self) -> None:
        kernel = self.selection.kernel
        self.files.clear()
        if kernel is None:
            return
        for path in kernel.files_in_use():
            self.files.addItem(os.path.basename(path), path)
            self.files.setItemData(self.files.count() - 1, path, Qt.ItemDataRole.ToolTipRole)

    def _on_file(self) -> None:
        selection = self.selection
        kernel, file = selection.kernel, selection.file
        names = column_metrics(selection.document.line_metric_names) if selection.document else []
        self.source_model.set_file(kernel, file, names)
        self.configure_columns()
        position = self.files.findData(file)
        if position >= 0:
            self.files.setCurrentIndex(position)
        source = kernel.files.get(file) if kernel else None
        if kernel is not None and (source is None or source.text is None):
            why = (
                source.note
                if source is not None and source.note
                else (
                    "it was recorded on the build machine and no copy was found in the "
                    "workspace or on this machine"
                )
            )
            self.missing.setText(
                f"The source of {file} is not available: {why}."
                if file
                else "This kernel has no source lines (no line information): only its SASS."
            )
            self.missing.resize(self.table.viewport().width() - 20, 80)
            self.missing.move(10, 10)
            self.missing.show()
        else:
            self.missing.hide()
        # the file's name: its recorded path (a build machine's, often long) is the tooltip,
        # so that it never pushes the SASS pane narrower
        self.title.setText(f"Source — {Path(file).name}" if file else "Source")
        where = f" ({source.origin})" if source is not None and source.origin else ""
        self.title.setToolTip(f"{file}{where}" if file else "")
        self.refresh_heat()

    def _on_file_chosen(self, position: int) -> None:
        self.selection.set_file(self.files.itemData(position))

    def _on_selection(self) -> None:
        self.source_model.set_highlight({n - 1 for n in self.selection.lines})
        if self.selection.line:
            self.show_row(self.selection.line - 1)
