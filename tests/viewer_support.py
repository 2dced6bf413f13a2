"""The viewer tests' fixtures (a pytest plugin, loaded by conftest.py): ``make_window``, a
factory of main windows in the napari ``make_napari_viewer`` style, and a leak guard.

Qt is imported only when a test uses it. Every such test runs inside the guard: afterwards
no top-level widget it made may be left (hidden ones included), no worker or QThread running
and no QTimer active. Windows made by ``make_window`` are closed and deleted first, which
ends their workers.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from paths_support import DATA

WORKSPACE = DATA / "ws_mlp"
QT_FIXTURES = {"qapp", "qtbot", "qtmodeltester", "make_window"}
WAIT_MS = 120_000


def _settle() -> None:
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtWidgets import QApplication

    for _ in range(3):
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        QApplication.processEvents()


def _worker_threads() -> list[threading.Thread]:
    from kernelscope.viewer.workers.jobs import THREAD_PREFIX

    return [t for t in threading.enumerate() if t.name.startswith(THREAD_PREFIX) and t.is_alive()]


@pytest.fixture(autouse=True)
def qt_leak_guard(request: pytest.FixtureRequest) -> Iterator[None]:
    """Isolated settings, then fail on what a Qt test left behind."""
    if not QT_FIXTURES & set(request.fixturenames):
        yield
        return
    import shiboken6
    from PySide6.QtCore import QCoreApplication, QSettings, QThread, QTimer
    from PySide6.QtWidgets import QApplication

    request.getfixturevalue("qapp")
    QCoreApplication.setOrganizationName("kernelscope-tests")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    folder = request.getfixturevalue("tmp_path_factory").mktemp("settings")
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(folder))
    _release_modifiers()
    before = {id(w) for w in QApplication.topLevelWidgets()}
    yield
    _settle()
    left = [w for w in QApplication.topLevelWidgets() if id(w) not in before]
    workers = _worker_threads()
    alive = [
        o for o in gc.get_objects() if isinstance(o, QThread | QTimer) and shiboken6.isValid(o)
    ]
    threads = [o for o in alive if isinstance(o, QThread) and o.isRunning()]
    timers = [o for o in alive if isinstance(o, QTimer) and o.isActive()]
    described = [_describe(w) for w in left]
    for w in left:
        w.close()
        w.deleteLater()
    _settle()
    assert not left, f"test left widgets behind: {described}"
    assert not workers, f"test left worker threads running: {workers}"
    assert not threads, f"test left threads running: {threads}"
    assert not timers, f"test left timers active: {timers}"


def _release_modifiers() -> None:
    """Forget a modifier key an earlier test "held": Qt Test's Ctrl+key click ends with a Ctrl
    release that still carries Ctrl, so the application goes on believing Ctrl is down and a
    later test's ``selectRow`` toggles the row instead of choosing it."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QWidget

    target = QWidget()
    QTest.keyRelease(target, Qt.Key.Key_Control)  # carries no modifier: none is down now
    target.deleteLater()
    _settle()


def _describe(widget: object) -> str:
    return f"{type(widget).__name__}({widget.objectName()!r}, visible={widget.isVisible()})"


@pytest.fixture
def make_window(qtbot) -> Iterator[Callable[..., object]]:
    """``make_window(path=None)``: a shown main window with the default layout, on ``path``
    once everything asked for (document, first kernel, hot lines) is on screen."""
    from kernelscope.viewer.main_window import MainWindow

    windows: list[MainWindow] = []

    def make(path: str | Path | None = None) -> MainWindow:
        window = MainWindow(restore_layout=False)
        windows.append(window)
        window.resize(1400, 900)
        window.show()
        if path is not None:
            assert window.open_path(path)
            settle(qtbot, window)
            assert window.selection.document is not None, f"{path} did not open"
        return window

    yield make
    for window in windows:
        window.close()
        window.deleteLater()
    _settle()


def settle(qtbot, window) -> None:
    """Wait until what the window was asked for is on screen (``MainWindow.busy``)."""
    qtbot.waitUntil(lambda: not window.busy, timeout=WAIT_MS)


def settle_all(qtbot, window) -> None:
    """Wait until every job the window started is done, source colours included."""
    qtbot.waitUntil(lambda: not window.workers.busy, timeout=WAIT_MS)


def click_row(qtbot, table, row: int, column: int = 0) -> None:
    """Click a cell of an item view (a ``QAbstractItemView``) the way a person does,
    scrolled into view first."""
    from PySide6.QtCore import Qt

    index = table.model().index(row, column)
    table.scrollTo(index)
    qtbot.mouseClick(
        table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualRect(index).center()
    )


def open_and_settle(qtbot, window, path: str | Path | list) -> None:
    if isinstance(path, list):
        window.open_paths(path)
    else:
        window.open_path(path)
    settle(qtbot, window)
