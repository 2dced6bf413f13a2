"""The Kernel DB panel shows where each row's schedule came from: a Schedule column (default,
or tuned with how many trials), the whole provenance in its tooltip and in the detail."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from paths_support import DATA
from PySide6.QtCore import Qt
from viewer_support import settle

from kernelscope.core.kernel_db import export_workspace
from kernelscope.viewer.kernel_db import KernelDbFeature
from kernelscope.viewer.kernel_db.model import SCHEDULE

OLD_DB = DATA / "kernel_db" / "schema1_before_tuning.db"  # written before ks_tuning existed


@pytest.mark.slow
def test_the_panel_shows_tuned_and_default_schedules(
    qtbot, make_window, tuned_ws, tmp_path: Path
) -> None:
    db_path = tmp_path / "kernels.db"
    export_workspace(tuned_ws, db_path)
    window = make_window(tuned_ws.path)
    panel = window.feature(KernelDbFeature).panel
    with qtbot.waitSignal(panel.listed, timeout=30_000):
        panel.set_path(db_path)
    model = panel.model
    assert model.headerData(SCHEDULE, Qt.Orientation.Horizontal) == "Schedule"
    shown = {
        model.entry(r).kernel_name: (
            model.data(model.index(r, SCHEDULE)),
            model.tooltip(model.entry(r), SCHEDULE),
        )
        for r in range(model.rowCount())
    }
    tuned = next(k.name for k in tuned_ws.manifest.kernels if k.tuned is not None)
    text, tip = shown.pop(tuned)
    assert text.startswith("tuned ") and text.endswith(" trials")
    assert tip.startswith("tuned: ") and "best 96 µs on sm_90 (MetaSchedule, from " in tip
    assert {t for t, _ in shown.values()} == {"default"}
    assert all(t.startswith("default schedule (no record for it in ") for _, t in shown.values())

    row = next(r for r in range(model.rowCount()) if model.entry(r).kernel_name == tuned)
    with qtbot.waitSignal(panel.detail_shown):
        panel.table.selectRow(panel.proxy.mapFromSource(model.index(row, 0)).row())
    assert "Schedule: tuned: " in panel.info.text()
    settle(qtbot, window)


def test_a_db_written_before_schedules_were_recorded_lists_them_as_not_recorded(
    qtbot, make_window, tmp_path: Path
) -> None:
    old = tmp_path / "old.db"
    shutil.copy(OLD_DB, old)
    window = make_window()
    panel = window.feature(KernelDbFeature).panel
    with qtbot.waitSignal(panel.listed, timeout=30_000):
        panel.set_path(old)
    model = panel.model
    assert model.rowCount() == 1
    assert model.data(model.index(0, SCHEDULE)) == ""
    assert model.tooltip(model.entry(0), SCHEDULE).startswith("not recorded")
    with qtbot.waitSignal(panel.detail_shown):
        panel.table.selectRow(0)
    assert "Schedule:" not in panel.info.text()
    settle(qtbot, window)
