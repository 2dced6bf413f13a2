"""What a real window's layout must keep (issue 19): docks that hold their width while kernels
load and compare mode starts, the kernel list's time (or change and ratio) beside the names
without scrolling, numbers whole in their columns, a hot line's ``:line`` kept when its file
name is cut, the Details pane scrolling sideways in a narrow dock instead of cutting values
off, a report opened alone leaving the build's counts blank, and compare mode's times once.

Issue 30: the code itself on screen at 1280x720 whatever dock is open (60 characters of code
and 15 lines in each code pane), the code near the pane's left edge (one narrow metric column
by default, the others chosen from the header's menu and remembered), an old saved layout
not restored, the roofline's labels inside the plot."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from paths_support import DATA, H200_REPORT, data_path
from PySide6.QtCore import QPoint, QRect, QRectF, QSettings, Qt
from PySide6.QtWidgets import QDockWidget, QMenu, QStyleOptionViewItem, QTableView, QWidget
from viewer_support import settle

from kernelscope.core.ncu import TIME_US, label_of
from kernelscope.core.view import SASS_COUNT
from kernelscope.core.workspace import Workspace
from kernelscope.viewer.code.code_pane import CodePane
from kernelscope.viewer.compare import CompareFeature
from kernelscope.viewer.compare.controller import metric_key
from kernelscope.viewer.compare.diff_pane import BASE_VALUE, DELTA, NEW_VALUE
from kernelscope.viewer.compare.kernel_columns import DELTA_TITLE
from kernelscope.viewer.details import DetailsFeature
from kernelscope.viewer.main_window import MainWindow
from kernelscope.viewer.widgets.bars import RowChart
from kernelscope.viewer.widgets.roles import KeyRole, item_data

ALONE = H200_REPORT  # no workspace: its own SASS and sources
PAIRS = data_path("compare")
NEW, BASE = PAIRS / "cnn3_b2.ncu-rep", PAIRS / "cnn3_b8_run1.ncu-rep"
MLP = data_path("ncu/mlp/mlp.ncu-rep")
THREAD_INSTRUCTIONS = label_of("thread_inst_executed_true")  # per line: up to 8 digits here


def _titles(table: QTableView) -> list[str]:
    model = table.model()
    return [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]


def _on_screen(table: QTableView, column: int) -> bool:
    """The column is whole inside the table's viewport (no sideways scrolling needed)."""
    header = table.horizontalHeader()
    left = header.sectionViewportPosition(column)
    return left >= 0 and left + header.sectionSize(column) <= table.viewport().width()


def _choose_each_kernel(qtbot, window) -> Iterator[str]:
    """Show each kernel of the list in turn, yielding its name once it is on screen."""
    table = window.kernels.table
    names = [item_data(table.model().index(r, 0), KeyRole) for r in range(table.model().rowCount())]
    for name in filter(None, names):
        window.selection.show(name)
        settle(qtbot, window)
        assert window.selection.kernel.name == name
        yield name


def _spilling(table: QTableView, columns: list[int]) -> list[tuple[int, str]]:
    """Cells of ``columns`` whose number is wider than its column (delegates keep 4 px a
    side, and right-align: a wider text runs over the column on its left); a hidden column
    (a metric the user did not choose) shows nothing."""
    model, metrics = table.model(), table.fontMetrics()
    out = []
    for column in columns:
        if table.isColumnHidden(column):
            continue
        width = table.columnWidth(column)
        for row in range(model.rowCount()):
            text = model.index(row, column).data() or ""
            if metrics.horizontalAdvance(text) + 8 > width:
                out.append((column, text))
    return out


def test_a_report_opened_alone_leaves_the_builds_counts_blank(make_window) -> None:
    """No workspace: the SASS and line counts are the build's, not known: blank, not 0."""
    window = make_window(ALONE)
    table = window.kernels.table
    titles = _titles(table)
    rows = range(table.model().rowCount())
    assert len(rows) == 4
    for title in ("SASS", "Lines"):
        column = titles.index(title)
        assert [table.model().index(r, column).data() for r in rows] == [""] * 4, title
    assert window.selection.kernel.instructions, "its SASS is shown all the same"


