"""The Kernel DB panel's NNFusion command tab: the exact command line that uses the open DB
correctly, copyable, with why each flag is there and what to watch out for.

The settings come from ``core.kernel_db`` (``nnfusion_settings`` of the DB's rows, computed
on the ``db`` lane by the panel); for the model chosen in the Coverage tab the command is
that model's (its path, and constant folding only when its biases are not constants yet).
The GPU box chooses ``-fproduct_name``: the DB's GPUs with their row counts, the GPUs of the
open profile, or any name typed in; a GPU no row was timed on is refused with the GPUs the
DB has times for.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ..widgets.nnfusion_colours import css

if TYPE_CHECKING:
    from .jobs import CommandInfo

AUTOMATIC = "Automatic (the GPU most rows were timed on)"


class CommandView(QWidget):
    product_changed = Signal(object)  # the GPU for -fproduct_name, or None: automatic

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("nnfusion_command")
        self.info: CommandInfo | None = None
        self._profile_gpus: set[str] = set()
        self._asked: str | None = None  # the GPU last asked for
        self.gpu = QComboBox()
        self.gpu.setEditable(True)
        self.gpu.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.gpu.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.gpu.setToolTip(
            "-fproduct_name: the GPU whose measured times NNFusion reads (type another name "
            "to check it)"
        )
        self.gpu.addItem(AUTOMATIC, None)
        self.model_label = QLabel()
        self.model_label.setWordWrap(True)
        self.model_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setObjectName("nnfusion_command_text")
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.text.setWordWrapMode(self.text.wordWrapMode().WrapAtWordBoundaryOrAnywhere)
        lines = 3
        self.text.setFixedHeight(self.text.fontMetrics().lineSpacing() * lines + 14)
        self.copy_button = QPushButton("Copy")
        self.copy_button.setToolTip("Copy the command line to the clipboard")
        self.copy_button.clicked.connect(self.copy)
        self.why = QLabel()
        self.why.setObjectName("nnfusion_command_why")
        self.why.setWordWrap(True)
        self.why.setTextFormat(Qt.TextFormat.RichText)
        self.why.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.why.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        gpu_row = QHBoxLayout()
        gpu_row.addWidget(QLabel("GPU (-fproduct_name):"))
        gpu_row.addWidget(self.gpu)
        gpu_row.addWidget(self.model_label, 1)
        command_row = QHBoxLayout()
        command_row.addWidget(self.text, 1)
        command_row.addWidget(self.copy_button, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(gpu_row)
        layout.addLayout(command_row)
        layout.addWidget(self.why, 1)
        self.gpu.activated.connect(self._on_activated)
        line = self.gpu.lineEdit()
        assert line is not None
        line.editingFinished.connect(self._on_typed)
        self.show_info(None)

    # ---- the GPU ------------------------------------------------------------------------
    @property
    def product_name(self) -> str | None:
        """The GPU asked for (None: automatic)."""
        text = self.gpu.currentText().strip()
        index = self.gpu.findText(text)
        if index >= 0:
            value = self.gpu.itemData(index)
            return str(value) if value else None
        return text or None

    def choose_gpu(self, name: str | None) -> None:
        """Ask for this GPU's times (None: automatic), as if chosen in the box."""
        index = self.gpu.findData(name) if name else 0
        if index >= 0:
            self.gpu.setCurrentIndex(index)
        else:
            self.gpu.setEditText(name or "")
        self._asked = self.product_name
        self.product_changed.emit(self._asked)

    def _on_activated(self, index: int) -> None:
        self._ask()

    def _on_typed(self) -> None:
        self._ask()

    def _ask(self) -> None:
        """Ask for the GPU in the box, once (Return both activates and finishes editing)."""
        if self.product_name != self._asked:
            self._asked = self.product_name
            self.product_changed.emit(self._asked)

    def set_profile_gpus(self, gpus: set[str]) -> None:
        """The GPUs the open profile ran on: offered in the box, and compared with the DB's."""
        self._profile_gpus = set(gpus)
        self._fill_gpus()
        self._show_text()

    def _fill_gpus(self) -> None:
        times = self.info.settings.times if self.info and self.info.settings else {}
        asked = self.product_name
        self.gpu.blockSignals(True)
        self.gpu.clear()
        self.gpu.addItem(AUTOMATIC, None)
        for name, n in sorted(times.items(), key=lambda kv: (-kv[1], kv[0])):
            self.gpu.addItem(f"{name} ({n} row{'s' * (n != 1)})", name)
        for name in sorted(self._profile_gpus - set(times)):
            self.gpu.addItem(f"{name} (the open profile's; no row)", name)
        index = self.gpu.findData(asked) if asked else 0
        if index >= 0:
            self.gpu.setCurrentIndex(index)
        else:
            self.gpu.setEditText(asked or "")
        self.gpu.blockSignals(False)

    # ---- the command --------------------------------------------------------------------
    @property
    def command_text(self) -> str:
        return self.text.toPlainText()

    def copy(self) -> None:
        clipboard = QGuiApplication.clipboard()
        if self.command_text and clipboard is not None:
            clipboard.setText(self.command_text)

    def show_info(self, info: CommandInfo | None) -> None:
        """Show the settings the panel computed (None: no DB read yet)."""
        self.info = info
        self._fill_gpus()
        self._show_text()

    def _show_text(self) -> None:
        info = self.info
        settings = info.settings if info is not None else None
        if info is None or settings is None:  # at start-up: core.kernel_db is not loaded yet
            self.text.setPlainText("")
            self.copy_button.setEnabled(False)
            self.model_label.setText("")
            self.why.setText("The command line shows once the DB is read.")
            return
        from kernelscope.core.kernel_db import MODEL_PLACEHOLDER  # loaded with the DB
        from kernelscope.core.nnfusion import shell_text

        model = info.model
        self.model_label.setText(
            f"for {html.escape(model)}"
            if model
            else f"for any model ({MODEL_PLACEHOLDER}: choose one in Coverage to fill it in)"
        )
        parts: list[str] = []
        if info.error is not None:
            parts.append(_coloured("bad", info.error.message))
            instead = settings.flags.product_name
            parts.append(
                html.escape(f"The command below reads {instead}'s times instead; to use ")
                + html.escape(f"{info.product_name}'s, export kernels profiled on it.")
            )
        if not settings.usable:
            self.text.setPlainText("")
            self.copy_button.setEnabled(False)
            parts.append(
                "NNFusion can take no row of this DB"
                + ("" if info.db_exists else " yet: export kernels into it")
                + " (see the Why column of Entries)."
            )
            self.why.setText("".join(f"<div>{p}</div>" for p in parts))
            return
        argv = settings.command(info.db, model or MODEL_PLACEHOLDER)
        self.text.setPlainText(shell_text(argv))
        self.copy_button.setEnabled(True)
        rows = [
            f"<tr><td style='padding-right:12px'><tt>{html.escape(flag)}</tt></td>"
            f"<td>{html.escape(why)}</td></tr>"
            for flag, why in settings.explain(model)
        ]
        parts.append(
            "<table cellspacing='0' cellpadding='2'><tr><th align='left' colspan='2'>"
            "Why each part is there</th></tr>" + "".join(rows) + "</table>"
        )
        warnings = list(settings.warnings)
        product = settings.flags.product_name
        others = sorted(self._profile_gpus - {product} if product else self._profile_gpus)
        if others and settings.times:
            warnings.append(
                f"the open profile ran on {', '.join(others)}; the command reads the times "
                f"measured on {product or 'no GPU'}: export the profile's kernels to add "
                f"{others[0]}'s times, and choose it here"
            )
        parts += [_coloured("warn", f"Warning: {w}") for w in warnings]
        self.why.setText("".join(p if p.startswith("<table") else f"<div>{p}</div>" for p in parts))


def _coloured(kind: str, text: str) -> str:
    return f"<span style='color:{css(kind)}'>{html.escape(text)}</span>"
