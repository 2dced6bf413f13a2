"""The Details pane, the roofline plot and the headroom list in the window (issue 10), driven
by clicks and the selection: the numbers NVIDIA's reader gives with their descriptions, every
stall reason of the chosen line and instruction, rule markers that jump, missing sections with
their flags, a roofline whose points select kernels, a sortable headroom list, never-launched
kernels dimmed and last, and screenshots of the panes."""

from __future__ import annotations

import html
import math
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from details_support import (
    MATMUL,
    REPORT,
    RESHAPE,
    SMALL_SECTIONS,
    SOFTMAX,
    WS_MLP,
    unlaunched_workspace,
)
from ncu_support import MLP, SMALL, profile_threads
from PySide6.QtCore import QEvent, QPoint, Qt, QUrl
from PySide6.QtGui import QColor, QHelpEvent, QImage, QPalette
from PySide6.QtWidgets import QApplication, QToolTip
from viewer_support import click_row, open_and_settle, settle

from kernelscope.core.cli import main as cli
from kernelscope.core.ncu import Profile, kernel_details, stall_breakdown
from kernelscope.core.roofline import roofline
from kernelscope.core.view import open_document, read_headroom
from kernelscope.core.view.session import PROFILE_THREAD
from kernelscope.viewer.app import run
from kernelscope.viewer.details import DetailsFeature
from kernelscope.viewer.details.details_pane import metric_rows, metric_tooltip, stall_rows
from kernelscope.viewer.details.headroom_panel import SAVINGS, HeadroomModel
from kernelscope.viewer.widgets.roles import KeyRole, item_data
from kernelscope.viewer.widgets.sorting import SortLastRole


def _choose_kernel(qtbot, window, name: str) -> None:
    table = window.kernels.table
    rows = [item_data(table.model().index(r, 0), KeyRole) for r in range(table.model().rowCount())]
    click_row(qtbot, table, rows.index(name))
    settle(qtbot, window)
    assert window.selection.kernel.name == name
    assert window.feature(DetailsFeature).details_pane.details.kernel == name


def _links(text: str) -> list[str]:
    return re.findall(r'href="([^"]+)"', text)


def test_details_follow_the_kernel_and_every_number_has_its_description(qtbot, make_window):
    window = make_window(REPORT)
    window.action("show_details").trigger()  # closed until asked for
    settle(qtbot, window)
    pane = window.feature(DetailsFeature).details_pane
    _choose_kernel(qtbot, window, MATMUL)
    truth = kernel_details(Profile.open(REPORT), MATMUL)
    assert pane.title.text() == MATMUL
    sol = truth.view("sol")
    assert [(r.label, r.text) for r in pane.sol_rows.rows] == [
        (m.label, m.text()) for m in sol.rows
    ], "the numbers NVIDIA's reader returns, as ncu prints them"
    assert [r.tooltip for r in pane.sol_rows.rows] == [metric_tooltip(m) for m in sol.rows]
    described = [m for v in truth.views for m in v.rows if m.description]
    assert len(described) > 40
    shown = {r.tooltip for chart in pane.findChildren(type(pane.sol_rows)) for r in chart.rows}
    for m in described:
        assert any(html.escape(m.description).replace("\n", "<br>") in t for t in shown), m.name
    # the tooltip is what hovering a row shows
    chart = pane.sol_rows
    y = chart.row_height() * 2 + 2
    event = QHelpEvent(QEvent.Type.ToolTip, QPoint(5, y), chart.mapToGlobal(QPoint(5, y)))
    QApplication.sendEvent(chart, event)
    assert QToolTip.text() == chart.rows[2].tooltip
    assert sol.rows[2].description.splitlines()[0] in QToolTip.text()
    QToolTip.hideText()
    # another kernel, then back: the second time comes from the pane's cache, at once
    _choose_kernel(qtbot, window, SOFTMAX)
    assert pane.title.text() == SOFTMAX
    table = window.kernels.table
    rows = [item_data(table.model().index(r, 0), KeyRole) for r in range(table.model().rowCount())]
    click_row(qtbot, table, rows.index(MATMUL))
    assert pane.details.kernel == MATMUL and not pane.busy, "shown without reading again"
    assert [r.text for r in pane.occupancy_rows.rows][:2] == ["50.00 %", "6.25 %"]
    limiter = next(r for r in pane.occupancy_rows.rows if r.label == "Occupancy Limiter")
    assert limiter.text == "Registers"
    # the occupancy curves are plots, once pyqtgraph has loaded in the background
    settle(qtbot, window)
    curves = truth.view("occupancy").curves
    assert [p.curve.points for p in pane._curve_plots] == [c.points for c in curves]
    assert all(p.isVisible() for p in pane._curve_plots)


