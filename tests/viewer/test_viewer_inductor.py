"""File > Open Folder on a real torch.compile run folder (tests/data/inductor): its Triton
kernels with their ATen operators, the Triton file as the source with per-line samples, the
cubin's SASS and Triton's PTX, and the cuBLAS launches beside them."""

from __future__ import annotations

import lzma
import shutil
from pathlib import Path

import pytest
from paths_support import DATA
from PySide6.QtWidgets import QFileDialog
from viewer_support import settle

GELU = "triton_poi_fused_addmm_gelu_view_7"


@pytest.fixture()
def run_dir(tmp_path: Path) -> Path:
    run = Path(shutil.copytree(DATA / "inductor" / "transformer", tmp_path / "transformer"))
    xz = DATA / "inductor" / "transformer_profile.ncu-rep.xz"
    (run / "profile.ncu-rep").write_bytes(lzma.decompress(xz.read_bytes()))
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
