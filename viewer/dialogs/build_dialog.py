"""Build & Profile: choose a model, target and profiling options; watch the log.

The build and the profile run in a ``BuildThread``; Cancel stops the build at its next
checkpoint and ncu at once, and the workspace on disk and the results on screen stay as
they were. Without a GPU or ncu the build still runs and the log says what is missing.
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

from kernelscope.core.build import parse_shapes as core_parse_shapes
from kernelscope.core.errors import Cancelled, KernelscopeError

from ..workers.build_worker import BuildThread

ARCHES = ["sm_90", "sm_80", "sm_86", "sm_89", "sm_100", "sm_120"]
NCU_SETS = ["basic", "detailed", "full"]


def parse_shapes(text: str) -> dict[str, list[int]]:
    """``"x=1,3,224,224; y=4"`` -> {"x": [1, 3, 224, 224], "y": [4]}."""
    return core_parse_shapes([part for part in text.split(";") if part.strip()])


class BuildDialog(QDialog):
    finished_document = Signal(str)  # a workspace to open
    import_requested = Signal()

    def __init__(self, parent: QWidget | None = None, model: Path | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Build & Profile")
        self.setObjectName("build_dialog")
        self.thread_: BuildThread | None = None
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

    def request(self) -> object:
        from kernelscope.core.build import BuildRequest

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
        if self.thread_ is not None:
            return
        try:
            request = self.request()
        except KernelscopeError as exc:
            self._append(f"error: {exc}")
            return
        self.log.clear()
        self._append(f"building {request.model} for {request.arch}…")  # type: ignore[attr-defined]
        self.bar.setRange(0, 1000)
        self.bar.setValue(0)
        profile = self.profile_request if self.profile.isChecked() else None
        thread = self.thread_ = BuildThread(request, profile)
        thread.progress.connect(self._on_progress)
        thread.built.connect(self._on_built)
        thread.profiled.connect(self._on_profiled)
        thread.profile_skipped.connect(self._on_profile_skipped)
        thread.failed.connect(self._on_failed)
        thread.finished.connect(self._on_thread_finished)
        self.start.setEnabled(False)
        self.cancel.setText("Cancel")
        thread.start()

    def _cancel_or_close(self) -> None:
        if self.thread_ is not None:
            self._append("cancelling…")
            self.thread_.cancel()
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

    def profile_request(self, workspace: str) -> object:
        """The ProfileRequest for a built workspace, from the dialog's fields."""
        from kernelscope.core.profiling import ProfileRequest

        return ProfileRequest(
            workspace=Path(workspace),
            set=self.ncu_set.currentText() or None,
            sections=self.sections.text().replace(",", " ").split(),
            kernel_regex=self.kernel_filter.text().strip() or None,
            seed=self.seed.value(),
        )

    def _on_built(self, path: str) -> None:
        self.bar.setRange(0, 1000)
        self.bar.setValue(1000)
        self._append(f"built {path}")
        self.finished_document.emit(path)

    def _on_profiled(self, report: str) -> None:
        self._append(f"profiled: {report}")
        self.finished_document.emit(str(Path(report).parents[1]))

    def _on_profile_skipped(self, problem: str) -> None:
        self._append(
            f"Cannot profile here: {problem}.\nProfile on a GPU machine "
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

    def _on_thread_finished(self) -> None:
        if self.thread_ is not None:
            self.thread_.deleteLater()
        self.thread_ = None
        self.start.setEnabled(True)
        self.cancel.setEnabled(True)
        self.cancel.setText("Close")

    def _append(self, text: str) -> None:
        self.log.appendPlainText(text)

    def closeEvent(self, event: QCloseEvent) -> None:
        """Closing while building cancels the build and waits for it to stop."""
        if self.thread_ is not None:
            self.thread_.cancel()
            self.thread_.wait()
            self._on_thread_finished()
        super().closeEvent(event)