def test_the_chosen_line_and_instruction_show_every_stall_reason(qtbot, make_window):
    window = make_window(REPORT)
    window.action("show_details").trigger()  # closed until asked for
    settle(qtbot, window)
    pane = window.feature(DetailsFeature).details_pane
    _choose_kernel(qtbot, window, MATMUL)
    kernel = window.selection.kernel
    counts = kernel.file_metrics(kernel.main_file)
    line = max(counts, key=lambda n: counts[n].get("# Samples", 0.0))
    indices = kernel.instructions_at(kernel.main_file, line)
    window.sass.show_row(window.sass.model.rowCount() - 1, center=True)  # SASS scrolled away
    click_row(qtbot, window.source.table, line - 1, window.source.model.code_column)
    assert window.selection.line == line
    breakdown = stall_breakdown([kernel.instruction_metrics[i] for i in indices])
    assert len(breakdown.reasons) > 3, "all reasons, not the top one"
    assert pane.line_stalls.rows == stall_rows(
        breakdown, f"line {line} ({len(indices)} instructions)"
    )
    assert f"Line {line} of" in pane.line_caption.text()
    # the SASS pane brought the line's hottest instruction into view, and the pane charts it
    hottest = window.selection.focus_instruction()
    first, last = window.sass.table.visible_rows()
    assert first <= hottest <= last and window.sass.current_row() == hottest
    one = stall_breakdown([kernel.instruction_metrics[hottest]])
    assert [r.label for r in pane.insn_stalls.rows] == [r.label for r in stall_rows(one, "")]
    assert "hottest instruction" in pane.insn_caption.text()
    # an instruction chosen in the SASS pane: its own reasons
    other = next(i for i in indices if i != hottest and any(kernel.instruction_metrics[i]))
    click_row(qtbot, window.sass.table, other, window.sass.model.code_column)
    assert window.selection.instruction == other
    mine = stall_breakdown([kernel.instruction_metrics[other]])
    assert [(r.label, r.text) for r in pane.insn_stalls.rows] == [
        (r.label, r.text) for r in stall_rows(mine, "")
    ]
    assert f"Instruction {kernel.instructions[other].offset:#06x}" in pane.insn_caption.text()


def test_rules_show_speedups_and_their_markers_jump(qtbot, make_window):
    window = make_window(REPORT)
    window.action("show_details").trigger()  # closed until asked for
    settle(qtbot, window)
    pane = window.feature(DetailsFeature).details_pane
    _choose_kernel(qtbot, window, MATMUL)
    kernel, details = window.selection.kernel, pane.details
    speedups = [r.speedup_pct for r in pane._rules if r.kind == "OPT" and r.speedup_pct]
    assert speedups == sorted(speedups, reverse=True), "largest estimated speedup first"
    rules = pane.rules_text
    uncoalesced = next(i for i, r in enumerate(pane._rules) if r.rule == "UncoalescedGlobalAccess")
    text = pane._rule_html(uncoalesced)
    assert text in pane.rules_html and "est. speedup <b>12.0%</b>" in text
    assert "est. speedup 12.0%" in rules.toPlainText()
    links = [link for link in _links(text) if link.startswith("marker:")]
    markers = [details.markers[int(link.split(":")[1])] for link in links]
    sass = next(link for link, m in zip(links, markers, strict=True) if m.offset is not None)
    rules.anchorClicked.emit(QUrl(sass))
    offset = details.markers[int(sass.split(":")[1])].offset
    assert kernel.instructions[window.selection.instruction].offset == offset
    assert window.sass.current_row() == window.selection.instruction
    source = next(link for link, m in zip(links, markers, strict=True) if m.line)
    rules.anchorClicked.emit(QUrl(source))
    assert window.selection.line == details.markers[int(source.split(":")[1])].line
    assert window.source.current_row() == window.selection.line - 1
    # a long message shows its first sentence until asked for all of it
    rule = pane._rules[0]
    assert rule.message not in rules.toPlainText()
    more = next(link for link in _links(pane._rule_html(0)) if link.startswith("more:"))
    rules.anchorClicked.emit(QUrl(more))
    assert rule.message.replace("\n", " ") in rules.toPlainText().replace("\n", " ")


