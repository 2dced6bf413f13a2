"""The Kernel DB panel and Export to kernel DB, driven through the window; opening off-thread."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from paths_support import H200_REPORT
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from viewer_support import WORKSPACE, open_and_settle, settle

from kernelscope.core.kernel_db import KernelDB, export_workspace
from kernelscope.core.view import open_document
from kernelscope.core.view.prefill import is_cached
from kernelscope.viewer.kernel_db import KernelDbFeature
from kernelscope.viewer.kernel_db.model import PROFILE, STORED, KernelDbModel


def _visible_box(window) -> QMessageBox:
    return next(w for w in window.findChildren(QMessageBox) if w.isVisible())


def _wait_box(qtbot, window) -> QMessageBox:
    qtbot.waitUntil(lambda: any(w.isVisible() for w in window.findChildren(QMessageBox)))
    return _visible_box(window)


def _export(qtbot, window, action: str) -> QMessageBox:
    """Trigger an export action; the summary (or error) box once it is done."""
    window.action(action).trigger()
    assert window.feature(KernelDbFeature).export_busy.isVisible()
    assert not window.action("export_all").isEnabled(), "one export at a time"
    settle(qtbot, window)
    return _wait_box(qtbot, window)


def _rows(panel) -> list:
    return [panel.model.entry(r) for r in range(panel.model.rowCount())]


def _list(qtbot, panel, change) -> None:
    """Change a filter and wait for the listing it asks for."""
    with qtbot.waitSignal(panel.listed, timeout=30_000):
        change()


@pytest.fixture
def profiled_workspace(build_once, tmp_path: Path) -> Path:
    """The small CNN's build with its H200 report attached, in a copy of its own."""
    ws = build_once("small_cnn.onnx")
    copy = tmp_path / "cnn.kscope"
    shutil.copytree(ws.path, copy)
    (copy / ws.profiles_dir.relative_to(ws.path)).mkdir(parents=True, exist_ok=True)
    shutil.copy(H200_REPORT, copy / ws.profiles_dir.relative_to(ws.path) / H200_REPORT.name)
    return copy


@pytest.fixture
def exported(qtbot, make_window, profiled_workspace: Path, tmp_path: Path):
    """A window on the profiled workspace that exported all its kernels into a new DB."""
    window = make_window(profiled_workspace)
    assert is_cached(profiled_workspace / "profiles" / H200_REPORT.name, over_workspace=True)
    with qtbot.waitSignal(window.feature(KernelDbFeature).panel.listed):
        window.feature(KernelDbFeature).panel.set_path(tmp_path / "kernels.db")
    assert window.feature(KernelDbFeature).panel.model.rowCount() == 0
    box = _export(qtbot, window, "export_all")
    kernels = len(window.selection.document.workspace_kernels)  # launched or not
    assert f"{kernels} kernels exported to kernels.db: {kernels} added" in box.text()
    assert "usable by NNFusion" in box.informativeText()
    box.close()
    settle(qtbot, window)
    return window


def test_model_passes_the_model_tester(qtmodeltester, tmp_path: Path) -> None:
    db_path = tmp_path / "k.db"
    export_workspace(WORKSPACE, db_path)
    model = KernelDbModel()
    with KernelDB.open(db_path) as db:
        entries = db.list_entries()
    model.set_entries(entries)
    model.set_profile_times({entries[0].kernel_name: 12.5})
    assert model.rowCount() == len(open_document(WORKSPACE).document.summaries)
    qtmodeltester.check(model)
    model.set_entries([])
    qtmodeltester.check(model)


def test_export_lists_every_kernel_with_the_profile_times(exported) -> None:
    window = exported
    document = window.selection.document
    model = window.feature(KernelDbFeature).panel.model
    assert model.rowCount() == len(document.workspace_kernels)
    stored = [model.data(model.index(r, STORED)) for r in range(model.rowCount())]
    measured = [model.data(model.index(r, PROFILE)) for r in range(model.rowCount())]
    times = open_document(H200_REPORT).document.kernel_times()
    assert sum(map(bool, stored)) == sum(map(bool, measured)) == len(times), "profile times"


def test_the_detail_shows_launch_source_and_usability(qtbot, exported) -> None:
    panel = exported.feature(KernelDbFeature).panel
    for row in range(panel.model.rowCount()):
        with qtbot.waitSignal(panel.detail_shown):
            panel.table.selectRow(row)
        detail = panel.detail
        assert detail is not None and detail.key == panel.selected_keys()[0]
        assert "Launch: grid" in panel.info.text()
        assert "__global__" in panel.source.toPlainText()
        assert ("Not usable by NNFusion" in panel.info.text()) == (not detail.usable)


