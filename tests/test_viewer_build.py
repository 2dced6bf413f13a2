"""Build & Profile drives a real build of a small model; profiling says what is missing."""

from __future__ import annotations

from pathlib import Path

import pytest
from viewer_support import open_and_settle

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
