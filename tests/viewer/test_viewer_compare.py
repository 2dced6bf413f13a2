"""Compare mode in the window, on the H200 pairs of tests/data/compare (see test_compare.py):
File > Compare With… and Set as Baseline, the kernel list's delta columns and one-sided rows,
per-line and per-instruction deltas, the side-by-side view of two sources, the opcode table,
biggest regressions and improvements, the header, leaving compare mode, bad baselines and
screenshot mode. Driven by actions, clicks and signals; every figure on screen is checked
against ``core.compare`` (itself checked against NVIDIA's reader in test_compare.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from paths_support import DATA, data_path
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QFileDialog, QMessageBox
from viewer_support import settle

from kernelscope.core.compare import (
    BASE_ONLY,
    CHANGED,
    SAME,
    SLOWER,
    WITHIN_NOISE,
    open_comparison,
)
from kernelscope.core.ncu import SAMPLES, label_of
from kernelscope.core.view import open_document
from kernelscope.core.workspace import Workspace
from kernelscope.viewer.code.code_models import DeltaColumn, SourceModel
from kernelscope.viewer.code.delta_delegate import DeltaRole
from kernelscope.viewer.code.highlight import cuda_highlighter
from kernelscope.viewer.compare import CompareFeature
from kernelscope.viewer.compare.diff_pane import DiffModel
from kernelscope.viewer.compare.kernel_columns import DELTA_TITLE, compare_columns
from kernelscope.viewer.compare.line_changes import LineChangesModel
from kernelscope.viewer.compare.opcode_table import OpcodeModel
from kernelscope.viewer.panels.kernel_list_model import KernelListModel
from kernelscope.viewer.widgets.roles import KeyRole, item_data

PAIRS = data_path("compare")
MATMUL = "fused_matmul_add3_kernel"  # its source differs between batch 8 and batch 2
SAMPLES_LABEL = label_of(SAMPLES)


def report(name: str) -> Path:
    return PAIRS / f"{name}.ncu-rep"


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The pairs' workspaces with their reports attached, as `kernelscope profile` leaves
    them: b8 (run 1, then run 2 attached: run 2 is the newest), b2, x8."""
    root = tmp_path_factory.mktemp("compare-builds")
    out = {}
    for folder, reports in (
        ("cnn3_b8", ["cnn3_b8_run1", "cnn3_b8_run2"]),
        ("cnn3_b2", ["cnn3_b2"]),
        ("cnn3x_b8", ["cnn3x_b8"]),
    ):
        target = root / f"{folder}.kscope"
        shutil.copytree(PAIRS / f"{folder}.kscope", target)
        ws = Workspace.open(target)
        for name in reports:
            ws.attach_profile(report(name))
            time.sleep(0.01)  # attachment order is mtime order
        out[folder] = target
    return out


def _compare(qtbot, window, baseline: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """File > Compare With…, choosing ``baseline`` in the file dialog."""
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(baseline)], ""))
    window.action("compare_with").trigger()
    settle(qtbot, window)
    assert window.feature(CompareFeature).mode.controller.diff is not None


def _rows(window) -> dict[str, int]:
    """Kernel list: row of each kernel (by key; baseline-only rows by their name) on screen."""
    table = window.kernels.table
    model = table.model()
    out = {}
    for r in range(model.rowCount()):
        key = item_data(model.index(r, 0), KeyRole)
        out[key or "base:" + model.index(r, 0).data()] = r
    return out


def _column(window, title: str) -> int:
    model = window.kernels.table.model()
    titles = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    return titles.index(title)


def _choose(qtbot, window, name: str) -> None:
    table = window.kernels.table
    row = _rows(window)[name]
    index = table.model().index(row, 0)
    table.scrollTo(index)
    qtbot.mouseClick(
        table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualRect(index).center()
    )
    settle(qtbot, window)