def test_docks_keep_their_width_as_kernels_load_and_compare_mode_starts(qtbot, make_window):
    """A long kernel or file name widened the code panes' headers (and compare mode's header
    line), and the docks beside them gave way: the kernel list lost its Time column."""
    window = make_window(ALONE)
    window.feature(DetailsFeature).show_pane("details")
    settle(qtbot, window)
    docks = (window.kernel_dock, window.feature(DetailsFeature).details_dock)
    widths = [d.width() for d in docks]
    time = _titles(window.kernels.table).index(TIME_US)
    for name in _choose_each_kernel(qtbot, window):
        assert [d.width() for d in docks] == widths, name
        assert _on_screen(window.kernels.table, time), name
    window.feature(CompareFeature).compare_with_paths([BASE])
    window.open_path(NEW)
    settle(qtbot, window)
    assert window.feature(CompareFeature).mode.controller.diff is not None
    for name in _choose_each_kernel(qtbot, window):
        assert [d.width() for d in docks] == widths, name
    # the change and the ratio beside the names, whole, without scrolling sideways
    titles = _titles(window.kernels.table)
    for title in (DELTA_TITLE, "Ratio"):
        assert _on_screen(window.kernels.table, titles.index(title)), title
    assert window.kernels.table.horizontalScrollBar().value() == 0


def test_compare_mode_shows_each_time_once(qtbot, make_window) -> None:
    """The profile's "Time (µs)" repeated "New µs" (one pass each): compared, only the per
    pass times remain."""
    window = make_window(NEW)
    assert TIME_US in _titles(window.kernels.table)
    window.feature(CompareFeature).compare_with_paths([BASE])
    settle(qtbot, window)
    titles = _titles(window.kernels.table)
    assert {"Base µs", "New µs", DELTA_TITLE, "Ratio"} <= set(titles)
    assert TIME_US not in titles
    window.feature(CompareFeature).stop()
    settle(qtbot, window)
    assert TIME_US in _titles(window.kernels.table)


def test_numbers_stay_whole_in_their_columns(qtbot, make_window) -> None:
    """Thread instructions per line and per instruction run to 8 digits in the mlp report:
    compared, the Base and Δ columns were 9 characters wide and the side-by-side view's 9 and
    10, too narrow for them; each column is as wide as its widest number now (the hot lines'
    Value, 10 characters, holds 8 digits but would not hold 9)."""
    window = make_window(MLP)
    window.feature(CompareFeature).compare_with_paths(
        [MLP]
    )  # itself: every change 0, the baseline's values shown
    window.open_path(MLP)
    settle(qtbot, window)
    assert window.feature(CompareFeature).mode.controller.diff is not None
    window.selection.set_metric(THREAD_INSTRUCTIONS)
    settle(qtbot, window)
    for name in _choose_each_kernel(qtbot, window):
        for pane in (window.source, window.sass):
            model = pane.model
            numbers = list(range(1, model.code_column))
            assert _titles(pane.table)[model.code_column - 2 :][:2] == ["Base", "Δ"]
            assert not _spilling(pane.table, numbers), (name, pane.objectName())
        table = window.feature(CompareFeature).mode.opcodes.table
        assert not _spilling(table, list(range(1, table.model().columnCount()))), name
        # the side-by-side view of the two sources (shown when they differ; here asked for)
        diff = window.feature(CompareFeature).mode.diff_pane
        diff.show_comparison(
            window.feature(CompareFeature).mode.controller.current, metric_key(THREAD_INSTRUCTIONS)
        )
        assert diff.model.rowCount() > 0
        assert not _spilling(diff.table, [BASE_VALUE, NEW_VALUE, DELTA]), name
    window.hot.scope.setCurrentIndex(1)  # the whole model's hottest lines: 81,920,000 first
    settle(qtbot, window)
    assert window.hot.model.rowCount() > 0
    assert not _spilling(window.hot.table, [0, 1])


