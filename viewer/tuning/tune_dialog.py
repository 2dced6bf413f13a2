"""Tune: ``kernelscope tune`` in the window. How many candidates, which kernels (the ones
selected, or the top N by microseconds to save) and where candidates are measured (this
machine, an SSH host's GPU through its RPC server, or TVM's RPC tracker by key); the run is a
job on the ``tune`` lane with a row per task (trials measured, best time against the default
schedule's). Cancel keeps what was measured. "Add Records From…" merges another database
into the records folder (``kernelscope tune-merge``). Once there are records, "Build with these
records" rebuilds the model from them (the Build dialog's Tuning records), and "Build &
Profile Tuned" builds them beside the workspace, profiles and compares (``GainDialog``).
"""

from __future__ import annotations

import contextlib
import html
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QCheckBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from kernelscope.core.errors import Cancelled, KernelscopeError
from kernelscope.core.tuning import DEFAULT_DB, TaskProgress, TuningResult

from ..dialogs.host_choice import HostChoice, HostStore
from ..dialogs.job_dialog import JobDialog
from ..widgets.file_dialogs import existing_folder
from ..widgets.job_progress import JobProgress
from ..widgets.messages import error_html
from ..widgets.screen_fit import resize_within_screen
from ..workers.jobs import Job, Workers
from .tune_job import (
    TuneRequest,
    TuneStarted,
    local_gpu_problem,
    merge_job,
    tune_job,
)

SETTINGS = "tune"