# ---- models -------------------------------------------------------------------------------------
def test_compare_models_pass_the_model_tester(qtmodeltester) -> None:
    cmp = open_comparison(report("cnn3_b8_run1"), report("cnn3_b2"))
    comp = cmp.kernel(MATMUL)
    diff_model = DiffModel(cuda_highlighter())
    diff_model.set_comparison(comp, SAMPLES)
    qtmodeltester.check(diff_model)
    opcodes = OpcodeModel()
    opcodes.set_rows(list(comp.opcodes))
    qtmodeltester.check(opcodes)
    changes = LineChangesModel()
    changes.set_rows(cmp.line_changes(SAMPLES)[0])
    qtmodeltester.check(changes)
    base = open_document(report("cnn3_b8_run1")).document
    session = open_document(report("cnn3_b2"))
    new = session.document
    kernels = KernelListModel()
    kernels.set_document(new)
    kernels.set_comparison(*compare_columns(cmp.summary(), base))
    qtmodeltester.check(kernels)
    view = session.kernel(MATMUL)
    source = SourceModel(cuda_highlighter())
    source.set_file(view, view.main_file, list(new.line_metric_names))
    rows = source.rowCount()
    columns = [DeltaColumn("Base", [1.0] * rows), DeltaColumn("Δ", [0.5] * rows, [SLOWER] * rows)]
    source.set_delta_columns(columns)
    qtmodeltester.check(source)
    assert source.code_column == 1 + len(new.line_metric_names) + 2
    assert source.is_delta_column(source.code_column - 1)
    assert not source.is_delta_column(source.code_column - 2)
    source.set_delta_columns([])
    assert source.code_column == 1 + len(new.line_metric_names)


# ---- compare with a baseline --------------------------------------------------------------------
def test_compare_with_shows_every_kernels_change_and_the_header(
    qtbot, make_window, builds, monkeypatch
) -> None:
    """Batch 2 against batch 8, both builds known: the kernel list's columns are the
    comparison's per-pass times, sorted worst first, coloured by status."""
    window = make_window(builds["cnn3_b2"])
    assert window.action("compare_with").isEnabled()
    assert not window.action("stop_comparing").isEnabled()
    _compare(qtbot, window, builds["cnn3_b8"], monkeypatch)
    expected = open_comparison(
        report("cnn3_b8_run2"),
        report("cnn3_b2"),
        base_workspace=PAIRS / "cnn3_b8.kscope",
        new_workspace=PAIRS / "cnn3_b2.kscope",
    ).summary()
    model = window.kernels.table.model()
    delta = _column(window, DELTA_TITLE)
    base_us, new_us = _column(window, "Base µs"), _column(window, "New µs")
    rows = _rows(window)
    # the build's reshapes: listed, not compared
    unlaunched = window.selection.document.never_launched
    assert unlaunched and set(rows) == {k.name for k in expected.kernels} | unlaunched
    for name in unlaunched:
        assert model.index(rows[name], delta).data() in (None, "")
    for k in expected.kernels:
        r = rows[k.name]
        shown = float(model.index(r, base_us).data().replace(",", ""))
        assert shown == pytest.approx(k.base_per_pass_ns / 1e3, rel=0.01)
        fraction, status = item_data(model.index(r, delta), DeltaRole)
        assert status == k.status
        assert (fraction > 0) == (k.delta_ns > 0)
        shown = float(model.index(r, new_us).data().replace(",", ""))
        assert shown == pytest.approx(k.new_per_pass_ns / 1e3, rel=0.01)
    # worst first
    ordered = [item_data(model.index(r, 0), KeyRole) for r in range(model.rowCount())]
    assert ordered[: len(expected.kernels)] == [
        k.name for k in sorted(expected.kernels, key=lambda k: -k.delta_ns)
    ]
    assert set(ordered[len(expected.kernels) :]) == unlaunched  # dimmed, last
    bar = window.feature(CompareFeature).mode.bar
    assert bar.isVisible()
    assert (
        "cnn3_b2.ncu-rep" in bar.headline.text() and "cnn3_b8_run2.ncu-rep" in bar.headline.text()
    )
    assert "both on NVIDIA H200" in bar.headline.text()
    assert expected.total.status in bar.total.text() and "µs per pass" in bar.total.text()
    assert "Stop Comparing" in window.feature(CompareFeature).mode.bar.stop.text()
    assert window.action("stop_comparing").isEnabled()


