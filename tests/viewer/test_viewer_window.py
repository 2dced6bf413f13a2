"""The main window on the test workspace: correlation, kernel list, search, navigation,
actions, opening in the background and screenshot mode; driven by clicks and keys."""

from __future__ import annotations

from pathlib import Path

import pytest
from ncu_support import MLP
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox
from viewer_support import WORKSPACE, click_row, open_and_settle, settle

from kernelscope.core.ncu import SourceFile
from kernelscope.core.view import SASS_COUNT, KernelView, hot_lines, open_document
from kernelscope.viewer.app import run
from kernelscope.viewer.code.code_models import SassModel, SourceModel
from kernelscope.viewer.code.highlight import continuations, cuda_highlighter, sass_highlighter
from kernelscope.viewer.panels.hot_lines_panel import HotLinesModel
from kernelscope.viewer.panels.kernel_list_model import KernelListModel
from kernelscope.viewer.widgets.roles import KeyRole, SpansRole, item_data

MATMUL = "fused_matmul_add_relu_kernel"
MLP_CSVS = [MLP / "details.csv", MLP / "source_cuda_sass.csv"]


def _choose_kernel(qtbot, window, name: str) -> KernelView:
    """Click the kernel's row in the kernel list and wait until it is shown."""
    table = window.kernels.table
    row = next(
        r
        for r in range(table.model().rowCount())
        if item_data(table.model().index(r, 0), KeyRole) == name
    )
    click_row(qtbot, table, row)
    settle(qtbot, window)
    assert window.selection.kernel.name == name
    return window.selection.kernel


def _busiest_line(kernel: KernelView) -> tuple[int, int]:
    """(line, instruction count) of the kernel's own line that compiled to most SASS."""
    counts = kernel.file_metrics(kernel.main_file)
    line = max(counts, key=lambda n: counts[n][SASS_COUNT])
    return line, int(counts[line][SASS_COUNT])


def _visible_box(window) -> QMessageBox:
    return next(w for w in window.findChildren(QMessageBox) if w.isVisible())


def test_every_item_model_passes_the_model_tester(qtmodeltester) -> None:
    session = open_document(WORKSPACE)
    document = session.document
    kernels = KernelListModel()
    kernels.set_document(document)
    qtmodeltester.check(kernels)
    view = session.kernel(MATMUL)
    source = SourceModel(cuda_highlighter())
    source.set_file(view, view.main_file, document.line_metric_names)
    qtmodeltester.check(source)
    sass = SassModel(sass_highlighter())
    sass.set_kernel(view, [])
    qtmodeltester.check(sass)
    hot = HotLinesModel()
    hot.set_rows(hot_lines(session, SASS_COUNT))
    qtmodeltester.check(hot)


def test_clicking_a_source_line_selects_its_sass(qtbot, make_window) -> None:
    window = make_window(WORKSPACE)
    kernel = _choose_kernel(qtbot, window, MATMUL)
    assert window.sass.model.rowCount() == len(kernel.instructions)
    line, count = _busiest_line(kernel)
    click_row(qtbot, window.source.table, line - 1)
    expected = set(kernel.instructions_at(kernel.main_file, line))
    assert window.selection.line == line
    assert len(expected) == count > 1
    assert window.selection.instructions == expected
    assert window.sass.current_row() == min(expected)
    assert window.line_label.text() == f"line {line}: {count} SASS instructions"


def test_clicking_an_instruction_selects_its_source_line(qtbot, make_window) -> None:
    window = make_window(WORKSPACE)
    kernel = _choose_kernel(qtbot, window, "softmax_kernel")
    index = next(i for i, insn in enumerate(kernel.instructions) if insn.inlined_at)
    click_row(qtbot, window.sass.table, index)
    # an instruction inlined from a CUDA header shows its call site in the kernel's file
    assert window.selection.file == kernel.main_file
    assert window.selection.line == kernel.instructions[index].inlined_at[-1][1]
    assert window.source.current_row() == window.selection.line - 1
    assert index in window.selection.instructions


def test_the_file_switcher_shows_a_header_and_keeps_correlation(qtbot, make_window) -> None:
    window = make_window(WORKSPACE)
    kernel = _choose_kernel(qtbot, window, "softmax_kernel")
    files = window.source.files
    assert [files.itemData(i) for i in range(files.count())] == kernel.files_in_use()
    header = kernel.files_in_use()[1]
    files.setFocus()
    qtbot.keyClick(files, Qt.Key.Key_Down)  # the user picks the next file
    assert window.selection.file == header
    assert window.source.model.rowCount() == len(kernel.files[header].lines)
    line = next(n for i in range(len(kernel.instructions)) if (n := kernel.line_of(i, header)))
    click_row(qtbot, window.source.table, line - 1)
    assert window.selection.instructions
    assert all(kernel.line_of(i, header) == line for i in window.selection.instructions)


