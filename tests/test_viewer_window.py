"""The main window on the test workspace: correlation, kernel list, search, navigation."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import viewer_support
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from kernelscope.core.view import SASS_COUNT, hot_lines, open_document
from kernelscope.viewer.code.code_models import SassModel, SourceModel
from kernelscope.viewer.panels.hot_lines_panel import HotLinesModel
from kernelscope.viewer.panels.kernel_list_model import KernelListModel

MATMUL = "fused_matmul_add_relu_kernel"
WORKSPACE = viewer_support.WORKSPACE
no_leaks = viewer_support.no_leaks
window = viewer_support.window


def _click_row(qtbot, table, row: int, column: int = 0) -> None:  # noqa: ANN001
    index = table.model().index(row, column)
    table.scrollTo(index)
    rect = table.visualRect(index)
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def test_every_item_model_passes_the_model_tester(qtmodeltester) -> None:  # noqa: ANN001
    document = open_document(WORKSPACE)
    kernels = KernelListModel()
    kernels.set_document(document)
    qtmodeltester.check(kernels)
    view = document.kernel(MATMUL)
    source = SourceModel()
    source.set_file(view, view.main_file, document.line_metric_names)
    qtmodeltester.check(source)
    sass = SassModel()
    sass.set_kernel(view, [])
    qtmodeltester.check(sass)
    hot = HotLinesModel()
    hot.set_rows(hot_lines(document, SASS_COUNT))
    qtmodeltester.check(hot)


def test_clicking_a_source_line_selects_its_sass(qtbot, window) -> None:  # noqa: ANN001
    row = window.kernels.model.row_of(MATMUL)
    proxy_row = window.kernels.proxy.mapFromSource(window.kernels.model.index(row, 0)).row()
    _click_row(qtbot, window.kernels.table, proxy_row)
    assert window.state.kernel.name == MATMUL
    assert window.sass.model.rowCount() == len(window.state.kernel.instructions)
    _click_row(qtbot, window.source.table, 16)  # line 17: the k loop, 32 instructions
    kernel = window.state.kernel
    expected = set(kernel.instructions_at(kernel.main_file, 17))
    assert window.state.line == 17
    assert len(expected) == 32
    assert window.state.instructions == expected
    assert window.sass.current_row() == min(expected)
    assert window.line_label.text() == "line 17: 32 SASS instructions"


def test_clicking_an_instruction_selects_its_source_line(qtbot, window) -> None:  # noqa: ANN001
    window.state.set_kernel("softmax_kernel")
    kernel = window.state.kernel
    index = next(i for i, insn in enumerate(kernel.instructions) if insn.inlined_at)
    _click_row(qtbot, window.sass.table, index)
    # an instruction inlined from a CUDA header shows its call site in the kernel's file
    assert window.state.file == kernel.main_file
    assert window.state.line == kernel.instructions[index].inlined_at[-1][1]
    assert window.source.current_row() == window.state.line - 1
    assert index in window.state.instructions


def test_header_file_switch_keeps_correlation(window) -> None:  # noqa: ANN001
    window.state.set_kernel("softmax_kernel")
    kernel = window.state.kernel
    header = next(f for f in kernel.files_in_use() if f.endswith("math_functions.hpp"))
    window.state.set_file(header)
    assert window.source.files.currentData() == header
    line = next(n for (f, n) in kernel._line_index if f == header)
    window.state.select_line(line)
    assert window.state.instructions
    assert all(kernel.line_of(i, header) == line for i in window.state.instructions)


def test_kernel_list_sorts_and_filters(qtbot, window) -> None:  # noqa: ANN001
    kernels = window.kernels
    sass_column = kernels.model.column_titles().index("SASS")
    kernels.table.sortByColumn(sass_column, Qt.SortOrder.DescendingOrder)
    names = [kernels.proxy.index(r, 0).data() for r in range(kernels.proxy.rowCount())]
    assert names[0] == MATMUL and names[-1] in ("transpose_kernel", "transpose1_kernel")
    qtbot.keyClicks(kernels.filter, "softmax")
    assert kernels.proxy.rowCount() == 1
    kernels.filter.clear()
    qtbot.keyClicks(kernels.filter, "relu")  # matches a fused op, not a name
    assert [kernels.proxy.index(r, 0).data() for r in range(kernels.proxy.rowCount())] == [MATMUL]
    assert "relax.nn.relu" in kernels.proxy.index(0, 0).data(Qt.ItemDataRole.ToolTipRole)


def test_search_finds_lines_by_text_and_regex(qtbot, window) -> None:  # noqa: ANN001
    window.state.set_kernel("softmax_kernel")
    window.source.table.setFocus()
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert window.search_bar.isVisible()
    qtbot.keyClicks(window.search_bar.edit, "__syncthreads")
    qtbot.keyClick(window.search_bar.edit, Qt.Key.Key_Return)
    first = window.state.line
    assert "__syncthreads" in window.source.model.text(first - 1)
    qtbot.keyClick(window.search_bar.edit, Qt.Key.Key_Return)
    assert window.state.line > first
    window.search_bar.edit.clear()
    window.search_bar.regex.setChecked(True)
    qtbot.keyClicks(window.search_bar.edit, r"shfl_down_sync\(.*16, 32\)")
    qtbot.keyClick(window.search_bar.edit, Qt.Key.Key_Return)
    assert "16, 32" in window.source.model.text(window.state.line - 1)
    window.search_bar.edit.clear()
    qtbot.keyClicks(window.search_bar.edit, "no such text anywhere")
    qtbot.keyClick(window.search_bar.edit, Qt.Key.Key_Return)
    assert window.search_bar.status.text() == "no match"
    qtbot.keyClick(window.search_bar, Qt.Key.Key_Escape)
    assert not window.search_bar.isVisible()


def test_next_hot_line_and_branch_targets(window) -> None:  # noqa: ANN001
    window.state.set_kernel(MATMUL)
    window.step_hot(False)
    assert window.state.line == 17  # 32 instructions, the most of any line
    kernel = window.state.kernel
    branch = next(i for i in range(len(kernel.instructions)) if kernel.target_offset(i))
    window.sass.show_row(branch)
    window.sass.row_chosen(branch)
    window._follow_branch()
    target = kernel.offset_index[kernel.target_offset(branch)]
    assert window.state.instruction == target
    assert window.sass.current_row() == target


def test_hot_lines_panel_navigates(qtbot, window) -> None:  # noqa: ANN001
    window.hot.scope.setCurrentIndex(1)  # whole model
    model = window.hot.model
    assert model.rowCount() > 0
    assert {model.hot_line(r).kernel for r in range(model.rowCount())} > {MATMUL}
    window.hot._go(model.index(0, 0))
    top = model.hot_line(0)
    assert window.state.kernel.name == top.kernel
    assert (window.state.file, window.state.line) == (top.file, top.line)


def test_bad_input_gives_a_dialog_and_keeps_the_document(qtbot, window, tmp_path) -> None:  # noqa: ANN001
    document = window.state.document
    bad = tmp_path / "notes.txt"
    bad.write_text("hello")
    window.open_path(bad)
    assert window.wait_for_document()
    box = next(w for w in window.findChildren(QMessageBox) if w.isVisible())
    assert "neither a kernelscope workspace" in box.text()
    assert "What to do" in box.informativeText()
    box.close()
    broken = tmp_path / "broken.kscope"
    broken.mkdir()
    (broken / "manifest.json").write_text("{not json")
    window.open_path(broken)
    assert window.wait_for_document()
    box = next(w for w in window.findChildren(QMessageBox) if w.isVisible())
    assert "damaged" in box.text()
    box.close()
    assert window.state.document is document


def test_recent_files_are_remembered(window) -> None:  # noqa: ANN001
    assert window.recent_files()[0] == str(WORKSPACE.resolve())
    assert window.recent_menu.actions()[0].text() == str(WORKSPACE.resolve())


def test_screenshot_mode_writes_a_png(tmp_path: Path) -> None:
    out = tmp_path / "shot.png"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "kernelscope.core.cli",
            "--screenshot",
            str(out),
            str(WORKSPACE),
            "--kernel",
            "softmax",
            "--line",
            "30",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert out.stat().st_size > 50_000


def test_several_csv_exports_open_together(qtbot, window, monkeypatch) -> None:  # noqa: ANN001
    """File > Open with the details and source pages of one report selected together."""
    from ncu_support import MLP
    from PySide6.QtWidgets import QFileDialog

    chosen = [str(MLP / "details.csv"), str(MLP / "source_cuda_sass.csv")]
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: (chosen, ""))
    window.choose_file()
    assert window.wait_for_document()
    document = window.state.document
    assert document.workspace is None
    softmax = document.kernel("softmax_kernel")
    assert softmax.main_file.endswith("softmax_kernel.cu")
    assert window.recent_files()[0] == str(WORKSPACE.resolve())  # a file set is not "recent"


def test_several_files_other_than_csv_are_refused(window, tmp_path) -> None:  # noqa: ANN001
    document = window.state.document
    window.loader.open([str(WORKSPACE), str(tmp_path)])
    assert window.wait_for_document()
    box = next(w for w in window.findChildren(QMessageBox) if w.isVisible())
    assert "only as CSV exports of one report" in box.text()
    box.close()
    assert window.state.document is document
