"""The Timeline dock: one forward pass's kernel calls in time order, and "Profile this kernel".

It shows a timeline measured with the model runner (Measure: CUDA events, here or on an SSH
host, kept in the workspace's ``timelines/``), a saved one (the open workspace's newest comes
up with it), or an Nsight Systems export (.sqlite, or a .nsys-rep exported with nsys). Above:
a plot of the calls coloured by operator type (pyqtgraph, imported when the first timeline
is shown); below: the calls, and the time share of each kernel and of each Relax operator
type. **Profile this kernel** runs Nsight Compute on exactly the chosen call (its position
among the run's launches, the kernel checked) where the timeline was measured, with the
section set last used in Build & Profile, and asks the window to open the result. When a
report of the workspace profiled a whole pass (``kernelscope profile --set none --metric
gpu__time_duration.sum --clock-control none --cache-control none ...``), the calls show ncu's
duration of the same launches and the difference, and the title how far they agree.

Reading files runs on the ``open`` lane (newest request wins); measuring and profiling on
the ``build`` lane, one GPU job at a time; Cancel stops either, over SSH too.
"""

from __future__ import annotations

import html
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, QSettings, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from kernelscope.core.errors import Cancelled, KernelscopeError
from kernelscope.core.profiling import ProfileResult, StepOptions
from kernelscope.core.timeline import (
    TIMELINE_SUFFIXES,
    Agreement,
    Timeline,
    TimelineRequest,
    TimelineSummary,
    summarise,
)
from kernelscope.core.workspace import MANIFEST, Workspace

from ..code.delegates import BarDelegate
from ..dialogs.host_choice import THIS_MACHINE, HostStore
from ..dialogs.profile_options import remembered_ncu_options
from ..widgets.busy import BusyIndicator
from ..widgets.columns import rows_table
from ..widgets.file_dialogs import open_file_name
from ..widgets.formatting import format_number
from ..widgets.roles import KeyRole, item_data
from ..workers.jobs import Job, JobFn, Latest, Workers
from ..workers.remote_jobs import (
    Summarised,
    agreement_job,
    measure_job,
    newest_timeline_job,
    open_timeline_job,
    profile_call_job,
)
from .model import CallsModel, SharesModel

if TYPE_CHECKING:
    from .plot import TimelinePlot

TIMELINE_FILTER = (
    "Timelines (*.json *.sqlite *.nsys-rep);;kernelscope timelines (*.json);;"
    "Nsight Systems (*.sqlite *.nsys-rep);;All files (*)"
)


# Measure runs the model: say so before it is pressed (issue 19)
NEEDS_GPU = (
    "Measure runs the model on an NVIDIA GPU: this machine's, or an SSH host chosen in Run on "
    "(the hosts of Build & Profile)"
)
NO_TIMELINE = (
    "No timeline: open a workspace and Measure (it needs a GPU: this machine's or an SSH "
    "host in Run on), or open a saved timeline or an Nsight Systems export"
)


# what Measure runs for an LLM's workspace when no steps are given
DEFAULT_STEPS = "prefill=128,decode=32"


def is_timeline(path: str | Path) -> bool:
    """Whether the window opens ``path`` in the Timeline pane (not a workspace's
    manifest.json, which opens the workspace)."""
    path = Path(path)
    return path.suffix in TIMELINE_SUFFIXES and path.name != MANIFEST


def _table(
    model: CallsModel | SharesModel, bars: list[int], *, sort_by: int | None = -1
) -> QTableView:
    """A table of ``model``, sorted by the model itself (``RowsModel.sort``: an Nsight Systems
    export has a million calls) by column ``sort_by`` (-1: in the model's order, the most
    time first for the shares; None: never sorted, for the steps in step order)."""
    table = rows_table(model)
    if sort_by is not None:
        table.horizontalHeader().setSortIndicator(sort_by, Qt.SortOrder.AscendingOrder)
        table.setSortingEnabled(True)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    table.setAlternatingRowColors(True)
    delegate = BarDelegate(table)
    for column in bars:
        table.setItemDelegateForColumn(column, delegate)
    return table


