"""The file dialogs of the window and its dialogs, each handing the keyboard back when it
closes.

Closing a file dialog activated no window on X11 without a window manager (Xvfb) and under
some window managers (issue 30): ``QApplication.activeWindow()`` stayed None, and Ctrl+B and
every other shortcut of the window was ignored until the user clicked into it. Each call
here activates the window that opened the dialog again, if no other window is active.
"""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QFileDialog, QWidget

# What File > Open and Compare With... offer
OPEN_FILTER = (
    "kernelscope inputs (manifest.json *.ncu-rep *.csv *.onnx *.nsys-rep *.sqlite);;"
    "Workspaces (manifest.json);;Nsight Compute reports (*.ncu-rep *.csv);;Models (*.onnx);;"
    "Timelines (*.json *.nsys-rep *.sqlite);;All files (*)"
)


def open_file_names(
    parent: QWidget, caption: str, folder: str = "", filters: str = ""
) -> list[str]:
    try:
        paths, _ = QFileDialog.getOpenFileNames(parent, caption, folder, filters)
    finally:
        give_back_focus(parent)
    return paths


def open_file_name(parent: QWidget, caption: str, folder: str = "", filters: str = "") -> str:
    try:
        path, _ = QFileDialog.getOpenFileName(parent, caption, folder, filters)
    finally:
        give_back_focus(parent)
    return path


def save_file_name(
    parent: QWidget,
    caption: str,
    folder: str = "",
    filters: str = "",
    *,
    confirm_overwrite: bool = True,
) -> str:
    """``confirm_overwrite=False``: an existing file is a choice, not a mistake (a DB that
    exports go into)."""
    options = (
        QFileDialog.Option(0) if confirm_overwrite else QFileDialog.Option.DontConfirmOverwrite
    )
    try:
        path, _ = QFileDialog.getSaveFileName(parent, caption, folder, filters, options=options)
    finally:
        give_back_focus(parent)
    return path


def existing_folder(parent: QWidget, caption: str, folder: str = "") -> str:
    try:
        path = QFileDialog.getExistingDirectory(parent, caption, folder)
    finally:
        give_back_focus(parent)
    return path


def give_back_focus(parent: QWidget) -> None:
    """Activate ``parent``'s window when a dialog left no window active."""
    window = parent.window()
    if window.isVisible() and QApplication.activeWindow() is None:
        window.activateWindow()
