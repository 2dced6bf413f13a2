"""The welcome page the window opens on: what is installed (and what to do about what is
missing), the recent files, the demo built on the build lane, and bad input landing back on
it with a clear error; driven by clicks."""

from __future__ import annotations

import shutil

import pytest
from ncu_support import BAD
from paths_support import DATA
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QMessageBox
from viewer_support import WAIT_MS, WORKSPACE, settle

from kernelscope.core.environment import Demo, demo, installed_facts
from kernelscope.viewer.panels import welcome as welcome_module
from kernelscope.viewer.panels.welcome import facts_html

MODELS = DATA / "models"


def _click(qtbot, button) -> None:
    qtbot.waitUntil(button.isVisible)  # a widget added to a shown page shows a moment later
    assert button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def _box(qtbot, window) -> QMessageBox:
    def shown() -> list[QMessageBox]:
        return [w for w in window.findChildren(QMessageBox) if w.isVisible()]

    qtbot.waitUntil(lambda: bool(shown()), timeout=WAIT_MS)
    return shown()[0]


def _welcome_ready(qtbot, window) -> None:
    qtbot.waitUntil(lambda: window.welcome.state is not None, timeout=WAIT_MS)
    settle(qtbot, window)


def test_the_window_opens_on_the_welcome_page_saying_what_is_installed(qtbot, make_window):
    window = make_window()
    assert window.pages.currentWidget() is window.welcome
    _welcome_ready(qtbot, window)
    text = window.welcome.installed.text()
    facts = {f.name: f for f in installed_facts(probe_gpu=False)}
    for name in ("TVM", "nvcc", "ncu", "GPU"):
        assert f"<b>{name}</b>" in text
    ncu = facts["ncu"]
    if ncu.found:
        assert ncu.version in text
    else:  # the case here: no Nsight Compute on this machine
        assert "<b>ncu</b> not found" in text and "needed for profiling" in text
        assert "kernelscope import REPORT" in text, "what to do instead is said"
    assert window.welcome.check_again.isEnabled()
    _click(qtbot, window.welcome.check_again)
    assert window.welcome.busy
    _welcome_ready(qtbot, window)


def test_a_missing_tool_is_shown_with_what_to_do() -> None:
    facts = {f.name: f for f in installed_facts(probe_gpu=False)}
    absent = [
        type(f)(f.name, False, None, "", f.needed_for, "do this", f.required, f.absent)
        for f in facts.values()
    ]
    text = facts_html(absent)
    assert "<b>nvcc</b> not found<br>needed for building models" in text
    assert "<b>GPU</b> none" in text
    assert "<b>nvdisasm</b> not found" in text, "a missing tool a build needs is listed too"
    assert "X11" not in text, "the window is open: its libraries are there"


def test_recent_files_open_from_the_welcome_page(qtbot, make_window, tmp_path) -> None:
    gone = str(tmp_path / "deleted.kscope")
    QSettings().setValue("recent_files", [str(WORKSPACE.resolve()), gone])
    window = make_window()
    _welcome_ready(qtbot, window)
    buttons = {b.toolTip(): b for b in window.welcome.recent_buttons}
    assert set(buttons) == {str(WORKSPACE.resolve()), gone}
    assert not buttons[gone].isEnabled() and "(not found)" in buttons[gone].text()
    _click(qtbot, buttons[str(WORKSPACE.resolve())])
    settle(qtbot, window)
    assert window.selection.document is not None
    assert window.pages.currentWidget() is window.code_area


@pytest.mark.parametrize("bad", ["random.ncu-rep", "empty.ncu-rep", "notes.txt"])
def test_a_file_that_is_not_a_report_says_so_over_the_welcome_page(
    qtbot, make_window, tmp_path, bad: str
) -> None:
    """What double-clicking such a file does: kernelscope PATH opens the window on it."""
    path = tmp_path / bad
    if bad.endswith(".txt"):
        path.write_text("not a report")
    else:
        shutil.copyfile(BAD / bad, path)
    window = make_window()
    window.open_path(path)
    assert window.pages.currentWidget() is window.code_area, "opening shows the panes"
    box = _box(qtbot, window)
    assert bad in box.text() or bad in box.windowTitle()
    if bad != "empty.ncu-rep":  # "... is empty" says it all
        assert "What to do" in box.informativeText()
    assert "Traceback" not in box.text() + box.informativeText()
    box.close()
    settle(qtbot, window)
    assert window.selection.document is None
    assert window.pages.currentWidget() is window.welcome, "back to the welcome page"


def test_a_demo_that_cannot_build_says_so_and_offers_its_report(
    qtbot, make_window, tmp_path, monkeypatch
) -> None:
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"this is no ONNX model")
    files = demo()
    monkeypatch.setattr(
        welcome_module,
        "demo",
        lambda: Demo(
            broken,
            tmp_path / "demo" / files.report.name,
            tmp_path / "demo" / "squeezenet1_1.kscope",
            files.packed,
        ),
    )
    window = make_window()
    _welcome_ready(qtbot, window)
    page = window.welcome
    assert not page.state.demo_ready
    _click(qtbot, page.demo_button)
    box = _box(qtbot, window)
    assert box.windowTitle() == "Cannot build the demo"
    assert "broken.onnx" in box.text()
    box.close()
    assert "Could not build the demo" in page.demo_status.text()
    assert not (tmp_path / "demo" / "squeezenet1_1.kscope").exists(), "nothing left half-made"
    _click(qtbot, page.demo_report)  # the H200 report alone needs no build
    settle(qtbot, window)
    document = window.selection.document
    assert document is not None and document.has_profile and document.workspace_path is None


@pytest.mark.slow
def test_the_demo_is_built_on_the_build_lane_then_opened(
    qtbot, make_window, tmp_path, monkeypatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # not the user's own demo
    window = make_window()
    _welcome_ready(qtbot, window)
    page = window.welcome
    assert not page.state.demo_ready and not demo().workspace.exists()
    _click(qtbot, page.demo_button)  # Cancel stops it, nothing is left
    qtbot.waitUntil(lambda: page.demo_status.text().startswith("Building the demo:"))
    _click(qtbot, page.demo_busy.cancel)
    qtbot.waitUntil(lambda: not page.busy, timeout=WAIT_MS)
    assert "cancelled" in page.demo_status.text() and not demo().workspace.exists()
    assert window.selection.document is None
    _click(qtbot, page.demo_button)
    assert page.demo_busy.isVisible() and page.demo_busy.cancel.isVisible()
    assert not page.demo_button.isEnabled(), "one demo build at a time"
    qtbot.waitUntil(lambda: window.selection.document is not None, timeout=10 * WAIT_MS)
    settle(qtbot, window)
    document = window.selection.document
    assert document.workspace_path == demo().workspace and document.has_profile
    assert (demo().workspace / "profiles" / demo().report.name).is_file()
    assert window.pages.currentWidget() is window.code_area
    assert window.recent.paths()[0] == str(demo().workspace.resolve())
    # a second window finds it built and opens it at once
    other = make_window()
    _welcome_ready(qtbot, other)
    assert other.welcome.state.demo_ready
    _click(qtbot, other.welcome.demo_button)
    assert not other.welcome.busy, "no build the second time"
    settle(qtbot, other)
    assert other.selection.document.workspace_path == demo().workspace
