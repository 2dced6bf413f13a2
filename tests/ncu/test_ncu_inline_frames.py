"""Lines inlined from CUDA headers: a report read with ncu_report only names the call site in
the kernel's file; the workspace's nvdisasm line table adds the header frame. The cuda,sass CSV
export of the same report lists header lines itself, so the two must agree."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from ncu_support import MLP, MLP_CSVS
from paths_support import DATA

from kernelscope.core.ncu import Profile
from kernelscope.core.workspace import Workspace

WS_MLP = DATA / "ws_mlp"
KERNELS = ["softmax_kernel", "fused_matmul_add_relu_kernel", "fused_matmul1_add1_kernel"]


@pytest.mark.parametrize("kernel", KERNELS)
def test_report_plus_workspace_gives_the_header_lines_the_csv_export_lists(kernel: str) -> None:
    report = Profile.open(MLP / "mlp.ncu-rep", workspace=Workspace.open(WS_MLP), use_cache=False)
    csv = Profile.open(MLP_CSVS, use_cache=False)
    headers = report.source_files(kernel)[1:]
    assert headers == csv.source_files(kernel)[1:]
    for header in headers:
        ours = {k: v.get("inst_executed") for k, v in report.lines(kernel, header).items()}
        theirs = {k: v.get("inst_executed") for k, v in csv.lines(kernel, header).items()}
        assert ours == theirs, header
        assert report.source(header).status == "ok"


def test_header_lines_need_the_same_build(tmp_path: Path) -> None:
    """A workspace whose line table does not fit the report adds nothing (no wrong lines)."""
    ws = tmp_path / "ws"
    shutil.copytree(WS_MLP, ws)
    data = Workspace.open(ws)
    table = data.sass("softmax_kernel")
    for insn in table.instructions:  # shift every line of the kernel's own file
        if insn.line is not None and not insn.inlined_at:
            insn.line += 1
    report = Profile.open(MLP / "mlp.ncu-rep", workspace=data, use_cache=False)
    assert report.source_files("softmax_kernel")[1:] == []
    without = Profile.open(MLP / "mlp.ncu-rep", use_cache=False)
    assert report.lines("softmax_kernel") == without.lines("softmax_kernel")


def test_viewer_uses_the_reports_exact_call_site_for_inlined_instructions() -> None:
    """nvdisasm keeps offset 0x100 (inlined fmaxf) at call site 11; the report says 13."""
    from kernelscope.core.view.from_profile import document_from_profile

    ws = Workspace.open(WS_MLP)
    static = {i.offset: i for i in ws.sass("softmax_kernel").instructions}
    assert static[0x100].inlined_at[-1][1] == 11
    profile = Profile.open(MLP / "mlp.ncu-rep", workspace=ws, use_cache=False)
    view = document_from_profile(profile, ws).kernel("softmax_kernel")
    insn = next(i for i in view.instructions if i.offset == 0x100)
    assert insn.kernel_line is not None and insn.kernel_line[1] == 13
    assert insn.file is not None and insn.file.endswith("math_functions.hpp")
    assert static[0x100].inlined_at[-1][1] == 11  # the workspace's own data is not changed