def test_a_changed_source_is_shown_side_by_side_with_its_deltas(
    qtbot, make_window, builds, monkeypatch
) -> None:
    """fused_matmul_add3_kernel, batch 8 vs 2: the rows of the side-by-side view are the
    comparison's aligned lines (checked by eye in test_compare.py), choosing one selects the
    new line and its SASS; "New Source Only" shows the source pane with base and delta."""
    window = make_window(builds["cnn3_b2"])
    _compare(qtbot, window, builds["cnn3_b8"], monkeypatch)
    _choose(qtbot, window, MATMUL)
    comp = window.feature(CompareFeature).mode.controller.current
    assert comp is not None and not comp.sources_identical
    pane = window.feature(CompareFeature).mode.diff_pane
    assert pane.isVisible() and not window.source.isVisible()
    model = pane.model
    assert model.rowCount() == len(comp.rows)
    kinds = {model.row(r).kind for r in range(model.rowCount())}
    assert {CHANGED, BASE_ONLY} <= kinds
    changed = next(r for r in range(model.rowCount()) if model.row(r).base_line == 23)
    assert model.row(changed).kind == CHANGED and model.row(changed).new_line == 23
    assert "< 4" in model.index(changed, 2).data() and "< 1" in model.index(changed, 6).data()
    removed = next(r for r in range(model.rowCount()) if model.row(r).base_line == 1612)
    assert model.row(removed).kind == BASE_ONLY and model.index(removed, 6).data() == ""
    # a row with samples on both sides: the values are the comparison's, per pass
    busy = max(
        (r for r in range(model.rowCount()) if model.row(r).kind != BASE_ONLY),
        key=lambda r: comp.value(model.row(r), SAMPLES, "new") or 0,
    )
    row = model.row(busy)
    assert model.index(busy, 4).data() == f"{comp.value(row, SAMPLES, 'new'):,.0f}"
    # choosing it selects the new line: the SASS pane follows
    index = model.index(busy, 6)
    pane.table.scrollTo(index)
    qtbot.mouseClick(
        pane.table.viewport(), Qt.MouseButton.LeftButton, pos=pane.table.visualRect(index).center()
    )
    assert window.selection.line == row.new_line
    assert window.selection.instructions
    # back to one source: the source pane with the baseline's value and the change per line
    qtbot.mouseClick(pane.single, Qt.MouseButton.LeftButton)
    assert window.source.isVisible() and not pane.isVisible()
    source = window.source.model
    titles = [source.headerData(c, Qt.Orientation.Horizontal) for c in range(source.columnCount())]
    assert "Base" in titles and "Δ" in titles
    base_col, delta_col = titles.index("Base"), titles.index("Δ")
    line = row.new_line
    shown = float(source.index(line - 1, delta_col).data().replace(",", ""))
    assert shown == pytest.approx(comp.delta(row, SAMPLES), rel=0.01, abs=0.01)
    fraction, status = item_data(source.index(line - 1, delta_col), DeltaRole)
    assert status == comp.status(row, SAMPLES)
    base_value = comp.value(row, SAMPLES, "base")
    assert source.index(line - 1, base_col).data() == (f"{base_value:,.0f}" if base_value else "")
    assert window.feature(CompareFeature).mode.split.isVisible()
    qtbot.mouseClick(window.feature(CompareFeature).mode.split, Qt.MouseButton.LeftButton)
    assert pane.isVisible()