def test_what_a_view_lacks_is_said_with_the_flag_that_collects_it(qtbot, make_window):
    window = make_window(SMALL_SECTIONS)  # SpeedOfLight, LaunchStats, Occupancy, ... only
    window.action("show_details").trigger()  # closed until asked for
    settle(qtbot, window)
    pane = window.feature(DetailsFeature).details_pane
    assert pane.details is not None
    banner = pane.banner.text()
    assert pane.banner.isVisible()
    assert "MemoryWorkloadAnalysis" in banner and "--section MemoryWorkloadAnalysis" in banner
    assert "--section MemoryWorkloadAnalysis" in pane.sections["memory"].note.text()
    assert pane.sections["sol"].note.text() == ""
    # CSV exports without the raw page: the pane points to it
    open_and_settle(qtbot, window, [MLP / "details.csv", MLP / "source_cuda_sass.csv"])
    notes = " ".join(s.note.text() for s in pane.sections.values())
    assert "--page raw" in notes
    # a workspace without a profile: where the numbers would come from
    open_and_settle(qtbot, window, WS_MLP)
    assert pane.message.isVisible() and "no Nsight Compute profile" in pane.message.text()
    window.feature(DetailsFeature).show_pane("roofline")
    settle(qtbot, window)
    assert (
        "no Nsight Compute profile"
        in window.feature(DetailsFeature).roofline_panel.placeholder.text()
    )


def test_the_roofline_places_every_kernel_and_a_click_selects_one(qtbot, make_window):
    window = make_window(REPORT)
    window.action("show_roofline").trigger()  # closed until asked for
    settle(qtbot, window)
    panel = window.feature(DetailsFeature).show_pane("roofline")
    settle(qtbot, window)
    plot = panel.plot
    assert plot is not None and plot.isVisible()
    truth = roofline(Profile.open(REPORT))
    plotted = [p for p in truth.points if p.plottable]
    assert set(plot.spots) == {p.kernel for p in plotted}
    for p in plotted:
        x, y = plot.spots[p.kernel]
        assert x == pytest.approx(math.log10(p.intensity("dram")))
        assert y == pytest.approx(math.log10(p.flops_per_s))
    target = next(p.kernel for p in plotted if p.kernel != window.selection.kernel.name)
    qtbot.mouseClick(plot.viewport(), Qt.MouseButton.LeftButton, pos=plot.point_position(target))
    qtbot.waitUntil(lambda: window.selection.kernel.name == target)
    settle(qtbot, window)
    assert plot._selected == target
    panel.scope.setCurrentIndex(1)  # the selected kernel's launches
    assert "launches on the roofline" in panel.caption.text()
    assert {q.kernel for q in plot._points} == {target}


def test_headroom_list_sorts_by_savings_and_keeps_never_launched_last(
    qtbot, qtmodeltester, make_window, tmp_path: Path
):
    ws = unlaunched_workspace(tmp_path, profiled=True)
    window = make_window(ws)
    panel = window.feature(DetailsFeature).show_pane("headroom")
    settle(qtbot, window)
    truth = read_headroom(open_document(ws))
    qtmodeltester.check(panel.model)
    proxy = panel.proxy
    names = [item_data(proxy.index(r, 0), KeyRole) for r in range(proxy.rowCount())]
    assert names == [r.kernel for r in truth.rows], "most savings first, never launched last"
    savings = [r.savings_ns for r in truth.rows if r.launched]
    assert savings == sorted(savings, reverse=True)
    assert "above the operator-bound ideal" in panel.caption.text()
    assert "upper bound on what tuning could save" in panel.caption.text()
    for order in (Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder):
        panel.table.sortByColumn(0, order)
        assert item_data(proxy.index(proxy.rowCount() - 1, 0), KeyRole) == RESHAPE
    assert proxy.data(proxy.index(proxy.rowCount() - 1, SAVINGS)) == "-"
    index = proxy.index(0, 0)
    panel.table.activated.emit(index)
    settle(qtbot, window)
    assert window.selection.kernel.name == item_data(index, KeyRole)
    model = HeadroomModel()
    qtmodeltester.check(model)


