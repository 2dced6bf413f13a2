"""The PTX pane in the window: it follows the one selection (a source line, an instruction)
and its rows select the source line and the SASS assembled from them; driven by clicks."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from viewer_support import WORKSPACE, click_row, settle

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.view import SASS_COUNT, KernelView, open_document
from kernelscope.viewer.app import run
from kernelscope.viewer.code.highlight import ptx_highlighter
from kernelscope.viewer.code.ptx_pane import PtxModel
from kernelscope.viewer.widgets.roles import HighlightRole, KeyRole, item_data

SOFTMAX = "softmax_kernel"


def _show_kernel(qtbot, window, name: str) -> KernelView:
    table = window.kernels.table
    row = next(
        r
        for r in range(table.model().rowCount())
        if item_data(table.model().index(r, 0), KeyRole) == name
    )
    click_row(qtbot, table, row)
    settle(qtbot, window)
    window.focus_ptx()
    return window.selection.kernel


def _highlighted(model) -> set[int]:
    return {r for r in range(model.rowCount()) if model.data(model.index(r, 0), HighlightRole)}


def test_the_ptx_model_passes_the_model_tester(qtmodeltester) -> None:
    model = PtxModel(ptx_highlighter())
    model.set_kernel(open_document(WORKSPACE).kernel(SOFTMAX), [SASS_COUNT])
    qtmodeltester.check(model)


def test_a_source_line_highlights_its_ptx_rows(qtbot, make_window) -> None:
    window = make_window(WORKSPACE)
    kernel = _show_kernel(qtbot, window, SOFTMAX)
    assert window.code_tabs.currentWidget() is window.ptx
    assert window.ptx.model.rowCount() == len(kernel.ptx.rows)
    click_row(qtbot, window.source.table, 13 - 1)
    rows = set(kernel.ptx.rows_at(kernel.main_file, 13))
    assert len(rows) == 2
    assert _highlighted(window.ptx.model) == rows
    assert window.ptx.current_row() == min(rows)
    first, last = window.ptx.table.visible_rows()
    assert first <= min(rows) <= last


def test_clicking_a_ptx_row_selects_its_line_and_its_sass(qtbot, make_window) -> None:
    window = make_window(WORKSPACE)
    kernel = _show_kernel(qtbot, window, SOFTMAX)
    row = next(
        r
        for r, p in enumerate(kernel.ptx.rows)
        if len(p.frames) == 2 and kernel.ptx.instructions[r]
    )
    click_row(qtbot, window.ptx.table, row, window.ptx.model.code_column)
    selection = window.selection
    assert selection.picked == "ptx"
    assert selection.line == kernel.ptx.rows[row].frames[-1][1]  # the call site, in the kernel
    assert window.source.current_row() == selection.line - 1
    assert selection.instructions == set(kernel.ptx.instructions[row])
    assert _highlighted(window.sass.model) == set(kernel.ptx.instructions[row])
    assert row in _highlighted(window.ptx.model)
    count = len(kernel.ptx.instructions[row])
    assert window.line_label.text() == (
        f"PTX line {kernel.ptx.rows[row].line}: {count} SASS instruction{'s' * (count != 1)}"
    )
    # the instruction's metrics are the row's: here its SASS count
    column = window.ptx.model.code_column - 1
    count = window.ptx.model.data(window.ptx.model.index(row, column), Qt.ItemDataRole.DisplayRole)
    assert count == str(len(kernel.ptx.instructions[row]))


def test_clicking_an_instruction_shows_the_ptx_row_it_came_from(qtbot, make_window) -> None:
    window = make_window(WORKSPACE)
    kernel = _show_kernel(qtbot, window, SOFTMAX)
    window.focus_sass()
    index = next(i for i, insn in enumerate(kernel.instructions) if insn.opcode == "SHFL.DOWN")
    click_row(qtbot, window.sass.table, index)
    window.focus_ptx()
    row = kernel.ptx.row_of(index)
    assert row is not None and "shfl.sync.down" in kernel.ptx.rows[row].text
    assert window.ptx.current_row() == row
    assert row in _highlighted(window.ptx.model)


def test_a_workspace_without_ptx_says_how_to_get_it(qtbot, make_window, tmp_path: Path) -> None:
    old = tmp_path / "old"
    shutil.copytree(WORKSPACE, old)
    manifest = json.loads((old / "manifest.json").read_text(encoding="utf-8"))
    for role in ("ptx", "ptx_lines"):
        (old / manifest["files"].pop(role)).unlink()
    (old / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    window = make_window(old)
    _show_kernel(qtbot, window, SOFTMAX)
    assert window.ptx.model.rowCount() == 0
    assert window.ptx.missing.isVisible()
    assert "kernelscope build" in window.ptx.missing.text()
    click_row(qtbot, window.source.table, 13 - 1)  # the other panes work as before
    assert window.selection.line == 13 and window.selection.instructions


def test_screenshot_mode_raises_the_ptx_tab(qapp, tmp_path: Path) -> None:
    out = tmp_path / "ptx.png"
    assert run(str(WORKSPACE), screenshot_to=str(out), kernel=SOFTMAX, line=13, pane="ptx") == 0
    assert QImage(str(out)).size().toTuple() == (1600, 1000)
    with pytest.raises(KernelscopeError, match="no pane 'pxt'") as error:
        run(str(WORKSPACE), screenshot_to=str(out), pane="pxt")
    assert "ptx" in (error.value.hint or "")
