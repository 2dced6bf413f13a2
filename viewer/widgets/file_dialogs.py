"""The file dialogs of the window and its dialogs, each handing the keyboard back when it
closes, and the "field + Browse…" row that fills a field from one of them.

Closing a file dialog activated no window on X11 without a window manager (Xvfb) and under
some window managers (issue 30): ``QApplication.activeWindow()`` stayed None, and Ctrl+B and
every other shortcut of the window was ignored until the user clicked into it. Each call
here activates the window that opened the dialog again, if no other window is active.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QWidget,
)

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


def browse_row(
    edit: QLineEdit, choose: Callable[[], str], *, then: Callable[[], object] | None = None
) -> tuple[QHBoxLayout, QPushButton]:
    """``edit`` with a Browse… button after it, as a form row: the path ``choose`` returns
    (one of the dialogs above; empty when cancelled) fills the field, then ``then`` runs. The
    button is returned for the callers that enable it with the field."""
    button = QPushButton("Browse…")

    def browse() -> None:
        path = choose()
        if path:
            edit.setText(path)
            if then is not None:
                then()

    button.clicked.connect(browse)
    row = QHBoxLayout()
    row.addWidget(edit, 1)
    row.addWidget(button)
    return row, button
