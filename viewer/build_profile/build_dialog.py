"""Build & Profile: choose a model, target and profiling options, and where to run; watch
the log.

Three tabs: **Model** (what to build, or the open workspace as it is), **Profile** (every
option of ``kernelscope profile``: sections and sets, kernel filter, launch skip and count,
clock control, warm-up and profiled passes, an inputs ``.npz``) and **Run on** (this
machine or an SSH host; Check host shows the remote doctor's answer with the exact fixes,
Install runtime on host copies a runtime-only TVM there). One job at a time runs on the
window's ``build`` lane: the build and profile, a host check or an install. Cancel stops it
(over SSH: the remote ncu and the model it runs, and the remote folder goes); the workspace
on disk and the results on screen stay as they were. The dialog remembers its last values
in QSettings and starts from the model of the open workspace.

The Workspace field follows the Model field (``MODEL.kscope``) until the user types a folder
there; a build into a folder that holds another model's build asks first (core refuses it
with ``OtherModelError`` before anything is written). Profiling here is off, with the reason,
where this machine cannot profile (no ncu, no GPU) and no SSH host is chosen.

The Compiler choice on the Model tab is TVM or torch.compile. With torch.compile the model is
a PyTorch file (``model`` and ``example_inputs``, see ``core.torchrun``) run by the PyTorch of
the machine chosen under Run on, the Workspace field is the run folder (``MODEL.torchrun``),
TVM's build fields are hidden, and the job is ``kernelscope profile-torch``'s: the run folder
(and the timeline, when asked) open in the window when it is done. Its Python field is
``--python`` (the interpreter with PyTorch here: a virtual environment's or conda's); like
``--python`` it is for this machine only, so it is off with an SSH host, whose Python is Run
on's "Python there" (``--remote-python``). A Python that does not run or has no PyTorch is
refused by core before anything runs, by name, with what to do. A .py file that imports torch
and not tvm picks torch.compile by itself.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import (
    QAbstractButton,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from kernelscope.core.build import PIPELINES, BuildRequest, default_workspace
from kernelscope.core.build import parse_shapes as core_parse_shapes
from kernelscope.core.errors import Cancelled, KernelscopeError
from kernelscope.core.ncu import ReportImport, import_report
from kernelscope.core.profiling import (
    HostReport,
    InstallResult,
    ProfileRequest,
    check_steps,
    profiling_problem,
    step_functions,
)
from kernelscope.core.torchrun import MODES, TorchRequest, default_run_dir, is_torch_model_file
from kernelscope.core.workspace import OtherModelError, Workspace

from ..dialogs.host_choice import HostChoice, HostEntry, HostStore
from ..dialogs.job_dialog import JobDialog
from ..dialogs.profile_options import SETTINGS
from ..widgets.file_dialogs import existing_folder, open_file_name
from ..widgets.job_progress import JobProgress
from ..widgets.messages import what_to_do
from ..workers.jobs import Job, JobFn, Workers
from ..workers.remote_jobs import check_job, install_job
from .build_worker import (
    Built,
    Profiled,
    ProfileSkipped,
    TorchProfiled,
    build_job,
    torch_job,
)
from .host_report import HostReportView
from .ncu_form import NcuForm
from .steps_form import StepsForm

# The Pipeline combo's first item: no --pipeline, the model's own default
AUTO_PIPELINE = "model's default"
ARCHES = ["sm_90", "sm_80", "sm_86", "sm_89", "sm_100", "sm_120"]
TVM, TORCH = "TVM", "torch.compile"  # the Compiler choice
TORCH_PYTHON = TorchRequest.python  # the Python field's default, as profile-torch --python's


@dataclasses.dataclass(frozen=True)
class _Started:
    """What a Build & Profile job was asked: run again as it was after a Yes to replacing."""

    request: BuildRequest | None
    profile: Callable[[Path], ProfileRequest] | None
    existing: Path | None


def parse_shapes(text: str) -> dict[str, list[int]]:
    """``"x=1,3,224,224; y=4"`` -> {"x": [1, 3, 224, 224], "y": [4]}."""
    return core_parse_shapes([part for part in text.split(";") if part.strip()])


def model_of(workspace: Workspace) -> Path | None:
    """The model a workspace was built from, where ``kernelscope build`` puts workspaces
    (``MODEL.kscope`` beside ``MODEL``), else where the build found it (``model_path``: a
    workspace built elsewhere with -o); None when it is not there. (Not hashed here:
    ``Workspace.model_file`` checks the digest.)"""
    candidates = [workspace.path.parent / workspace.manifest.model]
    if workspace.path.suffix == ".kscope":
        candidates.append(workspace.path.with_suffix(Path(workspace.manifest.model).suffix))
    if workspace.manifest.model_path:
        candidates.append(Path(workspace.manifest.model_path))
    return next((c for c in candidates if c.is_file()), None)


def _error_text(error: KernelscopeError) -> str:
    """The error for the log, with what to do as the window says it (a field, not an option)."""
    hint = what_to_do(error)
    return f"error: {error.message}" + (f"\n  hint: {hint}" if hint else "")


class BuildDialog(JobDialog):
    finished_document = Signal(str)  # a workspace to open
    import_requested = Signal()

    def __init__(
        self,
        workers: Workers,
        parent: QWidget | None = None,
        model: Path | None = None,
        *,
        settings: QSettings | None = None,
        workspace: Workspace | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Build & Profile")
        self.setObjectName("build_dialog")
        self._workers = workers
        self.settings = settings if settings is not None else QSettings()
        self.job: Job | None = None  # the job running, if any
        self.confirm: QMessageBox | None = None  # "replace another model's build?", when asked
        self._output_chosen = False  # the user typed the Workspace folder: it stays
        self._started: _Started | None = None  # what the running build job was asked
        self._replace: OtherModelError | None = None  # refused by core: ask once the job ends
        self._local_problem: str | None = None  # why this machine cannot profile, once known
        self.tabs = QTabWidget()
        self.tabs.addTab(self._model_tab(), "Model")
        self.tabs.addTab(self._profile_tab(), "Profile")
        self.tabs.addTab(self._host_tab(), "Run on")
        self.progress = JobProgress(log=True)
        assert self.progress.log is not None
        self.bar, self.log = self.progress.bar, self.progress.log
        self.start = QPushButton("Build")
        self.start.setObjectName("start")
        self.start.setDefault(True)
        self.cancel = QPushButton("Close")
        self.import_button = QPushButton("Import Report…")
        self.import_button.setToolTip(
            "Attach an .ncu-rep made on a GPU machine to the workspace in the Workspace field "
            "(as kernelscope import REPORT -w WORKSPACE) and open it; without a workspace, "
            "open a report or CSV export on its own"
        )
        buttons = QHBoxLayout()
        buttons.addWidget(self.import_button)
        buttons.addStretch(1)
        buttons.addWidget(self.start)
        buttons.addWidget(self.cancel)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs, 3)
        layout.addWidget(self.progress, 2)
        layout.addLayout(buttons)
        self.start.clicked.connect(self.start_build)
        self.cancel.clicked.connect(self._cancel_or_close)
        self.import_button.clicked.connect(self._import)
        self.profile.toggled.connect(self._update_state)
        self.build.toggled.connect(self._update_state)
        self.host.changed.connect(self._update_state)
        self.compiler.currentTextChanged.connect(self._compiler_changed)
        self.torch_timeline.toggled.connect(self._update_state)
        self.model.textChanged.connect(self._follow_model)
        for field in (self.model, self.output):
            field.textChanged.connect(lambda _text: self._update_llm_steps())
        self.model.textEdited.connect(self._model_chosen)
        self.output.textEdited.connect(self._output_edited)
        self._restore()
        if workspace is not None:
            self._start_from(workspace)
        if model is not None:
            self._output_chosen = False
            self.model.setText(str(model))
            self.build.setChecked(True)
        self._update_state()
        self._check_local_profiling()
        self.resize(760, 720)

    # ---- the tabs -----------------------------------------------------------------------
    def _model_tab(self) -> QWidget:
        self.model = QLineEdit()
        self.model.setPlaceholderText("model.onnx or a Relax IRModule .py")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        model_row = QHBoxLayout()
        model_row.addWidget(self.model, 1)
        model_row.addWidget(browse)
        self.compiler = QComboBox()
        self.compiler.setObjectName("compiler")
        self.compiler.addItems([TVM, TORCH])
        self.compiler.setToolTip(
            "TVM: build an ONNX or Relax model into a workspace. torch.compile: run a PyTorch "
            "file that defines `model` and `example_inputs` with the PyTorch of the machine "
            "under Run on (kernelscope installs none); Inductor's output, the report and the "
            "timeline go into a run folder"
        )
        self.torch_mode = QComboBox()
        self.torch_mode.addItems(list(MODES))
        self.torch_mode.setToolTip("torch.compile's mode (max-autotune: tuned, slower to compile)")
        self.torch_timeline = QCheckBox("Also time every kernel (timeline, through torch.profiler)")
        self.torch_python = QLineEdit()
        self.torch_python.setObjectName("torch_python")
        self.torch_python.setPlaceholderText(TORCH_PYTHON)
        browse_python = self._browse_python_button = QPushButton("Browse…")
        browse_python.clicked.connect(self._browse_python)
        python_row = QHBoxLayout()
        python_row.addWidget(self.torch_python, 1)
        python_row.addWidget(browse_python)
        self.output = QLineEdit()
        self.build = QCheckBox("Build the model (unchecked: profile the workspace as it is)")
        self.build.setChecked(True)
        self.arch = QComboBox()
        self.arch.setEditable(True)
        self.arch.addItems(ARCHES)
        self.arch.setToolTip("CUDA architecture to compile for (the profiling GPU's)")
        self.shapes = QLineEdit()
        self.shapes.setPlaceholderText("sizes of dynamic inputs: x=1,3,224,224; seq_len=128")
        self.params = QComboBox()
        self.params.addItems(["random", "runtime"])
        self.params.setToolTip("Weights without values: seeded random values, or runtime inputs")
        self.pipeline = QComboBox()
        self.pipeline.setObjectName("pipeline")
        self.pipeline.addItems([AUTO_PIPELINE, *PIPELINES])
        self.pipeline.setToolTip(
            "The compilation pipeline: TVM's default; mlc-llm (MLC-LLM's transpose-into-matmul "
            "fusion first, no per-call weight transposes); lift-params (weight transforms run "
            "once at load). Model's default: mlc-llm for a Python LLM with a KV cache, else "
            "default"
        )
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setToolTip("Seed of the random weights and input data")
        self.use_cache = QCheckBox("Reuse an earlier build of the same model")
        self.use_cache.setChecked(True)
        self.tuning_db = QLineEdit()
        self.tuning_db.setObjectName("tuning_db")
        self.tuning_db.setPlaceholderText("none: TVM's default schedules")
        self.tuning_db.setToolTip(
            "A folder of MetaSchedule tuning records (Tune…, kernelscope tune): kernels with a "
            "record are built with its best schedule, the others with the default one"
        )
        browse_db = QPushButton("Browse…")
        browse_db.clicked.connect(self._browse_tuning_db)
        db_row = QHBoxLayout()
        db_row.addWidget(self.tuning_db, 1)
        db_row.addWidget(browse_db)
        page = QWidget()
        form = self._model_form = QFormLayout(page)
        form.addRow("Model:", model_row)
        form.addRow("Compiler:", self.compiler)
        form.addRow("Workspace:", self.output)
        form.addRow("", self.build)
        form.addRow("Target arch:", self.arch)
        form.addRow("Input shapes:", self.shapes)
        form.addRow("Weights:", self.params)
        form.addRow("Seed:", self.seed)
        form.addRow("", self.use_cache)
        form.addRow("Tuning records:", db_row)
        form.addRow("Pipeline:", self.pipeline)
        form.addRow("Python:", python_row)
        form.addRow("torch.compile mode:", self.torch_mode)
        form.addRow("", self.torch_timeline)
        self._torch_fields = [self.torch_mode, self.torch_timeline]
        self._torch_layouts = [python_row]
        # rows only one compiler has: shown for it alone
        self._tvm_rows: list[QWidget] = [
            self.build, self.arch, self.shapes, self.params, self.seed, self.use_cache,
            self.pipeline,
        ]  # fmt: skip
        self._tvm_layouts = [db_row]
        self._build_fields = [
            self.arch, self.shapes, self.params, self.use_cache, self.tuning_db, browse_db,
            self.pipeline,
        ]  # fmt: skip
        return page

    def _profile_tab(self) -> QWidget:
        self.profile = QCheckBox("Profile with Nsight Compute")
        self.profile_note = QLabel()  # why profiling is off here, when it is
        self.profile_note.setObjectName("profile_note")
        self.profile_note.setWordWrap(True)
        self.profile_note.hide()
        self.ncu_form = NcuForm()
        self.warmup = QSpinBox()
        self.warmup.setRange(0, 1000)
        self.warmup.setToolTip("Forward passes before the profiled ones (ncu profiles them too)")
        self.iterations = QSpinBox()
        self.iterations.setRange(1, 1000)
        self.iterations.setToolTip("Forward passes profiled")
        self.inputs = QLineEdit()
        self.inputs.setPlaceholderText(".npz of the model's inputs by name (default: random)")
        browse = self._browse_inputs_button = QPushButton("Browse…")
        browse.clicked.connect(self._browse_inputs)
        inputs_row = QHBoxLayout()
        inputs_row.addWidget(self.inputs, 1)
        inputs_row.addWidget(browse)
        self.report_name = QLineEdit()
        self.report_name.setPlaceholderText("report name (default: profile-<date>-<time>)")
        page = QWidget()
        form = QFormLayout(page)
        form.addRow("", self.profile)
        form.addRow("", self.profile_note)
        form.addRow(self.ncu_form)
        form.addRow("Warm-up passes:", self.warmup)
        form.addRow("Profiled passes:", self.iterations)
        form.addRow("Inputs:", inputs_row)
        form.addRow("Report name:", self.report_name)
        self.llm_steps = StepsForm()
        self.llm_steps.hide()  # until the model is one that runs as steps
        form.addRow(self.llm_steps)
        self._profile_fields = [
            self.ncu_form, self.warmup, self.iterations, self.inputs, browse,
            self.report_name, self.llm_steps,
        ]  # fmt: skip
        return page

    def _host_tab(self) -> QWidget:
        self.host = HostChoice(HostStore(self.settings))
        self.check_button = QPushButton("Check host")
        self.check_button.setToolTip(
            "Ask the host for its GPU and driver, ncu, performance counters, Python, numpy "
            "and TVM runtime (profiles one tiny kernel there)"
        )
        self.install_button = QPushButton("Install runtime on host")
        self.install_button.setToolTip(
            "Copy a runtime-only TVM from this machine into ~/.cache/kernelscope/runtime on "
            "the host (no root, no downloads there) and check that it loads"
        )
        self.check_button.clicked.connect(self.check_host)
        self.install_button.clicked.connect(self.install_runtime)
        row = QHBoxLayout()
        row.addWidget(self.check_button)
        row.addWidget(self.install_button)
        row.addStretch(1)
        self.report_view = HostReportView()
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.addWidget(self.host)
        layout.addLayout(row)
        layout.addWidget(self.report_view, 1)
        return page

    def _update_state(self) -> None:
        idle = self.job is None
        remote = not self.host.is_local
        problem = None if remote else self._local_problem
        if problem is not None and self.profile.isChecked():
            self.profile.setChecked(False)  # toggled: this runs again
            self._append(
                f"Profiling is off: {problem}. Choose a GPU machine under Run on to profile "
                "there, or open a report made elsewhere with Import Report…"
            )
            return
        self.profile.setEnabled(problem is None)
        reason = f"Not here: {problem}. Choose a GPU machine under Run on." if problem else ""
        self.profile.setToolTip(reason)
        self.profile_note.setText(reason)
        self.profile_note.setVisible(bool(reason))
        torch = self.torch_chosen()
        self.build.setEnabled(not torch)
        for widget in self._build_fields:
            widget.setEnabled(self.build.isChecked() and not torch)
        for widget in self._torch_fields:
            widget.setEnabled(torch)
        for row in self._tvm_rows:
            self._model_form.setRowVisible(row, not torch)
        for layout in self._tvm_layouts:
            self._model_form.setRowVisible(layout, not torch)
        for row in self._torch_fields:
            self._model_form.setRowVisible(row, torch)
        for layout in self._torch_layouts:
            self._model_form.setRowVisible(layout, torch)
        for widget in (self.torch_python, self._browse_python_button):  # --python: here only
            widget.setEnabled(torch and not remote)
        self.torch_python.setToolTip(
            "On an SSH host the model runs with the host's Python: Python there, under Run on"
            if remote
            else "The Python with PyTorch that runs the model here, e.g. a virtual "
            "environment's bin/python or conda's (default: python3 on PATH)"
        )
        label = self._model_form.labelForField(self.output)
        if isinstance(label, QLabel):
            label.setText("Run folder:" if torch else "Workspace:")
        for widget in self._profile_fields:
            widget.setEnabled(self.profile.isChecked())
        for widget in (self.inputs, self._browse_inputs_button):  # TVM's .npz of inputs
            widget.setEnabled(self.profile.isChecked() and not torch)
        self.check_button.setEnabled(idle and remote)
        self.install_button.setEnabled(idle and remote and not torch)
        build, profile = self.build.isChecked(), self.profile.isChecked()
        if torch:
            build, timeline = True, self.torch_timeline.isChecked()
            text = "Compile && Profile" if profile else "Compile && Time"
            self.start.setEnabled(idle and (profile or timeline))
        else:
            text = "Build && Profile" if build and profile else "Build" if build else "Profile"
            self.start.setEnabled(idle and (build or profile))
        self.start.setText(text)
        self.output.setPlaceholderText(
            "run folder (default: MODEL.torchrun next to it)"
            if torch
            else "workspace folder (default: MODEL.kscope next to it)"
        )
        self.model.setPlaceholderText(
            "a PyTorch .py defining model and example_inputs"
            if torch
            else "model.onnx or a Relax IRModule .py"
        )
        self.report_name.setPlaceholderText(
            f"report name (default: {'torch' if torch else 'profile'}-<date>-<time>)"
        )
        self.warmup.setToolTip(
            "Calls after the compiling one, before the profiled ones (not profiled)"
            if torch
            else "Forward passes before the profiled ones (ncu profiles them too)"
        )

    def torch_chosen(self) -> bool:
        return self.compiler.currentText() == TORCH

    def _compiler_changed(self) -> None:
        self._follow_model()
        self._update_llm_steps()
        self._update_state()

    def _update_llm_steps(self, built: Path | str | None = None) -> None:
        """Show the LLM steps options for a model that runs as steps (core says which:
        the workspace in the Workspace field, ``built`` just now, or else the model file)."""
        functions: list[str] = []
        if not self.torch_chosen():
            folder = Path(built or self.output.text().strip()).expanduser()
            model = Path(self.model.text().strip()).expanduser()
            for path in (folder, model):
                if path.name and (functions := step_functions(path)):
                    break
        self.llm_steps.setVisible(bool(functions))
        self.llm_steps.setToolTip(
            f"Relax functions: {', '.join(functions)}; no one call runs the model, its steps do"
            if functions
            else ""
        )

    # ---- remembered values --------------------------------------------------------------
    def _fields(self) -> dict[str, Any]:
        return {
            "model": self.model, "output": self.output, "arch": self.arch,
            "shapes": self.shapes, "params": self.params, "seed": self.seed,
            "use_cache": self.use_cache, "profile": self.profile, **self.ncu_form.fields(),
            "warmup": self.warmup, "iterations": self.iterations,
            "inputs": self.inputs, "compiler": self.compiler, "torch_mode": self.torch_mode,
            "torch_timeline": self.torch_timeline, "torch_python": self.torch_python,
            "pipeline": self.pipeline, **self.llm_steps.fields(),
        }  # fmt: skip

    def _restore(self) -> None:
        s = self.settings
        for key, widget in self._fields().items():
            value = s.value(f"{SETTINGS}/{key}")
            if value is None:
                continue
            if isinstance(widget, QLineEdit):
                widget.setText(str(value))
            elif isinstance(widget, QComboBox):
                widget.setCurrentText(str(value))
            elif isinstance(widget, QCheckBox):
                widget.setChecked(str(value).lower() in ("true", "1"))
            elif isinstance(widget, QSpinBox) and str(value).lstrip("-").isdigit():
                widget.setValue(int(value))
        output = self.output.text().strip()
        self._output_chosen = bool(output) and output != self._default_output()

    def remember(self) -> None:
        """Keep every field (and the host choice) for the next time the dialog opens."""
        for key, widget in self._fields().items():
            if isinstance(widget, QLineEdit):
                value: object = widget.text()
            elif isinstance(widget, QComboBox):
                value = widget.currentText()
            elif isinstance(widget, QCheckBox):
                value = widget.isChecked()
            else:
                value = widget.value()
            self.settings.setValue(f"{SETTINGS}/{key}", value)
        with contextlib.suppress(KernelscopeError):  # a host that does not parse is not kept
            self.host.remember()

    def _start_from(self, workspace: Workspace) -> None:
        """The open workspace: profile it as it is (or rebuild it from its model); a
        torch.compile run's: its run folder and model (never the workspace kernelscope keeps
        of it in its cache)."""
        manifest = workspace.manifest
        run = manifest.torch_compile_run
        if run is not None:
            script = run.with_suffix(".py")  # MODEL.torchrun beside MODEL.py, as made here
            self.compiler.setCurrentText(TORCH)
            self.output.setText(str(run))
            self._output_chosen = True
            self.model.setText(str(script) if script.is_file() else "")
            return
        model = model_of(workspace)
        self._output_chosen = False  # another model typed in: its own workspace, not this one
        self.model.setText(str(model) if model else "")
        self.output.setText(str(workspace.path))
        self.arch.setCurrentText(str(manifest.target.get("arch", "")) or self.arch.currentText())
        if manifest.params_mode in ("random", "runtime"):
            self.params.setCurrentText(manifest.params_mode)
        if manifest.params_seed is not None:
            self.seed.setValue(manifest.params_seed)
        self.tuning_db.setText(manifest.tuning_db)  # a rebuild keeps its records
        self.pipeline.setCurrentText(manifest.pipeline)  # and its pipeline
        self.compiler.setCurrentText(TVM)
        self.build.setChecked(False)
        self.profile.setChecked(True)

    def _default_output(self) -> str:
        """The Model field's own workspace (``MODEL.kscope``) or run folder
        (``MODEL.torchrun``), or "" without a model."""
        model = Path(self.model.text().strip()).expanduser()
        if not model.name:  # "/" while being typed
            return ""
        return str(default_run_dir(model) if self.torch_chosen() else default_workspace(model))

    def _follow_model(self) -> None:
        model = Path(self.model.text().strip()).expanduser()
        if model.suffix == ".onnx" or (model.suffix == ".py" and model.is_file()):
            self.compiler.setCurrentText(TORCH if is_torch_model_file(model) else TVM)
        if not self._output_chosen:
            self.output.setText(self._default_output())

    def _model_chosen(self) -> None:
        """A model typed or browsed for is one to build (not the open workspace as it is)."""
        self.build.setChecked(True)

    def _output_edited(self, text: str) -> None:
        """Typed by the user: the folder stays when the model changes (emptied: it follows)."""
        self._output_chosen = bool(text.strip())

    def _check_local_profiling(self) -> None:
        """Find out off the GUI thread (ncu --version, nvidia-smi) whether this machine can
        profile; until it is known the Profile box is as it was left."""
        job = self._workers.start("open", lambda context: profiling_problem(), "profiling check")
        job.returned.connect(self._on_local_problem)

    def _on_local_problem(self, problem: object) -> None:
        self._local_problem = problem if isinstance(problem, str) else None
        self._update_state()

    # ---- actions ------------------------------------------------------------------------
    def _browse(self) -> None:
        path = open_file_name(self, "Model", "", "Models (*.onnx *.py);;All files (*)")
        if path:
            self.model.setText(path)  # the Workspace field follows unless typed
            self._model_chosen()

    def _browse_tuning_db(self) -> None:
        path = existing_folder(self, "Tuning records", self.tuning_db.text())
        if path:
            self.tuning_db.setText(path)

    def use_tuning_records(self, folder: Path) -> None:
        """Rebuild the model with the records in ``folder`` (Tune's "Build with these
        records")."""
        self.tuning_db.setText(str(folder))
        self.build.setChecked(True)

    def _browse_inputs(self) -> None:
        path = open_file_name(self, "Inputs", "", "NumPy archives (*.npz);;All files (*)")
        if path:
            self.inputs.setText(path)

    def _browse_python(self) -> None:
        path = open_file_name(self, "Python with PyTorch", self.torch_python.text())
        if path:
            self.torch_python.setText(path)

    def _import(self) -> None:
        """Import Report…: a report of the workspace in the Workspace field is attached to it
        (``import_report``, as ``kernelscope import``) and the workspace opened; without a
        workspace there, the window opens a report on its own."""
        folder = Path(self.output.text().strip()).expanduser()
        if not self.output.text().strip() or not (folder / "manifest.json").is_file():
            self.import_requested.emit()
            self.close()
            return
        path = open_file_name(
            self, f"Report of {folder.name}", "", "Nsight Compute reports (*.ncu-rep)"
        )
        if not path or self.job is not None:
            return
        report = Path(path)
        self._append(f"attaching {report.name} to {folder}…")
        self._run(
            lambda context: import_report(report, Workspace.open(folder), cancel=context.cancel),
            "importing a report",
            self._imported,
        )
        self.progress.busy()  # reading the report: no measure of how far

    def request(self) -> BuildRequest:
        model = Path(self.model.text().strip()).expanduser()
        if not model.name:
            raise KernelscopeError("choose a model to build", hint="an .onnx or .py file")
        output = self.output.text().strip()
        tuning_db = self.tuning_db.text().strip()
        return BuildRequest(
            model=model,
            output=Path(output).expanduser() if output else default_workspace(model),
            arch=self.arch.currentText().strip() or None,
            shapes=parse_shapes(self.shapes.text()),
            params=self.params.currentText(),
            seed=self.seed.value(),
            use_cache=self.use_cache.isChecked(),
            tuning_db=Path(tuning_db).expanduser() if tuning_db else None,
            pipeline=pipeline if (pipeline := self.pipeline.currentText()) in PIPELINES else "",
        )

    def existing_workspace(self) -> Path:
        """The workspace to profile without building."""
        text = self.output.text().strip()
        if not text:
            raise KernelscopeError(
                "choose the workspace to profile", hint="or tick Build the model"
            )
        path = Path(text).expanduser()
        if not (path / "manifest.json").is_file():
            raise KernelscopeError(
                f"{path} is not a kernelscope workspace", hint="tick Build the model first"
            )
        return path

    def start_build(self) -> None:
        if self.job is not None:
            return
        if self.torch_chosen():
            self._start_torch()
            return
        try:
            request = self.request() if self.build.isChecked() else None
            existing = None if request is not None else self.existing_workspace()
            host = self.host.entry() if self.profile.isChecked() else None
            profile = self._profile_for(host) if self.profile.isChecked() else None
        except KernelscopeError as exc:
            self._append(_error_text(exc))
            return
        self.remember()
        self.progress.clear()
        if request is not None:
            self._append(f"building {request.model} for {request.arch or 'this machine'}…")
        else:
            self._append(f"profiling {existing} as it is…")
        if host is not None:
            self._append(f"profiling on {host.host}")
        self._start_build_job(_Started(request, profile, existing))

    def _start_torch(self) -> None:
        try:
            request = self.torch_request(self.host.entry())
        except KernelscopeError as exc:
            self._append(_error_text(exc))
            return
        self.remember()
        self.progress.clear()
        where = request.host or "this machine"
        self._append(f"compiling {request.model} with torch.compile ({request.mode}) on {where}…")
        self._started = None
        self._run(torch_job(request), "torch.compile run", self._torch_done)

    def torch_request(self, host: HostEntry | None = None) -> TorchRequest:
        """The TorchRequest of the fields (the Profile tab's ncu options, Run on's host)."""
        model = Path(self.model.text().strip()).expanduser()
        if not model.name:
            raise KernelscopeError(
                "choose a PyTorch model file", hint="a .py file defining model and example_inputs"
            )
        output = self.output.text().strip()
        return TorchRequest(
            model=model,
            output=Path(output).expanduser() if output else None,
            mode=self.torch_mode.currentText(),
            ncu=self.ncu_form.options(),
            warmup=self.warmup.value(),
            iterations=self.iterations.value(),
            name=self.report_name.text().strip() or None,
            profile=self.profile.isChecked(),
            timeline=self.torch_timeline.isChecked(),
            python=os.path.expanduser(self.torch_python.text().strip()) or TORCH_PYTHON,
            host=host.host if host else None,
            ssh_options=host.ssh_options() if host else [],
            remote_python=host.python if host else "python3",
            remote_ncu=host.ncu if host else "ncu",
        )

    def _start_build_job(self, started: _Started) -> None:
        self._started = started
        job = build_job(started.request, started.profile, started.existing)
        self._run(job, "build", self._profiled)
        assert self.job is not None
        self.job.sent.connect(self._on_built)
        if started.request is not None and started.profile is not None:
            self.progress.set_span(0.0, 0.5)  # the build fills the first half

    def _ask_replace(self, error: OtherModelError) -> None:
        """The Workspace folder holds another model's build: replace it only on a Yes."""
        assert self._started is not None and self._started.request is not None
        request = self._started.request
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Replace the workspace?",
            f"{request.output} holds the build of another model, {error.held}.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            self,
        )
        box.setInformativeText(
            f"Replace it with a build of {request.model.name}? The build of {error.held} "
            "and its profiles are deleted. To keep them, choose No and another Workspace "
            "folder."
        )
        box.button(QMessageBox.StandardButton.Yes).setText("Replace")
        box.setDefaultButton(QMessageBox.StandardButton.No)
        box.buttonClicked.connect(self._replace_answered)
        self.confirm = box
        box.open()

    def _replace_answered(self, button: QAbstractButton) -> None:
        box, started = self.confirm, self._started
        self.confirm = None
        assert box is not None and started is not None and started.request is not None
        if box.buttonRole(button) != QMessageBox.ButtonRole.YesRole:
            self._append(
                f"not built: {started.request.output} keeps its build; choose another "
                "Workspace folder"
            )
            self.progress.set_fraction(0.0, "%p%")
            return
        self._append(f"replacing the build in {started.request.output}…")
        request = dataclasses.replace(started.request, replace_other_model=True)
        self._start_build_job(dataclasses.replace(started, request=request))

    def check_host(self) -> None:
        entry = self._remote_entry()
        if entry is None:
            return
        self.report_view.clear_report()
        self._append(f"checking {entry.host}…")
        self._run(check_job(entry.target()), "host check", self._checked)

    def install_runtime(self) -> None:
        entry = self._remote_entry()
        if entry is None:
            return
        self._append(f"installing a runtime-only TVM on {entry.host}…")
        self._run(install_job(entry.target()), "runtime install", self._installed)

    def _remote_entry(self) -> HostEntry | None:
        if self.job is not None:
            return None
        try:
            entry = self.host.entry()
        except KernelscopeError as exc:
            self._append(_error_text(exc))
            return None
        if entry is None:
            self._append("error: choose an SSH host under Run on first")
            return None
        self.host.remember()
        self.progress.clear()
        return entry

    def _run(self, fn: JobFn, what: str, done: Callable[[Any], None]) -> None:
        """Start ``fn`` on the build lane; ``done`` shows what it returns (each job its own)."""
        self.progress.start()
        job = self.job = self._workers.start("build", fn, what)
        job.progress.connect(self._on_progress)
        job.returned.connect(done)
        job.errored.connect(self._on_failed)
        job.finished.connect(self._on_job_finished)
        self.cancel.setText("Cancel")
        self._update_state()

    def _say_cancelling(self) -> None:
        self._append("cancelling…")

    def _profile_for(self, host: HostEntry | None) -> Callable[[Path], ProfileRequest]:
        """The fields as they are now: the job reads them when the build is done."""
        request = self.profile_request(Path(), host)
        check_steps(request, request.profile_steps)  # as the profile would, before the build
        return lambda workspace: dataclasses.replace(request, workspace=workspace)

    def profile_request(self, workspace: Path, host: HostEntry | None = None) -> ProfileRequest:
        """The ProfileRequest for a workspace, from the dialog's fields."""
        inputs = self.inputs.text().strip()
        return ProfileRequest(
            workspace=workspace,
            ncu=self.ncu_form.options(),
            warmup=self.warmup.value(),
            iterations=self.iterations.value(),
            inputs=Path(inputs).expanduser() if inputs else None,
            seed=self.seed.value(),
            name=self.report_name.text().strip() or None,
            host=host.host if host else None,
            ssh_options=host.ssh_options() if host else [],
            remote_ncu=host.ncu if host else "ncu",
            remote_python=host.python if host else "python3",
            remote_runtime_root=host.runtime_root or None if host else None,
            **self.llm_steps.values(),
        )

    # ---- worker signals -----------------------------------------------------------------
    def _on_progress(self, step: str, fraction: float, message: str) -> None:
        self.progress.progress(fraction)
        self._append(f"[{step}] {message}")

    def _on_built(self, built: Built) -> None:
        self.progress.end_part()  # what follows: the profile
        self._append(f"built {built.workspace}")
        self._update_llm_steps(built.workspace)
        self.finished_document.emit(str(built.workspace))

    def _profiled(self, outcome: Profiled | ProfileSkipped | None) -> None:
        """Built (``None``: no profile asked for), profiled, or built but not profiled here."""
        if isinstance(outcome, ProfileSkipped):  # built, but not profiled: not 100 %
            self.progress.stop("not profiled")
            self._append(
                f"Cannot profile here: {outcome.problem}.\nChoose a GPU machine under Run on "
                "(user@gpu-box), or profile there yourself (kernelscope profile WORKSPACE) and "
                "open its report with Import Report…"
            )
            return
        self.progress.done()
        if outcome is not None:
            self._append(
                f"profiled {outcome.launches} kernel launches in {outcome.seconds:.1f} s: "
                f"{outcome.report}"
            )
            self.finished_document.emit(str(outcome.report.parents[1]))

    def _imported(self, outcome: ReportImport) -> None:
        self.progress.done()
        for line in (*outcome.summary(), *(f"warning: {w}" for w in outcome.warnings)):
            self._append(line)
        self.finished_document.emit(str(outcome.workspace))

    def _checked(self, report: HostReport) -> None:
        self.progress.done()
        self._show_host_report(report)

    def _installed(self, outcome: InstallResult) -> None:
        self.progress.done()
        self._append(
            f"installed a runtime-only TVM {outcome.report.tvm_wanted} in "
            f"{outcome.host}:{outcome.folder} ({outcome.bundle_bytes / 1e6:.1f} MB sent, "
            f"{outcome.seconds:.1f} s)"
        )
        self._show_host_report(outcome.report)

    def _torch_done(self, outcome: TorchProfiled) -> None:
        self.progress.done()
        run = outcome.run
        if (compiled := run.compiled()) is not None:
            self._append(compiled)
        self._append(f"run folder: {run.run_dir}")
        if run.report is not None:
            self._append(
                f"profiled {run.launches} kernel launches in {run.seconds:.1f} s: {run.report}"
            )
        if run.timeline is not None:
            self._append(f"timeline: {run.timeline}")
        for document in outcome.documents():
            self.finished_document.emit(str(document))

    def _show_host_report(self, report: HostReport) -> None:
        self.report_view.show_report(report)
        self.tabs.setCurrentIndex(2)
        verdict = report.verdict()
        self._append(f"{report.host}: {verdict}")
        caps = {g.get("compute_cap", "") for g in report.gpus}
        if self.build.isChecked() and len(caps) == 1 and (cap := caps.pop()):
            arch = "sm_" + cap.replace(".", "")
            if arch != self.arch.currentText():
                self.arch.setCurrentText(arch)
                self._append(f"target arch set to {arch}, the host's GPU")

    def _on_failed(self, error: BaseException) -> None:
        if isinstance(error, OtherModelError) and self._started is not None:
            self._replace = error  # nothing was written: ask, once this job has ended
            self._append(f"{error.message.removesuffix('; refusing to replace it')}: asking…")
            return
        # the bar stays where the job got to, saying how it ended
        if isinstance(error, Cancelled):
            self.progress.stop("cancelled")
            self._append(f"{error.message}; the previous results stay on screen")
            return
        self.progress.stop("failed at %p%")
        if not isinstance(error, KernelscopeError):  # a bug: say so rather than hide it
            error = KernelscopeError(f"{type(error).__name__}: {error}")
        self.progress.append_error(_error_text(error), error.details)

    def _on_job_finished(self) -> None:
        super()._on_job_finished()
        if self._replace is not None:
            error, self._replace = self._replace, None
            self._ask_replace(error)

    def _append(self, text: str) -> None:
        self.progress.append(text)
