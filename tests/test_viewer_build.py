"""Build & Profile drives a real build of a small model; profiling says what is missing."""

from __future__ import annotations

from pathlib import Path

import pytest
import viewer_support

from kernelscope.core.toolchain import find_tool, local_gpu_arch
from kernelscope.viewer.dialogs.build_dialog import BuildDialog, parse_shapes

MODEL = Path(__file__).parent / "data" / "models" / "small_cnn.onnx"
no_leaks = viewer_support.no_leaks
window = viewer_support.window


def test_shapes_field_parses_and_rejects() -> None:
    assert parse_shapes("x=1,3,8,8; y = 4") == {"x": [1, 3, 8, 8], "y": [4]}
    with pytest.raises(Exception, match="NAME=D0"):
        parse_shapes("x=1,a")


@pytest.mark.slow
def test_build_dialog_builds_opens_and_explains_profiling(qtbot, window, tmp_path) -> None:  # noqa: ANN001
    dialog = BuildDialog(window, MODEL)
    qtbot.addWidget(dialog)
    dialog.output.setText(str(tmp_path / "cnn.kscope"))
    dialog.profile.setChecked(True)
    dialog.show()
    with qtbot.waitSignal(dialog.finished_document, timeout=300_000) as built:
        dialog.start.click()
    qtbot.waitUntil(lambda: dialog.thread_ is None, timeout=30_000)
    assert Path(built.args[0]) == (tmp_path / "cnn.kscope").resolve()
    assert dialog.bar.value() == 1000
    log = dialog.log.toPlainText()
    assert "built " in log
    if not find_tool("ncu").found or local_gpu_arch() is None:
        assert "Cannot profile here:" in log
        assert "Import Report" in log
    window.open_path(built.args[0])
    assert window.wait_for_document()
    assert window.state.document.workspace.path == (tmp_path / "cnn.kscope").resolve()
    dialog.close()


@pytest.mark.slow
def test_cancelled_build_keeps_what_is_on_screen(qtbot, window, tmp_path) -> None:  # noqa: ANN001
    before = window.state.document
    dialog = BuildDialog(window, MODEL)
    qtbot.addWidget(dialog)
    dialog.output.setText(str(tmp_path / "cancelled.kscope"))
    dialog.use_cache.setChecked(False)
    dialog.show()
    dialog.start.click()
    dialog.cancel.click()  # Cancel while the build runs
    qtbot.waitUntil(lambda: dialog.thread_ is None, timeout=300_000)
    assert "cancelled" in dialog.log.toPlainText()
    assert not (tmp_path / "cancelled.kscope").exists()
    assert window.state.document is before
    dialog.close()