class TuneDialog(JobDialog):
    build_requested = Signal(str)  # the records folder: rebuild the model with it
    gain_requested = Signal(str)  # the records folder: build beside, profile and compare

    def __init__(
        self,
        workers: Workers,
        workspace: Path,
        kernels: list[str],
        parent: QWidget | None = None,
        *,
        settings: QSettings | None = None,
        savings_us: dict[str, float] | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Tune")
        self.setObjectName("tune_dialog")
        self._workers = workers
        self.workspace = workspace
        self.kernels = list(kernels)
        self.savings_us = savings_us
        self.settings = settings if settings is not None else QSettings()
        self.population = 512  # the evolutionary search's (TVM's default); tests use fewer
        self.job: Job | None = None
        self.outcome: TuningResult | None = None
        self.database: Path | None = None  # of the run, once planned
        self._gpu_problem: str | None = None  # why this machine cannot measure, once known
        self._rows: dict[str, int] = {}  # task -> its row

        self.trials = QSpinBox()
        self.trials.setRange(1, 100000)
        self.trials.setValue(64)
        self.trials.setToolTip("Candidate schedules to measure per kernel (16 a round)")
        self.selected = QRadioButton()
        self.top = QRadioButton("The top")
        self.top_n = QSpinBox()
        self.top_n.setRange(1, 1000)
        self.top_n.setValue(3)
        group = QButtonGroup(self)
        group.addButton(self.selected)
        group.addButton(self.top)
        which = QVBoxLayout()
        which.setContentsMargins(0, 0, 0, 0)
        which.addWidget(self.selected)
        top_row = QHBoxLayout()
        top_row.addWidget(self.top)
        top_row.addWidget(self.top_n)
        most = QLabel("kernels with the most microseconds to save")
        most.setToolTip(
            "By the Headroom list of the newest profile (measured); without a profile, by each "
            "kernel's operator-bound time, estimated at the datasheet peaks of the target's "
            "reference GPU. The ranking used is said when the run starts."
        )
        top_row.addWidget(most)
        top_row.addStretch(1)
        which.addLayout(top_row)
        self.host = HostChoice(HostStore(self.settings), label="Measure on:", profiling=False)
        self.host.where.setToolTip(
            "Measure the candidates on this machine's GPU, or on an SSH host's: kernelscope "
            "starts TVM's RPC server there with the host's Python (it must import TVM; the "
            "runtime is enough) and forwards it over SSH"
        )
        self.use_tracker = QCheckBox("Through TVM's RPC tracker instead:")
        self.tracker = QLineEdit()
        self.tracker.setObjectName("tracker")
        self.tracker.setPlaceholderText("HOST:PORT")
        self.key = QLineEdit()
        self.key.setPlaceholderText("key of the GPU type")
        tracker_row = QHBoxLayout()
        tracker_row.setContentsMargins(0, 0, 0, 0)
        tracker_row.addWidget(self.use_tracker)
        tracker_row.addWidget(self.tracker, 2)
        tracker_row.addWidget(self.key, 1)
        self.cpu = QCheckBox("Tune for this machine's CPU instead (LLVM: tries the path, no GPU)")
        self.database_field = QLineEdit()
        self.database_field.setPlaceholderText(str(workspace / DEFAULT_DB))
        self.database_field.setToolTip(
            "Where the records go: a new folder, or one tuned before (the run continues it)"
        )
        self.note = QLabel()
        self.note.setObjectName("tune_note")
        self.note.setWordWrap(True)
        self.note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form = QFormLayout()
        trials_row = QHBoxLayout()
        trials_row.addWidget(self.trials)
        trials_row.addWidget(QLabel("candidates per kernel"))
        trials_row.addStretch(1)
        form.addRow("Trials:", trials_row)
        form.addRow("Kernels:", which)
        form.addRow(self.host)
        form.addRow(tracker_row)
        form.addRow("", self.cpu)
        form.addRow("Records:", self.database_field)

        self.ranking = QLabel()  # how the top N were ranked, once the run is planned
        self.ranking.setObjectName("tune_ranking")
        self.ranking.setTextFormat(Qt.TextFormat.PlainText)
        self.ranking.setWordWrap(True)
        self.ranking.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.ranking.hide()
        self.tasks = QTableWidget(0, 2)
        self.tasks.setObjectName("tune_tasks")
        self.tasks.setHorizontalHeaderLabels(["Task", "Trials, best against the default"])
        self.tasks.verticalHeader().hide()
        self.tasks.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.tasks.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.tasks.setWordWrap(False)
        header = self.tasks.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.progress = JobProgress(log=False, name="tune_status")
        assert self.progress.status is not None
        self.bar, self.status = self.progress.bar, self.progress.status
        self.start = QPushButton("Tune")
        self.start.setObjectName("start")
        self.start.setDefault(True)
        self.build_button = QPushButton("Build with These Records")
        self.build_button.setObjectName("build_with_records")
        self.build_button.setToolTip("Rebuild the model with the records (Build & Profile)")
        self.gain_button = QPushButton("Build && Profile Tuned…")
        self.gain_button.setObjectName("build_tuned")
        self.gain_button.setToolTip(
            "Build the model with the records beside this workspace, profile it as this one "
            "was profiled and compare the two: each kernel's speedup"
        )
        self.add_button = QPushButton("Add Records From…")
        self.add_button.setObjectName("add_records")
        self.add_button.setToolTip(
            "Merge another tuning database (another machine's, another model's) into the "
            "records folder: records already there are not added twice"
        )
        self.cancel = QPushButton("Close")
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.gain_button)
        buttons.addWidget(self.build_button)
        buttons.addStretch(1)
        buttons.addWidget(self.start)
        buttons.addWidget(self.cancel)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.note)
        layout.addWidget(self.ranking)
        layout.addWidget(self.tasks, 1)
        layout.addWidget(self.progress)
        layout.addLayout(buttons)

        self.start.clicked.connect(self.start_tuning)
        self.cancel.clicked.connect(self._cancel_or_close)
        self.build_button.clicked.connect(self._build)
        self.add_button.clicked.connect(self._choose_records)
        self.gain_button.clicked.connect(self._see_gain)
        for box in (self.use_tracker, self.cpu, self.selected, self.top):
            box.toggled.connect(self._update_state)
        self.host.changed.connect(self._update_state)
        self._restore()
        self._update_state()
        job = workers.start("open", lambda context: local_gpu_problem(), "GPU check")
        job.returned.connect(self._on_gpu_problem)
        resize_within_screen(self, 720, 560)

    # ---- fields -------------------------------------------------------------------------
    def _restore(self) -> None:
        s = self.settings
        for key, spin in (("trials", self.trials), ("top", self.top_n)):
            value = s.value(f"{SETTINGS}/{key}")
            if value is not None and str(value).isdigit():
                spin.setValue(int(value))
        self.tracker.setText(str(s.value(f"{SETTINGS}/tracker", "")))
        self.key.setText(str(s.value(f"{SETTINGS}/key", "")))
        n = len(self.kernels)
        shown = ", ".join(self.kernels[:2]) + (f" and {n - 2} more" if n > 2 else "")
        self.selected.setText(f"The selected: {shown}" if n else "The selected (none selected)")
        self.selected.setEnabled(bool(n))
        (self.selected if n else self.top).setChecked(True)

    def remember(self) -> None:
        s = self.settings
        s.setValue(f"{SETTINGS}/trials", self.trials.value())
        s.setValue(f"{SETTINGS}/top", self.top_n.value())
        s.setValue(f"{SETTINGS}/tracker", self.tracker.text().strip())
        s.setValue(f"{SETTINGS}/key", self.key.text().strip())
        if not self.use_tracker.isChecked():
            with contextlib.suppress(KernelscopeError):  # a host that does not parse
                self.host.remember()

    def request(self) -> TuneRequest:
        """The run the fields ask for; raises what is wrong with them."""
        tracker = self.use_tracker.isChecked()
        host = None if tracker else self.host.options()
        if tracker and not self.tracker.text().strip():
            raise KernelscopeError("give the tracker's HOST:PORT", hint="gpu-gate:9190")
        folder = self.database_field.text().strip()
        return TuneRequest(
            workspace=self.workspace,
            trials=self.trials.value(),
            kernels=tuple(self.kernels) if self.selected.isChecked() else (),
            top=self.top_n.value() if self.top.isChecked() else None,
            savings_us=self.savings_us,
            host=host,
            tracker=self.tracker.text().strip() if tracker else "",
            key=self.key.text().strip() if tracker else "",
            cpu=self.cpu.isChecked(),
            database=Path(folder).expanduser() if folder else None,
            population=self.population,
        )

    def _measures_here(self) -> bool:
        return not self.use_tracker.isChecked() and self.host.is_local and not self.cpu.isChecked()

    def _on_gpu_problem(self, problem: object) -> None:
        self._gpu_problem = problem if isinstance(problem, str) else None
        self._update_state()

    def _update_state(self) -> None:
        running = self.job is not None
        tracker = self.use_tracker.isChecked()
        self.host.setEnabled(not running and not tracker)
        self.tracker.setEnabled(not running and tracker)
        self.key.setEnabled(not running and tracker)
        self.top_n.setEnabled(not running and self.top.isChecked())
        blocked = self._gpu_problem is not None and self._measures_here()
        self.note.setText(html.escape(self._gpu_problem or "", quote=False) if blocked else "")
        self.note.setVisible(blocked)
        self.start.setEnabled(not running and not blocked)
        self.add_button.setEnabled(not running)
        records = self.outcome is not None and self.outcome.records > 0
        self.build_button.setEnabled(not running and records)
        # the tuned build runs on the GPU target: records tuned for the CPU do not apply
        self.gain_button.setEnabled(not running and records and not self.cpu.isChecked())

    # ---- the run ------------------------------------------------------------------------
    def start_tuning(self) -> None:
        if self.job is not None:
            return
        try:
            request = self.request()
        except KernelscopeError as exc:
            self.status.setText(error_html("Cannot tune", exc))
            return
        self.remember()
        self.outcome = None
        self.tasks.setRowCount(0)
        self._rows.clear()
        self.progress.start(busy=True)  # busy until the child says how far it is
        self.status.setText("Planning…")
        job = self.job = self._workers.start("tune", tune_job(request), "tuning")
        job.sent.connect(self._on_started)
        job.progress.connect(self._on_progress)
        job.returned.connect(self._on_returned)
        job.errored.connect(self._on_failed)
        job.finished.connect(self._on_job_finished)
        self.cancel.setText("Cancel")
        self._update_state()

    def _on_started(self, started: TuneStarted) -> None:
        self.database = started.database
        said = f"The top {len(started.tasks)}, {started.ranking}." if started.ranking else ""
        self.ranking.setText(said)
        self.ranking.setVisible(bool(said))
        self.tasks.setRowCount(len(started.tasks))
        for row, task in enumerate(started.tasks):
            self._rows[task] = row
            self.tasks.setItem(row, 0, QTableWidgetItem(task))
            self.tasks.setItem(row, 1, QTableWidgetItem("waiting"))
        self.tasks.resizeColumnToContents(0)

    def _on_progress(self, step: str, fraction: float, message: str) -> None:
        if fraction >= 0:
            self.progress.set_fraction(fraction)
        self.status.setText(html.escape(message))
        task, _, rest = message.partition(": ")
        row = self._rows.get(task)
        if row is not None and rest:  # a task's round: TaskProgress.sentence()
            self._set_task(row, rest)

    def _set_task(self, row: int, text: str) -> None:
        item = QTableWidgetItem(text)
        item.setToolTip(text)
        self.tasks.setItem(row, 1, item)

    def _on_returned(self, result: TuningResult) -> None:
        self.outcome = result
        self.database = result.database
        for task in result.tasks:
            sentence = TaskProgress(**task).sentence()
            row = self._rows.get(task["name"])
            if row is not None:
                self._set_task(row, sentence.partition(": ")[2])
        if result.cancelled:
            self.progress.stop()
        else:
            self.progress.done()
        where = html.escape(str(result.database))
        if result.cancelled:
            self.status.setText(
                f"Cancelled: the {result.records} records measured so far are kept in {where}."
            )
        else:
            self.status.setText(f"Done: {result.records} records in {where}.")

    def _on_failed(self, error: BaseException) -> None:
        self.progress.stop()
        if isinstance(error, Cancelled):
            self.status.setText("Cancelled before anything was measured.")
            return
        self.status.setText(error_html("Cannot tune", error))

    def _say_cancelling(self) -> None:
        self.status.setText("Cancelling… (what was measured is kept)")

    # ---- merging another database in --------------------------------------------------
    def records_folder(self) -> Path:
        """Where this dialog's records are: the Records field's folder, or WS/tuning."""
        folder = self.database_field.text().strip()
        return Path(folder).expanduser() if folder else self.workspace / DEFAULT_DB

    def _choose_records(self) -> None:
        path = existing_folder(self, "Add records from", str(self.workspace))
        if path:
            self.add_records_from(Path(path))

    def add_records_from(self, source: Path) -> None:
        """Merge ``source``'s records into the records folder (a job: TVM's API in a child)."""
        if self.job is not None:
            return
        database = self.records_folder()
        self.progress.busy()
        self.status.setText(f"Adding the records of {html.escape(str(source))}…")
        job = self.job = self._workers.start(
            "tune", merge_job(database, [source]), "adding tuning records"
        )
        job.progress.connect(self._on_progress)
        job.returned.connect(lambda result: self._on_merged(source, result))
        job.errored.connect(self._on_merge_failed)
        job.finished.connect(self._on_job_finished)
        self.cancel.setText("Cancel")
        self._update_state()

    def _on_merged(self, source: Path, result: dict[str, object]) -> None:
        database = Path(str(result["database"]))
        total = int(str(result["total"]))
        self.progress.done()
        self.database = database
        self.outcome = TuningResult(database, records=total)
        self.status.setText(
            f"Records added from {html.escape(str(source))}: {result['records']} "
            f"({result['duplicates']} already there); {total} records in "
            f"{html.escape(str(database))}."
        )

    def _on_merge_failed(self, error: BaseException) -> None:
        self.progress.stop()
        if isinstance(error, Cancelled):
            self.status.setText("Cancelled: the records folder is as it was.")
            return
        self.status.setText(error_html("Cannot add the records", error))

    def _build(self) -> None:
        if self.outcome is not None:
            self.build_requested.emit(str(self.outcome.database))
            self.close()

    def _see_gain(self) -> None:
        if self.outcome is not None:
            self.gain_requested.emit(str(self.outcome.database))
            self.close()
