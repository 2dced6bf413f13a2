"""The Timeline pane in a real window: an Nsight Systems export opened like any file, a
workspace's saved timeline coming up with it, the plot coloured by operator type and chosen
by clicking it, time shares per kernel and operator type, and what a machine without a GPU
says when asked to measure or profile (nothing left behind)."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from paths_support import DATA, data_path
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QMessageBox
from viewer_support import settle

from kernelscope.core.profiling import launch_sequence, profiling_problem
from kernelscope.core.timeline import Timeline, from_runner, timelines_dir
from kernelscope.viewer.app import palette
from kernelscope.viewer.timeline import TimelineFeature
from kernelscope.viewer.widgets.roles import KeyRole, item_data

NSYS_SMALL = DATA / "nsys" / "power_iteration_small.sqlite"
NO_GPU = profiling_problem() is not None


def runner_timeline(ws, durations: dict[str, float] | None = None) -> Timeline:  # noqa: ANN001
    """A timeline as the runner measures it, for this workspace's recorded calls."""
    start, calls = 0.0, []
    for i, prim in enumerate(ws.manifest.calls):
        kernels = [k.name for k in ws.manifest.kernels if k.primfunc == prim and k.launched]
        d = (durations or {}).get(kernels[0], 2.0 + i)
        calls.append(
            {"primfunc": prim, "kernels": kernels, "start_us": start, "duration_us": d,
             "min_us": d, "max_us": d, "raw_us": d + 1.3}
        )  # fmt: skip
        start += d + 0.1
    answer = {
        "device": "NVIDIA H200", "repeat": 10, "saturated": [True] * 10, "calls": calls,
        "plain_gpu_us": start, "plain_wall_ms": 0.1, "event_overhead_us": 1.3,
    }  # fmt: skip
    return from_runner(answer, ws, host="localhost")


@pytest.fixture()
def timed_ws(build_once, tmp_path: Path) -> Path:
    """The repeated-layers workspace (one kernel launched three times) with a saved timeline."""
    from kernelscope.core.workspace import Workspace

    path = tmp_path / "repeated.kscope"
    shutil.copytree(build_once("repeated_layers.py").path, path)
    ws = Workspace.open(path)
    runner_timeline(ws).save(timelines_dir(ws) / "timeline-1.json")
    return path


def _rows(model) -> list:  # noqa: ANN001
    return [item_data(model.index(r, 0), KeyRole) for r in range(model.rowCount())]


def _visible_box(qtbot, window) -> QMessageBox:  # noqa: ANN001
    qtbot.waitUntil(
        lambda: any(w.isVisible() for w in window.findChildren(QMessageBox)), timeout=120_000
    )
    return next(w for w in window.findChildren(QMessageBox) if w.isVisible())


def test_an_nsys_export_opens_in_the_timeline_pane(qtbot, qtmodeltester, make_window) -> None:
    window = make_window()
    panel = window.feature(TimelineFeature).panel
    assert panel.plot is None  # pyqtgraph waits for the first timeline
    assert window.open_path(NSYS_SMALL)
    settle(qtbot, window)
    assert panel.timeline is not None and panel.timeline.source == "nsys"
    assert window.selection.document is None  # a timeline is not a document
    assert (
        window.feature(TimelineFeature).dock.isVisible()
        and not window.feature(TimelineFeature).dock.visibleRegion().isEmpty()
    )
    for model in (panel.calls, panel.kernel_shares, panel.op_shares):
        qtmodeltester.check(model)
    assert panel.calls.rowCount() == 60
    top = _rows(panel.kernel_shares)[0]
    assert top.name == "gemv2T_kernel_val" and top.calls == 7
    assert "95.1%" in panel.kernel_shares.index(0, 3).data()
    assert "Tesla T4" in panel.title.text() and "60 calls of 10 kernels" in panel.title.text()
    # the longest call is chosen first; no operator types: coloured by kernel
    chosen = panel.current_call()
    assert chosen == max(panel.timeline.calls, key=lambda c: c.duration_us).index
    assert panel.plot is not None and panel.plot.chosen_index == chosen
    assert "gemv2T_kernel_val 95%" in panel.plot.legend.text()
    # an Nsight Systems trace is another program's run: nothing to profile from it
    assert not panel.profile_button.isEnabled()
    assert "Measure" in panel.profile_button.toolTip()


