"""File > Open Folder on a real torch.compile run folder (tests/data/inductor): its Triton
kernels with their ATen operators, the Triton file as the source with per-line samples, the
cubin's SASS and Triton's PTX, and the cuBLAS launches beside them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from paths_support import DATA, data_path
from PySide6.QtWidgets import QFileDialog
from viewer_support import settle

from kernelscope.viewer.build_profile import BuildProfileFeature
from kernelscope.viewer.compare import CompareFeature
from kernelscope.viewer.details import DetailsFeature
from kernelscope.viewer.torch_runs import TorchRunsFeature

GELU = "triton_poi_fused_addmm_gelu_view_7"


@pytest.fixture()
def run_dir(tmp_path: Path) -> Path:
    run = Path(shutil.copytree(DATA / "inductor" / "transformer", tmp_path / "transformer"))
    shutil.copyfile(data_path("inductor/transformer_profile.ncu-rep"), run / "profile.ncu-rep")
    return run


def test_open_folder_shows_a_torch_compile_run(qtbot, make_window, monkeypatch, run_dir) -> None:
    window = make_window()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(run_dir))
    window.action("open_folder").trigger()
    settle(qtbot, window)
    document = window.selection.document
    assert document is not None and document.has_profile
    names = [s.name for s in document.summaries]
    assert len(names) == 13 and sum("cublas" in n for n in names) == 4
    assert document.summary(GELU).ops == ("aten.addmm", "aten.view", "aten.gelu")
    window.selection.show(GELU)
    settle(qtbot, window)
    kernel = window.selection.kernel
    assert kernel.main_file.endswith("cvh2k7zasavgpnd4u6urzentkqlcsnenxgh7flv6zhxpdgyw4e7c.py")
    line = kernel.file_metrics(kernel.main_file)[32]  # tmp7 = libdevice.erf(tmp6)
    assert line["# Samples"] == 122  # what `kernelscope hot` ranks first
    assert kernel.instructions and kernel.ptx.rows
    assert window.recent.paths()[0] == str(run_dir.resolve())


def test_the_kernel_list_tooltip_gives_config_and_wrapper_line(qtbot, make_window, run_dir) -> None:
    from kernelscope.viewer.panels.kernel_list_model import KernelListModel

    window = make_window(run_dir)
    model = window.findChild(KernelListModel)
    row = next(r for r in window.selection.document.summaries if r.name == GELU)
    tip = model.tooltip(row, 0)
    assert "Triton pointwise: XBLOCK=1024 warps=4 stages=1 (autotune record)" in tip
    assert f"output_code.py:701: {GELU}.run(buf20, arg10_1, 1048576, stream=stream0)" in tip
    assert "model: , linear_2, gelu" not in tip and "linear_2, gelu" in tip
    grid = next(r for r in window.selection.document.summaries if r.name == GELU).grid
    assert grid == (1024, 1, 1)  # the report's: the run folder does not know it


def test_compare_with_a_tvm_workspace_shows_the_operator_groups(
    qtbot, make_window, monkeypatch, run_dir, build_once, tmp_path
) -> None:
    """The run folder open, File > Compare With… the TVM twin's workspace (profiled on the
    same H200): the per-group table instead of a kernel-by-kernel comparison."""
    ws = Path(shutil.copytree(build_once("transformer_block.py").path, tmp_path / "tvm.kscope"))
    (ws / "profiles").mkdir(exist_ok=True)
    shutil.copyfile(data_path("inductor/tvm_transformer.ncu-rep"), ws / "profiles" / "h200.ncu-rep")
    window = make_window(run_dir)
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(ws)], ""))
    window.action("compare_with").trigger()
    qtbot.waitUntil(lambda: window.feature(TorchRunsFeature).dialog is not None, timeout=120_000)
    table = window.feature(TorchRunsFeature).dialog.table
    rows = {table.item(r, 0).text(): [table.item(r, c).text() for c in range(table.columnCount())]
            for r in range(table.rowCount())}  # fmt: skip
    assert rows["matmul"][1:6] == ["6", "202.6", "7", "115.3", "Inductor 1.76x"]
    assert rows["softmax"][6:] == [
        "softmax_kernel",
        "triton_per_fused__softmax_amax_mul_sub_view_3",
    ]
    assert not window.feature(CompareFeature).mode.controller.comparing
    dialog = window.feature(TorchRunsFeature).dialog
    dialog.table.selectRow(list(rows).index("softmax"))
    qtbot.waitUntil(
        lambda: "softmax_kernel" in dialog.sides[0].source.toPlainText(), timeout=60_000
    )
    qtbot.waitUntil(
        lambda: "libdevice.exp(tmp8)" in dialog.sides[1].source.toPlainText(), timeout=60_000
    )
    assert all("MUFU.EX2" in side.sass.toPlainText() for side in dialog.sides)  # both exp
    dialog.close()


@pytest.mark.parametrize("pick", ["folder", "report"])
def test_a_tvm_build_open_compares_with_a_run_folder_chosen(
    qtbot, make_window, monkeypatch, run_dir, build_once, tmp_path, pick: str
) -> None:
    """The TVM workspace open, the run chosen as a folder (File > Compare With Folder…) or
    as its report (File > Compare With…, the only file a file dialog lets one pick there):
    either way the per-group table, not a kernel-by-kernel diff that matches nothing."""
    ws = Path(shutil.copytree(build_once("transformer_block.py").path, tmp_path / "tvm.kscope"))
    (ws / "profiles").mkdir(exist_ok=True)
    shutil.copyfile(data_path("inductor/tvm_transformer.ncu-rep"), ws / "profiles" / "h200.ncu-rep")
    window = make_window(ws)
    if pick == "folder":
        monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(run_dir))
        assert window.action("compare_with_folder").isEnabled()
        window.action("compare_with_folder").trigger()
    else:
        report = str(run_dir / "profile.ncu-rep")
        monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([report], ""))
        window.action("compare_with").trigger()
    qtbot.waitUntil(
        lambda: (
            window.feature(TorchRunsFeature).dialog is not None
            or window.feature(CompareFeature).mode.controller.diff is not None
        ),
        timeout=120_000,
    )
    assert (
        window.feature(TorchRunsFeature).dialog is not None
        and not window.feature(CompareFeature).mode.controller.comparing
    )
    table = window.feature(TorchRunsFeature).dialog.table
    groups = {table.item(r, 0).text() for r in range(table.rowCount())}
    assert {"matmul", "softmax"} <= groups
    assert window.feature(TorchRunsFeature).dialog.steps_table is None  # no steps profiled
    window.feature(TorchRunsFeature).dialog.close()


def test_an_llm_and_its_twin_profiled_by_steps_compare_step_by_step(
    qtbot, make_window, monkeypatch, tmp_path
) -> None:
    """The recorded Llama's workspace (its prefill and decode reports, H100) open, its
    torch.compile twin's run folder chosen (tests/data/llm): beside the per-group table, each
    step by operator group with its winner, as ``kernelscope diff WS RUN --steps``."""
    from llm_support import build_recorded_llama

    from kernelscope.core.ncu import steps_path

    ws = build_recorded_llama(tmp_path / "llama.kscope").path
    (ws / "profiles").mkdir(exist_ok=True)
    for name in ("tiny_prefill", "tiny_decode"):  # oldest first, as profiled
        report = data_path(f"llm/{name}.ncu-rep")
        shutil.copy(report, ws / "profiles" / report.name)
        shutil.copy(steps_path(report), steps_path(ws / "profiles" / report.name))
    run = Path(shutil.copytree(data_path("llm/tiny.torchrun"), tmp_path / "tiny.torchrun"))
    window = make_window(ws)
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(run))
    window.action("compare_with_folder").trigger()
    qtbot.waitUntil(lambda: window.feature(TorchRunsFeature).dialog is not None, timeout=120_000)
    table = window.feature(TorchRunsFeature).dialog.steps_table
    assert table is not None
    cells = [[table.item(r, c).text() for c in range(table.columnCount())]
             for r in range(table.rowCount())]  # fmt: skip
    totals = {row[0]: row for row in cells if row[1] == "total"}
    assert all(row[0] for row in cells)  # every row names its step
    assert list(totals) == ["prefill 0"] + [f"decode {i}" for i in range(4)]
    # the recorded H100 reports: 180.4 µs of TVM kernels against 170.2 of torch.compile's
    assert totals["decode 0"][3] == "180.4" and totals["decode 0"][5] == "170.2"
    assert totals["decode 0"][6].startswith("torch.compile 1.0")
    # the recording's twin steps were timed under ncu: left out, and the window says why
    notes = window.feature(TorchRunsFeature).dialog.notes.text()
    assert "whole-step times of this run were taken under ncu" in notes
    assert "timed whole" not in notes
    # a step's row: that step's slowest kernel of the group on each side, side by side
    dialog = window.feature(TorchRunsFeature).dialog
    row = cells.index(next(r for r in cells if r[:2] == ["decode 2", "attention"]))
    step = next(s for s in dialog.steps.steps if s.label == "decode 2")
    group = next(r for r in step.rows if r.group == "attention")
    table.selectRow(row)
    tvm_side, torch_side = dialog.sides
    qtbot.waitUntil(
        lambda: (
            tvm_side.source.toPlainText().startswith("TVM: ")
            and torch_side.source.toPlainText().startswith("Inductor: ")
        ),
        timeout=60_000,
    )
    assert tvm_side.source.toPlainText().startswith(f"TVM: {group.tvm.slowest()} (")
    assert torch_side.source.toPlainText().startswith(f"Inductor: {group.inductor.slowest()} (")
    assert "batch_decode" in group.tvm.slowest()  # the paged KV cache's decode attention
    assert tvm_side.sass.toPlainText().count("\n") > 100  # its SASS, from the decode report
    dialog.close()


def test_library_kernels_have_their_operator_wrapper_line_and_the_reports_sass(
    qtbot, make_window, run_dir
) -> None:
    window = make_window(run_dir)
    document = window.selection.document
    split_k = next(s for s in document.summaries if "split_k" in s.name)
    assert split_k.ops == ("aten.mm",) and split_k.duration_ns == 7296
    assert any(line.startswith("output_code.py:706: extern_kernels.mm(") for line in split_k.about)
    bmm = next(s for s in document.summaries if s.ops == ("aten.bmm",))
    assert len(bmm.launches) == 2 and sum("extern_kernels.bmm" in a for a in bmm.about) == 2
    window.selection.show(split_k.name)
    settle(qtbot, window)
    assert window.selection.kernel.name == split_k.name
    kernel = window.selection.kernel
    assert len(kernel.instructions) > 100  # cuBLAS's SASS, from the report
    # no line information in cuBLAS: the source shown is the wrapper that calls it
    assert kernel.main_file == "src/output_code.py"
    assert "extern_kernels.mm(" in kernel.files[kernel.main_file].lines[705]


def test_a_library_kernel_opens_at_the_wrapper_line_that_launches_it(
    qtbot, make_window, run_dir
) -> None:
    """Chosen in the list, a cuBLAS kernel's source pane goes to (and marks) its launch in
    the wrapper, as the selection every pane follows says, not the wrapper's top."""
    from kernelscope.viewer.code.source_pane import SourcePane

    window = make_window(run_dir)
    split_k = next(s for s in window.selection.document.summaries if "split_k" in s.name)
    window.selection.show(split_k.name)
    settle(qtbot, window)
    selection = window.selection
    assert selection.kernel.name == split_k.name and selection.file == "src/output_code.py"
    assert (selection.line, selection.lines) == (706, {706})  # output_code.py:706, the tooltip's
    pane = window.findChild(SourcePane)
    assert pane.current_row() == 705
    first, last = pane.table.visible_rows()
    assert first <= 705 <= last
    assert "extern_kernels.mm(" in pane.model.text(705)
    window.selection.show(GELU)  # a Triton kernel: its own file, nothing chosen for it
    settle(qtbot, window)
    assert selection.file.endswith(".py") and selection.file != "src/output_code.py"
    assert selection.line == 0


