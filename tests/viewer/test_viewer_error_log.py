"""Errors keep their traceback (issue 31, item 3): a job's bug is written with its traceback
into the window's rotating log file, in the user's state folder (here the test's
``$XDG_STATE_HOME``), also when a newer request superseded the job and nothing is shown; the
error box shows the traceback and the log's path under Show Details… and copies them; Help >
About names the log file."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox
from viewer_support import WAIT_MS, WORKSPACE, settle, settle_all

from kernelscope.core.paths import log_file
from kernelscope.viewer import log_file as window_log
from kernelscope.viewer.app import run
from kernelscope.viewer.dialogs.about import AboutDialog
from kernelscope.viewer.widgets.messages import error_html


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """This test's state folder (``$XDG_STATE_HOME``); the log handler and the level the
    window sets are taken back afterwards (pytest-qt puts back ``sys.excepthook``)."""
    folder = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(folder))
    root, ours = logging.getLogger(), logging.getLogger("kernelscope")
    handlers, level = list(root.handlers), ours.level
    yield folder
    for handler in list(root.handlers):
        if handler not in handlers:
            root.removeHandler(handler)
            handler.close()
    ours.setLevel(level)


def _times_total(rows: list[dict[str, float | None]]) -> float:
    return sum(row["time"] for row in rows)  # type: ignore[misc]  # the bug: a None


def _read_times(context: object) -> float:
    return _times_total([{"time": 1.0}, {"time": None}])


def _visible_boxes(window) -> list[QMessageBox]:
    return [w for w in window.findChildren(QMessageBox) if w.isVisible()]


def test_the_window_writes_a_rotating_log_in_the_user_s_state_folder(
    qapp, state: Path, tmp_path: Path
) -> None:
    assert run(screenshot_to=str(tmp_path / "welcome.png")) == 0
    path = window_log.current()
    assert path == log_file() and path.is_relative_to(state)
    assert path == state / "kernelscope" / "log" / "kernelscope.log"  # platformdirs on Linux
    assert "the window starts" in path.read_text()
    # a few MB and a few older files, never more
    record = "x" * 10_000
    for _ in range(4 * window_log.MAX_BYTES // len(record)):
        logging.getLogger("kernelscope.viewer").info(record)
    assert path.stat().st_size <= window_log.MAX_BYTES
    older = sorted(p.name for p in path.parent.iterdir() if p != path)
    assert older == [f"kernelscope.log.{i}" for i in range(1, window_log.BACKUPS + 1)]


def test_a_job_s_bug_is_logged_and_its_box_shows_the_traceback_and_the_log(
    qtbot, make_window, state: Path
) -> None:
    window = make_window()
    path = window_log.install()  # as the window does at start-up (app.run)
    assert path is not None
    job = window.workers.start("open", _read_times, "reading the times")
    job.errored.connect(lambda error: window.show_error("Cannot read the times", error))
    qtbot.waitUntil(lambda: bool(_visible_boxes(window)), timeout=WAIT_MS)
    (box,) = _visible_boxes(window)
    assert box.text().startswith("Unexpected error: TypeError: unsupported operand")
    assert "bug in kernelscope" in box.informativeText()
    # the log: the job's name, then where it broke, line by line
    logged = path.read_text()
    assert "ERROR kernelscope.viewer.workers.jobs" in logged
    assert "reading the times failed\nTraceback (most recent call last):" in logged
    assert "in _times_total\n" in logged and "TypeError: unsupported operand" in logged
    # Show Details…: the same traceback, and where the log is
    details = box.detailedText()
    assert details.startswith(f"The window's log: {path}\n")
    assert "Traceback (most recent call last):" in details and "in _times_total\n" in details
    show = next(b for b in box.buttons() if b.text().startswith("Show Details"))
    show.click()
    qtbot.waitUntil(lambda: box.copy_button is not None and box.width() > 700)
    # Copy Details copies it all, and the box stays open to read on
    qtbot.mouseClick(box.copy_button, Qt.MouseButton.LeftButton)
    copied = QApplication.clipboard().text()
    assert copied.startswith("Cannot read the times\n\nUnexpected error: TypeError")
    assert details in copied
    assert box.isVisible()
    box.close()  # and it closes as any box does
    assert not box.isVisible()
    # a pane that shows a bug in a line points to the log too
    line = error_html("Cannot read the Details", TypeError("x"))
    assert "its traceback is in the window&#x27;s log file (Help &gt; About names it)" in line


def test_a_superseded_job_s_bug_is_logged_and_not_shown(qtbot, make_window, state: Path) -> None:
    """A file is opened, and another before the first is read: the first reader's bug is not
    the user's business any more, but it is a bug, and the log keeps it."""
    window = make_window()
    path = window_log.install()
    assert path is not None
    started, release = threading.Event(), threading.Event()

    def broken_reader(context: object) -> float:
        started.set()
        release.wait(WAIT_MS / 1000)
        return _read_times(context)

    window.loader.submit(broken_reader, [Path("first.ncu-rep")])
    assert started.wait(WAIT_MS / 1000)
    window.open_paths([WORKSPACE])  # the newer request wins
    release.set()
    settle(qtbot, window)
    settle_all(qtbot, window)
    assert window.selection.document is not None  # the newer file, opened
    assert not _visible_boxes(window)
    logged = path.read_text()
    assert "opening failed\nTraceback (most recent call last):" in logged
    assert "in broken_reader\n" in logged and "in _times_total\n" in logged


def test_an_exception_in_a_slot_is_logged(qtbot, state: Path) -> None:
    with qtbot.capture_exceptions() as caught:
        path = window_log.install()
        assert path is not None
        QTimer.singleShot(0, lambda: _read_times(None))
        qtbot.waitUntil(lambda: bool(caught))
    assert isinstance(caught[0][1], TypeError)  # still reported as before (stderr)
    logged = path.read_text()
    assert "unexpected error in the window\nTraceback" in logged and "in _times_total" in logged


def test_about_names_the_log_file(qtbot, make_window, state: Path) -> None:
    window = make_window()
    path = window_log.install()
    assert path is not None
    window.action("about").trigger()
    dialog = window.findChild(AboutDialog)
    assert dialog is not None and dialog.isVisible()
    assert dialog.log.isVisible()
    assert str(path) in dialog.log.text()
    assert dialog.log.text().startswith("Log file (attach it to a bug report)")
    qtbot.waitUntil(lambda: dialog.copy.isEnabled(), timeout=WAIT_MS)
    dialog.close()