def test_sass_shows_opcode_and_instruction_deltas(qtbot, make_window, builds, monkeypatch) -> None:
    window = make_window(builds["cnn3_b2"])
    _compare(qtbot, window, builds["cnn3_b8"], monkeypatch)
    _choose(qtbot, window, MATMUL)
    comp = window.feature(CompareFeature).mode.controller.current
    table = window.feature(CompareFeature).mode.opcodes
    assert table.isVisible()
    changed = [o for o in comp.opcodes if o.count_delta or o.executed_delta]
    assert table.model.rowCount() == len(changed) > 0
    ffma = next(
        r for r in range(table.model.rowCount()) if table.model.index(r, 0).data() == "FFMA.FTZ"
    )
    assert table.model.index(ffma, 3).data() == "-128"  # batch 2 computes a quarter of the rows
    assert comp.instructions_aligned < 0.5
    assert f"{comp.instructions_aligned:.0%} of the instructions align" in table.caption.text()
    # too few align here for per-instruction columns; the same build's two runs align fully
    sass = window.sass.model
    titles = [sass.headerData(c, Qt.Orientation.Horizontal) for c in range(sass.columnCount())]
    assert "Δ" not in titles


def test_set_as_baseline_then_open_another_profile(qtbot, make_window, builds) -> None:
    """Run 1 as the baseline of run 2 (the same build): every change within noise, the SASS
    aligned instruction by instruction with exact counts unchanged."""
    window = make_window(builds["cnn3_b8"] / "profiles" / "cnn3_b8_run1.ncu-rep")
    window.action("set_baseline").trigger()
    bar = window.feature(CompareFeature).mode.bar
    assert bar.isVisible() and "open another profile" in bar.headline.text()
    assert window.action("stop_comparing").isEnabled()
    window.open_path(builds["cnn3_b8"] / "profiles" / "cnn3_b8_run2.ncu-rep")
    settle(qtbot, window)
    diff = window.feature(CompareFeature).mode.controller.diff
    assert diff is not None and diff.base.name == "cnn3_b8_run1.ncu-rep"
    model = window.kernels.table.model()
    delta = _column(window, DELTA_TITLE)
    statuses = {item_data(model.index(r, delta), DeltaRole)[1] for r in range(model.rowCount())}
    assert statuses == {WITHIN_NOISE}
    assert "within noise" in bar.total.text()
    _choose(qtbot, window, "fused_conv2d1_add1_relu1_kernel")
    comp = window.feature(CompareFeature).mode.controller.current
    assert comp.sources_identical and not window.feature(CompareFeature).mode.diff_pane.isVisible()
    sass = window.sass.model
    titles = [sass.headerData(c, Qt.Orientation.Horizontal) for c in range(sass.columnCount())]
    delta_col = titles.index("Δ")
    kernel = window.selection.kernel
    same = {r.new_offset for r in comp.instructions if r.kind == SAME}
    assert all(insn.offset in same for insn in kernel.instructions)
    samples = [sass.index(r, delta_col).data() for r in range(sass.rowCount())]
    assert any(samples), "sampled stalls vary run to run"
    # executed instructions are counted exactly: the same on both runs, so no change at all
    window.metric_box.setCurrentText(label_of("inst_executed"))
    titles = [sass.headerData(c, Qt.Orientation.Horizontal) for c in range(sass.columnCount())]
    delta_col = titles.index("Δ")
    assert all(sass.index(r, delta_col).data() == "" for r in range(sass.rowCount()))
    assert "every opcode is the same" in window.feature(CompareFeature).mode.opcodes.caption.text()