def test_the_live_report_is_read_on_one_thread_while_kernels_switch_fast(
    qtbot, make_window, tmp_path: Path, monkeypatch
):
    """Kernels chosen one after the other without waiting while the Details, the roofline and
    the headroom list are computed: every read of the live report runs on the profile thread
    (none on the window's job lanes), and what shows is the last kernel's."""
    window = make_window(unlaunched_workspace(tmp_path, profiled=True))
    touched = profile_threads(monkeypatch)
    window.action("show_details").trigger()
    window.feature(DetailsFeature).show_pane("roofline")
    window.feature(DetailsFeature).show_pane("headroom")
    table = window.kernels.table
    rows = table.model().rowCount()
    for _ in range(3):
        for row in [*range(rows), *reversed(range(rows))]:
            click_row(qtbot, table, row)  # no waiting: each one replaces the one before
    settle(qtbot, window)
    assert touched, "the report was read"
    assert set().union(*touched.values()) == {PROFILE_THREAD}
    chosen = window.selection.kernel.name
    assert window.feature(DetailsFeature).details_pane.details.kernel == chosen
    assert window.feature(DetailsFeature).headroom_panel.model.rowCount(), (
        "the headroom list, shown last, is there"
    )


@pytest.mark.parametrize("profiled", [False, True])
def test_kernels_never_launched_are_dimmed_and_last(qtbot, make_window, tmp_path, profiled):
    window = make_window(unlaunched_workspace(tmp_path, profiled=profiled))
    window.action("show_details").trigger()
    table = window.kernels.table
    model = table.model()
    last = model.index(model.rowCount() - 1, 0)
    assert item_data(last, KeyRole) == RESHAPE and item_data(last, SortLastRole)
    disabled = QApplication.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
    assert item_data(last, Qt.ItemDataRole.ForegroundRole) == disabled
    assert item_data(model.index(0, 0), Qt.ItemDataRole.ForegroundRole) is None
    assert "never launched" in item_data(last, Qt.ItemDataRole.ToolTipRole)
    for order in (Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder):
        table.sortByColumn(0, order)
        assert item_data(model.index(model.rowCount() - 1, 0), KeyRole) == RESHAPE
    click_row(qtbot, table, model.rowCount() - 1)
    settle(qtbot, window)
    assert window.selection.kernel.name == RESHAPE
    if profiled:
        assert "never launched" in window.feature(DetailsFeature).details_pane.message.text()


