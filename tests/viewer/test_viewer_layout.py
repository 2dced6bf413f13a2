"""What a real window's layout must keep (issue 19): docks that hold their width while kernels
load and compare mode starts, the kernel list's time (or change and ratio) beside the names
without scrolling, numbers whole in their columns, a hot line's ``:line`` kept when its file
name is cut, the Details pane scrolling sideways in a narrow dock instead of cutting values
off, a report opened alone leaving the build's counts blank, and compare mode's times once."""

from __future__ import annotations

from collections.abc import Iterator

from paths_support import H200_REPORT, data_path
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QStyleOptionViewItem, QTableView
from viewer_support import settle

from kernelscope.core.ncu import TIME_US, label_of
from kernelscope.viewer.compare.controller import metric_key
from kernelscope.viewer.compare.diff_pane import BASE_VALUE, DELTA, NEW_VALUE
from kernelscope.viewer.compare.kernel_columns import DELTA_TITLE
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
    side, and right-align: a wider text runs over the column on its left)."""
    model, metrics = table.model(), table.fontMetrics()
    out = []
    for column in columns:
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
    window.show_details()
    settle(qtbot, window)
    docks = (window.kernel_dock, window.details_dock)
    widths = [d.width() for d in docks]
    time = _titles(window.kernels.table).index(TIME_US)
    for name in _choose_each_kernel(qtbot, window):
        assert [d.width() for d in docks] == widths, name
        assert _on_screen(window.kernels.table, time), name
    window.compare_with_paths([BASE])
    window.open_path(NEW)
    settle(qtbot, window)
    assert window.compare.controller.diff is not None
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
    window.compare_with_paths([BASE])
    settle(qtbot, window)
    titles = _titles(window.kernels.table)
    assert {"Base µs", "New µs", DELTA_TITLE, "Ratio"} <= set(titles)
    assert TIME_US not in titles
    window.stop_comparing()
    settle(qtbot, window)
    assert TIME_US in _titles(window.kernels.table)


def test_numbers_stay_whole_in_their_columns(qtbot, make_window) -> None:
    """Thread instructions per line and per instruction run to 8 digits in the mlp report:
    compared, the Base and Δ columns were 9 characters wide and the side-by-side view's 9 and
    10, too narrow for them; each column is as wide as its widest number now (the hot lines'
    Value, 10 characters, holds 8 digits but would not hold 9)."""
    window = make_window(MLP)
    window.compare_with_paths([MLP])  # itself: every change 0, the baseline's values shown
    window.open_path(MLP)
    settle(qtbot, window)
    assert window.compare.controller.diff is not None
    window.selection.set_metric(THREAD_INSTRUCTIONS)
    settle(qtbot, window)
    for name in _choose_each_kernel(qtbot, window):
        for pane in (window.source, window.sass):
            model = pane.model
            numbers = list(range(1, model.code_column))
            assert _titles(pane.table)[model.code_column - 2 :][:2] == ["Base", "Δ"]
            assert not _spilling(pane.table, numbers), (name, pane.objectName())
        table = window.compare.opcodes.table
        assert not _spilling(table, list(range(1, table.model().columnCount()))), name
        # the side-by-side view of the two sources (shown when they differ; here asked for)
        diff = window.compare.diff_pane
        diff.show_comparison(window.compare.controller.current, metric_key(THREAD_INSTRUCTIONS))
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
    pane = window.show_pane("details")
    settle(qtbot, window)
    window.details_dock.setFloating(True)
    window.details_dock.resize(200, 700)  # as narrow as the pane lets it be
    qtbot.waitUntil(lambda: window.details_dock.width() < 300)
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