def test_a_kernel_loads_in_the_background_and_the_newest_click_wins(qtbot, make_window) -> None:
    window = make_window(WORKSPACE)
    selection, shown = window.selection, window.selection.kernel
    table = window.kernels.table
    model = table.model()
    rows = {item_data(model.index(r, 0), KeyRole): r for r in range(model.rowCount())}
    first, second = [name for name in rows if name != shown.name][:2]
    seen: list[str] = []
    selection.kernel_changed.connect(lambda: seen.append(selection.kernel.name))
    selection.show(first)
    assert selection.kernel is shown and selection.loading, "the panes keep it until it is here"
    click_row(qtbot, table, rows[second])
    settle(qtbot, window)
    assert selection.kernel.name == second and seen[-1] == second
    assert first not in seen[seen.index(second) :], "an older request never wins"
    assert window.sass.model.rowCount() == len(selection.kernel.instructions)
    assert item_data(table.currentIndex(), KeyRole) == second


def test_kernel_list_sorts_and_filters(qtbot, make_window) -> None:
    window = make_window(WORKSPACE)
    kernels = window.kernels
    header = kernels.table.horizontalHeader()
    titles = [kernels.model.headerData(c, Qt.Orientation.Horizontal) for c in range(header.count())]
    sass = titles.index("SASS")
    position = QPoint(header.sectionViewportPosition(sass) + header.sectionSize(sass) // 2, 5)
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=position)
    if header.sortIndicatorOrder() == Qt.SortOrder.AscendingOrder:
        qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=position)
    names = [kernels.proxy.index(r, 0).data() for r in range(kernels.proxy.rowCount())]
    summaries = window.selection.document.summaries
    by_sass = sorted(summaries, key=lambda s: -s.sass_instructions)
    assert names[0] == by_sass[0].name
    assert {s.sass_instructions for s in summaries if s.name == names[-1]} == {
        by_sass[-1].sass_instructions
    }
    qtbot.keyClicks(kernels.filter, "softmax")
    assert kernels.proxy.rowCount() == sum("softmax" in s.name for s in summaries)
    kernels.filter.clear()
    qtbot.keyClicks(kernels.filter, "relu")  # matches a fused op, not a name
    with_relu = [s.name for s in summaries if any("relu" in op for op in s.ops)]
    assert [kernels.proxy.index(r, 0).data() for r in range(kernels.proxy.rowCount())] == with_relu
    assert "relax.nn.relu" in kernels.proxy.index(0, 0).data(Qt.ItemDataRole.ToolTipRole)


def test_search_finds_lines_by_text_and_regex(qtbot, make_window) -> None:
    window = make_window(WORKSPACE)
    _choose_kernel(qtbot, window, "softmax_kernel")
    window.source.table.setFocus()
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert window.search_bar.isVisible()
    qtbot.keyClicks(window.search_bar.edit, "__syncthreads")
    qtbot.keyClick(window.search_bar.edit, Qt.Key.Key_Return)
    first = window.selection.line
    assert "__syncthreads" in window.source.model.text(first - 1)
    qtbot.keyClick(window.search_bar.edit, Qt.Key.Key_Return)
    assert window.selection.line > first
    window.search_bar.edit.clear()
    window.search_bar.regex.setChecked(True)
    qtbot.keyClicks(window.search_bar.edit, r"shfl_down_sync\(.*16, 32\)")
    qtbot.keyClick(window.search_bar.edit, Qt.Key.Key_Return)
    assert "16, 32" in window.source.model.text(window.selection.line - 1)
    window.search_bar.edit.clear()
    qtbot.keyClicks(window.search_bar.edit, "no such text anywhere")
    qtbot.keyClick(window.search_bar.edit, Qt.Key.Key_Return)
    assert window.search_bar.status.text() == "no match"
    qtbot.keyClick(window.search_bar, Qt.Key.Key_Escape)
    assert not window.search_bar.isVisible()


