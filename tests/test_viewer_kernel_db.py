"""The Kernel DB panel and Export to kernel DB, driven through the window; opening off-thread."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import viewer_support
from PySide6.QtWidgets import QMessageBox

from kernelscope.core.kernel_db import KernelDB, export_workspace
from kernelscope.core.ncu.prefill import is_cached
from kernelscope.viewer.panels.kernel_db_model import PROFILE, STORED, KernelDbModel

WORKSPACE = viewer_support.WORKSPACE
no_leaks = viewer_support.no_leaks
window = viewer_support.window

H200_REPORT = Path(__file__).parent / "data" / "h200" / "small_cnn_h200.ncu-rep"


def _visible_box(window) -> QMessageBox:  # noqa: ANN001
    return next(w for w in window.findChildren(QMessageBox) if w.isVisible())


def _wait_export(qtbot, window) -> None:  # noqa: ANN001
    qtbot.waitUntil(lambda: window._export_thread is None, timeout=120_000)


@pytest.fixture
def profiled_workspace(build_once, tmp_path: Path) -> Path:  # noqa: ANN001
    """The small CNN's build with its H200 report attached, in a copy of its own."""
    ws = build_once("small_cnn.onnx")
    copy = tmp_path / "cnn.kscope"
    shutil.copytree(ws.path, copy)
    (copy / ws.profiles_dir.relative_to(ws.path)).mkdir(parents=True, exist_ok=True)
    shutil.copy(H200_REPORT, copy / ws.profiles_dir.relative_to(ws.path) / H200_REPORT.name)
    return copy


def test_model_passes_the_model_tester(qtmodeltester, tmp_path: Path) -> None:  # noqa: ANN001
    db_path = tmp_path / "k.db"
    export_workspace(WORKSPACE, db_path)
    model = KernelDbModel()
    with KernelDB.open(db_path) as db:
        model.set_entries(db.list_entries())
    model.set_profile_times({"softmax_kernel": 12.5})
    assert model.rowCount() == 5
    qtmodeltester.check(model)
    model.set_entries([])
    qtmodeltester.check(model)


def test_export_from_the_window_then_browse_search_filter_delete(
    qtbot,  # noqa: ANN001
    window,  # noqa: ANN001
    profiled_workspace: Path,
    tmp_path: Path,
) -> None:
    window.open_path(profiled_workspace)
    assert window.wait_for_document()
    document = window.state.document
    assert document.profile is not None, "the workspace's report is open with it"
    assert is_cached(profiled_workspace / "profiles" / H200_REPORT.name)
    panel = window.db_panel
    panel.set_path(tmp_path / "kernels.db")
    assert panel.model.rowCount() == 0
    window.export_all_action.trigger()
    assert window.export_busy.isVisible()
    _wait_export(qtbot, window)
    box = _visible_box(window)
    kernels = len(document.workspace.manifest.kernels)  # launched or not
    assert f"{kernels} kernels exported to kernels.db: {kernels} added" in box.text()
    assert "usable by NNFusion" in box.informativeText()
    box.close()

    model = panel.model
    assert model.rowCount() == kernels
    stored = [model.data(model.index(r, STORED)) for r in range(kernels)]
    measured = [model.data(model.index(r, PROFILE)) for r in range(kernels)]
    launched = len(document.summaries)
    assert sum(map(bool, stored)) == sum(map(bool, measured)) == launched, "profile times"

    # detail: launch dims, highlighted source, why NNFusion cannot use a row
    panel.table.selectRow(0)
    assert panel.detail is not None
    assert "Launch: grid" in panel.info.text()
    assert "__global__" in panel.source.toPlainText()
    assert panel.detail.usable or "Not usable by NNFusion" in panel.info.text()

    # search (FTS through the core), op type and shape filters
    name = model.entry(0).kernel_name
    panel.search.setText(name)
    assert [model.entry(r).kernel_name for r in range(model.rowCount())] == [name]
    panel.search.clear()
    op = panel.op_box.itemData(1)
    panel.op_box.setCurrentIndex(1)
    assert 0 < model.rowCount() < kernels
    assert all(op in model.entry(r).op_type for r in range(model.rowCount()))
    panel.op_box.setCurrentIndex(0)
    with KernelDB.open(panel.path) as db:
        shape = db.get(model.entry(0).key).shapes[0]
    panel.shape.setText(shape)
    assert 0 < model.rowCount() <= kernels
    panel.shape.clear()
    assert model.rowCount() == kernels

    # delete: Cancel keeps the row, Yes removes it
    panel.table.selectRow(0)
    key = panel.selected_keys()[0]
    panel.confirm_delete().button(QMessageBox.StandardButton.Cancel).click()
    assert model.rowCount() == kernels
    panel.confirm_delete().button(QMessageBox.StandardButton.Yes).click()
    assert model.rowCount() == kernels - 1
    assert key not in {model.entry(r).key for r in range(model.rowCount())}

    # exporting the selected kernel again adds it back; the others are unchanged
    window.kernels.table.selectRow(0)
    window.export_action.trigger()
    _wait_export(qtbot, window)
    box = _visible_box(window)
    assert "1 kernel exported" in box.text()
    box.close()
    window.export_all_action.trigger()
    _wait_export(qtbot, window)
    box = _visible_box(window)
    assert f"{kernels} kernels exported" in box.text() and "unchanged" in box.text()
    box.close()
    assert model.rowCount() == kernels