class TimelinePanel(QWidget):
    profiled = Signal(str, str)  # the workspace to open (its newest report), the kernel
    error = Signal(str, object)  # title, exception
    shown = Signal()  # a timeline came up: raise the dock

    def __init__(self, settings: QSettings, workers: Workers, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("timeline_panel")
        self.settings = settings
        self.workers = workers
        self.hosts = HostStore(settings)
        self.timeline: Timeline | None = None
        self.summary: TimelineSummary | None = None  # of the whole shown timeline
        self.workspace: Workspace | None = None
        self.job: Job | None = None  # measuring or profiling (build lane)
        self._profiling = ""  # the kernel of the call being profiled
        # the workspace the shown runner timeline belongs to, when it came from one opened
        # here (its recorded origin may be where the workspace was when it was measured)
        self._timeline_workspace: Path | None = None
        self.loader = Latest(workers, "open", "reading a timeline", self)
        # ncu's durations of the shown calls, from a report of the workspace with a whole pass
        self.comparer = Latest(workers, "open", "comparing the timeline with ncu", self)
        self.agreement: Agreement | None = None
        self.plot: TimelinePlot | None = None
        self.title = QLabel(NO_TIMELINE)
        self.title.setObjectName("timeline_title")
        self.title.setWordWrap(True)
        self.where = QComboBox()
        self.where.setObjectName("timeline_where")
        self.where.setToolTip(NEEDS_GPU)
        self.measure_button = QPushButton("Measure")
        self.measure_button.setToolTip(
            "Time every kernel call of one forward pass with CUDA events (no Nsight tool: the "
            f"kernels run back to back as in a plain run). {NEEDS_GPU}."
        )
        self.open_button = QPushButton("Open…")
        self.open_button.setToolTip("Open a saved timeline or an Nsight Systems export")
        self.profile_button = QPushButton("Profile This Kernel")
        self.profile_button.setObjectName("profile_call")
        self.profile_button.setToolTip(
            "Run Nsight Compute on exactly the chosen call, where the timeline was measured"
        )
        self.busy_indicator = BusyIndicator("timeline_busy")
        # an LLM's workspace (a function makes a KV cache): Measure runs these steps
        self.steps_label = QLabel("Steps:")
        self.steps_edit = QLineEdit()
        self.steps_edit.setObjectName("timeline_steps")
        self.steps_edit.setPlaceholderText(DEFAULT_STEPS)
        self.steps_edit.setToolTip(
            "The LLM steps Measure runs, as kernelscope timeline --steps takes them: prefill "
            f"tokens and decode steps (empty: {DEFAULT_STEPS}); each step is timed whole and "
            "each call in it"
        )
        metrics = self.fontMetrics()
        self.steps_edit.setFixedWidth(
            metrics.horizontalAdvance(DEFAULT_STEPS) + metrics.horizontalAdvance("0") * 4
        )
        self.batch_box = QSpinBox()
        self.batch_box.setObjectName("timeline_batch")
        self.batch_box.setRange(1, 1024)
        self.batch_box.setPrefix("batch ")
        self.batch_box.setToolTip("Sequences run together in each step (kernelscope --batch)")
        # a timeline of an LLM's steps: all of them, or one step's calls
        self.step_box = QComboBox()
        self.step_box.setObjectName("timeline_step")
        self.step_box.setToolTip("The calls of all steps, or of one step")
        self.step_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.step_box.currentIndexChanged.connect(self._on_step_chosen)
        # the title on its own row: beside the controls it made the pane wider than a
        # 1280-pixel window, and the last button went past its edge
        header = QHBoxLayout()
        header.addWidget(self.title, 1)
        header.addWidget(self.busy_indicator)
        header.addWidget(self.step_box)
        controls = QHBoxLayout()
        controls.addStretch(1)
        controls.addWidget(QLabel("Run on:"))
        controls.addWidget(self.where)
        controls.addWidget(self.steps_label)
        controls.addWidget(self.steps_edit)
        controls.addWidget(self.batch_box)
        controls.addWidget(self.measure_button)
        controls.addWidget(self.open_button)
        controls.addWidget(self.profile_button)
        self.calls = CallsModel(self)
        self.kernel_shares = SharesModel("Kernel", self)
        self.op_shares = SharesModel("Operator type", self)
        self.step_shares = SharesModel("Step", self)
        self.calls_table = _table(self.calls, [2], sort_by=0)
        self.calls_table.setObjectName("timeline_calls")
        for column in CallsModel.NCU_COLUMNS:  # until a report has the pass
            self.calls_table.setColumnHidden(column, True)
        kernels_table = _table(self.kernel_shares, [3])
        ops_table = _table(self.op_shares, [3])
        # in step order (decode 2 before decode 10)
        self.steps_table = _table(self.step_shares, [3], sort_by=None)
        self.steps_table.setObjectName("timeline_steps_table")
        self.steps_table.setToolTip("Each step's calls and time; choose one to see its calls")
        self.steps_table.activated.connect(self._on_step_row)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.calls_table, "Calls")
        self.tabs.addTab(kernels_table, "Kernels")
        self.tabs.addTab(ops_table, "Operator types")
        self.tabs.addTab(self.steps_table, "Steps")
        self.profile_action = QAction("Profile This Kernel", self)
        self.profile_action.triggered.connect(self.profile_selected)
        self.calls_table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.calls_table.addAction(self.profile_action)
        self.plot_area = QWidget()
        self.plot_layout = QVBoxLayout(self.plot_area)
        self.plot_layout.setContentsMargins(0, 0, 0, 0)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.plot_area)
        self.splitter.addWidget(self.tabs)
        self.splitter.setSizes([600, 500])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(header)
        layout.addLayout(controls)
        layout.addWidget(self.splitter, 1)
        self.measure_button.clicked.connect(self.measure)
        self.open_button.clicked.connect(self.choose_file)
        self.profile_button.clicked.connect(self.profile_selected)
        self.busy_indicator.cancel_requested.connect(self.cancel)
        self.calls_table.selectionModel().currentRowChanged.connect(self._on_current)
        self.loader.result.connect(self._on_loaded)
        self.loader.failed.connect(self._on_load_failed)
        self.loader.busy_changed.connect(lambda busy: self._update())
        self.comparer.result.connect(self._on_agreement)
        self.reload_hosts()
        self._update()

    # ---- state --------------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        return self.loader.busy or self.job is not None

    def current_call(self) -> int | None:
        index = self.calls_table.currentIndex()
        if not index.isValid():
            return None
        call = item_data(index, KeyRole)
        return call.index if call is not None else None

    def can_profile(self) -> str | None:
        """Why Profile This Kernel cannot run now (None: it can)."""
        if self.timeline is None:
            return "no timeline"
        if self.timeline.source == "torch":
            return (
                "a torch.compile run's timeline: profile the run again with Build & Profile "
                "(Kernel filter, Launch skip and Launch count pick the calls)"
            )
        if self.timeline.source != "runner":
            return (
                "an Nsight Systems trace is another program's run: measure the workspace's "
                "timeline (Measure) to profile one of its calls"
            )
        if self.current_call() is None:
            return "choose a call"
        return None

    def _update(self) -> None:
        idle = self.job is None
        self.measure_button.setEnabled(idle and self.workspace is not None)
        self.steps_label.setVisible(self._runs_steps())
        for widget in (self.steps_edit, self.batch_box):
            widget.setVisible(self._runs_steps())
            widget.setEnabled(idle)
        stepped = self.step_box.count() > 0  # the shown timeline has steps
        self.step_box.setVisible(stepped)
        self.tabs.setTabVisible(self.tabs.indexOf(self.steps_table), stepped)
        why = self.can_profile()
        self.profile_button.setEnabled(idle and why is None)
        self.profile_action.setEnabled(idle and why is None)
        self.profile_button.setToolTip(
            why or "Run Nsight Compute on exactly the chosen call, where it was measured"
        )

    def _runs_steps(self) -> bool:
        """The open workspace is an LLM's (a function makes a KV cache): Measure runs steps."""
        return self.workspace is not None and any(
            f.creates_kv_cache for f in self.workspace.manifest.functions
        )

    def reload_hosts(self) -> None:
        """The hosts remembered by Build & Profile, the last one chosen."""
        current = self.where.currentText()
        self.where.clear()
        self.where.addItem(THIS_MACHINE)
        self.where.addItems([h.host for h in self.hosts.hosts()])
        self.where.setCurrentText(current or self.hosts.where() or THIS_MACHINE)

    # ---- what is shown ------------------------------------------------------------------
    def set_workspace(self, workspace: Workspace | None) -> None:
        """The window's open workspace: its newest saved timeline comes up (unless the one
        shown is an Nsight Systems file the user opened)."""
        self.workspace = workspace
        self.reload_hosts()
        self._update()
        if workspace is None:
            return
        if self.timeline is not None and self.timeline.source != "runner":
            return
        self.loader.submit(newest_timeline_job(workspace.path), ("saved", workspace.path))

    def open_file(self, path: str | Path) -> None:
        """A saved timeline (.json) or Nsight Systems export/report, read in the background."""
        job = open_timeline_job(Path(path), self.workspace)
        self.loader.submit(job, ("file", Path(path)))
        self.busy_indicator.start(f"Reading {Path(path).name}…", cancellable=True)

    def choose_file(self) -> None:
        path = open_file_name(self, "Open a timeline", "", TIMELINE_FILTER)
        if path:
            self.open_file(path)

    def show_timeline(
        self, timeline: Timeline | None, summary: TimelineSummary | None = None
    ) -> None:
        """Show ``timeline`` with its ``summary`` (worked out here when not given: give it for
        a big one, worked out off the GUI thread)."""
        if timeline is not None and summary is None:
            summary = summarise(timeline)
        self.timeline, self.summary = timeline, summary
        self._timeline_workspace = None
        self.agreement = None
        steps = summary.step_shares if summary else []
        self.step_shares.set_rows(steps)
        self.step_box.blockSignals(True)
        self.step_box.clear()
        if steps:
            self.step_box.addItem(f"All steps ({len(steps)})", None)
            for share in steps:
                self.step_box.addItem(
                    f"{share.name} ({format_number(share.total_us)} µs)", share.name
                )
        self.step_box.blockSignals(False)
        self._show_calls(timeline, summary)
        self.title.setText(self._describe(timeline, summary))
        if timeline is not None and self.plot is None:
            from .plot import TimelinePlot  # pyqtgraph: only once there is a plot

            self.plot = TimelinePlot()
            self.plot.call_clicked.connect(self.choose_call)
            self.plot_layout.addWidget(self.plot)
        if self.plot is not None:
            self.plot.set_timeline(timeline, summary)
        if summary is not None and summary.longest is not None:
            self.choose_call(summary.longest)
        self._update()

    def _show_calls(self, timeline: Timeline | None, summary: TimelineSummary | None) -> None:
        """The calls and the kernel and operator-type shares of ``timeline`` (all of the
        shown one, or one step's part of it) and its ``summary``."""
        self.calls.set_timeline(timeline, summary)
        for column in CallsModel.NCU_COLUMNS:
            self.calls_table.setColumnHidden(column, self.agreement is None)
        if self.agreement is not None:
            self.calls.set_agreement(self.agreement)
        self.kernel_shares.set_rows(summary.kernel_shares if summary else [])
        self.op_shares.set_rows(summary.op_shares if summary else [])
        self.calls_table.resizeColumnsToContents()

    def choose_step(self, step: str | None) -> None:
        """Show the calls of one step ("decode 2"), or of all of them (None)."""
        index = self.step_box.findData(step) if step is not None else 0
        if index >= 0:
            self.step_box.setCurrentIndex(index)

    def _on_step_chosen(self, index: int) -> None:
        timeline = self.timeline
        step = self.step_box.itemData(index) if index >= 0 else None
        if timeline is None:
            return
        summary = self.summary
        if step is not None:  # one step's calls: a few hundred, summarised here
            timeline = replace(timeline, calls=[c for c in timeline.calls if c.step == step])
            summary = summarise(timeline)
        self._show_calls(timeline, summary)
        if summary is not None and summary.longest is not None:
            self.choose_call(summary.longest)

    def _on_step_row(self, index: QModelIndex) -> None:
        share = item_data(index, KeyRole)
        if share is not None:
            self.choose_step(share.name)
            self.tabs.setCurrentWidget(self.calls_table)

    def choose_call(self, index: int) -> None:
        """Make call ``index`` the chosen one, in the table and the plot."""
        row = self.calls.row_of(index)
        if row is not None:
            self.calls_table.setCurrentIndex(self.calls.index(row, 0))
            self.calls_table.scrollTo(self.calls.index(row, 0))

    def _on_current(self, current: QModelIndex, previous: QModelIndex) -> None:
        if self.plot is not None:
            self.plot.choose(self.current_call())
        self._update()

    def _compare(self) -> None:
        """Look for ncu's durations of the shown calls in the timeline's workspace (a runner
        timeline's own, else the open workspace), in the background."""
        timeline = self.timeline
        if timeline is None:
            return
        if timeline.source == "runner":
            workspace = self._timeline_workspace or Path(timeline.origin)
        elif self.workspace is not None:
            workspace = self.workspace.path
        else:
            return
        if (workspace / MANIFEST).is_file():
            self.comparer.submit(agreement_job(timeline, workspace), timeline)

    def _on_agreement(self, agreement: Agreement, timeline: Timeline) -> None:
        if timeline is not self.timeline or agreement.report is None:
            return
        self.agreement = agreement
        self.calls.set_agreement(agreement)
        for column in CallsModel.NCU_COLUMNS:
            self.calls_table.setColumnHidden(column, False)
            self.calls_table.resizeColumnToContents(column)
        self.title.setText(f"{self._describe(timeline, self.summary)}<br>{agreement.describe()}")

    @staticmethod
    def _describe(timeline: Timeline | None, summary: TimelineSummary | None = None) -> str:
        if timeline is None:
            return (
                "No timeline yet: Measure times one forward pass of the open workspace on a "
                "GPU, this machine's or the SSH host in Run on"
            )
        meta = timeline.meta
        if timeline.source == "runner":
            how = f"CUDA events, median of {meta.get('repeat', '?')} passes on {meta.get('host')}"
            overhead = meta.get("event_overhead_us")
            if overhead is not None:
                how += f", {format_number(overhead)} µs event cost taken off each call"
        elif timeline.source == "torch":
            how = f"torch.profiler, median of {meta.get('repeat', '?')} calls on {meta.get('host')}"
        else:
            how = f"Nsight Systems {meta.get('nsys_version', '')}".rstrip()
        summary = summary or summarise(timeline)
        text = (
            f"<b>{Path(timeline.origin).name}</b> on {timeline.device} ({how}): "
            f"{len(timeline.calls):,} calls of {summary.kernels:,} kernels, "
            f"{format_number(summary.kernel_time_us)} µs in kernels, "
            f"{format_number(summary.span_us)} µs span"
        )
        if timeline.source == "runner" and not all(meta.get("saturated", [True])):
            text += " — the GPU waited for the CPU in some passes: times include launch gaps"
        if meta.get("cuda_graphs"):  # an Nsight Systems trace of CUDA graphs
            text += f" — {html.escape(meta['cuda_graphs'])}"
        return text

    # ---- jobs -----------------------------------------------------------------------------
    def _on_loaded(self, found: Summarised | None, context: tuple) -> None:
        timeline, summary = found if found is not None else (None, None)
        kind, path = context
        if self.job is None:
            self.busy_indicator.stop()
        if kind == "saved" and (self.workspace is None or self.workspace.path != path):
            return  # another workspace opened since
        if timeline is None and kind == "saved":
            if self.timeline is None or self.timeline.source == "runner":
                self.show_timeline(None)
            return
        self.show_timeline(timeline, summary)
        self._timeline_workspace = path if kind == "saved" else None
        self._compare()
        if kind == "file":  # asked for: bring the pane up (a workspace's own stays behind)
            self.shown.emit()

    def _on_load_failed(self, error: BaseException, context: tuple) -> None:
        if self.job is None:
            self.busy_indicator.stop()
        if isinstance(error, Cancelled):
            return
        self.error.emit(f"Cannot open the timeline {context[1]}", error)

    def measure(self) -> None:
        """Measure the open workspace's timeline where ``Run on`` says."""
        if self.job is not None or self.workspace is None:
            return
        llm = StepOptions()
        if self._runs_steps():
            steps = self.steps_edit.text().strip() or DEFAULT_STEPS
            llm = StepOptions(steps=steps, batch=self.batch_box.value())
        host = self._host()
        target = self.hosts.entry_for(host).target() if host is not None else None
        request = TimelineRequest(workspace=self.workspace.path, host=target, llm=llm)
        self._start(measure_job(request), f"Measuring on {host or 'this machine'}…")

    def profile_selected(self) -> None:
        """Nsight Compute on the chosen call, where the timeline was measured."""
        if self.job is not None or self.timeline is None:
            return
        why = self.can_profile()
        index = self.current_call()
        if why is not None or index is None:
            self.error.emit("Cannot profile this call", KernelscopeError(why or "choose a call"))
            return
        kernel = self.timeline.calls[index].kernels[0]
        options = remembered_ncu_options(self.settings)
        options["name"] = f"call{index}-{kernel}"[:120]
        host = self.timeline.meta.get("host")
        where = "this machine"
        if host and host != "localhost":
            options["host"] = self.hosts.entry_for(str(host)).target()
            where = str(host)
        workspace = self._timeline_workspace or Path(self.timeline.origin)
        self._profiling = kernel
        self._start(
            profile_call_job(self.timeline, index, workspace, options),
            f"Profiling call {index} ({kernel}) on {where}…",
        )

    def _host(self) -> str | None:
        text = self.where.currentText().strip()
        return None if not text or text == THIS_MACHINE else text

    def _start(self, fn: JobFn, what: str) -> None:
        job = self.job = self.workers.start("build", fn, what)
        self.busy_indicator.start(what, cancellable=True)
        job.progress.connect(lambda step, f, message: self.busy_indicator.set_progress(f, message))
        job.returned.connect(self._on_job_returned)
        job.errored.connect(self._on_job_failed)
        job.finished.connect(self._on_job_finished)
        self._update()

    def cancel(self) -> None:
        if self.job is not None:
            self.job.cancel()
        self.loader.cancel()
        self.busy_indicator.stop()

    def _on_job_returned(self, value: object) -> None:
        if isinstance(value, Timeline):
            self.show_timeline(value)
            self._timeline_workspace = Path(value.origin)
            self._compare()
            self.shown.emit()
        elif isinstance(value, ProfileResult):
            self.profiled.emit(str(value.report.parents[1]), self._profiling)

    def _on_job_failed(self, error: BaseException) -> None:
        if isinstance(error, Cancelled):
            return
        self.error.emit("Timeline", error)

    def _on_job_finished(self) -> None:
        self.job = None
        self.busy_indicator.stop()
        self._update()