def test_a_hot_lines_location_keeps_its_line_when_the_name_is_cut(qtbot, make_window) -> None:
    window = make_window(NEW)
    table = window.hot.table
    column = _titles(table).index("Location")
    table.setColumnWidth(column, table.fontMetrics().horizontalAdvance("0") * 18)
    delegate = table.itemDelegateForColumn(column)
    assert delegate is not None
    for row in range(table.model().rowCount()):
        index = table.model().index(row, column)
        full = index.data()
        option = QStyleOptionViewItem()
        option.initFrom(table)
        option.rect = QRect(table.visualRect(index))
        delegate.initStyleOption(option, index)
        # what the style paints: the delegate's text, elided as the view elides
        room = option.rect.width() - 8
        shown = option.fontMetrics.elidedText(option.text, option.textElideMode, room)
        line = full.rpartition(":")[2]
        assert shown.endswith(f":{line}") and "…" in shown, (full, shown)
        assert shown.startswith(full[:3])


def test_the_details_pane_keeps_its_values_in_a_narrow_dock(qtbot, make_window) -> None:
    """A long kernel name in the title made the pane's content wider than the dock, and the
    charts' values, at their right edge, were cut off with no way to scroll to them."""
    window = make_window(NEW)
    pane = window.feature(DetailsFeature).show_pane("details")
    settle(qtbot, window)
    window.feature(DetailsFeature).details_dock.setFloating(True)
    window.feature(DetailsFeature).details_dock.resize(200, 700)  # as narrow as the pane lets it be
    qtbot.waitUntil(lambda: window.feature(DetailsFeature).details_dock.width() < 300)
    longest = max((s.name for s in window.selection.document.summaries), key=len)
    window.selection.show(longest)
    settle(qtbot, window)
    assert pane.details is not None and pane.details.kernel == longest
    qtbot.wait(50)  # the layout's pass
    viewport = pane.scroll_area.viewport().width()
    bar = pane.scroll_area.horizontalScrollBar()
    reach = viewport + (bar.maximum() if bar.isVisible() else 0)  # what scrolling shows
    charts = [c for c in pane.content.findChildren(RowChart) if c.isVisible() and c.rows]
    assert len(charts) > 5
    for chart in charts:
        values = max(chart.fontMetrics().horizontalAdvance(r.text) for r in chart.rows)
        assert chart.width() >= values + chart.fontMetrics().horizontalAdvance("0") * 10
        right = chart.mapTo(pane.content, chart.rect().topRight()).x()
        assert right <= reach, f"values cut off: {right} px of {reach}"
    assert pane.title.toolTip() == longest


# ---- issue 30: the code is the product --------------------------------------------------------


@pytest.fixture()
def profiled(tmp_path: Path) -> Path:
    """The mlp workspace (source, SASS and PTX) with its report attached."""
    ws = Path(shutil.copytree(DATA / "ws_mlp", tmp_path / "ws"))
    Workspace.open(ws).attach_profile(MLP)
    return ws


def _code_room(pane: CodePane) -> tuple[int, int]:
    """(characters, lines) of code the pane shows: the part of its code column inside the
    table's viewport, in the code font's characters, and the rows that fit its height."""
    table = pane.table
    header = table.horizontalHeader()
    code = pane.model.code_column
    left = header.sectionViewportPosition(code)
    right = min(table.viewport().width(), left + header.sectionSize(code))
    chars = max(0, right - max(0, left)) // table.fontMetrics().horizontalAdvance("0")
    return chars, table.viewport().height() // table.verticalHeader().defaultSectionSize()


def _at(qtbot, window, width: int, height: int) -> None:
    window.resize(width, height)
    qtbot.wait(50)  # the layout's pass, and the docks' moves after it
    settle(qtbot, window)


