"""The LLM steps options of Build & Profile (``kernelscope profile --steps --profile-steps
--batch --hook``, and ``kernelscope build --cuda-graph``) as core's ``StepOptions``: shown for
a model that runs as steps (``core.profiling.step_functions``), checked by core's
``check_steps`` before a job starts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QGroupBox,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from kernelscope.core.profiling import StepOptions

from ..widgets.file_dialogs import browse_row, open_file_name

STEPS_EXAMPLE = "prefill=128,decode=8"
HOOK_FILTER = "Python files (*.py);;All files (*)"


class StepsForm(QGroupBox):
    """Steps, profiled steps, batch and a hook file: a request's ``llm``; CUDA graphs, as the
    build's ``cuda_graph``."""

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
        hook_row, self._browse = browse_row(
            self.hook,
            lambda: open_file_name(self, "Hook file", self.hook.text(), HOOK_FILTER),
        )
        form = QFormLayout(self)
        form.addRow("Steps:", self.steps)
        form.addRow("Profiled steps:", self.profile_steps)
        form.addRow("Batch:", self.batch)
        form.addRow("Hook file:", hook_row)
        self.cuda_graph = QCheckBox("Build the decode step as CUDA graphs")
        self.cuda_graph.setObjectName("cuda_graph")
        self.cuda_graph.setToolTip(
            "--cuda-graph: as MLC-LLM runs it (Relax's RewriteCUDAGraph): the decode step's "
            "kernels are captured into CUDA graphs on the first call and replayed after; "
            "needs batch_size under Shapes (e.g. batch_size=1)"
        )
        form.addRow(self.cuda_graph)

    def fields(self) -> dict[str, QWidget]:
        """The fields by the QSettings key they are remembered under."""
        return {
            "steps": self.steps,
            "profile_steps": self.profile_steps,
            "batch": self.batch,
            "hook": self.hook,
            "cuda_graph": self.cuda_graph,
        }

    def options(self) -> StepOptions:
        """The fields' StepOptions: no steps at all (one call) while the group is hidden."""
        if self.isHidden():
            return StepOptions()
        hook = self.hook.text().strip()
        return StepOptions(
            steps=self.steps.text().strip() or None,
            profile_steps=self.profile_steps.text().strip() or None,
            batch=self.batch.value(),
            hook=Path(hook).expanduser() if hook else None,
        )

    def profile_widgets(self) -> list[QWidget]:
        """What only a profile uses (the CUDA graphs box is the build's)."""
        return [self.steps, self.profile_steps, self.batch, self.hook, self._browse]

    def build_options(self) -> dict[str, Any]:
        """The build request's ``cuda_graph`` (never while the group is hidden)."""
        return {"cuda_graph": not self.isHidden() and self.cuda_graph.isChecked()}