def test_f8_goes_to_the_hottest_line_and_ctrl_return_follows_a_branch(qtbot, make_window) -> None:
    window = make_window(WORKSPACE)
    kernel = _choose_kernel(qtbot, window, MATMUL)
    window.source.table.setFocus()
    qtbot.keyClick(window.source.table, Qt.Key.Key_F8)
    assert window.selection.line == _busiest_line(kernel)[0]
    follow = window.action("follow_branch")
    plain = next(i for i in range(len(kernel.instructions)) if kernel.target_offset(i) is None)
    click_row(qtbot, window.sass.table, plain)
    assert not follow.isEnabled(), "only a branch can be followed"
    branch = next(i for i in range(len(kernel.instructions)) if kernel.target_offset(i))
    click_row(qtbot, window.sass.table, branch)
    assert follow.isEnabled()
    qtbot.keyClick(window.sass.table, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    target = kernel.offset_index[kernel.target_offset(branch)]
    assert window.selection.instruction == target
    assert window.sass.current_row() == target


def test_hot_lines_panel_ranks_the_whole_model_and_goes_to_a_line(qtbot, make_window) -> None:
    window = make_window(WORKSPACE)
    hot = window.hot
    hot.scope.setFocus()
    qtbot.keyClick(hot.scope, Qt.Key.Key_Down)  # "Whole model"
    settle(qtbot, window)
    model = hot.model
    expected = hot_lines(window.selection.open_session(), window.selection.metric)
    assert [(h.kernel, h.file, h.line) for h in map(model.hot_line, range(model.rowCount()))] == [
        (h.kernel, h.file, h.line) for h in expected
    ]
    assert len({h.kernel for h in expected}) > 1
    top = next(h for h in expected if h.kernel != window.selection.kernel.name)
    row = expected.index(top)
    click_row(qtbot, hot.table, row)
    qtbot.keyClick(hot.table, Qt.Key.Key_Return)
    settle(qtbot, window)
    selection = window.selection
    assert (selection.kernel.name, selection.file, selection.line) == (
        top.kernel,
        top.file,
        top.line,
    )


def test_a_click_on_a_hot_line_selects_it_in_the_source_pane(qtbot, make_window) -> None:
    """A single click did nothing (only a double click or Enter went to the line), where a
    click in every other list chooses its row."""
    window = make_window(WORKSPACE)
    hot = window.hot
    model = hot.model
    assert model.rowCount() > 1
    for row in (1, 0):
        line = model.hot_line(row)
        click_row(qtbot, hot.table, row)
        settle(qtbot, window)
        assert (window.selection.file, window.selection.line) == (line.file, line.line)
        assert window.source.current_row() == line.line - 1


def test_shortcuts_work_right_after_a_file_dialog_closes(qtbot, make_window) -> None:
    """Closing a file dialog left no window active (X11 without a window manager, some
    window managers, and Qt's offscreen platform alike): Ctrl+B, Ctrl+K and every other
    shortcut of the window was ignored until a click. The real Open dialog, cancelled."""
    window = make_window()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    for choose in (window.choose_file, window.choose_folder):
        QTimer.singleShot(200, lambda: QApplication.activeModalWidget().reject())
        choose()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=2000)
        window.focus_source()
        qtbot.keyClick(window.source.table, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
        assert window.kernels.filter.hasFocus(), choose.__name__


def test_bad_input_gives_a_dialog_and_keeps_the_document(qtbot, make_window, tmp_path) -> None:
    window = make_window(WORKSPACE)
    document = window.selection.document
    bad = tmp_path / "notes.txt"
    bad.write_text("hello")
    open_and_settle(qtbot, window, bad)
    box = _visible_box(window)
    assert "neither a kernelscope workspace" in box.text()
    assert "What to do" in box.informativeText()
    box.close()
    broken = tmp_path / "broken.kscope"
    broken.mkdir()
    (broken / "manifest.json").write_text("{not json")
    open_and_settle(qtbot, window, broken)
    box = _visible_box(window)
    assert "damaged" in box.text()
    box.close()
    assert window.selection.document is document


def test_actions_follow_the_state(qtbot, make_window) -> None:
    window = make_window()
    enabled = {name: window.action(name).isEnabled() for name in ("export_all", "find", "open")}
    assert enabled == {"export_all": False, "find": False, "open": True}
    open_and_settle(qtbot, window, WORKSPACE)
    assert window.action("export_all").isEnabled() and window.action("find").isEnabled()
    assert window.action("export").isEnabled() == bool(window.kernels.selected_names())
    open_and_settle(qtbot, window, MLP_CSVS)
    assert window.selection.document.workspace_path is None
    assert not window.action("export_all").isEnabled(), "a report alone has nothing to export"
    assert not window.action("export").isEnabled()


def test_recent_files_are_remembered(qtbot, make_window) -> None:
    window = make_window(WORKSPACE)
    assert window.recent.paths()[0] == str(WORKSPACE.resolve())
    assert window.recent.actions()[0].text() == str(WORKSPACE.resolve())


def test_several_csv_exports_open_together(qtbot, make_window, monkeypatch) -> None:
    """File > Open with the details and source pages of one report selected together."""
    window = make_window(WORKSPACE)
    chosen = [str(p) for p in MLP_CSVS]
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: (chosen, ""))
    window.action("open").trigger()
    settle(qtbot, window)
    document = window.selection.document
    assert document.workspace_path is None
    assert window.selection.kernel.main_file.endswith(f"{window.selection.kernel.name}.cu")
    assert window.recent.paths() == [str(WORKSPACE.resolve())], "a file set is not recent"


