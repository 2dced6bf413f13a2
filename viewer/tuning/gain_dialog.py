"""Build & Profile Tuned: the step after Tune. The open workspace's model is built again with
the tuning records into a workspace beside it (``WS-tuned``), profiled with the settings its
own report was made with (sections, passes, clocks, inputs) on the machine chosen here (at
first the one that report was made on, when it says), and compared with it (``kernelscope
tune-gain``); the window then opens the tuned run in compare mode against the untuned one
(``gain_ready``). A job on the ``build`` lane; Cancel stops the
build or ncu, and leaves no half-written workspace or report.
"""

from __future__ import annotations

import contextlib
import html
from pathlib import Path

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from kernelscope.core.errors import Cancelled, KernelscopeError
from kernelscope.core.tuning import DEFAULT_DB, TunedGain, tuned_workspace
from kernelscope.core.workspace import TUNED_TIMES_NOTE

from ..dialogs.host_choice import HostChoice, HostStore
from ..dialogs.job_dialog import JobDialog
from ..widgets.file_dialogs import browse_row, existing_folder
from ..widgets.job_progress import JobProgress
from ..widgets.messages import error_html
from ..widgets.screen_fit import resize_within_screen
from ..workers.jobs import Job, Workers
from .tune_job import gain_job, recorded_host_job


class GainDialog(JobDialog):
    gain_ready = Signal(object)  # TunedGain of a tuned run profiled and compared

    def __init__(
        self,
        workers: Workers,
        workspace: Path,
        database: Path | None = None,
        parent: QWidget | None = None,
        *,
        settings: QSettings | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Build & Profile Tuned")
        self.setObjectName("gain_dialog")
        self._workers = workers
        self.workspace = workspace
        self.settings = settings if settings is not None else QSettings()
        self.job: Job | None = None
        self.outcome: TunedGain | None = None
        intro = QLabel(
            f"Builds the model of <b>{html.escape(workspace.name)}</b> again with the tuning "
            "records, profiles it the way its newest report was made (sections, passes, "
            "clocks, inputs) and opens it compared with that report: each kernel's speedup, "
            "the lines that changed, the Headroom list of the tuned run."
        )
        intro.setWordWrap(True)
        self.records = QLineEdit(str(database or workspace / DEFAULT_DB))
        self.records.setObjectName("gain_records")
        self.records.setToolTip("The tuning records (Tune…'s Records folder)")
        records_row, _ = browse_row(
            self.records, lambda: existing_folder(self, "Tuning records", self.records.text())
        )
        self.output = QLineEdit()
        self.output.setObjectName("gain_output")
        self.output.setPlaceholderText(str(tuned_workspace(workspace)))
        self.output.setToolTip(
            "The tuned build's workspace (a build of another model there is not replaced)"
        )
        self.host = HostChoice(HostStore(self.settings), label="Profile on:")
        form = QFormLayout()
        form.addRow("Records:", records_row)
        form.addRow("Tuned workspace:", self.output)
        form.addRow(self.host)
        self.progress = JobProgress(log=False, name="gain_status")
        assert self.progress.status is not None
        self.bar, self.status = self.progress.bar, self.progress.status
        self.start = QPushButton("Build && Profile")
        self.start.setObjectName("start")
        self.start.setDefault(True)
        self.cancel = QPushButton("Close")
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.start)
        buttons.addWidget(self.cancel)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.progress, 1)
        layout.addLayout(buttons)
        self.start.clicked.connect(self.start_gain)
        self.cancel.clicked.connect(self._cancel_or_close)
        self._start_when_ready = False
        self.recorded_host: str | None = None  # where the newest report was made, once read
        self._ready = False
        self._update_state()
        resize_within_screen(self, 720, 420)
        job = workers.start("open", recorded_host_job(workspace), "reading the profile settings")
        job.returned.connect(self._on_recorded_host)
        job.errored.connect(lambda error: self._on_recorded_host(None))

    def start_when_ready(self) -> None:
        """Start as soon as the untuned report's host is known (Profile on starts there)."""
        if self._ready:
            self.start_gain()
        else:
            self._start_when_ready = True

    def _on_recorded_host(self, host: object) -> None:
        self._ready = True
        if isinstance(host, str) and host:
            self.recorded_host = host
            self.host.set_host(host)
        if self._start_when_ready:
            self._start_when_ready = False
            self.start_gain()

    def remember(self) -> None:
        with contextlib.suppress(KernelscopeError):  # a host that does not parse
            self.host.remember()

    def _update_state(self) -> None:
        idle = self.job is None
        for widget in (self.records, self.output, self.host):
            widget.setEnabled(idle)
        self.start.setEnabled(idle)

    def _say_cancelling(self) -> None:
        self.status.setText("Cancelling… (the untuned workspace stays as it is)")

    def start_gain(self) -> None:
        if self.job is not None:
            return
        try:
            records = self.records.text().strip()
            if not records:
                raise KernelscopeError("give the folder of the tuning records", hint="Tune… first")
            output = self.output.text().strip()
            host = self.host.options()
        except KernelscopeError as exc:
            self.status.setText(error_html("Cannot start", exc))
            return
        self.remember()
        self.outcome = None
        self.progress.start(busy=True)
        self.status.setText("Building with the records…")
        fn = gain_job(
            self.workspace,
            Path(records).expanduser(),
            Path(output).expanduser() if output else None,
            host,
        )
        job = self.job = self._workers.start("build", fn, "building and profiling the tuned model")
        job.progress.connect(self._on_progress)
        job.returned.connect(self._on_returned)
        job.errored.connect(self._on_failed)
        job.finished.connect(self._on_job_finished)
        self.cancel.setText("Cancel")
        self._update_state()

    def _on_progress(self, step: str, fraction: float, message: str) -> None:
        if fraction >= 0:
            self.progress.set_fraction(fraction)
        self.status.setText(html.escape(message))

    def _on_returned(self, gain: TunedGain) -> None:
        self.outcome = gain
        if not gain.compared:  # built: the bar stays where the build ended, saying so
            self.progress.stop("built, not profiled")
            self.status.setText(
                f"Built {html.escape(str(gain.tuned))}, but not profiled: "
                f"{html.escape(gain.profile_problem)}.<br>Choose a GPU host under Profile on, "
                f"or profile it there: <tt>{html.escape(gain.profile_later)}</tt>, then "
                f"compare: <tt>{html.escape(gain.diff_command())}</tt>"
            )
            return
        self.progress.done()
        self.status.setText(
            html.escape(gain.summary())
            + ": opened in compare mode.<br>The Tuned column's "
            + html.escape(TUNED_TIMES_NOTE)
            + "."
        )
        self.gain_ready.emit(gain)

    def _on_failed(self, error: BaseException) -> None:
        self.progress.stop("cancelled" if isinstance(error, Cancelled) else "failed at %p%")
        if isinstance(error, Cancelled):
            self.status.setText(
                "Cancelled: the untuned workspace is as it was; a tuned build that finished "
                "stays, without a report."
            )
            return
        self.status.setText(error_html("Cannot see the gain", error))
