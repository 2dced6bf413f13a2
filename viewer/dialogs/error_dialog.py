"""Every KernelscopeError reaches the user as a message, a hint and a details section."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget

from kernelscope.core.errors import KernelscopeError

from ..widgets.messages import what_to_do


def error_box(parent: QWidget | None, title: str, error: BaseException) -> QMessageBox:
    """A non-blocking message box (shown with ``open()``) for ``error``."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(title)
    if isinstance(error, KernelscopeError):
        box.setText(error.message)
        if hint := what_to_do(error):
            box.setInformativeText(f"What to do: {hint}")
        if error.details:
            box.setDetailedText(error.details)
    else:  # a bug: say so, and keep the traceback-free text for the report
        box.setText(f"Unexpected error: {type(error).__name__}: {error}")
        box.setInformativeText("This is a bug in kernelscope; the window stays usable.")
    box.setStandardButtons(QMessageBox.StandardButton.Close)
    return box