@pytest.mark.parametrize("size", [(1280, 720), (1500, 900)])
def test_the_code_keeps_its_room_whatever_dock_is_open(qtbot, make_window, profiled, size):
    """At 1280x720 the source and SASS panes showed line numbers and metric columns but no
    code with Details or the roofline open, and 21 characters with neither; at 1500x900 with
    Details 4. Each dock in turn, and the PTX tab: 60 characters and 15 lines of each code
    pane on screen, the window as large as asked (not grown past the screen)."""
    window = make_window(profiled)
    _at(qtbot, window, *size)
    docks = [d for d in window.findChildren(QDockWidget)]
    assert len(docks) == 8  # the Steps dock (viewer/steps) too
    for dock in [None, *docks]:
        if dock is not None:
            pane = {
                window.feature(DetailsFeature).details_dock: "details",
                window.feature(DetailsFeature).roofline_dock: "roofline",
            }.get(dock)
            if pane:  # as Ctrl+4 and Ctrl+5 show them
                window.feature(DetailsFeature).show_pane(pane)
            else:  # as the View menu shows a dock
                dock.toggleViewAction().setChecked(True)
                dock.raise_()
            settle(qtbot, window)
            qtbot.wait(50)
        shown = dock.windowTitle() if dock is not None else "default"
        assert (window.width(), window.height()) == size, shown
        for tab in (window.sass, window.ptx):
            window.code_tabs.setCurrentWidget(tab)
            qtbot.wait(10)
            for pane in (window.source, tab):
                chars, lines = _code_room(pane)
                assert chars >= 60 and lines >= 15, (shown, pane.objectName(), chars, lines)
        window.code_tabs.setCurrentWidget(window.sass)
        if dock is not None and dock is not window.kernel_dock:
            assert dock.isVisible() and not dock.visibleRegion().isEmpty(), shown
    # View > Reset Layout left the panes about 150 px high
    window.reset_layout()
    qtbot.wait(50)
    assert (window.width(), window.height()) == size, "reset"
    for pane in (window.source, window.sass):
        chars, lines = _code_room(pane)
        assert chars >= 60 and lines >= 15, ("reset", pane.objectName(), chars, lines)
    # Details from the View menu, back on the right after the reset: it gives way too
    assert (
        window.dockWidgetArea(window.feature(DetailsFeature).details_dock)
        == Qt.DockWidgetArea.RightDockWidgetArea
    )
    window.feature(DetailsFeature).details_dock.toggleViewAction().trigger()
    qtbot.wait(50)
    settle(qtbot, window)
    assert window.feature(DetailsFeature).details_dock.isVisible()
    assert (window.width(), window.height()) == size, "View > Details"
    for pane in (window.source, window.sass):
        chars, lines = _code_room(pane)
        assert chars >= 60 and lines >= 15, ("View > Details", pane.objectName(), chars, lines)


