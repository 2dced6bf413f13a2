"""The Timeline pane and an LLM's steps: a timeline with steps shows each step's calls and
time and lets the user pick one step's calls; for an LLM's workspace, Measure runs the steps
given beside it (``TimelineRequest.steps``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from nsys_support import make_export
from paths_support import DATA
from PySide6.QtWidgets import QMessageBox
from viewer_support import WAIT_MS, settle

from kernelscope.viewer.timeline import TimelineFeature
from kernelscope.viewer.widgets.roles import KeyRole, item_data


def test_a_timeline_with_steps_shows_each_steps_total_and_its_calls(
    qtbot, make_window, tmp_path: Path
) -> None:
    export = make_export(tmp_path / "serving.sqlite", 3 * 6, kernels=5, markers=True)
    window = make_window()
    panel = window.feature(TimelineFeature).panel
    assert window.open_path(export)
    settle(qtbot, window)
    steps = panel.timeline.step_shares()
    assert len(steps) == 3
    assert panel.step_box.isVisible()
    assert panel.step_box.itemText(0) == "All steps (3)"
    assert panel.tabs.isTabVisible(panel.tabs.indexOf(panel.steps_table))
    assert panel.step_shares.rowCount() == 3
    assert [panel.step_shares.rows[i].total_us for i in range(3)] == [s.total_us for s in steps]
    assert panel.calls.rowCount() == 15
    # a step chosen in the Steps tab: its calls only, its kernels' shares
    panel.tabs.setCurrentWidget(panel.steps_table)
    panel.steps_table.activated.emit(panel.steps_table.model().index(1, 0))
    chosen = steps[1].name
    assert panel.step_box.currentData() == chosen
    assert panel.tabs.currentWidget() is panel.calls_table
    calls = [item_data(panel.calls.index(r, 0), KeyRole) for r in range(panel.calls.rowCount())]
    assert len(calls) == 5 and {c.step for c in calls} == {chosen}
    assert sum(s.total_us for s in panel.kernel_shares.rows) == pytest.approx(steps[1].total_us)
    panel.choose_step(None)
    assert panel.calls.rowCount() == 15
    # a timeline without steps: no choice of steps, no Steps tab
    plain = make_export(tmp_path / "plain.sqlite", 10, kernels=5)
    assert window.open_path(plain)
    settle(qtbot, window)
    assert not panel.step_box.isVisible() and panel.step_box.count() == 0
    assert not panel.tabs.isTabVisible(panel.tabs.indexOf(panel.steps_table))


@pytest.mark.slow
def test_measure_on_an_llm_workspace_runs_the_steps_given(
    qtbot, make_window, tmp_path: Path, build_once
) -> None:
    from kernelscope.core.build import BuildRequest, build_in_child

    llama = build_in_child(
        BuildRequest(
            model=DATA / "models" / "llama_mlc.py", output=tmp_path / "llama.kscope", arch="sm_90"
        )
    )
    window = make_window()
    panel = window.feature(TimelineFeature).panel
    panel.set_workspace(build_once("small_cnn.onnx"))
    settle(qtbot, window)
    assert not panel.steps_edit.isVisible() and not panel.batch_box.isVisible()  # one pass
    panel.set_workspace(llama)
    settle(qtbot, window)
    assert panel.steps_edit.isVisible() and panel.batch_box.isVisible()
    assert panel.steps_edit.placeholderText() == "prefill=128,decode=32"
    panel.steps_edit.setText("prefill=x")
    panel.measure()  # refused by core before anything runs: the steps reached it
    qtbot.waitUntil(
        lambda: any(w.isVisible() for w in window.findChildren(QMessageBox)), timeout=WAIT_MS
    )
    box = next(w for w in window.findChildren(QMessageBox) if w.isVisible())
    assert "'prefill=x' is not prefill=N or decode=N" in box.text() + box.informativeText()
    box.close()
