"""The LLM steps options of Build & Profile (``kernelscope profile --steps --profile-steps
--batch --hook``): shown for a model that runs as steps (``core.profiling.step_functions``),
checked by core's ``check_steps`` before a job starts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtWidgets import (
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

STEPS_EXAMPLE = "prefill=128,decode=8"


class StepsForm(QGroupBox):
    """Steps, profiled steps, batch and a hook file, as the request's ``steps``,
    ``profile_steps``, ``batch`` and ``hook``."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("LLM steps", parent)
        self.setObjectName("llm_steps")
        self.steps = QLineEdit()
        self.steps.setObjectName("steps")
        self.steps.setPlaceholderText(f"e.g. {STEPS_EXAMPLE} (empty: a hook file runs them)")
        self.steps.setToolTip(
            "--steps: prefill=N tokens a sequence, then decode=M steps, through the model's "
            "own KV cache"
        )
        self.profile_steps = QLineEdit()
        self.profile_steps.setObjectName("profile_steps")
        self.profile_steps.setPlaceholderText("all, or e.g. prefill, decode:16, decode:0-3")
        self.profile_steps.setToolTip(
            "--profile-steps: the steps Nsight Compute profiles; the others run unprofiled"
        )
        self.batch = QSpinBox()
        self.batch.setObjectName("batch")
        self.batch.setRange(1, 4096)
        self.batch.setToolTip("--batch: sequences run together")
        self.hook = QLineEdit()
        self.hook.setObjectName("hook")
        self.hook.setPlaceholderText("optional: a .py whose run(session) runs your own loop")
        self.hook.setToolTip("--hook: instead of Steps, your engine loop (user guide, LLM steps)")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse_hook)
        hook_row = QHBoxLayout()
        hook_row.addWidget(self.hook, 1)
        hook_row.addWidget(browse)
        form = QFormLayout(self)
        form.addRow("Steps:", self.steps)
        form.addRow("Profiled steps:", self.profile_steps)
        form.addRow("Batch:", self.batch)
        form.addRow("Hook file:", hook_row)

    def fields(self) -> dict[str, QWidget]:
        """The fields by the QSettings key they are remembered under."""
        return {
            "steps": self.steps,
            "profile_steps": self.profile_steps,
            "batch": self.batch,
            "hook": self.hook,
        }

    def values(self) -> dict[str, Any]:
        """The request's ``steps``, ``profile_steps``, ``batch`` and ``hook``: no steps at
        all (one call) while the group is hidden."""
        if self.isHidden():
            return {}
        hook = self.hook.text().strip()
        return {
            "steps": self.steps.text().strip() or None,
            "profile_steps": self.profile_steps.text().strip() or None,
            "batch": self.batch.value(),
            "hook": Path(hook).expanduser() if hook else None,
        }

    def _browse_hook(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "Hook file", self.hook.text(), "Python files (*.py);;All files (*)"
        )
        if path:
            self.hook.setText(path)
