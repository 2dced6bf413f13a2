"""Build & Profile drives a real build of a small model; profiling says what is missing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from paths_support import DATA, data_path
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QMessageBox
from viewer_support import WORKSPACE, open_and_settle, settle

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.profiling import profiling_problem
from kernelscope.core.toolchain import find_tool, local_gpu_arch
from kernelscope.core.workspace import Workspace
from kernelscope.viewer.build_profile import BuildProfileFeature
from kernelscope.viewer.build_profile.build_dialog import BuildDialog
from kernelscope.viewer.build_profile.build_tvm_page import parse_shapes

MODELS = DATA / "models"
MODEL = MODELS / "small_cnn.onnx"
CAN_PROFILE = find_tool("ncu").found and local_gpu_arch() is not None


def test_shapes_field_parses_and_rejects() -> None:
    assert parse_shapes("x=1,3,8,8; y = 4") == {"x": [1, 3, 8, 8], "y": [4]}
    with pytest.raises(KernelscopeError, match="NAME=D0"):
        parse_shapes("x=1,a")


@pytest.mark.slow
@pytest.mark.skipif(CAN_PROFILE, reason="this machine can profile: nothing to explain")
def test_build_dialog_builds_opens_and_explains_profiling(qtbot, make_window, tmp_path) -> None:
    window = make_window()
    dialog = BuildDialog(window.workers, window, MODEL)
    dialog.output.setText(str(tmp_path / "cnn.kscope"))
    dialog.profile.setChecked(True)
    dialog.show()
    with qtbot.waitSignal(dialog.finished_document, timeout=300_000) as built:
        dialog.start.click()
    qtbot.waitUntil(lambda: dialog.job is None, timeout=30_000)
    assert Path(built.args[0]) == (tmp_path / "cnn.kscope").resolve()
    # built (the first half of Build & Profile), not profiled: the bar does not say 100 %
    assert dialog.bar.value() == 500 and dialog.bar.text() == "not profiled"
    log = dialog.log.toPlainText()
    assert "built " in log
    assert "Cannot profile here:" in log
    assert "Import Report" in log
    open_and_settle(qtbot, window, built.args[0])
    assert window.selection.document.workspace_path == (tmp_path / "cnn.kscope").resolve()
    dialog.close()


@pytest.mark.slow
def test_cancelled_build_keeps_what_is_on_screen(qtbot, make_window, tmp_path) -> None:
    window = make_window()
    dialog = BuildDialog(window.workers, window, MODEL)
    dialog.output.setText(str(tmp_path / "cancelled.kscope"))
    dialog.tvm.use_cache.setChecked(False)
    dialog.show()
    dialog.start.click()
    dialog.cancel.click()  # Cancel while the build runs
    qtbot.waitUntil(lambda: dialog.job is None, timeout=300_000)
    assert "cancelled" in dialog.log.toPlainText()
    assert not (tmp_path / "cancelled.kscope").exists()
    assert window.selection.document is None
    dialog.close()


# --- where to run, every profiling option, remembered values ------------------------------


def _dialog(window, **kw):  # noqa: ANN001, ANN003, ANN202
    dialog = BuildDialog(window.workers, window, settings=window.settings, **kw)
    dialog.show()
    return dialog


def test_the_dialog_remembers_every_option_and_the_host(qtbot, make_window, tmp_path) -> None:
    window = make_window()
    dialog = _dialog(window)
    dialog.model.setText(str(MODEL))
    dialog.profile.setChecked(True)
    dialog.ncu_form.ncu_set.setCurrentText("basic")
    dialog.ncu_form.sections.setText("SourceCounters, WarpStateStats")
    dialog.ncu_form.kernel_filter.setText("conv")
    dialog.ncu_form.launch_skip.setValue(2)
    dialog.ncu_form.launch_count.setValue(3)
    dialog.ncu_form.clock.setCurrentText("none")
    dialog.warmup.setValue(1)
    dialog.iterations.setValue(2)
    dialog.inputs.setText(str(tmp_path / "in.npz"))
    dialog.host.where.setCurrentText("me@gpu-box")
    dialog.host.port.setValue(2222)
    dialog.host.identity.setText("~/.ssh/gpu_key")
    dialog.host.extra.setText("-oProxyJump=gate")
    dialog.host.python.setText("/opt/py/bin/python3")
    assert dialog.start.text() == "Build && Profile" and dialog.check_button.isEnabled()
    dialog.close()

    again = _dialog(window)
    assert again.model.text() == str(MODEL) and again.profile.isChecked()
    assert again.host.where.currentText() == "me@gpu-box" and again.host.port.value() == 2222
    assert [again.host.where.itemText(i) for i in range(again.host.where.count())] == [
        "This machine",
        "me@gpu-box",
    ]
    request = again.profile_request(tmp_path / "ws", again.host.options())
    ncu = request.ncu
    assert ncu.set == "basic" and ncu.sections == ["SourceCounters", "WarpStateStats"]
    assert ncu.kernel_regex == "conv" and (ncu.launch_skip, ncu.launch_count) == (2, 3)
    assert ncu.clock_control == "none" and (request.warmup, request.iterations) == (1, 2)
    assert request.inputs == tmp_path / "in.npz"
    host = request.host
    assert host is not None
    assert host.host == "me@gpu-box" and host.python == "/opt/py/bin/python3"
    assert host.options[:2] == ("-p", "2222") and host.options[-1] == "-oProxyJump=gate"
    assert host.options[3].endswith("/.ssh/gpu_key")  # ~ expanded
    # "This machine" again: the host fields are off, and profiling stays here
    again.host.where.setCurrentIndex(0)
    assert not again.host.port.isEnabled() and not again.check_button.isEnabled()
    assert again.profile_request(tmp_path / "ws", again.host.options()).host is None
    again.close()


def test_the_pipeline_choice_is_built_and_remembered(qtbot, make_window) -> None:
    window = make_window()
    dialog = _dialog(window)
    dialog.model.setText(str(MODEL))
    assert dialog.request().pipeline == ""  # the model's own default
    dialog.tvm.pipeline.setCurrentText("lift-params")
    assert dialog.request().pipeline == "lift-params"
    dialog.remember()
    dialog.close()
    again = _dialog(window)
    assert again.tvm.pipeline.currentText() == "lift-params"
    assert again.request().pipeline == "lift-params"
    again.close()


def test_the_dialog_starts_from_the_open_workspace(qtbot, make_window, build_once, tmp_path):
    import shutil

    ws = tmp_path / "small_cnn.kscope"
    shutil.copytree(build_once("small_cnn.onnx").path, ws)
    shutil.copy(MODEL, tmp_path / "small_cnn.onnx")
    window = make_window(ws)
    window.action("build").trigger()
    dialog = next(d for d in window.findChildren(BuildDialog) if d.isVisible())
    assert dialog.model.text() == str(tmp_path / "small_cnn.onnx")
    assert dialog.output.text() == str(ws)
    assert not dialog.tvm.build.isChecked() and dialog.profile.isChecked()
    assert dialog.start.text() == "Profile" and not dialog.tvm.arch.isEnabled()
    assert dialog.tvm.arch.currentText() == "sm_90"
    if not CAN_PROFILE:  # as it is, here: says what is missing and where to go
        dialog.start.click()
        qtbot.waitUntil(lambda: dialog.job is None, timeout=60_000)
        log = dialog.log.toPlainText()
        assert f"profiling {ws} as it is" in log and "Cannot profile here:" in log
        assert "Run on" in log and not (ws / "profiles").exists()
    dialog.close()


@pytest.mark.parametrize(
    ("host", "extra", "said"),
    [
        ("me@gpu box", "", "is not an SSH host"),
        ("-oProxyCommand=sh", "", "is not an SSH host"),
        ("me@gpu-box", "ProxyJump=gate", "each starts with '-'"),
        ("me@gpu-box", "-o 'unclosed", "SSH options"),
    ],
)
def test_a_host_ssh_would_not_take_is_refused_before_anything_runs(
    qtbot, make_window, host: str, extra: str, said: str
) -> None:
    window = make_window()
    dialog = _dialog(window)
    dialog.host.where.setCurrentText(host)
    dialog.host.extra.setText(extra)
    dialog.check_button.click()
    assert dialog.job is None and said in dialog.log.toPlainText()
    dialog.output.setText(str(WORKSPACE))
    dialog.tvm.build.setChecked(False)
    dialog.profile.setChecked(True)
    dialog.start.click()
    assert dialog.job is None and said in dialog.log.toPlainText()
    dialog.close()


# --- which workspace, which model: the open one is not overwritten by another ------------


def _open_dialog(window) -> BuildDialog:  # noqa: ANN001
    window.action("build").trigger()
    return next(d for d in window.findChildren(BuildDialog) if d.isVisible())


def test_the_workspace_follows_the_model_unless_typed(qtbot, make_window, tmp_path) -> None:
    """The demo's case: its workspace open, another model typed (Tab and all) gets its own
    workspace, not the open one; a folder the user typed stays."""
    ws = tmp_path / "demo" / "mlp.kscope"  # no model beside it, as with the demo
    shutil.copytree(WORKSPACE, ws)
    window = make_window(ws)
    dialog = _open_dialog(window)
    assert dialog.model.text() == "" and dialog.output.text() == str(ws)
    assert not dialog.tvm.build.isChecked()  # the open workspace, as it is
    dialog.model.setFocus()
    qtbot.keyClicks(dialog.model, str(MODEL))
    qtbot.keyClick(dialog.model, Qt.Key.Key_Tab)
    assert dialog.output.text() == str(MODEL.with_suffix(".kscope"))
    assert dialog.tvm.build.isChecked()  # a model typed in is one to build
    assert dialog.request().output == MODEL.with_suffix(".kscope")

    dialog.output.clear()
    qtbot.keyClicks(dialog.output, str(tmp_path / "mine.kscope"))
    dialog.model.setText(str(MODELS / "tiny_mlp.py"))  # Browse… sets it so
    assert dialog.output.text() == str(tmp_path / "mine.kscope")
    dialog.output.selectAll()
    qtbot.keyClick(dialog.output, Qt.Key.Key_Delete)  # emptied: it follows again
    dialog.model.setText(str(MODEL))
    assert dialog.output.text() == str(MODEL.with_suffix(".kscope"))
    dialog.close()


@pytest.mark.slow
def test_building_another_model_into_a_workspace_asks_first(qtbot, make_window, tmp_path):
    ws = tmp_path / "mlp.kscope"  # holds the build of mlp.onnx
    shutil.copytree(WORKSPACE, ws)
    window = make_window(ws)
    dialog = _open_dialog(window)
    dialog.model.setText(str(MODELS / "tiny_mlp.py"))
    dialog.output.clear()
    qtbot.keyClicks(dialog.output, str(ws))  # typed: the user means this folder
    dialog.tvm.build.setChecked(True)
    dialog.profile.setChecked(False)
    before = (ws / "manifest.json").read_bytes()

    dialog.start.click()
    qtbot.waitUntil(lambda: dialog.confirm is not None, timeout=60_000)
    box = dialog.confirm
    assert box.isVisible() and "another model, mlp.onnx" in box.text()
    assert "tiny_mlp.py" in box.informativeText()
    assert box.defaultButton() is box.button(QMessageBox.StandardButton.No)
    box.button(QMessageBox.StandardButton.No).click()
    assert dialog.job is None and dialog.confirm is None
    assert "not built: " in dialog.log.toPlainText()
    assert (ws / "manifest.json").read_bytes() == before

    dialog.start.click()
    qtbot.waitUntil(lambda: dialog.confirm is not None, timeout=60_000)
    with qtbot.waitSignal(dialog.finished_document, timeout=300_000):
        dialog.confirm.button(QMessageBox.StandardButton.Yes).click()
    qtbot.waitUntil(lambda: dialog.job is None, timeout=30_000)
    assert Workspace.open(ws).manifest.model == "tiny_mlp.py"
    assert dialog.bar.value() == 1000
    dialog.close()


@pytest.mark.slow
def test_a_crash_shows_its_message_and_log_not_the_stack_dump(qtbot, make_window, tmp_path):
    """TVM really segfaults on this model: the message and the log's path are in
    view, the native stack only in the log; the bar stays where the build got to."""
    window = make_window()
    dialog = BuildDialog(window.workers, window, MODELS / "holed_primfunc_crash.py")
    dialog.output.setText(str(tmp_path / "crash.kscope"))
    dialog.profile.setChecked(False)
    dialog.tvm.use_cache.setChecked(False)
    dialog.show()
    dialog.start.click()
    qtbot.waitUntil(lambda: dialog.job is None, timeout=300_000)
    log = dialog.log.toPlainText()
    assert "crashed in load_model: killed by SIGSEGV (Segmentation fault)" in log
    assert "the child's full log is in " in log and "Segfault encountered" not in log
    assert dialog.bar.value() > 0 and dialog.bar.text().startswith("failed at ")
    shown = _lines_in_view(dialog.log)
    assert any("crashed in load_model" in line for line in shown)
    assert any("full log is in" in line for line in shown)
    dialog.close()


def _lines_in_view(log) -> list[str]:  # noqa: ANN001
    view = log.viewport()
    first = log.cursorForPosition(QPoint(0, 0)).blockNumber()
    last = log.cursorForPosition(QPoint(0, view.height() - 1)).blockNumber()
    return [log.document().findBlockByNumber(n).text() for n in range(first, last + 1)]


def test_an_error_with_a_long_log_stays_in_view(qtbot, make_window) -> None:
    """A tool's output below the message (nvcc's, TVM's) does not scroll the message away."""
    window = make_window()
    dialog = _dialog(window)
    dialog._append("building model.onnx for sm_90…")
    log = "\n".join(f"  frame {i}: somewhere in libtvm.so" for i in range(200))
    dialog._on_failed(KernelscopeError("nvcc failed", hint="see below", details=log))
    shown = _lines_in_view(dialog.log)
    assert "error: nvcc failed" in shown and "  hint: see below" in shown
    assert "  frame 199: somewhere in libtvm.so" in dialog.log.toPlainText()  # all of it kept
    assert dialog.bar.text() == "failed at 0%"
    dialog.close()