def test_renumbered_kernels_and_kernels_on_one_side(
    qtbot, make_window, builds, monkeypatch
) -> None:
    """The extra-layer model against cnn3 and back: renamed kernels are matched by structure
    and named with both names; a kernel only in new says so; one only in the baseline gets a
    grey row that opens nothing."""
    window = make_window(builds["cnn3x_b8"])
    _compare(qtbot, window, builds["cnn3_b8"], monkeypatch)
    model = window.kernels.table.model()
    delta = _column(window, DELTA_TITLE)
    rows = _rows(window)
    assert model.index(rows["fused_conv2d_add_relu_kernel"], delta).data() == "only in new"
    _choose(qtbot, window, "fused_conv2d1_add1_relu1_kernel")
    bar = window.feature(CompareFeature).mode.bar
    assert "fused_conv2d_add_relu_kernel -&gt; fused_conv2d1_add1_relu1_kernel" in bar.kernel.text()
    assert "structure" in bar.kernel.text()
    assert window.feature(CompareFeature).mode.controller.current is not None
    _choose(qtbot, window, "fused_conv2d_add_relu_kernel")  # the new 1x1 conv
    assert window.feature(CompareFeature).mode.controller.current is None
    assert "only in new" in bar.kernel.text()
    assert not window.feature(CompareFeature).mode.opcodes.isVisible()

    # the other way round: the 1x1 conv is only in the baseline
    window.action("stop_comparing").trigger()
    window.open_path(builds["cnn3_b8"])
    settle(qtbot, window)
    _compare(qtbot, window, builds["cnn3x_b8"], monkeypatch)
    rows = _rows(window)
    assert "base:fused_conv2d_add_relu_kernel" in rows and "fused_conv2d_add_relu_kernel" in rows
    shown = window.selection.kernel.name
    _choose(qtbot, window, "base:fused_conv2d_add_relu_kernel")
    assert window.selection.kernel.name == shown  # nothing opened
    assert "only in the baseline" in bar.kernel.text()
    assert window.kernels.selected_names() == []  # nothing to export either
    r = rows["base:fused_conv2d_add_relu_kernel"]
    assert model.index(r, delta).data() == "only in base"


def test_biggest_regressions_and_improvements(qtbot, make_window, builds, monkeypatch) -> None:
    window = make_window(builds["cnn3_b2"])
    hot = window.hot
    assert not hot.ranking.isVisible()
    _compare(qtbot, window, builds["cnn3_b8"], monkeypatch)
    assert hot.ranking.isVisible()
    expected = open_comparison(
        report("cnn3_b8_run2"),
        report("cnn3_b2"),
        base_workspace=PAIRS / "cnn3_b8.kscope",
        new_workspace=PAIRS / "cnn3_b2.kscope",
    )
    hot.scope.setCurrentIndex(1)  # whole model
    for ranking, side in ((1, 0), (2, 1)):
        hot.ranking.setCurrentIndex(ranking)
        settle(qtbot, window)
        model = hot.table.model()
        assert isinstance(model, LineChangesModel)
        want = expected.line_changes(SAMPLES, 50)[side]
        assert [model.change(r).delta for r in range(model.rowCount())] == [c.delta for c in want]
        assert [model.change(r).kernel for r in range(model.rowCount())] == [c.kernel for c in want]
        assert ("grew" if side == 0 else "shrank") in hot.caption.text()
    # going to an improved line
    first = model.change(0)
    hot.table.activated.emit(model.index(0, 0))
    settle(qtbot, window)
    assert window.selection.kernel.name == first.new_kernel
    if first.row.new_line:
        assert window.selection.line == first.row.new_line
    # back to the hot lines
    hot.ranking.setCurrentIndex(0)
    settle(qtbot, window)
    assert hot.table.model() is hot.model