def test_sorting_the_calls_keeps_the_chosen_call_and_shares_show_the_most_time_first(
    qtbot, make_window
) -> None:
    """The tables sort themselves (no proxy calling back into Python per comparison: a
    million-call export took minutes to show): a header click sorts the calls, the chosen
    call stays chosen, "#" gives the pass's order back; the kernels' shares come most time
    first, as ``kernelscope timeline`` prints them."""
    window = make_window()
    panel = window.feature(TimelineFeature).panel
    assert window.open_path(NSYS_SMALL)
    settle(qtbot, window)
    chosen = panel.current_call()
    table = panel.calls_table
    assert [c.index for c in _rows(panel.calls)] == list(range(60))  # by "#", as measured
    header = table.horizontalHeader()
    at = QPoint(header.sectionViewportPosition(2) + header.sectionSize(2) // 2, 5)
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=at)  # "Time µs"
    if header.sortIndicatorOrder() == Qt.SortOrder.AscendingOrder:  # then descending
        qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=at)
    assert header.sortIndicatorSection() == 2
    times = [c.duration_us for c in _rows(panel.calls)]
    assert times == sorted(times, reverse=True)
    assert panel.current_call() == chosen == _rows(panel.calls)[0].index  # the longest, kept
    table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
    assert [c.index for c in _rows(panel.calls)] == list(range(60))
    assert panel.current_call() == chosen
    totals = [s.total_us for s in _rows(panel.kernel_shares)]
    assert totals == sorted(totals, reverse=True)


def test_an_sqlite_file_that_is_not_an_nsys_export_is_refused(
    qtbot, make_window, tmp_path: Path
) -> None:
    other = tmp_path / "kernels.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE KernelCache (Key TEXT PRIMARY KEY, Source TEXT)")
    window = make_window()
    window.open_path(NSYS_SMALL)
    settle(qtbot, window)
    window.open_path(other)
    box = _visible_box(qtbot, window)
    assert "not an Nsight Systems export" in box.text() + box.informativeText()
    assert window.feature(TimelineFeature).panel.timeline.origin == str(
        NSYS_SMALL
    )  # the one shown stays
    box.close()


def test_a_workspace_brings_its_saved_timeline(qtbot, qtmodeltester, make_window, timed_ws) -> None:
    window = make_window(timed_ws)
    panel = window.feature(TimelineFeature).panel
    qtbot.waitUntil(lambda: panel.timeline is not None)
    assert panel.timeline.source == "runner" and len(panel.timeline.calls) == 8
    assert window.hot_dock.isVisible()  # the pane comes up behind the hot lines
    for model in (panel.calls, panel.kernel_shares, panel.op_shares):
        qtmodeltester.check(model)
    ops = {s.name: s for s in _rows(panel.op_shares)}
    assert ops["matmul"].calls == 4 and ops["permute_dims"].calls == 4
    kernels = {s.name: s for s in _rows(panel.kernel_shares)}
    assert kernels["fused_matmul_add_relu_kernel"].calls == 3
    assert "1.30 µs event cost taken off each call" in panel.title.text()
    assert "matmul" in panel.plot.legend.text() and "permute_dims" in panel.plot.legend.text()
    assert panel.measure_button.isEnabled() and panel.profile_button.isEnabled()


def test_clicking_a_bar_chooses_its_call(qtbot, make_window, timed_ws) -> None:
    window = make_window(timed_ws)
    panel = window.feature(TimelineFeature).panel
    window.feature(TimelineFeature).show()
    qtbot.waitUntil(lambda: panel.plot is not None and panel.timeline is not None)
    call = panel.timeline.calls[2]
    plot = panel.plot.plot
    view = plot.getPlotItem().vb
    end = panel.timeline.calls[-1].end_us
    qtbot.waitUntil(lambda: view.sceneBoundingRect().width() > 50 and view.viewRange()[0][1] >= end)
    scene = view.mapViewToScene(QPointF(call.start_us + call.duration_us / 2, 0.5))
    pos = plot.mapFromScene(scene)
    qtbot.mouseClick(plot.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(pos.x(), pos.y()))
    qtbot.waitUntil(lambda: panel.current_call() == 2)
    assert panel.plot.chosen_index == 2
    assert panel.calls_table.currentIndex().data() == "2"


def test_the_plot_follows_the_palette(qtbot, make_window, timed_ws) -> None:
    app = QApplication.instance()
    window = make_window(timed_ws)
    panel = window.feature(TimelineFeature).panel
    qtbot.waitUntil(lambda: panel.plot is not None)
    old = app.palette()
    try:
        for name in ("dark", "light"):
            app.setPalette(palette(name))
            base = palette(name).color(QPalette.ColorRole.Base)
            qtbot.waitUntil(lambda base=base: panel.plot.plot.backgroundBrush().color() == base)
            text = palette(name).color(QPalette.ColorRole.Text)
            assert panel.plot.plot.getAxis("bottom").textPen().color() == text
    finally:
        app.setPalette(old)
    assert panel.plot.chosen_index is not None  # the chosen call survives a restyle


@pytest.mark.skipif(not NO_GPU, reason="this machine can profile")
def test_profile_this_kernel_here_without_a_gpu_says_where_to(qtbot, make_window, timed_ws) -> None:
    window = make_window(timed_ws)
    panel = window.feature(TimelineFeature).panel
    qtbot.waitUntil(lambda: panel.timeline is not None)
    panel.choose_call(3)
    panel.profile_button.click()
    box = _visible_box(qtbot, window)
    text = box.text() + box.informativeText()
    assert "cannot profile on this machine" in text and "user@gpu-box" in text
    settle(qtbot, window)
    assert not (timed_ws / "profiles").exists() or not list((timed_ws / "profiles").iterdir())
    assert panel.job is None and panel.profile_button.isEnabled()
    box.close()


