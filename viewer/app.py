"""Starting the GUI: the QApplication, the window, and screenshot mode for docs and tests."""

from __future__ import annotations

import os
import sys
from importlib import resources
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.view import open_document

from .main_window import MainWindow

SCREENSHOT_SIZE = (1600, 1000)


def application() -> QApplication:
    """The process's QApplication, created once with kernelscope's identity."""
    QCoreApplication.setOrganizationName("kernelscope")
    QCoreApplication.setApplicationName("kernelscope")
    app = QApplication.instance()
    if app is None:
        app = QApplication(sys.argv[:1])
        app.setDesktopFileName("kernelscope")
        app.setWindowIcon(app_icon())
    assert isinstance(app, QApplication)
    return app


def app_icon() -> QIcon:
    """kernelscope's icon from the package's resources: the PNG sizes, and the SVG above."""
    icons = resources.files("kernelscope.resources") / "icons"
    icon = QIcon()
    for entry in sorted(icons.iterdir(), key=lambda e: e.name):
        if entry.name.endswith((".png", ".svg")):
            icon.addFile(str(entry))
    return icon


def show_location(window: MainWindow, kernel: str | None, line: int | None) -> None:
    """Select ``kernel`` (a name or a unique part of one) and ``line`` of its source."""
    state = window.state
    if kernel and state.document is not None:
        names = [s.name for s in state.document.summaries]
        matches = [n for n in names if n == kernel] or [n for n in names if kernel in n]
        if len(matches) != 1:
            raise KernelscopeError(
                f"--kernel {kernel!r} matches {len(matches)} kernels",
                hint="kernels: " + ", ".join(names),
            )
        state.set_kernel(matches[0])
    if line:
        state.select_line(line)
        window.source.show_row(line - 1, center=True)


def screenshot(window: MainWindow, out: Path) -> None:
    QApplication.processEvents()
    if not window.grab().save(str(out)):
        raise KernelscopeError(f"could not write {out}", hint="check the folder exists")


def run(
    path: str | None = None,
    *,
    screenshot_to: str | None = None,
    kernel: str | None = None,
    line: int | None = None,
) -> int:
    """Open the window (on ``path`` if given); with ``screenshot_to``, save a PNG and quit."""
    if screenshot_to and "QT_QPA_PLATFORM" not in os.environ:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    app = application()
    if screenshot_to:
        # a fixed size and the default layout, so that screenshots do not depend on settings
        window = MainWindow(restore_layout=False)
        window.resize(*SCREENSHOT_SIZE)
        window.show()
        QApplication.processEvents()
        if path:
            window.state.set_document(open_document(path))
            window.kernels.select_first()
        show_location(window, kernel, line)
        screenshot(window, Path(screenshot_to))
        window.close()
        return 0
    window = MainWindow()
    window.show()
    if path:
        QTimer.singleShot(0, lambda: _open_then_locate(window, path, kernel, line))
    return app.exec()


def _open_then_locate(window: MainWindow, path: str, kernel: str | None, line: int | None) -> None:
    if window.open_path(path) and window.wait_for_document() and window.state.document:
        try:
            show_location(window, kernel, line)
        except KernelscopeError as exc:
            window.show_error("Cannot show that location", exc)
