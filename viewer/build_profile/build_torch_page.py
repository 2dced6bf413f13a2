"""Build & Profile's torch.compile page: ``kernelscope profile-torch``'s own options (this
machine's Python with PyTorch, torch.compile's mode, the timeline through torch.profiler).
The model is a PyTorch file (``model`` and ``example_inputs``, see ``core.torchrun``) run by
the PyTorch of the machine chosen under Run on, into a run folder (``MODEL.torchrun``).

The Python field is ``--python``: like it, for this machine only, so it is off with an SSH
host, whose Python is Run on's "Python there" (``--remote-python``). A Python that does not
run or has no PyTorch is refused by core before anything runs, by name, with what to do."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QLineEdit,
    QWidget,
)

from kernelscope.core.torchrun import MODES, TorchRequest, default_run_dir

from ..widgets.file_dialogs import browse_row, open_file_name

TORCH_PYTHON = TorchRequest.python  # the Python field's default, as profile-torch --python's


class TorchPage(QGroupBox):
    """torch.compile's fields; ``changed``: the timeline was asked for or not."""

    changed = Signal()
    name = "torch.compile"
    model_hint = "a PyTorch .py defining model and example_inputs"
    output_label = "Run folder:"
    output_hint = "run folder (default: MODEL.torchrun next to it)"
    report_prefix = "torch"
    warmup_tip = "Calls after the compiling one, before the profiled ones (not profiled)"
    takes_inputs = False  # example_inputs come from the model file

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("torch.compile run", parent)
        self.python = QLineEdit()
        self.python.setObjectName("torch_python")
        self.python.setPlaceholderText(TORCH_PYTHON)
        python_row, self._browse_python = browse_row(
            self.python, lambda: open_file_name(self, "Python with PyTorch", self.python.text())
        )
        self.mode = QComboBox()
        self.mode.addItems(list(MODES))
        self.mode.setToolTip("torch.compile's mode (max-autotune: tuned, slower to compile)")
        self.timeline = QCheckBox("Also time every kernel (timeline, through torch.profiler)")
        form = QFormLayout(self)
        form.addRow("Python:", python_row)
        form.addRow("torch.compile mode:", self.mode)
        form.addRow("", self.timeline)
        self.timeline.toggled.connect(self.changed)

    def fields(self) -> dict[str, QWidget]:
        """The fields by the QSettings key they are remembered under."""
        return {
            "torch_mode": self.mode,
            "torch_timeline": self.timeline,
            "torch_python": self.python,
        }

    def default_output(self, model: Path) -> Path:
        return default_run_dir(model)

    def start_text(self, profile: bool) -> tuple[str, bool]:
        """The Start button's text, and whether there is anything to start (a profile, a
        timeline or both)."""
        text = "Compile && Profile" if profile else "Compile && Time"
        return text, profile or self.timeline.isChecked()

    def update_state(self, remote: bool) -> None:
        """``--python`` is this machine's: off with an SSH host (``remote``)."""
        for widget in (self.python, self._browse_python):
            widget.setEnabled(not remote)
        self.python.setToolTip(
            "On an SSH host the model runs with the host's Python: Python there, under Run on"
            if remote
            else "The Python with PyTorch that runs the model here, e.g. a virtual "
            "environment's bin/python or conda's (default: python3 on PATH)"
        )

    def python_path(self) -> str:
        """The Python field as ``TorchRequest.python`` (empty: profile-torch's default)."""
        return os.path.expanduser(self.python.text().strip()) or TORCH_PYTHON
