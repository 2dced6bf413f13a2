"""Every error a job or an action hands to the window reaches the user as a box: a
KernelscopeError as its message, a hint and its details; anything else as a bug, with its
traceback. The details name the window's log file (``log_file``) and Copy Details copies the
whole box, for a bug report."""

from __future__ import annotations

import traceback

from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import QAbstractButton, QMessageBox, QPushButton, QTextEdit, QWidget

from kernelscope.core.errors import KernelscopeError

from .. import log_file
from ..widgets.messages import what_to_do

# the details' size, in characters and lines at most: the unfolded box fits a 1280x720 screen
# (QMessageBox keeps it narrower than the screen, wrapping what is longer)
DETAILS_COLUMNS, DETAILS_LINES = 100, 16


class ErrorBox(QMessageBox):
    """A non-blocking message box (shown with ``open()``) for one error; with details, Show
    Details… unfolds them and Copy Details copies the box's text (the box stays open)."""

    def __init__(self, parent: QWidget | None, title: str, error: BaseException) -> None:
        super().__init__(parent)
        self.setIcon(QMessageBox.Icon.Warning)
        self.setWindowTitle(title)
        details, logged_to = "", log_file.current()
        if isinstance(error, KernelscopeError):
            self.setText(error.message)
            if hint := what_to_do(error):
                self.setInformativeText(f"What to do: {hint}")
            details = error.details
        else:  # a bug: say so, and keep its traceback for the report
            self.setText(f"Unexpected error: {type(error).__name__}: {error}")
            where = "the details and the log" if logged_to else "the details"
            self.setInformativeText(
                "This is a bug in kernelscope; the window stays usable. Its traceback is in "
                f"{where}: please attach it to a bug report."
            )
            details = "".join(traceback.format_exception(error)).rstrip()
        self.setStandardButtons(QMessageBox.StandardButton.Close)
        self.copy_button: QPushButton | None = None
        self._copy_clicked = False
        self.buttonClicked.connect(self._on_clicked)
        if details:
            if logged_to is not None:
                details = f"The window's log: {logged_to}\n\n{details}"
            self.setDetailedText(details)
            self._style_details(details)
            self.copy_button = QPushButton("Copy Details")
            self.copy_button.setToolTip("Copy the message and its details, for a bug report")
            self.addButton(self.copy_button, QMessageBox.ButtonRole.ActionRole)

    def report(self) -> str:
        """The box as text: its title, message, hint and details."""
        parts = [self.windowTitle(), self.text(), self.informativeText(), self.detailedText()]
        return "\n\n".join(p for p in parts if p) + "\n"

    def done(self, result: int) -> None:
        """Copy Details copies and keeps the box open (QMessageBox closes on every button:
        ``buttonClicked`` comes just before this call)."""
        if self._copy_clicked:
            self._copy_clicked = False
            QGuiApplication.clipboard().setText(self.report())
            return
        super().done(result)

    def _on_clicked(self, button: QAbstractButton) -> None:
        self._copy_clicked = button is self.copy_button

    def _style_details(self, details: str) -> None:
        """A traceback in a fixed-width font, ``DETAILS_COLUMNS`` wide and up to
        ``DETAILS_LINES`` tall (QMessageBox gives its details 100 pixels, about five lines, and
        the width of the message, where a traceback's lines wrap)."""
        edit = self.findChild(QTextEdit)
        if edit is None:
            return
        edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        lines = min(details.count("\n") + 2, DETAILS_LINES)
        frame = 2 * edit.frameWidth() + int(2 * edit.document().documentMargin())
        metrics = edit.fontMetrics()
        edit.setFixedHeight(lines * metrics.lineSpacing() + frame)
        scroll_bar = edit.verticalScrollBar().sizeHint().width()
        edit.setMinimumWidth(DETAILS_COLUMNS * metrics.horizontalAdvance("0") + frame + scroll_bar)


def error_box(parent: QWidget | None, title: str, error: BaseException) -> ErrorBox:
    """A non-blocking message box (shown with ``open()``) for ``error``."""
    return ErrorBox(parent, title, error)