def test_several_files_other_than_csv_are_refused(qtbot, make_window, tmp_path) -> None:
    window = make_window(WORKSPACE)
    document = window.selection.document
    open_and_settle(qtbot, window, [WORKSPACE, tmp_path])
    box = _visible_box(window)
    assert "only as CSV exports of one report" in box.text()
    box.close()
    assert window.selection.document is document


def test_a_comment_over_several_lines_is_coloured_as_one(qapp) -> None:
    cuda = cuda_highlighter()
    lines = [
        'int a; /* starts "here"',
        "int still_comment;",
        "ends */ int b; // not /* a comment",
        'const char* s = "a string \\',
        'going on";',
        "#define TWICE(x) \\",
        "  ((x) + (x))",
        "int c;",
    ]
    assert continuations(lines) == ["", "/*", "/*", "", '"', "", "#", ""]
    spans = cuda.text(lines)
    comment = spans[0][-1][1]
    assert spans[1] == [("int still_comment;", comment)]
    assert spans[2][0] == ("ends */", comment)
    assert cuda.line(lines[1])[0][1] != comment, "on its own the line is code"
    string = next(c for t, c in spans[3] if t.startswith('"'))
    assert spans[4][0] == ('going on"', string)
    preproc = spans[5][0][1]
    assert all(c == preproc for _, c in spans[6])
    assert spans[7] == cuda.line(lines[7]), "after the directive, code again"
    assert "".join(t for t, _ in spans[2]) == lines[2]


def test_the_source_model_colours_a_comment_over_several_lines(qapp) -> None:
    text = "int a; /* one\ntwo\nthree */ int b;\n"
    source = SourceFile("k.cu", text, "workspace", "ok")
    view = KernelView("k", "k.cu", {"k.cu": source}, [], {}, [])
    model = SourceModel(cuda_highlighter())
    model.set_file(view, "k.cu", [SASS_COUNT])
    code = model.code_column
    rows = [item_data(model.index(r, code), SpansRole) for r in range(model.rowCount())]
    comment = rows[0][-1][1]
    assert rows[1] == [("two", comment)]
    assert rows[2][0] == ("three */", comment) and rows[2][-1][1] != comment


def test_a_highlight_change_repaints_each_run_of_rows_once(qapp) -> None:
    text = "".join(f"int a{n};\n" for n in range(10))
    source = SourceFile("k.cu", text, "workspace", "ok")
    view = KernelView("k", "k.cu", {"k.cu": source}, [], {}, [])
    model = SourceModel(cuda_highlighter())
    model.set_file(view, "k.cu", [SASS_COUNT])
    repainted: list[tuple[int, int]] = []
    model.dataChanged.connect(lambda first, last: repainted.append((first.row(), last.row())))
    model.set_highlight({1, 2, 3, 7, 12})  # 12 is past the end
    assert repainted == [(1, 3), (7, 7)]
    repainted.clear()
    model.set_highlight({3, 4, 7})  # 1 and 2 off, 4 on: one run each
    assert repainted == [(1, 2), (4, 4)]


@pytest.mark.parametrize("palette", ["light", "dark"])
def test_screenshot_mode_writes_a_png_in_process(qapp, tmp_path: Path, palette: str) -> None:
    out = tmp_path / f"{palette}.png"
    assert (
        run(str(WORKSPACE), screenshot_to=str(out), kernel="softmax", line=30, palette=palette) == 0
    )
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1600, 1000)
    # the code panes' background: dark on the dark palette, light on the light one
    centre = image.pixelColor(image.width() // 2, image.height() // 3)
    assert (centre.lightness() < 100) == (palette == "dark")
