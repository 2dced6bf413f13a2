"""Build & Profile drives a real build of a small model; profiling says what is missing."""

from __future__ import annotations

from pathlib import Path

import pytest
from viewer_support import WORKSPACE, open_and_settle

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.toolchain import find_tool, local_gpu_arch
from kernelscope.viewer.dialogs.build_dialog import BuildDialog, parse_shapes

MODEL = Path(__file__).parent / "data" / "models" / "small_cnn.onnx"
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
    assert dialog.bar.value() == 1000
    log = dialog.log.toPlainText()
    assert "built " in log
    assert "Cannot profile here:" in log
    assert "Import Report" in log
    open_and_settle(qtbot, window, built.args[0])
    assert window.selection.document.workspace.path == (tmp_path / "cnn.kscope").resolve()
    dialog.close()


@pytest.mark.slow
def test_cancelled_build_keeps_what_is_on_screen(qtbot, make_window, tmp_path) -> None:
    window = make_window()
    dialog = BuildDialog(window.workers, window, MODEL)
    dialog.output.setText(str(tmp_path / "cancelled.kscope"))
    dialog.use_cache.setChecked(False)
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
    dialog.ncu_set.setCurrentText("basic")
    dialog.sections.setText("SourceCounters, WarpStateStats")
    dialog.kernel_filter.setText("conv")
    dialog.launch_skip.setValue(2)
    dialog.launch_count.setValue(3)
    dialog.clock.setCurrentText("none")
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
    request = again.profile_request(tmp_path / "ws", again.host.entry())
    assert request.set == "basic" and request.sections == ["SourceCounters", "WarpStateStats"]
    assert request.kernel_regex == "conv" and (request.launch_skip, request.launch_count) == (2, 3)
    assert request.clock_control == "none" and (request.warmup, request.iterations) == (1, 2)
    assert request.inputs == tmp_path / "in.npz"
    assert request.host == "me@gpu-box" and request.remote_python == "/opt/py/bin/python3"
    assert request.ssh_options[:2] == ["-p", "2222"] and request.ssh_options[-1] == (
        "-oProxyJump=gate"
    )
    assert request.ssh_options[3].endswith("/.ssh/gpu_key")  # ~ expanded
    # "This machine" again: the host fields are off, and profiling stays here
    again.host.where.setCurrentIndex(0)
    assert not again.host.port.isEnabled() and not again.check_button.isEnabled()
    assert again.profile_request(tmp_path / "ws", again.host.entry()).host is None
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
    assert not dialog.build.isChecked() and dialog.profile.isChecked()
    assert dialog.start.text() == "Profile" and not dialog.arch.isEnabled()
    assert dialog.arch.currentText() == "sm_90"
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
    dialog.build.setChecked(False)
    dialog.profile.setChecked(True)
    dialog.start.click()
    assert dialog.job is None and said in dialog.log.toPlainText()
    dialog.close()