def test_stop_comparing_shows_the_profile_alone(qtbot, make_window, builds, monkeypatch) -> None:
    window = make_window(builds["cnn3_b2"])
    before = window.kernels.table.model().columnCount()
    _compare(qtbot, window, builds["cnn3_b8"], monkeypatch)
    _choose(qtbot, window, MATMUL)
    assert window.feature(CompareFeature).mode.diff_pane.isVisible()
    qtbot.mouseClick(window.feature(CompareFeature).mode.bar.stop, Qt.MouseButton.LeftButton)
    settle(qtbot, window)
    assert not window.feature(CompareFeature).mode.bar.isVisible()
    assert window.kernels.table.model().columnCount() == before
    assert (
        window.source.isVisible() and not window.feature(CompareFeature).mode.diff_pane.isVisible()
    )
    assert not window.feature(CompareFeature).mode.opcodes.isVisible()
    assert not window.hot.ranking.isVisible()
    source = window.source.model
    titles = [source.headerData(c, Qt.Orientation.Horizontal) for c in range(source.columnCount())]
    assert "Δ" not in titles and "Base" not in titles
    assert not window.action("stop_comparing").isEnabled()
    # opening another profile now compares nothing
    window.open_path(builds["cnn3_b8"])
    settle(qtbot, window)
    assert window.feature(CompareFeature).mode.controller.diff is None


def test_opening_another_model_ends_the_comparison(qtbot, make_window, builds, monkeypatch) -> None:
    """After a comparison, a profile of the same model (another run) is compared with the
    baseline as well; a profile of another model ends compare mode and says so, instead of
    comparing it with a baseline of another model."""
    window = make_window(builds["cnn3_b2"])
    _compare(qtbot, window, builds["cnn3_b8"], monkeypatch)
    controller, bar = (
        window.feature(CompareFeature).mode.controller,
        window.feature(CompareFeature).mode.bar,
    )
    window.open_path(builds["cnn3_b8"] / "profiles" / "cnn3_b8_run1.ncu-rep")  # the same model
    settle(qtbot, window)
    assert controller.diff is not None and controller.diff.new.name == "cnn3_b8_run1.ncu-rep"
    for other, why in (
        (builds["cnn3x_b8"], "is a build of cnn3_extra_layer.onnx, not of cnn3.onnx"),
        (data_path("ncu/mlp/mlp.ncu-rep"), "kernels of mlp.ncu-rep have a name in"),
    ):
        window.open_path(other)
        settle(qtbot, window)
        assert controller.baseline is None and controller.diff is None
        assert not bar.isVisible() and not window.action("stop_comparing").isEnabled()
        message = window.statusBar().currentMessage()
        assert message.startswith("Stopped comparing with ") and why in message
        model = window.kernels.table.model()
        titles = [
            model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())
        ]
        assert DELTA_TITLE not in titles
        _compare(qtbot, window, builds["cnn3_b8"], monkeypatch)  # asked for: compared
        assert controller.diff is not None


def test_compare_with_folder_takes_a_workspace_as_its_newest_profile(
    qtbot, make_window, builds, monkeypatch
) -> None:
    """File > Compare With Folder…: a file dialog cannot choose a workspace folder, this one
    can; the baseline is the workspace's newest profile (run 2 for cnn3_b8)."""
    window = make_window(builds["cnn3_b2"])
    folder = str(builds["cnn3_b8"])
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: folder)
    window.action("compare_with_folder").trigger()
    settle(qtbot, window)
    diff = window.feature(CompareFeature).mode.controller.diff
    assert diff is not None and diff.base.name == "cnn3_b8_run2.ncu-rep"
    assert diff.base.workspace == str(builds["cnn3_b8"])


def test_the_workspace_menu_offers_its_other_profiles(qtbot, make_window, builds) -> None:
    window = make_window(builds["cnn3_b8"])  # shows run 2, the newest
    menu = window.feature(CompareFeature).mode.profiles_menu
    menu.aboutToShow.emit()
    names = [a.text() for a in menu.actions()]
    assert names == ["cnn3_b8_run1.ncu-rep"]
    menu.actions()[0].trigger()
    settle(qtbot, window)
    assert window.feature(CompareFeature).mode.controller.diff.base.name == "cnn3_b8_run1.ncu-rep"