def test_search_and_filters_narrow_the_listing(qtbot, exported) -> None:
    panel = exported.feature(KernelDbFeature).panel
    everything = _rows(panel)
    name = everything[-1].kernel_name
    listings: list[None] = []
    panel.listed.connect(lambda: listings.append(None))
    with qtbot.waitSignal(panel.listed):
        qtbot.keyClicks(panel.search, name)
    assert listings == [None], "typing lists once, when it pauses"
    assert [e.kernel_name for e in _rows(panel)] == [name]
    _list(qtbot, panel, panel.search.clear)
    op = panel.op_box.itemData(1)
    _list(qtbot, panel, lambda: panel.op_box.setCurrentIndex(1))
    assert 0 < panel.model.rowCount() < len(everything)
    assert all(op in e.op_type for e in _rows(panel))
    _list(qtbot, panel, lambda: panel.op_box.setCurrentIndex(0))
    with KernelDB.open(panel.path) as db:
        shapes = {e.key: db.get(e.key).shapes for e in everything}
    shape = shapes[everything[0].key][0]
    _list(qtbot, panel, lambda: panel.shape.setText(shape))
    assert {e.key for e in _rows(panel)} == {k for k, s in shapes.items() if shape in s}
    _list(qtbot, panel, panel.shape.clear)
    assert len(_rows(panel)) == len(everything)


def test_delete_asks_first_and_reexport_adds_back(qtbot, exported) -> None:
    window = exported
    panel = window.feature(KernelDbFeature).panel
    count = panel.model.rowCount()
    panel.table.selectRow(0)
    key = panel.selected_keys()[0]
    panel.confirm_delete().button(QMessageBox.StandardButton.Cancel).click()
    assert panel.model.rowCount() == count
    with qtbot.waitSignal(panel.listed):
        panel.confirm_delete().button(QMessageBox.StandardButton.Yes).click()
    assert panel.model.rowCount() == count - 1
    assert key not in {e.key for e in _rows(panel)}
    # exporting the selected kernel again adds it back; the others are unchanged
    window.kernels.table.selectRow(0)
    box = _export(qtbot, window, "export")
    assert "1 kernel exported" in box.text()
    box.close()
    box = _export(qtbot, window, "export_all")
    assert f"{count} kernels exported" in box.text() and "unchanged" in box.text()
    box.close()
    settle(qtbot, window)
    assert panel.model.rowCount() == count


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
    qtbot, make_window, read_only_db: Path
) -> None:
    window = make_window(WORKSPACE)
    panel = window.feature(KernelDbFeature).panel
    with qtbot.waitSignal(panel.listed):
        panel.set_path(read_only_db)
    assert panel.model.rowCount() == 1
    box = _export(qtbot, window, "export_all")
    assert "read-only" in box.text()
    assert "What to do" in box.informativeText()
    box.close()
    panel.table.selectRow(0)
    panel.confirm_delete().button(QMessageBox.StandardButton.Yes).click()
    box = _wait_box(qtbot, window)
    assert "read-only" in box.text()
    box.close()
    with qtbot.waitSignal(panel.listed):
        qtbot.keyClicks(panel.search, "softmax")
    assert panel.model.rowCount() == 1
    assert window.action("export_all").isEnabled()


def test_foreign_db_is_explained(qtbot, make_window, tmp_path: Path) -> None:
    window = make_window()
    db_path = tmp_path / "osdi.db"
    db_path.write_bytes(b"not a database at all, just text" * 10)
    window.feature(KernelDbFeature).panel.set_path(db_path)
    box = _wait_box(qtbot, window)
    assert db_path.name in box.text()
    box.close()
    settle(qtbot, window)
    assert window.feature(KernelDbFeature).panel.model.rowCount() == 0
    assert window.feature(KernelDbFeature).panel.count_label.text() == "The DB could not be read"


def test_the_panel_reads_the_db_when_it_is_first_shown(qtbot, make_window, tmp_path) -> None:
    db_path = tmp_path / "shown.db"
    export_workspace(WORKSPACE, db_path)
    window = make_window()
    window.feature(KernelDbFeature).panel.settings.setValue("kernel_db/path", str(db_path))
    window = make_window()  # a window remembering that DB
    assert (
        window.feature(KernelDbFeature).panel.model.rowCount() == 0
        and window.feature(KernelDbFeature).panel.count_label.text() == ""
    )
    with qtbot.waitSignal(window.feature(KernelDbFeature).panel.listed):
        window.feature(KernelDbFeature).dock.raise_()
    assert window.feature(KernelDbFeature).panel.model.rowCount() == len(
        open_document(WORKSPACE).document.summaries
    )


def test_a_newer_open_wins_and_cancel_keeps_the_document(qtbot, make_window) -> None:
    window = make_window(WORKSPACE)
    shown = window.selection.document
    window.open_path(H200_REPORT)
    qtbot.mouseClick(window.open_busy.cancel, Qt.MouseButton.LeftButton)
    assert not window.open_busy.isVisible()
    qtbot.waitUntil(lambda: not window.workers.busy, timeout=120_000)
    assert window.selection.document is shown
    window.open_path(H200_REPORT)
    open_and_settle(qtbot, window, WORKSPACE)
    qtbot.waitUntil(lambda: not window.workers.busy, timeout=120_000)
    assert window.selection.document.path == WORKSPACE
    open_and_settle(qtbot, window, H200_REPORT)
    assert window.selection.document.path == H200_REPORT