@pytest.mark.skipif(profiling_problem() is None, reason="this machine can profile")
def test_profiling_is_off_with_the_reason_where_this_machine_cannot(qtbot, make_window) -> None:
    window = make_window()
    dialog = _dialog(window)
    dialog.profile.setChecked(True)
    assert dialog.start.text() == "Build && Profile"  # until the check has answered
    qtbot.waitUntil(lambda: not dialog.profile.isEnabled(), timeout=30_000)
    assert not dialog.profile.isChecked() and dialog.start.text() == "Build"
    assert dialog.profile_note.text() == dialog.profile.toolTip()
    assert f"Not here: {profiling_problem()}. Choose a GPU machine under Run on." == (
        dialog.profile_note.text()
    )
    assert "Profiling is off: " in dialog.log.toPlainText()
    dialog.host.where.setCurrentText("me@gpu-box")  # a GPU host: profiling there is possible
    assert dialog.profile.isEnabled() and not dialog.profile_note.isVisibleTo(dialog)
    dialog.close()


# --- Import Report… ------------------------------------------------------------------------
COMPARE = data_path("compare")  # its reports unpacked beside its workspaces


def test_import_report_attaches_a_report_to_the_open_workspace(
    qtbot, make_window, tmp_path, monkeypatch
) -> None:
    """Ctrl+B > Import Report… with a workspace open does what ``kernelscope import REPORT
    -w WS`` does: the report is copied into the workspace's profiles/, the log says how it
    fits the build, and the workspace opens with it."""
    from PySide6.QtWidgets import QFileDialog

    ws = tmp_path / "cnn3_b8.kscope"
    shutil.copytree(COMPARE / "cnn3_b8.kscope", ws)
    window = make_window(ws)
    assert not window.selection.document.has_profile
    dialog = window.feature(BuildProfileFeature).build_and_profile()
    report = data_path("compare/cnn3_b8_run1.ncu-rep")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(report), ""))
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(report)], ""))
    with qtbot.waitSignal(dialog.finished_document, timeout=20_000) as opened:
        dialog.import_button.click()
    qtbot.waitUntil(lambda: dialog.job is None, timeout=30_000)
    assert (ws / "profiles" / report.name).read_bytes() == report.read_bytes()
    log = dialog.log.toPlainText()
    assert f"attached {report.name} to {ws} as profiles/{report.name}" in log
    assert "7 kernels match the build" in log
    assert Path(opened.args[0]) == ws
    settle(qtbot, window)
    document = window.selection.document
    assert document.has_profile and document.workspace_path == ws.resolve()
    assert dialog.isVisible()  # the log stays to be read

    # a report of another build: refused, nothing attached, said in the window's words
    other = data_path("ncu/small/lineinfo.ncu-rep")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(other), ""))
    dialog.import_button.click()
    qtbot.waitUntil(lambda: dialog.job is None, timeout=60_000)
    log = dialog.log.toPlainText()
    assert "not imported" in log and "File > Open" in log and "--force" not in log
    assert not (ws / "profiles" / other.name).exists()
    dialog.close()


def test_tuning_records_that_are_not_a_database_are_told_in_the_windows_words(
    qtbot, make_window, tmp_path
) -> None:
    """The window has no --tuning-db: its error names the path and says what to choose
    (the CLI's names the option)."""
    window = make_window()
    dialog = _dialog(window)
    dialog.model.setText(str(MODEL))
    dialog.output.setText(str(tmp_path / "cnn.kscope"))
    dialog.tvm.build.setChecked(True)
    empty = tmp_path / "not-records"
    empty.mkdir()
    dialog.tvm.tuning_db.setText(str(empty))
    dialog.start.click()
    qtbot.waitUntil(lambda: dialog.job is None, timeout=60_000)
    log = dialog.log.toPlainText()
    assert f"error: {empty}: not a tuning database" in log
    assert "--tuning-db" not in log and "choose as tuning records the folder Tune…" in log
    assert not (tmp_path / "cnn.kscope").exists()
    dialog.close()
