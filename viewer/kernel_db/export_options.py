"""Export options for the kernel DB: what ``kernelscope export-db`` takes as flags
(``--allow-ambiguous``, ``--replace``, ``--nnfusion-model``), chosen once in the window and
kept in the settings for every export after."""

from __future__ import annotations

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from .export_worker import ExportOptions

KEYS = {
    "allow_ambiguous": "kernel_db/export/allow_ambiguous",
    "replace": "kernel_db/export/replace",
    "nnfusion_model": "kernel_db/export/nnfusion_model",
}


def load_options(settings: QSettings) -> ExportOptions:
    return ExportOptions(
        **{name: bool(settings.value(key, False, type=bool)) for name, key in KEYS.items()}
    )


def save_options(settings: QSettings, options: ExportOptions) -> None:
    for name, key in KEYS.items():
        settings.setValue(key, bool(getattr(options, name)))


class ExportOptionsDialog(QDialog):
    chosen = Signal(object)  # ExportOptions, when OK is pressed

    def __init__(self, options: ExportOptions, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("export_options")
        self.setWindowTitle("Kernel DB export options")
        self.nnfusion_model = QCheckBox("Also write the model NNFusion compiles")
        self.nnfusion_model.setChecked(options.nnfusion_model)
        self.allow_ambiguous = QCheckBox("Let NNFusion use ambiguous Dot rows")
        self.allow_ambiguous.setChecked(options.allow_ambiguous)
        self.replace = QCheckBox("Replace older rows of the same identifier")
        self.replace.setChecked(options.replace)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.buttons = buttons
        layout = QVBoxLayout(self)
        for box, text in (
            (
                self.nnfusion_model,
                "MODEL-nnfusion.onnx next to the workspace: its model with every weight an "
                "initializer holding the values of its build, and every Conv bias and Gemm C "
                "broadcast to its output's shape. NNFusion then computes the identifiers the "
                "DB holds, needs only -fbiasadd_fix=true (no slow constant folding), and gives "
                "TVM's numbers. The Coverage tab shows what it looks up.",
            ),
            (
                self.allow_ambiguous,
                "A Dot whose shapes make the transpose ambiguous (K == N, or M == K) has the "
                "identifier of another computation: NNFusion's Dot identifier has no "
                "transpose, so it would run x·W for a Gemm that means x·Wᵀ. Unchecked, such "
                "rows are stored for browsing only, with the reason.",
            ),
            (
                self.replace,
                "NNFusion's kernel selection takes the first row of an identifier it reads, "
                "whatever the times: replacing keeps only the one exported now.",
            ),
        ):
            layout.addWidget(box)
            note = QLabel(text)
            note.setWordWrap(True)
            note.setIndent(24)
            layout.addWidget(note)
        layout.addWidget(buttons)
        self.setMinimumWidth(560)

    def options(self) -> ExportOptions:
        return ExportOptions(
            allow_ambiguous=self.allow_ambiguous.isChecked(),
            replace=self.replace.isChecked(),
            nnfusion_model=self.nnfusion_model.isChecked(),
        )

    def accept(self) -> None:
        self.chosen.emit(self.options())
        super().accept()