def test_a_baseline_without_source_counters_compares_kernels_only(
    qtbot, make_window, builds, monkeypatch
) -> None:
    window = make_window(builds["cnn3_b8"])
    _compare(qtbot, window, report("cnn3_b8_nosource"), monkeypatch)
    bar = window.feature(CompareFeature).mode.bar
    assert "kernel level only" in bar.notes.toolTip() and "SourceCounters" in bar.notes.toolTip()
    _choose(qtbot, window, MATMUL)
    source = window.source.model
    titles = [source.headerData(c, Qt.Orientation.Horizontal) for c in range(source.columnCount())]
    assert "Δ" not in titles  # no lines to compare on the baseline's side
    assert window.feature(CompareFeature).mode.opcodes.isVisible()


@pytest.mark.parametrize(
    ("baseline", "message"),
    [
        (DATA / "bad" / "random.ncu-rep", "random.ncu-rep"),
        (PAIRS / "cnn3_b8.kscope", "no Nsight Compute profile"),
    ],
)
def test_a_bad_baseline_is_a_dialog_and_the_profile_stays(
    qtbot, make_window, builds, monkeypatch, baseline: Path, message: str
) -> None:
    window = make_window(builds["cnn3_b2"])
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(baseline)], ""))
    window.action("compare_with").trigger()
    qtbot.waitUntil(lambda: any(w.isVisible() for w in window.findChildren(QMessageBox)))
    box = next(w for w in window.findChildren(QMessageBox) if w.isVisible())
    assert message in box.text() + box.informativeText() + (box.detailedText() or "")
    box.close()
    settle(qtbot, window)
    assert (
        window.feature(CompareFeature).mode.controller.diff is None
        and window.feature(CompareFeature).mode.controller.baseline is None
    )
    assert (
        not window.feature(CompareFeature).mode.bar.isVisible()
        and not window.action("stop_comparing").isEnabled()
    )
    assert window.selection.document.path.name == "cnn3_b2.ncu-rep"


def test_different_gpus_are_named_in_the_header(
    qtbot, make_window, tmp_path: Path, monkeypatch
) -> None:
    """No second GPU model is at hand: the cnn raw export rewritten as an A100's stands in
    for a profile from another GPU (as in test_compare.py)."""
    raw = data_path("ncu/cnn/raw.csv")
    other = tmp_path / "raw_a100.csv"
    other.write_text(raw.read_text().replace("NVIDIA H200", "NVIDIA A100-SXM4-80GB"))
    window = make_window(other)
    _compare(qtbot, window, raw, monkeypatch)
    headline = window.feature(CompareFeature).mode.bar.headline.text()
    assert "different GPUs" in headline
    assert "baseline on NVIDIA H200" in headline and "new on NVIDIA A100-SXM4-80GB" in headline
    assert "different GPUs" in window.feature(CompareFeature).mode.bar.notes.toolTip()


