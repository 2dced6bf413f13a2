"""Build & Profile: choose a model, target and profiling options; watch the log.

The build and the profile run as one job on the window's ``build`` lane; Cancel stops the
build at its next checkpoint and ncu at once, and the workspace on disk and the results on
screen stay as they were. Without a GPU or ncu the build still runs and the log says what
is missing.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtGui import QCloseEvent, QFontDatabase
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from kernelscope.core.build import BuildRequest
from kernelscope.core.build import parse_shapes as core_parse_shapes
from kernelscope.core.errors import Cancelled, KernelscopeError
from kernelscope.core.profiling import ProfileRequest

from ..workers.build_worker import Built, Profiled, ProfileSkipped, build_job
from ..workers.jobs import Job, Workers

ARCHES = ["sm_90", "sm_80", "sm_86", "sm_89", "sm_100", "sm_120"]
NCU_SETS = ["basic", "detailed", "full"]


def parse_shapes(text: str) -> dict[str, list[int]]:
    """``"x=1,3,224,224; y=4"`` -> {"x": [1, 3, 224, 224], "y": [4]}."""
    return core_parse_shapes([part for part in text.split(";") if part.strip()])


class BuildDialog(QDialog):
    finished_document = Signal(str)  # a workspace to open
    import_requested = Signal()

    def __init__(
        self, workers: Workers, parent: QWidget | None = None, model: Path | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Build & Profile")
        self.setObjectName("build_dialog")
        self._workers = workers
        self.job: Job | None = None  # the build running, if any
        self.model = QLineEdit(str(model) if model else "")
        self.model.setPlaceholderText("model.onnx or a Relax IRModule .py")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        model_row = QHBoxLayout()
        model_row.addWidget(self.model, 1)
        model_row.addWidget(browse)
        self.output = QLineEdit()
        self.output.setPlaceholderText("workspace folder (default: MODEL.kscope next to it)")
        self.arch = QComboBox()
        self.arch.setEditable(True)
        self.arch.addItems(ARCHES)
        self.arch.setToolTip("CUDA architecture to compile for (the profiling GPU's)")
        self.shapes = QLineEdit()
        self.shapes.setPlaceholderText("sizes of dynamic inputs: x=1,3,224,224; y=4")
        self.params = QComboBox()
        self.params.addItems(["random", "runtime"])
        self.params.setToolTip("Weights without values: seeded random values, or runtime inputs")
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setToolTip("Seed of the random weights and input data")
        self.profile = QCheckBox("Profile with Nsight Compute after building")
        self.ncu_set = QComboBox()
        self.ncu_set.addItems(NCU_SETS)
        self.ncu_set.setCurrentText("full")
        self.sections = QLineEdit()
        self.sections.setPlaceholderText("extra sections, e.g. SourceCounters WarpStateStats")
        self.kernel_filter = QLineEdit()
        self.kernel_filter.setPlaceholderText("regex of kernels to profile (default: all)")
        self.use_cache = QCheckBox("Reuse an earlier build of the same model")
        self.use_cache.setChecked(True)
        form = QFormLayout()
        form.addRow("Model:", model_row)
        form.addRow("Workspace:", self.output)
        form.addRow("Target arch:", self.arch)
        form.addRow("Input shapes:", self.shapes)
        form.addRow("Weights:", self.params)
        form.addRow("Seed:", self.seed)
        form.addRow("", self.use_cache)
        form.addRow("", self.profile)
        form.addRow("ncu set:", self.ncu_set)
        form.addRow("ncu sections:", self.sections)
        form.addRow("Kernel filter:", self.kernel_filter)
        self.bar = QProgressBar()
        self.bar.setRange(0, 1000)
        self.bar.setValue(0)
        self.log = QPlainTextEdit()
        self.log.setReadOnly(True)
        self.log.setMaximumBlockCount(5000)
        self.log.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.start = QPushButton("Build")
        self.start.setDefault(True)
        self.cancel = QPushButton("Close")
        self.import_button = QPushButton("Import Report…")
        self.import_button.setToolTip("Open an .ncu-rep or CSV export made on a GPU machine")
        buttons = QHBoxLayout()
        buttons.addWidget(self.import_button)
        buttons.addStretch(1)
        buttons.addWidget(self.start)
        buttons.addWidget(self.cancel)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.bar)
        layout.addWidget(self.log, 1)
        layout.addLayout(buttons)
        self.start.clicked.connect(self.start_build)
        self.cancel.clicked.connect(self._cancel_or_close)
        self.import_button.clicked.connect(self._import)
        self.profile.toggled.connect(self._profile_toggled)
        self._profile_toggled(False)
        self.resize(720, 620)

    # ---- actions ------------------------------------------------------------------------
    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "Model", "", "Models (*.onnx *.py);;All files (*)"
        )
        if path:
            self.model.setText(path)

    def _profile_toggled(self, on: bool) -> None:
        for widget in (self.ncu_set, self.sections, self.kernel_filter):
            widget.setEnabled(on)

    def _import(self) -> None:
        self.import_requested.emit()
        self.close()

    def request(self) -> BuildRequest:
        model = Path(self.model.text().strip()).expanduser()
        if not self.model.text().strip():
            raise KernelscopeError("choose a model to build", hint="an .onnx or .py file")
        output = self.output.text().strip()
        return BuildRequest(
            model=model,
            output=Path(output).expanduser() if output else model.with_suffix(".kscope"),
            arch=self.arch.currentText().strip() or None,
            shapes=parse_shapes(self.shapes.text()),
            params=self.params.currentText(),
            seed=self.seed.value(),
            use_cache=self.use_cache.isChecked(),
        )

    def start_build(self) -> None:
        if self.job is not None:
            return
        try:
            request = self.request()
        except KernelscopeError as exc:
            self._append(f"error: {exc}")
            return
        self.log.clear()
        self._append(f"building {request.model} for {request.arch or 'this machine'}…")
        self.bar.setRange(0, 1000)
        self.bar.setValue(0)
        profile = self.profile_request if self.profile.isChecked() else None
        job = self.job = self._workers.start("build", build_job(request, profile), "build")
        job.progress.connect(self._on_progress)
        job.sent.connect(self._on_built)
        job.returned.connect(self._on_returned)
        job.errored.connect(self._on_failed)
        job.finished.connect(self._on_job_finished)
        self.start.setEnabled(False)
        self.cancel.setText("Cancel")

    def _cancel_or_close(self) -> None:
        if self.job is not None:
            self._append("cancelling…")
            self.job.cancel()
            self.cancel.setEnabled(False)
        else:
            self.close()

    # ---- worker signals -----------------------------------------------------------------
    def _on_progress(self, step: str, fraction: float, message: str) -> None:
        if fraction >= 0:
            self.bar.setRange(0, 1000)
            self.bar.setValue(int(fraction * 1000))
        else:
            self.bar.setRange(0, 0)  # busy
        self._append(f"[{step}] {message}")

    def profile_request(self, workspace: Path) -> ProfileRequest:
        """The ProfileRequest for a built workspace, from the dialog's fields."""
        return ProfileRequest(
            workspace=workspace,
            set=self.ncu_set.currentText() or None,
            sections=self.sections.text().replace(",", " ").split(),
            kernel_regex=self.kernel_filter.text().strip() or None,
            seed=self.seed.value(),
        )

    def _on_built(self, built: Built) -> None:
        self.bar.setRange(0, 1000)
        self.bar.setValue(1000)
        self._append(f"built {built.workspace}")
        self.finished_document.emit(str(built.workspace))

    def _on_returned(self, outcome: Profiled | ProfileSkipped | None) -> None:
        if isinstance(outcome, Profiled):
            self._append(f"profiled: {outcome.report}")
            self.finished_document.emit(str(outcome.report.parents[1]))
        elif isinstance(outcome, ProfileSkipped):
            self._append(
                f"Cannot profile here: {outcome.problem}.\nProfile on a GPU machine "
                "(kernelscope profile WORKSPACE [--host user@gpu]) and open its report with "
                "Import Report…"
            )

    def _on_failed(self, error: BaseException) -> None:
        self.bar.setRange(0, 1000)
        self.bar.setValue(0)
        if isinstance(error, Cancelled):
            self._append(f"{error.message}; the previous results stay on screen")
            return
        self._append(f"error: {error}")
        if isinstance(error, KernelscopeError) and error.details:
            self._append(error.details.rstrip())

    def _on_job_finished(self) -> None:
        self.job = None
        self.start.setEnabled(True)
        self.cancel.setEnabled(True)
        self.cancel.setText("Close")

    def _append(self, text: str) -> None:
        self.log.appendPlainText(text)

    def closeEvent(self, event: QCloseEvent) -> None:
        """Closing while building cancels the build and waits for it to stop."""
        if self.job is not None:
            self.job.cancel()
            self.job.wait()
            self._on_job_finished()
        super().closeEvent(event)