@pytest.fixture
def read_only_db(tmp_path: Path) -> Iterator[Path]:
    db_path = tmp_path / "ro.db"
    export_workspace(WORKSPACE, db_path, ["softmax_kernel"])
    db_path.chmod(0o444)
    immutable = False
    if os.geteuid() == 0:  # root ignores file modes
        immutable = subprocess.run(["chattr", "+i", str(db_path)]).returncode == 0
        if not immutable:
            pytest.skip("running as root without chattr: cannot make a read-only file")
    yield db_path
    if immutable:
        subprocess.run(["chattr", "-i", str(db_path)], check=True)
    db_path.chmod(0o644)


def test_read_only_db_gives_the_error_dialog_and_the_panel_keeps_working(
    qtbot,  # noqa: ANN001
    window,  # noqa: ANN001
    read_only_db: Path,
) -> None:
    panel = window.db_panel
    panel.set_path(read_only_db)
    assert panel.model.rowCount() == 1
    window.export_all_action.trigger()
    _wait_export(qtbot, window)
    box = _visible_box(window)
    assert "read-only" in box.text()
    assert "What to do" in box.informativeText()
    box.close()
    panel.table.selectRow(0)
    panel.confirm_delete().button(QMessageBox.StandardButton.Yes).click()
    box = _visible_box(window)
    assert "read-only" in box.text()
    box.close()
    panel.search.setText("softmax")
    assert panel.model.rowCount() == 1
    assert window.export_all_action.isEnabled()


def test_foreign_db_is_explained(window, tmp_path: Path) -> None:  # noqa: ANN001
    db_path = tmp_path / "osdi.db"
    db_path.write_bytes(b"not a database at all, just text" * 10)
    window.db_panel.set_path(db_path)
    box = _visible_box(window)
    assert db_path.name in box.text() or "database" in box.text().lower()
    box.close()
    assert window.db_panel.model.rowCount() == 0


def test_a_newer_open_wins_and_cancel_keeps_the_document(qtbot, window) -> None:  # noqa: ANN001
    shown = window.state.document
    window.open_path(H200_REPORT)
    window.loader.cancel()
    assert not window.open_busy.isVisible()
    window.loader.wait()
    qtbot.wait(50)
    assert window.state.document is shown
    window.open_path(H200_REPORT)
    window.open_path(WORKSPACE)
    assert window.wait_for_document()
    window.loader.wait()
    qtbot.wait(50)
    assert window.state.document.path == WORKSPACE
    window.open_path(H200_REPORT)
    assert window.wait_for_document()
    assert window.state.document.path == H200_REPORT