@pytest.mark.skipif(not NO_GPU, reason="this machine has a GPU")
def test_measuring_here_without_a_gpu_is_explained_and_saves_nothing(
    qtbot, make_window, timed_ws
) -> None:
    from kernelscope.core.workspace import Workspace

    window = make_window(timed_ws)
    panel = window.feature(TimelineFeature).panel
    qtbot.waitUntil(lambda: panel.timeline is not None)
    shown = panel.timeline
    window.action("measure_timeline").trigger()
    assert panel.job is not None and not panel.measure_button.isEnabled()
    box = _visible_box(qtbot, window)
    text = box.text() + box.informativeText()
    assert "could not be measured on this machine" in text and "--host" in text
    settle(qtbot, window)
    assert panel.timeline is shown  # what was on screen stays
    assert [p.name for p in timelines_dir(Workspace.open(timed_ws)).iterdir()] == [
        "timeline-1.json"
    ]
    assert launch_sequence(Workspace.open(timed_ws)) is not None
    box.close()


def test_an_nsys_report_without_nsys_says_what_to_do(
    qtbot, make_window, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KERNELSCOPE_NSYS", str(tmp_path / "no-nsys"))
    report = tmp_path / "run.nsys-rep"
    report.write_bytes(b"not read without nsys")
    window = make_window()
    window.open_path(report)
    box = _visible_box(qtbot, window)
    text = box.text() + box.informativeText()
    assert "needs Nsight Systems' nsys" in text and "nsys export --type sqlite" in text
    settle(qtbot, window)
    assert window.feature(TimelineFeature).panel.timeline is None
    assert report.read_bytes() == b"not read without nsys"
    box.close()


def test_the_pane_says_measure_needs_a_gpu_before_it_is_pressed(qtbot, make_window) -> None:
    """Issue 19: where Measure runs (this machine's GPU or an SSH host) is said up front."""
    window = make_window()
    panel = window.feature(TimelineFeature).panel
    assert "needs a GPU" in panel.title.text() and "SSH host" in panel.title.text()
    assert "NVIDIA GPU" in panel.measure_button.toolTip()
    assert "SSH host" in panel.where.toolTip()
    assert all(panel.calls_table.isColumnHidden(c) for c in panel.calls.NCU_COLUMNS)


def test_each_call_shows_ncus_duration_from_a_whole_pass_report(
    qtbot, qtmodeltester, make_window, tmp_path: Path
) -> None:
    """Issue 19: a report of the workspace that profiled a whole pass (real H200 data, three
    passes: the last is taken) gives each call ncu's duration and the difference, and the
    title how far they agree; the columns stay hidden while no report has the pass."""
    from kernelscope.core.timeline import TimelineCall

    ws = tmp_path / "cnn3_b8.kscope"
    shutil.copytree(data_path("compare/cnn3_b8.kscope"), ws)
    (ws / "profiles").mkdir()
    shutil.copy(data_path("compare/cnn3_b8_3passes.ncu-rep"), ws / "profiles" / "passes.ncu-rep")
    names = ["fused_conv2d_add_relu_kernel", "fused_conv2d1_add1_relu1_kernel",
             "max_pool2d_kernel", "fused_conv2d2_add2_relu2_kernel", "mean_kernel",
             "transpose_kernel", "fused_matmul_add3_kernel"]  # fmt: skip
    calls, start = [], 0.0
    for i, (name, d) in enumerate(zip(names, [13.0, 90.0, 5.7, 94.0, 3.0, 2.4, 6.1], strict=True)):
        calls.append(TimelineCall(index=i, kernels=[name], start_us=start, duration_us=d))
        start += d
    timeline = Timeline(source="runner", origin=str(ws), device="NVIDIA H200", calls=calls)
    timeline.save(ws / "timelines" / "t.json")
    window = make_window(ws)
    panel = window.feature(TimelineFeature).panel
    qtbot.waitUntil(lambda: panel.agreement is not None, timeout=60_000)
    qtmodeltester.check(panel.calls)
    assert "against ncu (passes.ncu-rep)" in panel.title.text()
    assert "6 of 7 calls within 0.5 µs" in panel.title.text()
    ncu, diff = panel.calls.NCU_COLUMNS
    assert not panel.calls_table.isColumnHidden(ncu)
    header = [panel.calls.headerData(c, Qt.Orientation.Horizontal) for c in (ncu, diff)]
    assert header == ["ncu µs", "Δ µs"]
    row = next(r for r in range(panel.calls.rowCount()) if panel.calls.rows[r].index == 1)
    assert panel.calls.index(row, ncu).data() == "90.34"
    assert panel.calls.index(row, diff).data() == "-0.336"  # as ``kernelscope timeline`` says
    panel.show_timeline(None)
    assert panel.calls_table.isColumnHidden(ncu)
