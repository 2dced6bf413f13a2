"""The welcome page: what the window shows while nothing is open.

Open the demo (built with TVM the first time, on the ``build`` lane, with progress and
Cancel), open a model or a report, the recent files, and what is installed: TVM, nvcc, ncu, a
GPU, each found or not with what to do about what is missing. What needs the disk or the
tools (``installed_facts``, whether the demo is built, which recent files still exist) is read
in a job when the page is first shown.
"""

from __future__ import annotations

import dataclasses
import html
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QApplication,
    QCommandLinkButton,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from kernelscope.core.environment import Fact, demo, prepare_demo
from kernelscope.core.errors import Cancelled

from ..widgets.busy import BusyIndicator
from ..workers.facts_job import installed
from ..workers.jobs import Job, JobContext, Workers

SHOWN_RECENT = 6
# Always listed on the page: what building and profiling need first (the doctor lists all).
HEADLINE = ("TVM", "nvcc", "ncu", "GPU")
OK_COLOUR, MISSING_COLOUR = "#3a9a5b", "#d0453a"  # readable on the light and dark palettes


@dataclass(frozen=True)
class WelcomeFacts:
    """What the page shows that needs the disk or the tools, read in one job."""

    facts: list[Fact]
    demo_ready: bool
    missing: set[str] = field(default_factory=set)  # recent paths that no longer exist


def read_welcome_facts(recent: list[str], refresh: bool = False) -> WelcomeFacts:
    """I/O (the tools' --version, nvidia-smi, stats): call it in a job."""
    return WelcomeFacts(
        installed(refresh), demo().ready, {p for p in recent if not os.path.exists(p)}
    )


def facts_html(facts: list[Fact]) -> str:
    """The installed line: TVM, nvcc, ncu and the GPU, then any other missing tool a build
    needs; each missing one with what it is needed for and what to do."""
    shown = [f for f in facts if f.name in HEADLINE]
    shown += [f for f in facts if f.required and not f.found and f.name not in HEADLINE]
    rows = []
    for f in shown:
        colour, mark = (OK_COLOUR, "✓") if f.found else (MISSING_COLOUR, "✗")
        if f.found:
            state = html.escape(f.version or "found")
        else:
            state = "none" if f.name == "GPU" else "not found"
        text = f"<b>{html.escape(f.name)}</b> {state}"
        if not f.found:
            text += f"<br>needed for {html.escape(f.needed_for)}: {html.escape(f.hint)}"
        rows.append(
            f"<tr><td style='color:{colour}; padding-right:6px'><b>{mark}</b></td>"
            f"<td style='padding-bottom:6px'>{text}</td></tr>"
        )
    return "<table cellspacing='0'>" + "".join(rows) + "</table>"