def test_the_code_starts_near_the_panes_left_edge(qtbot, make_window, profiled) -> None:
    """Three metric columns (9 to 12 characters each) stood before the code: by default one,
    the chosen metric's, narrow; the header's menu adds others, for every code pane, and the
    choice outlives the window."""
    window = make_window(profiled)
    _at(qtbot, window, 1920, 1080)
    chars = window.source.table.fontMetrics().horizontalAdvance("0")
    for pane in (window.source, window.sass):
        start = pane.table.horizontalHeader().sectionViewportPosition(pane.model.code_column)
        assert start <= chars * 14, (pane.objectName(), start // chars)
        shown = [
            pane.model.headerData(c, Qt.Orientation.Horizontal)
            for c in range(1, pane.model.code_column)
            if not pane.table.isColumnHidden(c)
        ]
        assert shown == [window.selection.metric], pane.objectName()
    # another metric chosen: the column follows it
    other = next(
        n for n in window.selection.document.line_metric_names if n != window.selection.metric
    )
    window.metric_box.setCurrentText(other)
    settle(qtbot, window)
    assert _shown_metrics(window.source) == [other]
    # the header's context menu: the SASS count beside it, in the source and PTX panes
    header = window.source.table.horizontalHeader()
    header.customContextMenuRequested.emit(QPoint(5, 5))
    menu = window.source.findChild(QMenu, "metric_columns_menu")
    assert menu is not None
    action = next(a for a in menu.actions() if a.text() == SASS_COUNT)
    action.trigger()
    menu.close()
    settle(qtbot, window)
    assert set(_shown_metrics(window.source)) == {other, SASS_COUNT}
    assert set(_shown_metrics(window.ptx)) == {other, SASS_COUNT}
    # remembered: a new window with the same settings shows it
    again = MainWindow(restore_layout=False, settings=window.settings)
    try:
        again.resize(1400, 900)
        again.show()
        again.open_path(profiled)
        settle(qtbot, again)
        again.metric_box.setCurrentText(other)
        settle(qtbot, again)
        assert set(_shown_metrics(again.source)) == {other, SASS_COUNT}
    finally:
        again.close()
        again.deleteLater()


def _unclipped(widget: QWidget) -> QRect:
    """The part of ``widget`` its parents do not cut off (a pane larger than its dock), in
    its own coordinates."""
    rect, parent = widget.rect(), widget.parentWidget()
    while parent is not None:
        rect = rect.intersected(QRect(widget.mapFrom(parent, QPoint(0, 0)), parent.size()))
        parent = parent.parentWidget()
    return rect


def _shown_metrics(pane: CodePane) -> list[str]:
    return [
        pane.model.headerData(c, Qt.Orientation.Horizontal)
        for c in range(1, 1 + len(pane.model.metric_names))
        if not pane.table.isColumnHidden(c)
    ]


def test_an_older_saved_layout_is_not_restored(qtbot, tmp_path) -> None:
    """A layout saved before issue 30 could leave the code no room: a window that finds one
    opens with the default layout (and saves its own on close)."""
    settings = QSettings(str(tmp_path / "old.ini"), QSettings.Format.IniFormat)
    old = MainWindow(restore_layout=False, settings=settings)
    try:
        old.feature(DetailsFeature).details_dock.show()
        old.resizeDocks(
            [old.feature(DetailsFeature).details_dock], [900], Qt.Orientation.Horizontal
        )
        settings.setValue("window/state", old.saveState())  # version 0, as kernelscope saved it
    finally:
        old.close()
        old.deleteLater()
    window = MainWindow(settings=settings)
    try:
        assert not window.feature(DetailsFeature).details_dock.isVisibleTo(window), (
            "the old layout was restored"
        )
        window.close()
        restored = MainWindow(settings=settings)
        restored.close()
        restored.deleteLater()
    finally:
        window.deleteLater()


def test_the_roofline_keeps_its_labels_inside_the_plot(qtbot, make_window) -> None:
    """The selected kernel's name ran off the plot's right edge, the FP16 and FP32 roofs'
    names lay on each other at 1280x720."""
    import pyqtgraph as pg  # as the window loads it: when a plot is first shown

    window = make_window(MLP)
    for size in ((1280, 720), (1920, 1080)):
        _at(qtbot, window, *size)
        panel = window.feature(DetailsFeature).show_pane("roofline")
        settle(qtbot, window)
        plot = panel.plot
        assert plot is not None and plot.isVisible()
        for kernel in list(plot.spots):  # the label beside each point in turn
            plot.select(kernel)
            plot.grab()  # painted: a label's place follows the view when it is drawn
            view = plot.plotItem.vb.sceneBoundingRect()
            labels = [i for i in plot.plotItem.vb.addedItems if isinstance(i, pg.TextItem)]
            boxes = [i.sceneBoundingRect() for i in labels if i.isVisible() and i.toPlainText()]
            for box in boxes:
                assert view.contains(box), (size, kernel, box, view)
            roofs = [b for i, b in zip(labels, boxes, strict=False) if "FLOP/s" in i.toPlainText()]
            assert not any(a.intersects(b) for a in roofs for b in roofs if a is not b), size
        # the x axis's title whole on screen (its text: the item keeps a 4 px margin round it)
        title = plot.plotItem.getAxis("bottom").label.sceneBoundingRect().adjusted(4, 4, -4, -4)
        box = plot.viewportTransform().mapRect(title)
        assert QRectF(_unclipped(plot)).contains(box), (size, box, _unclipped(plot))


def test_the_side_by_side_title_is_cut_with_an_ellipsis(qtbot, make_window) -> None:
    """A narrow side-by-side view clipped its title mid-letter, the summary right after it:
    "Side by s3 changed". The title ends in "…" when cut, apart from the summary."""
    window = make_window(NEW)
    window.feature(CompareFeature).compare_with_paths([BASE])
    settle(qtbot, window)
    _at(qtbot, window, 1280, 720)
    diff = window.feature(CompareFeature).mode.diff_pane
    seen = 0
    for name in _choose_each_kernel(qtbot, window):
        # the SASS beside it (a kernel with fewer profiled metrics than the one before had
        # its code column hidden: the header keeps hidden flags by position)
        sass = window.sass
        assert not sass.table.isColumnHidden(sass.model.code_column), name
        assert _code_room(sass)[0] >= 40, (name, _code_room(sass))
        if not diff.isVisible():
            continue
        seen += 1
        title = diff.title
        title.setText(f"Side by side — {name}_with_a_long_file_name.cu")  # a long one
        qtbot.wait(10)
        painted = title.shown_text() if hasattr(title, "shown_text") else title.text()
        assert title.fontMetrics().horizontalAdvance(painted) <= title.width(), painted
        assert painted.endswith("…") and painted.startswith("Side by side")
        assert title.geometry().right() < diff.summary.geometry().left(), name
    assert seen, "no kernel's sources differ"


def test_the_zero_line_of_a_change_does_not_cross_its_digits() -> None:
    from PySide6.QtCore import QRect

    from kernelscope.viewer.code.delta_delegate import zero_line

    cell = QRect(0, 0, 80, 16)  # its middle at x = 40
    wide = QRect(20, 2, 58, 13)  # "+1,234,567": right aligned, past the middle
    short = QRect(60, 2, 18, 13)  # "+12": right of it
    for segment in zero_line(cell, wide):
        assert not segment.intersects(wide.adjusted(-1, -1, 1, 1)), segment
    assert zero_line(cell, short) == [QRect(40, 0, 1, 16)], "whole where no digit is"


@pytest.fixture()
def run_folder(tmp_path: Path) -> Path:
    """A torch.compile run folder (tests/data/inductor) with its report."""
    import lzma

    run = Path(shutil.copytree(DATA / "inductor" / "transformer", tmp_path / "transformer"))
    xz = DATA / "inductor" / "transformer_profile.ncu-rep.xz"
    (run / "profile.ncu-rep").write_bytes(lzma.decompress(xz.read_bytes()))
    return run


def test_a_runs_aten_ops_are_beside_the_time_at_the_default_width(qtbot, make_window, run_folder):
    """The ATen operators of a torch.compile run came after every profile metric, off-screen
    at the default width: now right after the time, whole."""
    window = make_window()
    _at(qtbot, window, 1500, 900)  # the window's default size
    window.open_path(run_folder)
    settle(qtbot, window)
    table = window.kernels.table
    titles = _titles(table)
    ops = titles.index("Fused ops")
    assert titles[:3] == ["Kernel", TIME_US, "Fused ops"]
    assert _on_screen(table, ops)
    assert table.horizontalScrollBar().value() == 0
    texts = [table.model().index(r, ops).data() or "" for r in range(table.model().rowCount())]
    assert any("aten." in t for t in texts)
