"""Build & Profile: choose a model, its compiler and profiling options, and where to run;
watch the log.

Three tabs: **Model** (what to build, or the open workspace as it is: the model, the
compiler, the workspace folder and the compiler's own page), **Profile** (every option of
``kernelscope profile``: the Nsight Compute form, warm-up and profiled passes, an inputs
``.npz``, the report name, an LLM's steps) and **Run on** (the host form: this machine or an
SSH host; Check host shows the remote doctor's answer with the exact fixes, Install runtime
on host copies a runtime-only TVM there). One job at a time runs on the window's ``build``
lane: the build and profile, a torch.compile run, a host check, an install or a report
import, each started with how its outcome is shown. Cancel stops it (over SSH: the remote
ncu and the model it runs, and the remote folder goes); the workspace on disk and the
results on screen stay as they were. The dialog remembers its last values in QSettings and
starts from the model of the open workspace.

The Compiler choice picks the Model tab's page: **TVM** (``build_tvm_page``: a workspace,
``kernelscope build`` then ``profile``) or **torch.compile** (``build_torch_page``: a
PyTorch file run by the PyTorch of the machine under Run on into a run folder,
``kernelscope profile-torch``; the run folder and its timeline open in the window when it
is done). A .py file that imports torch and not tvm picks torch.compile by itself. Each page
says what its compiler needs of the rest: the Workspace field's label and default, the Start
button's text, which Profile fields apply.

The Workspace field follows the Model field (``MODEL.kscope``, ``MODEL.torchrun``) until the
user types a folder there; a build into a folder that holds another model's build asks first
(core refuses it with ``OtherModelError`` before anything is written). Profiling here is
off, with the reason, where this machine cannot profile (no ncu, no GPU) and no SSH host is
chosen.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import (
    QAbstractButton,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from kernelscope.core.build import BuildRequest
from kernelscope.core.errors import Cancelled, KernelscopeError
from kernelscope.core.ncu import ReportImport, import_report
from kernelscope.core.profiling import (
    HostReport,
    InstallResult,
    ProfileRequest,
    SshTarget,
    check_steps,
    profiling_problem,
    step_functions,
)
from kernelscope.core.torchrun import TorchRequest, is_torch_model_file
from kernelscope.core.workspace import OtherModelError, Workspace

from ..dialogs.host_choice import HostChoice, HostEntry, HostStore
from ..dialogs.job_dialog import JobDialog
from ..dialogs.profile_options import SETTINGS
from ..widgets.file_dialogs import browse_row, open_file_name
from ..widgets.job_progress import JobProgress
from ..widgets.messages import what_to_do
from ..widgets.screen_fit import resize_within_screen
from ..workers.jobs import Job, JobFn, Workers
from ..workers.remote_jobs import check_job, install_job
from .build_torch_page import TorchPage
from .build_tvm_page import TvmPage
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

CompilerPage = TvmPage | TorchPage  # the Model tab's page of the chosen compiler


@dataclasses.dataclass(frozen=True)
class _Started:
    """What a Build & Profile job was asked: run again as it was after a Yes to replacing."""

    request: BuildRequest | None
    profile: Callable[[Path], ProfileRequest] | None
    existing: Path | None


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
        for page, title in (
            (self._model_tab(), "Model"),
            (self._profile_tab(), "Profile"),
            (self._host_tab(), "Run on"),
        ):
            self.tabs.addTab(_scrolled(page), title)
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
        layout.addWidget(self.tabs, 5)
        layout.addWidget(self.progress, 1)
        layout.addLayout(buttons)
        self.start.clicked.connect(self.start_build)
        self.cancel.clicked.connect(self._cancel_or_close)
        self.import_button.clicked.connect(self._import)
        self.profile.toggled.connect(self._update_state)
        self.host.changed.connect(self._update_state)
        for page in self.pages.values():
            page.changed.connect(self._update_state)
        self.compiler.currentTextChanged.connect(self._compiler_changed)
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
            self.tvm.build.setChecked(True)
        self._update_state()
        self._check_local_profiling()
        resize_within_screen(self, 760, 720)

    # ---- the tabs -----------------------------------------------------------------------
    def _model_tab(self) -> QWidget:
        self.model = QLineEdit()
        model_row, _ = browse_row(  # the Workspace field follows the model unless typed
            self.model,
            lambda: open_file_name(self, "Model", "", "Models (*.onnx *.py);;All files (*)"),
            then=self._model_chosen,
        )
        self.tvm, self.torch = TvmPage(), TorchPage()
        self.pages: dict[str, CompilerPage] = {page.name: page for page in (self.tvm, self.torch)}
        self.compiler = QComboBox()
        self.compiler.setObjectName("compiler")
        self.compiler.addItems(list(self.pages))
        self.compiler.setToolTip(
            "TVM: build an ONNX or Relax model into a workspace. torch.compile: run a PyTorch "
            "file that defines `model` and `example_inputs` with the PyTorch of the machine "
            "under Run on (kernelscope installs none); Inductor's output, the report and the "
            "timeline go into a run folder"
        )
        self.output = QLineEdit()
        page = QWidget()
        form = self._model_form = QFormLayout(page)
        form.addRow("Model:", model_row)
        form.addRow("Compiler:", self.compiler)
        form.addRow(self.tvm.output_label, self.output)
        for compiler_page in self.pages.values():
            form.addRow(compiler_page)
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
        self.iterations = QSpinBox()
        self.iterations.setRange(1, 1000)
        self.iterations.setToolTip("Forward passes profiled")
        self.inputs = QLineEdit()
        self.inputs.setPlaceholderText(".npz of the model's inputs by name (default: random)")
        inputs_row, self._browse_inputs_button = browse_row(
            self.inputs,
            lambda: open_file_name(self, "Inputs", "", "NumPy archives (*.npz);;All files (*)"),
        )
        self.report_name = QLineEdit()
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
            self.ncu_form, self.warmup, self.iterations, self.inputs,
            self._browse_inputs_button, self.report_name, *self.llm_steps.profile_widgets(),
        ]  # fmt: skip
        self.tvm.add_build_field(self.llm_steps.cuda_graph)  # a build option, on that tab
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

    # ---- what is on, and what it says -----------------------------------------------------
    def _update_state(self) -> None:
        if self._turn_profiling_off():
            return  # the Profile box was toggled: this runs again
        page = self.compiler_page()
        remote = not self.host.is_local
        for each in self.pages.values():  # the other compiler's page: hidden and off
            each.setVisible(each is page)
            each.setEnabled(each is page)
        page.update_state(remote)
        self._say_compiler(page)
        profile = self.profile.isChecked()
        for widget in self._profile_fields:
            widget.setEnabled(profile)
        for widget in (self.inputs, self._browse_inputs_button):
            widget.setEnabled(profile and page.takes_inputs)
        idle = self.job is None
        self.check_button.setEnabled(idle and remote)
        self.install_button.setEnabled(idle and remote and page is self.tvm)  # TVM's runtime
        text, startable = page.start_text(profile)
        self.start.setText(text)
        self.start.setEnabled(idle and startable)

    def _turn_profiling_off(self) -> bool:
        """Profiling is off, with the reason, where this machine cannot profile and no host
        is chosen; True when it was on (turned off now)."""
        problem = self._local_problem if self.host.is_local else None
        if problem is not None and self.profile.isChecked():
            self.profile.setChecked(False)
            self._append(
                f"Profiling is off: {problem}. Choose a GPU machine under Run on to profile "
                "there, or open a report made elsewhere with Import Report…"
            )
            return True
        self.profile.setEnabled(problem is None)
        reason = f"Not here: {problem}. Choose a GPU machine under Run on." if problem else ""
        self.profile.setToolTip(reason)
        self.profile_note.setText(reason)
        self.profile_note.setVisible(bool(reason))
        return False

    def _say_compiler(self, page: CompilerPage) -> None:
        """The shared fields' words for the chosen compiler."""
        label = self._model_form.labelForField(self.output)
        if isinstance(label, QLabel):
            label.setText(page.output_label)
        self.output.setPlaceholderText(page.output_hint)
        self.model.setPlaceholderText(page.model_hint)
        self.report_name.setPlaceholderText(
            f"report name (default: {page.report_prefix}-<date>-<time>)"
        )
        self.warmup.setToolTip(page.warmup_tip)

    def compiler_page(self) -> CompilerPage:
        return self.pages[self.compiler.currentText()]

    def torch_chosen(self) -> bool:
        return self.compiler_page() is self.torch

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
            "model": self.model, "output": self.output, **self.tvm.fields(),
            "profile": self.profile, **self.ncu_form.fields(), "warmup": self.warmup,
            "iterations": self.iterations, "inputs": self.inputs, "compiler": self.compiler,
            **self.torch.fields(), **self.llm_steps.fields(),
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
            self.compiler.setCurrentText(self.torch.name)
            self.output.setText(str(run))
            self._output_chosen = True
            self.model.setText(str(script) if script.is_file() else "")
            return
        model = model_of(workspace)
        self._output_chosen = False  # another model typed in: its own workspace, not this one
        self.model.setText(str(model) if model else "")
        self.output.setText(str(workspace.path))
        self.tvm.start_from(manifest)
        self.compiler.setCurrentText(self.tvm.name)
        self.llm_steps.cuda_graph.setChecked(manifest.cuda_graph)  # and its CUDA graphs
        self.profile.setChecked(True)

    def _default_output(self) -> str:
        """The Model field's own workspace (``MODEL.kscope``) or run folder
        (``MODEL.torchrun``), or "" without a model."""
        model = Path(self.model.text().strip()).expanduser()
        if not model.name:  # "/" while being typed
            return ""
        return str(self.compiler_page().default_output(model))

    def _follow_model(self) -> None:
        model = Path(self.model.text().strip()).expanduser()
        if model.suffix == ".onnx" or (model.suffix == ".py" and model.is_file()):
            page = self.torch if is_torch_model_file(model) else self.tvm
            self.compiler.setCurrentText(page.name)
        if not self._output_chosen:
            self.output.setText(self._default_output())

    def _model_chosen(self) -> None:
        """A model typed or browsed for is one to build (not the open workspace as it is)."""
        self.tvm.build.setChecked(True)

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
    def use_tuning_records(self, folder: Path) -> None:
        """Rebuild the model with the records in ``folder`` (Tune's "Build with these
        records")."""
        self.tvm.use_tuning_records(folder)

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
        output_path = Path(output).expanduser() if output else self.tvm.default_output(model)
        request = self.tvm.request(model, output_path)
        return dataclasses.replace(request, **self.llm_steps.build_options())

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
            request = self.request() if self.tvm.build.isChecked() else None
            existing = None if request is not None else self.existing_workspace()
            host = self.host.options() if self.profile.isChecked() else None
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
            request = self.torch_request(self.host.options())
        except KernelscopeError as exc:
            self._append(_error_text(exc))
            return
        self.remember()
        self.progress.clear()
        where = request.host.host if request.host else "this machine"
        self._append(f"compiling {request.model} with torch.compile ({request.mode}) on {where}…")
        self._started = None
        self._run(torch_job(request), "torch.compile run", self._torch_done)

    def torch_request(self, host: SshTarget | None = None) -> TorchRequest:
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
            mode=self.torch.mode.currentText(),
            ncu=self.ncu_form.options(),
            warmup=self.warmup.value(),
            iterations=self.iterations.value(),
            name=self.report_name.text().strip() or None,
            profile=self.profile.isChecked(),
            timeline=self.torch.timeline.isChecked(),
            python=self.torch.python_path(),
            host=host,
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

    def _profile_for(self, host: SshTarget | None) -> Callable[[Path], ProfileRequest]:
        """The fields as they are now: the job reads them when the build is done."""
        request = self.profile_request(Path(), host)
        check_steps(request.llm)  # as the profile would, before the build
        return lambda workspace: dataclasses.replace(request, workspace=workspace)

    def profile_request(self, workspace: Path, host: SshTarget | None = None) -> ProfileRequest:
        """The ProfileRequest for a workspace, from the dialog's fields."""
        inputs = self.inputs.text().strip()
        return ProfileRequest(
            workspace=workspace,
            ncu=self.ncu_form.options(),
            warmup=self.warmup.value(),
            iterations=self.iterations.value(),
            inputs=Path(inputs).expanduser() if inputs else None,
            seed=self.tvm.seed.value(),
            name=self.report_name.text().strip() or None,
            host=host,
            llm=self.llm_steps.options(),
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
        arch = self.tvm.build_for_gpu({g.get("compute_cap", "") for g in report.gpus})
        if arch is not None:
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


def _scrolled(page: QWidget) -> QScrollArea:
    """A tab's page that scrolls where the screen is shorter than the page (the Profile tab
    with its LLM steps group is taller than a 1280x720 screen's room for the dialog)."""
    area = QScrollArea()
    area.setWidget(page)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    return area
