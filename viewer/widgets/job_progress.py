"""A job's progress bar and what the job says, shared by the Build & Profile, Tune and
Gain dialogs: a plain-text log that keeps every line (``log=True``: Build & Profile, whose
tools print long logs) or one status line in rich text (Tune, Gain).

The bar measures the whole job in 0..1; a job of several parts (a build, then a profile)
gives each part its ``span`` of the bar, and the part's own progress fills that span. When
the job ends other than done the bar stays where it got to, saying how it ended
(``stop("cancelled")``)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase, QTextCursor
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QProgressBar, QVBoxLayout, QWidget

_STEPS = 1000  # the bar's resolution


class JobProgress(QWidget):
    def __init__(self, *, log: bool, name: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bar = QProgressBar()
        self.bar.setRange(0, _STEPS)
        self.bar.setValue(0)
        self._fraction = 0.0  # the bar's last measured value, 0..1
        self._span = (0.0, 1.0)  # the part of the bar the running part fills: start, width
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.bar)
        self.log: QPlainTextEdit | None = None
        self.status: QLabel | None = None
        if log:
            self.bar.setFormat("%p%")
            self.log = QPlainTextEdit()
            self.log.setReadOnly(True)
            self.log.setMaximumBlockCount(5000)
            self.log.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
            layout.addWidget(self.log, 1)
        else:
            self.status = QLabel()
            self.status.setObjectName(name)
            self.status.setWordWrap(True)
            self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            layout.addWidget(self.status, 1)

    # ---- the bar --------------------------------------------------------------------------
    def start(self, *, busy: bool = False) -> None:
        """A new job: the whole bar is its, from nothing (``busy``: no measure yet)."""
        self._span = (0.0, 1.0)
        self.set_fraction(0.0, "%p%")
        if busy:
            self.busy()

    def busy(self) -> None:
        """Working, with no measure of how far."""
        self.bar.setRange(0, 0)

    def set_span(self, start: float, width: float) -> None:
        """The part of the bar the next part of the job fills."""
        self._span = (start, width)

    def end_part(self) -> None:
        """The running part is done: its span full, the rest of the bar for what follows."""
        start, width = self._span
        self.set_fraction(start + width)
        self._span = (start + width, 1.0 - start - width)

    def progress(self, fraction: float) -> None:
        """The running part's progress (0..1; negative: no measure, the bar is busy)."""
        if fraction < 0:
            self.busy()
            return
        start, width = self._span
        self.set_fraction(start + width * fraction)

    def set_fraction(self, fraction: float, text: str | None = None) -> None:
        """Show ``fraction`` (0..1) of the whole job; ``text``: the bar's format."""
        self._fraction = fraction
        self.bar.setRange(0, _STEPS)
        self.bar.setValue(round(fraction * _STEPS))
        if text is not None:
            self.bar.setFormat(text)

    def done(self) -> None:
        self.set_fraction(1.0)

    def stop(self, text: str | None = None) -> None:
        """Ended before done: the bar stays where the job got to, ``text`` saying how."""
        self.set_fraction(self._fraction, text)

    # ---- what the job says ------------------------------------------------------------------
    def append(self, text: str) -> None:
        """A line (or lines) at the end of the log."""
        assert self.log is not None
        self.log.appendPlainText(text)

    def append_error(self, text: str, details: str) -> None:
        """An error (its message and hint: ``text``) and the tool's log under it, scrolled
        back up to the message: a tool's log can be long."""
        assert self.log is not None
        self.append(text)
        message = self.log.document().lastBlock()
        for _ in range(text.count("\n")):  # the hint's lines: back to the message's first
            message = message.previous()
        if details:
            self.append(details.rstrip())
            self.log.setTextCursor(QTextCursor(message))
            self.log.ensureCursorVisible()

    def clear(self) -> None:
        assert self.log is not None
        self.log.clear()

    def say(self, html: str) -> None:
        """The status line (rich text: escape what is not markup)."""
        assert self.status is not None
        self.status.setText(html)
