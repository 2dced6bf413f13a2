"""Starting the GUI: the QApplication, the window, and screenshot mode for docs and tests.

Nothing here waits in a loop: the window opens its document in the background, and what
must happen after it (select ``--kernel``/``--line``, take the screenshot) is connected to
the window's signals. Screenshot mode renders offscreen, at a fixed size with the default
layout, and leaves the user's settings alone. Both write the window's log (``log_file``).
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import logging
import os
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEventLoop, QSettings, Qt, QTimer
from PySide6.QtGui import QIcon, QPixmap
from PySide6.QtWidgets import QApplication, QDockWidget, QWidget

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.view import ViewDocument, is_model

from . import log_file
from .compare import CompareFeature
from .details import DetailsFeature
from .kernel_db import KernelDbFeature
from .main_window import MainWindow
from .palette_choice import PALETTES, keep_system_look, palette, saved_palette

log = logging.getLogger(__name__)

SCREENSHOT_SIZE = (1600, 1000)
# --pane: the Kernel DB dock raised on one of its tabs (KernelDbPanel.show_tab)
DB_PANES = {"kernel-db": "entries", "nnfusion-command": "command", "nnfusion-coverage": "coverage"}
# --dialog: the Help menu's windows, at this size in screenshots (None: its own, as opened)
DIALOG_SIZES: dict[str, tuple[int, int] | None] = {"about": None, "user-guide": (1100, 900)}
SCREENSHOT_TIMEOUT_MS = 120_000
# --pane: the pane alone, its dock floated at this size (the Details pane at its full length)
PANES = {"details": (620, 1000), "roofline": (1100, 760), "headroom": (1400, 480)}
# --pane: a tab of the code area raised (the window is shown, the tab beside the source)
CODE_TABS = ("ptx",)


def application(platform: str | None = None) -> QApplication:
    """The process's QApplication, created once with kernelscope's identity (an existing one,
    such as a test's, keeps its own)."""
    app = QApplication.instance()
    if app is None:
        QCoreApplication.setOrganizationName("kernelscope")
        QCoreApplication.setApplicationName("kernelscope")
        app = QApplication([*sys.argv[:1], *(["-platform", platform] if platform else [])])
        app.setDesktopFileName("kernelscope")
    assert isinstance(app, QApplication)
    keep_system_look(app)  # View > Palette's "System", whatever --palette changes
    if app.windowIcon().isNull():
        app.setWindowIcon(app_icon())
    return app


def app_icon() -> QIcon:
    """kernelscope's icon from the package's resources: the PNG sizes, and the SVG above."""
    icons = resources.files("kernelscope.resources") / "icons"
    icon = QIcon()
    for entry in sorted(icons.iterdir(), key=lambda e: e.name):
        if entry.name.endswith((".png", ".svg")):
            icon.addFile(str(entry))
    return icon


@contextlib.contextmanager
def _palette(app: QApplication, name: str | None) -> Iterator[None]:
    """Use the Fusion style with that palette while the window lives (``None``: the system's)."""
    if name is None:
        yield
        return
    if name not in PALETTES:
        raise KernelscopeError(f"no palette {name!r}", hint="choose " + " or ".join(PALETTES))
    style, old = app.style().name(), app.palette()
    app.setStyle("Fusion")
    app.setPalette(palette(name))
    try:
        yield
    finally:
        app.setStyle(style)
        app.setPalette(old)


def show_location(window: MainWindow, kernel: str | None, line: int | None) -> None:
    """Go to ``kernel`` (a name or a unique part of one) and ``line`` of its source; the
    selection moves when the kernel has loaded."""
    selection = window.selection
    document = selection.document
    if document is None:
        return
    name = selection.requested_kernel or (selection.kernel.name if selection.kernel else None)
    if kernel:
        names = [s.name for s in document.summaries]
        matches = [n for n in names if n == kernel] or [n for n in names if kernel in n]
        if len(matches) != 1:
            raise KernelscopeError(
                f"--kernel {kernel!r} matches {len(matches)} kernels",
                hint="kernels: " + ", ".join(names),
            )
        name = matches[0]
    if name:
        selection.show(name, line=line or None)


def run(
    path: str | None = None,
    *,
    screenshot_to: str | None = None,
    kernel: str | None = None,
    line: int | None = None,
    palette: str | None = None,
    pane: str | None = None,
    db: str | None = None,
    nnfusion_model: str | None = None,
    baseline: str | None = None,
    ranking: str | None = None,
    dialog: str | None = None,
) -> int:
    """Open the window (on ``path`` if given, compared with ``baseline`` if given, the hot
    lines ranked by ``ranking``: "regressions" or "improvements"; ``dialog`` over it: "about"
    or "user-guide"); with ``screenshot_to``, save a PNG and quit. ``pane`` shows a pane: one
    of ``PANES`` (a screenshot renders it alone), a tab of the Kernel DB dock (``DB_PANES``)
    or the PTX tab (``CODE_TABS``; for these a screenshot shows the window). ``db`` opens
    that DB in the Kernel DB dock,
    ``nnfusion_model`` shows that model's coverage; a screenshot with ``dialog`` renders the
    dialog alone."""
    choices = [*PANES, *DB_PANES, *CODE_TABS]
    if pane is not None and pane not in choices:
        raise KernelscopeError(f"no pane {pane!r}", hint="choose " + ", ".join(choices))
    if dialog is not None and dialog not in DIALOG_SIZES:
        raise KernelscopeError(f"no dialog {dialog!r}", hint="choose " + ", ".join(DIALOG_SIZES))
    _start_log()
    offscreen = screenshot_to and "QT_QPA_PLATFORM" not in os.environ
    app = application("offscreen" if offscreen else None)
    shown = Shown(kernel, line, pane, db, nnfusion_model, baseline, ranking, dialog)
    if palette is None and not screenshot_to:  # View > Palette's choice (screenshots: none)
        palette = saved_palette(QSettings())
    with _palette(app, palette):
        if screenshot_to:
            return _screenshot(app, path, Path(screenshot_to), shown)
        window = MainWindow()
        window.feature(CompareFeature).mode.rank_lines_by(ranking)
        if path and not is_model(path):  # before it shows: no welcome page on the way
            _locate_when_opened(window, kernel, line)
            _open(window, path, baseline)
        window.show()
        _show_extras(window, shown)
        if path and is_model(path):  # Build & Profile, over the window
            window.open_path(path)
        return app.exec()


def _start_log() -> None:
    """The window's log file from here on (``log_file``), beginning with who writes it."""
    if log_file.install() is not None:
        version = importlib.metadata.version("kernelscope")
        log.info("kernelscope %s: the window starts (pid %d)", version, os.getpid())


@dataclass(frozen=True)
class Shown:
    """What the window shows once open, beside the file: ``run``'s arguments."""

    kernel: str | None = None
    line: int | None = None
    pane: str | None = None  # one of PANES, DB_PANES or CODE_TABS
    db: str | None = None
    nnfusion_model: str | None = None
    baseline: str | None = None
    ranking: str | None = None
    dialog: str | None = None

    @property
    def dock(self) -> str | None:
        """The pane of ``PANES`` shown (a screenshot renders it alone)."""
        return self.pane if self.pane in PANES else None


def _open(window: MainWindow, path: str, baseline: str | None) -> None:
    window.open_path(path)
    if baseline:
        window.feature(CompareFeature).compare_with_paths([baseline])


def _show_extras(window: MainWindow, shown: Shown, screenshot: bool = False) -> QWidget | None:
    """Show the pane, the Kernel DB dock's tab and the dialog ``shown`` asks for, at the
    screenshot's sizes with ``screenshot``; the dialog, if one was opened."""
    if shown.dock:
        widget = window.feature(DetailsFeature).show_pane(shown.dock)
        dock = widget.parentWidget()
        if screenshot and isinstance(dock, QDockWidget):  # its size, whatever room is left
            dock.setFloating(True)
            dock.resize(*PANES[shown.dock])
    if shown.pane in CODE_TABS:
        window.focus_ptx()
    db_tab = shown.pane if shown.pane in DB_PANES else None
    if db_tab or shown.db or shown.nnfusion_model:
        default = "nnfusion-coverage" if shown.nnfusion_model else "kernel-db"
        kernel_db = window.feature(KernelDbFeature)
        kernel_db.show_tab(DB_PANES[db_tab or default])
        if screenshot:
            height = SCREENSHOT_SIZE[1] // 2
            window.resizeDocks([kernel_db.dock], [height], Qt.Orientation.Vertical)
        if shown.db:
            kernel_db.panel.set_path(shown.db)
        kernel_db.panel.ensure_loaded()
        if shown.nnfusion_model:
            kernel_db.panel.coverage.set_model(shown.nnfusion_model)
    if not shown.dialog:
        return None
    dialog = show_dialog(window, shown.dialog)
    size = DIALOG_SIZES[shown.dialog]
    if screenshot and size is not None:
        dialog.resize(*size)
    return dialog


def _locate_when_opened(window: MainWindow, kernel: str | None, line: int | None) -> None:
    if not kernel and not line:
        return

    def locate(document: ViewDocument) -> None:
        window.document_opened.disconnect(locate)
        try:
            show_location(window, kernel, line)
        except KernelscopeError as exc:
            window.show_error("Cannot show that location", exc)

    window.document_opened.connect(locate)


def show_dialog(window: MainWindow, name: str) -> QWidget:
    """Open one of the Help menu's windows over ``window`` (``DIALOG_SIZES``)."""
    return window.about() if name == "about" else window.user_guide()


def _screenshot(app: QApplication, path: str | None, out: Path, shown: Shown) -> int:
    """Open ``path`` (compared with ``shown``'s baseline, if any), show what ``shown`` asks
    for, wait until every job is done, save the PNG (of the whole window, of one pane, or of
    the dialog alone)."""
    if path and is_model(path):
        raise KernelscopeError(
            f"{Path(path).name} is a model: screenshots show workspaces and reports",
            hint="build it first (kernelscope build), then take the screenshot of the workspace",
        )
    errors: list[KernelscopeError] = []
    with tempfile.TemporaryDirectory() as scratch:
        settings = QSettings(str(Path(scratch) / "screenshot.ini"), QSettings.Format.IniFormat)
        window = MainWindow(restore_layout=False, settings=settings)
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        window.resize(*SCREENSHOT_SIZE)
        window.feature(CompareFeature).mode.rank_lines_by(shown.ranking)
        timeout = QTimer(window)
        timeout.setSingleShot(True)
        # a loop of its own, not app.exec(): the application (a test's, say) is not quit, so
        # nothing connected to aboutToQuit runs and later windows work as before
        loop = QEventLoop()

        done: list[bool] = []

        def finish(error: KernelscopeError | None = None) -> None:
            if error is not None:
                errors.append(error)
            if done:
                return
            done.append(True)
            timeout.stop()
            window.workers.idle.disconnect(settled)
            window.close()
            loop.quit()

        def failed(error: BaseException, paths: object) -> None:
            errors.append(
                error
                if isinstance(error, KernelscopeError)
                else KernelscopeError(f"cannot open {path}: {type(error).__name__}: {error}")
            )

        def located(document: ViewDocument) -> None:
            try:
                show_location(window, shown.kernel, shown.line)
            except KernelscopeError as exc:
                errors.append(exc)

        def settled() -> None:
            QTimer.singleShot(0, shoot)  # after the layout requests the results posted

        def shoot() -> None:
            if errors:
                finish()
                return
            # the line asked for, or the one the kernel opened at (a library kernel's launch)
            picked = window.selection.line if window.selection.picked == "line" else 0
            if shown.line or picked:
                window.source.show_row((shown.line or picked) - 1, center=True)
            if shown.pane in CODE_TABS:  # its rows of the line, as the pane shows them
                window.ptx.show_row(window.selection.ptx_row, center=True)
            image = dialog.grab() if dialog is not None else _grab(window, shown.dock)
            if not image.save(str(out)):
                finish(KernelscopeError(f"could not write {out}", hint="check the folder exists"))
            else:
                finish()

        timeout.timeout.connect(
            lambda: finish(KernelscopeError(f"{path} did not open within 2 minutes"))
        )
        window.loader.failed.connect(failed)
        window.feature(CompareFeature).mode.controller.failed.connect(
            lambda title, error: failed(error, title)
        )
        window.document_opened.connect(located)
        window.workers.idle.connect(settled)
        if path:
            _open(window, path, shown.baseline)
        window.show()  # with nothing open, the welcome page reads what is installed
        dialog = _show_extras(window, shown, screenshot=True)
        timeout.start(SCREENSHOT_TIMEOUT_MS)
        if not window.workers.busy:
            settled()
        loop.exec()
        settings.sync()  # written now, into the scratch folder, not when it is collected
    if errors:
        raise errors[0]
    return 0


def _grab(window: MainWindow, pane: str | None) -> QPixmap:
    if pane is None:
        return window.grab()
    if pane == "details":  # every section, not only what the dock's height shows
        return window.feature(DetailsFeature).details_pane.content.grab()
    return window.feature(DetailsFeature).show_pane(pane).grab()