def test_pyqtgraph_loads_only_when_a_plot_is_first_shown() -> None:
    code = textwrap.dedent(
        f"""
        import sys
        from PySide6.QtCore import QEventLoop, QTimer
        from kernelscope.viewer.app import application
        from kernelscope.viewer.details import DetailsFeature
        from kernelscope.viewer.main_window import MainWindow
        app = application()
        window = MainWindow(restore_layout=False)
        window.show()
        def wait():
            loop = QEventLoop()
            timer = QTimer()
            timer.timeout.connect(lambda: None if window.busy else loop.quit())
            timer.start(20)
            loop.exec()
        window.open_path({str(WS_MLP)!r})
        wait()
        print("pyqtgraph" in sys.modules)
        window.open_path({str(REPORT)!r})  # its Details plot the occupancy curves
        wait()
        print("pyqtgraph" in sys.modules)  # the Details dock is closed: nothing plotted yet
        details = window.feature(DetailsFeature)
        details.show_pane("details")
        wait()
        print("pyqtgraph" in sys.modules, len(details.details_pane._curve_plots))
        window.close()
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300
    ).stdout.split()
    assert out == ["False", "False", "True", "3"]


@pytest.mark.parametrize("palette", ["light", "dark"])
@pytest.mark.parametrize("pane", ["details", "roofline"])
def test_screenshots_of_the_panes_are_not_blank(qapp, tmp_path: Path, pane: str, palette: str):
    out = tmp_path / f"{pane}-{palette}.png"
    if pane == "roofline":  # as a user types it
        argv = ["--screenshot", str(out), str(REPORT), "--kernel", "matmul1", "--pane", pane]
        assert cli.main([*argv, "--palette", palette]) == 0
    else:
        assert (
            run(str(REPORT), screenshot_to=str(out), kernel="matmul1", pane=pane, palette=palette)
            == 0
        )
    image = QImage(str(out))
    assert image.width() > 300 and image.height() > 300
    colours = {
        image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)
    }
    assert len(colours) > 50, "text, bars and lines, not an empty pane"
    corner = image.pixelColor(image.width() - 3, image.height() - 3)
    assert (corner.lightness() < 100) == (palette == "dark")
    wanted = QColor(230, 110, 40) if pane == "details" else QColor(31, 119, 180)  # bar, DRAM roof
    assert any(
        _close(image.pixelColor(x, y), wanted)
        for x in range(0, image.width(), 2)
        for y in range(0, image.height(), 2)
    )


def _close(a: QColor, b: QColor) -> bool:
    return abs(a.red() - b.red()) + abs(a.green() - b.green()) + abs(a.blue() - b.blue()) < 30


def test_metric_rows_put_zeros_together_and_bar_percentages() -> None:
    details = kernel_details(Profile.open(REPORT), MATMUL)
    parts = details.view("sol").groups["compute"]
    rows = metric_rows(parts, details.source, zeros=False)
    zeros = [m for m in parts if m.value == 0]
    assert zeros and rows[-1].label == f"{len(zeros)} more at 0" and rows[-1].fraction is None
    nonzero = [m for m in parts if m.value != 0]
    for r, m in zip(rows[:-1], nonzero, strict=True):
        assert r.fraction == pytest.approx(float(m.value) / 100) and r.text == m.text()


def test_one_launch_of_a_kernel_launched_twice(qtbot, make_window):
    report = SMALL / "lineinfo.ncu-rep"
    window = make_window(report)
    window.action("show_details").trigger()  # closed until asked for
    pane = window.feature(DetailsFeature).details_pane
    _choose_kernel(qtbot, window, "scale")
    box = pane.launch_box
    assert box.isVisible() and [box.itemText(i) for i in range(box.count())] == [
        "All 2 launches",
        "Launch 0",
        "Launch 2",
    ]
    assert "2 launches combined" in pane.summary.text()
    box.setCurrentIndex(2)
    settle(qtbot, window)
    truth = kernel_details(Profile.open(report), "scale", launch=2)
    assert pane.details.launch_ids == [2] and "launch 2" in pane.summary.text()
    assert [r.text for r in pane.sol_rows.rows] == [m.text() for m in truth.view("sol").rows]
    _choose_kernel(qtbot, window, "row_sum")  # one launch: nothing to choose
    assert not box.isVisible()


def test_cli_and_window_show_one_headroom_figure_the_same(
    qtmodeltester, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every µs figure reads by one rule (``format_us``): a kernel's measured, roofline,
    operator and savings times are the same strings in ``kernelscope details`` and in the
    window's headroom list."""
    ws = unlaunched_workspace(tmp_path, profiled=True)
    assert cli.main(["details", str(REPORT), "-w", str(ws)]) == 0
    table = capsys.readouterr().out.split("\n\n")[0].splitlines()[1:]
    printed = {cells[0].strip("()"): cells[2:6] for cells in (line.split() for line in table)}
    model = HeadroomModel()
    model.set_headroom(read_headroom(open_document(ws)))
    qtmodeltester.check(model)
    titles = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    order = [titles.index(t) for t in ("Measured µs", "Roofline µs", "Operator µs", "Savings µs")]
    shown = {
        model.data(model.index(r, 0)): [model.data(model.index(r, c)) for c in order]
        for r in range(model.rowCount())
    }
    assert shown == printed
    assert any("." in figure for row in shown.values() for figure in row)