class WelcomePage(QScrollArea):
    """Scrolls when the window is smaller than the page (or the screen scales it up)."""

    open_requested = Signal(str)  # a path to open: a recent file, the demo's workspace
    open_chosen = Signal()  # File > Open
    build_chosen = Signal()  # File > Build & Profile
    error = Signal(str, object)  # title, the exception

    def __init__(self, workers: Workers, recent: Callable[[], list[str]]) -> None:
        super().__init__()
        self.setObjectName("welcome")
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self._workers = workers
        self._recent = recent
        self._facts_job: Job | None = None
        self._demo_job: Job | None = None
        self.state: WelcomeFacts | None = None
        self._read = False

        page = QWidget()
        page.setObjectName("welcome_page")
        column = QVBoxLayout()
        column.setSpacing(14)
        outer = QHBoxLayout(page)
        outer.addStretch(1)
        outer.addLayout(column, 6)
        outer.addStretch(1)
        self.setWidget(page)

        title = QLabel("<h1 style='margin:0'>kernelscope</h1>")
        icon = QLabel()
        app_icon = QApplication.windowIcon()
        if not app_icon.isNull():
            icon.setPixmap(app_icon.pixmap(56, 56))
        heading = QHBoxLayout()
        heading.addWidget(icon)
        heading.addWidget(title, 1)
        column.addSpacing(20)
        column.addLayout(heading)
        tagline = QLabel(
            "See why a CUDA kernel that TVM generated is slow: its source beside its SASS, "
            "with Nsight Compute's numbers on every line."
        )
        tagline.setWordWrap(True)
        column.addWidget(tagline)

        start = QGroupBox("Start")
        start_layout = QVBoxLayout(start)
        self.demo_button = QCommandLinkButton(
            "Open the demo",
            "SqueezeNet 1.1, built by TVM on this machine, with a profile of that build made "
            "on an NVIDIA H200",
        )
        self.demo_button.setObjectName("welcome_demo")
        self.model_button = QCommandLinkButton(
            "Open a model…",
            "ONNX or a Python file with a Relax IRModule (built with TVM), or a PyTorch file "
            "(torch.compile): build it and profile it",
        )
        self.model_button.setObjectName("welcome_model")
        self.report_button = QCommandLinkButton(
            "Open a report or workspace…",
            "An Nsight Compute report (.ncu-rep) or CSV export made on any machine, or a "
            "kernelscope workspace",
        )
        self.report_button.setObjectName("welcome_report")
        for button in (self.demo_button, self.model_button, self.report_button):
            start_layout.addWidget(button)
        self.demo_status = QLabel()
        self.demo_status.setObjectName("welcome_demo_status")
        self.demo_status.setWordWrap(True)
        self.demo_busy = BusyIndicator("welcome_demo_busy", text=False)
        self.demo_report = QPushButton("Open the demo's report alone")
        self.demo_report.setToolTip(
            "The H200 report on its own: the sources it embeds beside its SASS, no build needed"
        )
        progress_row = QHBoxLayout()
        progress_row.addWidget(self.demo_busy)
        progress_row.addStretch(1)
        progress_row.addWidget(self.demo_report)
        start_layout.addWidget(self.demo_status)
        start_layout.addLayout(progress_row)
        self._show_demo_progress(None)
        column.addWidget(start)

        self.recent_box = QGroupBox("Recent")
        self.recent_layout = QVBoxLayout(self.recent_box)
        self.recent_layout.setSpacing(0)
        self.recent_buttons: list[QPushButton] = []
        column.addWidget(self.recent_box)

        self.installed_box = QGroupBox("Installed")
        installed_layout = QVBoxLayout(self.installed_box)
        self.installed = QLabel("Checking what is installed…")
        self.installed.setObjectName("welcome_installed")
        self.installed.setWordWrap(True)
        self.installed.setTextFormat(Qt.TextFormat.RichText)
        self.installed.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        installed_layout.addWidget(self.installed)
        footer = QHBoxLayout()
        doctor = QLabel("<i>kernelscope doctor</i> lists everything it looks for.")
        self.check_again = QPushButton("Check Again")
        self.check_again.setToolTip("Look for the tools again (after installing one)")
        footer.addWidget(doctor, 1)
        footer.addWidget(self.check_again)
        installed_layout.addLayout(footer)
        column.addWidget(self.installed_box)
        column.addStretch(1)

        self.demo_button.clicked.connect(self.open_demo)
        self.model_button.clicked.connect(self.build_chosen)
        self.report_button.clicked.connect(self.open_chosen)
        self.demo_busy.cancel_requested.connect(self.cancel_demo)
        self.demo_report.clicked.connect(lambda: self.open_requested.emit(str(demo().report)))
        self.check_again.clicked.connect(lambda: self.refresh(check_again=True))

    @property
    def busy(self) -> bool:
        """The demo is being built, or what is installed is being read."""
        return self._demo_job is not None or self._facts_job is not None

    # ---- what is installed, recent files ---------------------------------------------------
    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._fill_recent()
        if not self._read:
            self.refresh()

    def refresh(self, check_again: bool = False) -> None:
        """Read what is installed (again), whether the demo is built, and the recent files."""
        if self._facts_job is not None or self._workers.closed:
            return
        self._read = True
        recent = self._recent()
        if check_again:
            self.installed.setText("Checking what is installed…")
        job = self._workers.start(
            "open",
            lambda context: read_welcome_facts(recent, check_again),
            "checking what is installed",
        )
        job.returned.connect(self._on_facts)
        job.errored.connect(self._on_facts_failed)
        job.finished.connect(self._facts_done)
        self._facts_job = job
        self.check_again.setEnabled(False)

    def _facts_done(self) -> None:
        self._facts_job = None
        self.check_again.setEnabled(True)

    def _on_facts(self, state: WelcomeFacts) -> None:
        self.state = state
        self.installed.setText(facts_html(state.facts))
        self._fill_recent()
        if not state.demo_ready and self._demo_job is None:
            self.demo_status.setText("The first time, the demo is built: about a minute.")
            self.demo_status.show()

    def _on_facts_failed(self, error: BaseException) -> None:
        self.installed.setText(f"Could not check what is installed: {html.escape(str(error))}")

    def _fill_recent(self) -> None:
        """One button per recent file; one that is gone says so (once the job looked)."""
        paths = self._recent()[:SHOWN_RECENT]
        if [b.toolTip() for b in self.recent_buttons] != paths:
            for button in self.recent_buttons:
                self.recent_layout.removeWidget(button)
                button.deleteLater()
            self.recent_buttons = []
            for path in paths:
                button = QPushButton()
                button.setFlat(True)
                button.setToolTip(path)
                button.setStyleSheet("text-align: left; padding: 3px 6px;")
                button.clicked.connect(lambda checked=False, p=path: self.open_requested.emit(p))
                self.recent_layout.addWidget(button)
                self.recent_buttons.append(button)
        missing = self.state.missing if self.state else set()
        for button in self.recent_buttons:
            path = button.toolTip()
            where = Path(path)
            gone = "   (not found)" if path in missing else ""
            button.setText(f"{where.name}   —   {where.parent}{gone}")
            button.setEnabled(not gone)
        self.recent_box.setVisible(bool(paths))

    # ---- the demo --------------------------------------------------------------------------
    def open_demo(self) -> None:
        """Open the demo's workspace, building it first when it is not there yet."""
        if self._demo_job is not None:
            return
        files = demo()
        if self.state is not None and self.state.demo_ready:
            self.open_requested.emit(str(files.workspace))
            return

        def build(context: JobContext) -> Path:
            return prepare_demo(files, progress=context.progress, cancel=context.cancel)

        job = self._workers.start("build", build, "building the demo")
        job.progress.connect(self._on_demo_progress)
        job.returned.connect(self._on_demo_built)
        job.errored.connect(self._on_demo_failed)
        job.finished.connect(self._demo_done)
        self._demo_job = job
        self.demo_button.setEnabled(False)
        self._show_demo_progress("Building the demo with TVM…")

    def cancel_demo(self) -> None:
        if self._demo_job is not None:
            self._demo_job.cancel()

    def _show_demo_progress(self, text: str | None, failed: bool = False) -> None:
        building = text is not None and not failed
        self.demo_status.setText(text or "")
        self.demo_status.setVisible(text is not None)
        if building:
            self.demo_busy.start(text or "", cancellable=True)
        else:
            self.demo_busy.stop()
        self.demo_report.setVisible(failed)

    def _on_demo_progress(self, step: str, fraction: float, message: str) -> None:
        text = f"Building the demo: {message}"
        self.demo_busy.set_progress(fraction, text)
        self.demo_status.setText(text)

    def _on_demo_built(self, workspace: Path) -> None:
        if self.state is not None:
            self.state = dataclasses.replace(self.state, demo_ready=True)
        self._show_demo_progress(None)
        self.open_requested.emit(str(workspace))

    def _on_demo_failed(self, error: BaseException) -> None:
        if isinstance(error, Cancelled):
            self._show_demo_progress("Building the demo was cancelled; nothing was changed.")
            return
        first = str(error).splitlines()[0]
        self._show_demo_progress(
            f"Could not build the demo: {first}. Its report opens without a build.", failed=True
        )
        self.error.emit("Cannot build the demo", error)

    def _demo_done(self) -> None:
        self._demo_job = None
        self.demo_button.setEnabled(True)