def test_a_report_of_another_compile_is_said_when_the_run_opens(
    qtbot, make_window, run_dir: Path, tmp_path: Path
) -> None:
    """resnet18's wrapper with the transformer's report: the window opens what it can and
    says, as `kernelscope kernels` does, that the report's Triton kernels are not this run's."""
    other = Path(shutil.copytree(DATA / "inductor" / "resnet18_wrapper_only", tmp_path / "r18"))
    shutil.copy(run_dir / "profile.ncu-rep", other / "profile.ncu-rep")
    window = make_window(other)
    settle(qtbot, window)
    assert window.selection.document is not None
    said = window.statusBar().currentMessage()
    assert "9 of the report's 9 Triton kernels are not in this run folder" in said
    # the run the report belongs to opens without a word
    window.open_paths([run_dir])
    settle(qtbot, window)
    assert window.selection.document.notes == ()


def test_a_run_folder_is_named_as_itself_never_as_kernelscopes_cache(
    qtbot, make_window, run_dir
) -> None:
    """Headroom on a torch.compile run says what applies to a run (Inductor names the ATen
    operators, not their shapes), with the run folder's path; Build & Profile starts from
    the run folder as torch.compile's. The workspace kernelscope keeps of the run in its
    cache is shown nowhere, and "rebuild it with kernelscope build" is not said."""
    from kernelscope.core.paths import cache_root

    window = make_window(run_dir)
    panel = window.feature(DetailsFeature).show_pane("headroom")
    settle(qtbot, window)
    caption = panel.caption.text()
    assert f"{run_dir.resolve()}: torch.compile names the ATen operators, not their shapes" in (
        caption
    )
    assert "kernelscope build" not in caption and str(cache_root()) not in caption
    notes = {panel.model.index(r, c).data() for r in range(panel.model.rowCount())
             for c in range(panel.model.columnCount())}  # fmt: skip
    assert not any("kernelscope build" in str(n) for n in notes)
    dialog = window.feature(BuildProfileFeature).build_and_profile()
    assert dialog.torch_chosen() and dialog.output.text() == str(run_dir.resolve())
    dialog.close()
