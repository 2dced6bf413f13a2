"""Fixtures for the viewer tests: a window on the test workspace, and leak guards that fail
a test leaving top-level widgets, running QThreads or active QTimers behind."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QSettings, QThread, QTimer
from PySide6.QtWidgets import QApplication

WORKSPACE = Path(__file__).parent / "data" / "ws_mlp"


def _settle() -> None:
    for _ in range(3):
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        QApplication.processEvents()


@pytest.fixture(autouse=True)
def no_leaks(qapp: QApplication, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    QCoreApplication.setOrganizationName("kernelscope-tests")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(
        QSettings.Format.IniFormat,
        QSettings.Scope.UserScope,
        str(tmp_path_factory.mktemp("settings")),
    )
    before = set(map(id, QApplication.topLevelWidgets()))
    yield
    _settle()
    left = [w for w in QApplication.topLevelWidgets() if id(w) not in before and w.isVisible()]
    threads = [o for o in gc.get_objects() if isinstance(o, QThread) and o.isRunning()]
    timers = [o for o in gc.get_objects() if isinstance(o, QTimer) and o.isActive()]
    for w in left:
        w.close()
        w.deleteLater()
    _settle()
    assert not left, f"test left widgets open: {left}"
    assert not threads, f"test left threads running: {threads}"
    assert not timers, f"test left timers active: {timers}"


@pytest.fixture
def window(qtbot) -> Iterator[object]:  # noqa: ANN001
    from kernelscope.viewer.main_window import MainWindow

    win = MainWindow(restore_layout=False)
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.show()
    assert win.open_path(WORKSPACE)
    assert win.wait_for_document()
    yield win
    win.close()