@pytest.mark.parametrize("palette", ["light", "dark"])
def test_screenshot_of_compare_mode(builds, tmp_path: Path, palette: str) -> None:
    """``kernelscope --screenshot`` with --baseline and --ranking, as the docs' shots run it:
    in a process of its own (after a screenshot run inside the test process, the jobs of
    later windows in that process never report back: their tests would hang)."""
    out = tmp_path / f"compare-{palette}.png"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "kernelscope.core.cli",
            "--screenshot",
            str(out),
            str(builds["cnn3_b2"]),
            "--baseline",
            str(builds["cnn3_b8"]),
            "--kernel",
            "matmul",
            "--ranking",
            "regressions",
            "--palette",
            palette,
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1600, 1000)
    centre = image.pixelColor(image.width() // 2, image.height() // 3)
    assert (centre.lightness() < 100) == (palette == "dark")


def test_a_screenshot_with_a_bad_baseline_is_an_error(builds, tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "kernelscope.core.cli",
            "--screenshot",
            str(tmp_path / "x.png"),
            str(builds["cnn3_b2"]),
            "--baseline",
            str(PAIRS / "cnn3_b8.kscope"),  # a build without a profile
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        timeout=300,
    )
    assert proc.returncode == 1
    assert "no Nsight Compute profile" in proc.stderr and "Traceback" not in proc.stderr


def test_kernels_are_compared_ahead_of_being_chosen(
    qtbot, make_window, builds, monkeypatch
) -> None:
    """Once the comparison is made, the window compares every matched kernel in the
    background: a kernel chosen afterwards is compared the moment it is shown."""
    from viewer_support import settle_all

    window = make_window(builds["cnn3_b2"])
    _compare(qtbot, window, builds["cnn3_b8"], monkeypatch)
    settle_all(qtbot, window)
    at_once = []
    window.selection.kernel_changed.connect(
        lambda: at_once.append(window.feature(CompareFeature).mode.controller.current)
    )
    names = ["fused_conv2d2_add2_relu2_kernel", "mean_kernel", MATMUL]
    for name in [n for n in names if n != window.selection.kernel.name]:
        _choose(qtbot, window, name)
        assert at_once[-1] is not None and at_once[-1].kernel.match.new == name


def test_profiles_of_two_models_say_so_and_show_what_matches(
    qtbot, make_window, builds, monkeypatch
) -> None:
    window = make_window(builds["cnn3_b8"])
    _compare(qtbot, window, data_path("ncu/mlp/mlp.ncu-rep"), monkeypatch)
    bar = window.feature(CompareFeature).mode.bar
    assert "look like profiles of different models" in bar.notes.toolTip()
    diff = window.feature(CompareFeature).mode.controller.diff
    rows = _rows(window)
    assert {f"base:{k.match.base}" for k in diff.only_base} <= set(rows)
    model, delta = window.kernels.table.model(), _column(window, DELTA_TITLE)
    shown = {model.index(r, delta).data() for r in rows.values()}
    assert {"only in base", "only in new"} <= shown


OPEN_AND_COMPARE = """
import sys, time
from pathlib import Path
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from kernelscope.viewer.compare import CompareFeature
from kernelscope.viewer.main_window import MainWindow

new, base, scratch = map(Path, sys.argv[1:])
assert "numpy" not in sys.modules  # as in a window just started
app = QApplication([])
window = MainWindow(
    restore_layout=False, settings=QSettings(str(scratch / "s.ini"), QSettings.Format.IniFormat)
)
errors = []
window.show_error = lambda title, error: errors.append(f"{title}: {error}")
window.show()
window.open_path(new)
window.feature(CompareFeature).compare_with_paths([base])
controller = window.feature(CompareFeature).mode.controller
start = time.time()
while controller.diff is None and not errors and time.time() - start < 120:
    app.processEvents()
    time.sleep(0.005)
print("compared" if controller.diff is not None else f"not compared: {errors}")
"""


def test_a_profile_and_its_baseline_opened_at_once_are_compared(builds, tmp_path: Path) -> None:
    """Compare With… right after opening (``kernelscope gui NEW --baseline BASE`` does it):
    both open on worker threads at once, in a process that has not imported numpy yet. The
    report decoder used numpy when it found it in ``sys.modules``, which another thread's
    import puts there before numpy has its functions: the baseline failed to open
    ("partially initialized module 'numpy' has no attribute 'frombuffer'")."""
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            OPEN_AND_COMPARE,
            str(builds["cnn3_b2"]),
            str(builds["cnn3_b8"]),
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        env={
            **os.environ,
            "QT_QPA_PLATFORM": "offscreen",
            "KERNELSCOPE_CACHE_DIR": str(tmp_path / "cache"),
        },
        timeout=300,
    )
    assert proc.stdout.strip().splitlines()[-1:] == ["compared"], proc.stdout + proc.stderr
