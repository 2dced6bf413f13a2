"""The build's PTX: nvcc's ``.loc`` lines parsed per kernel (golden file), the PTX line of
every SASS instruction from ``nvdisasm -gp``, and the correlation the panes follow.

The data is real: ``tests/data/ws_mlp/module.ptx`` and ``ptx_lines.json`` come from the nvcc
compile that gave that workspace's ``sass.json``, ``tests/data/nvdisasm/mlp_gp.txt`` is its
``nvdisasm -c -g -gi -gp`` output (see tests/data/nvdisasm/README.md).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from cli_support import run_cli as _cli
from golden import check_golden
from paths_support import DATA, H200_REPORT

from kernelscope.core.build.nvdisasm import parse_nvdisasm, parse_ptx_lines
from kernelscope.core.view import SASS_COUNT, ProfileSession, Selection, open_document
from kernelscope.core.view.ptx import NOT_KEPT
from kernelscope.core.workspace import Workspace, relative_file_table
from kernelscope.core.workspace.ptx import PtxKernel, parse_ptx, read_ptx_lines
from kernelscope.core.workspace.sass_table import read_sass

WS_MLP = DATA / "ws_mlp"
SOFTMAX = "/build/ws_mlp/src/kernels/softmax_kernel.cu"
MATH = "/usr/local/cuda/bin/../targets/x86_64-linux/include/crt/math_functions.hpp"


def _render(kernels: dict[str, PtxKernel]) -> str:
    """One line per row: its line in module.ptx, its frames (inner first), its text."""
    out = []
    for name, kernel in kernels.items():
        out.append(f"== {name}")
        for row in kernel.rows:
            where = " < ".join(f"{Path(f).name}:{n}" for f, n in row.frames) or "-"
            text = " ".join(row.text.split())
            out.append(f"{row.line:5d}  {where}  {text}")
    return "\n".join(out) + "\n"


@pytest.fixture(scope="module")
def session() -> ProfileSession:
    return open_document(WS_MLP)


def test_nvcc_ptx_parses_into_kernels_with_their_source_lines() -> None:
    kernels = parse_ptx((WS_MLP / "module.ptx").read_text(encoding="utf-8"))
    assert sorted(kernels) == sorted(k["name"] for k in _manifest()["kernels"])
    small = {name: kernels[name] for name in ("softmax_kernel", "transpose_kernel")}
    check_golden(_render(small), "ptx_mlp.txt")


def test_inlined_ptx_names_the_header_line_then_its_call_site() -> None:
    rows = parse_ptx((WS_MLP / "module.ptx").read_text(encoding="utf-8"))["softmax_kernel"].rows
    fmax = next(r for r in rows if r.text.strip().startswith("max.ftz.f32"))
    assert fmax.frames == ((MATH, 1133), (SOFTMAX, 11))
    assert all(not r.frames for r in rows if r.text.strip().startswith((".reg", "$L__", "{")))


def test_nvdisasm_ptx_lines_are_read_and_left_out_of_the_sass_table() -> None:
    text = (DATA / "nvdisasm" / "mlp_gp.txt").read_text(encoding="utf-8")
    assert ".nv_debug_ptx_txt" in text
    sass, expected = parse_nvdisasm(text), read_sass(WS_MLP / "sass.json")
    assert list(sass) == ["transpose1_kernel", "transpose_kernel", "softmax_kernel"]
    for name, kernel in sass.items():  # the same table as without -gp
        assert kernel == expected[name]
    lines = parse_ptx_lines(text)
    stored = read_ptx_lines(WS_MLP / "ptx_lines.json")
    ptx = parse_ptx((WS_MLP / "module.ptx").read_text(encoding="utf-8"))
    for name, kernel in sass.items():
        assert lines[name] == stored[name]
        assert sorted(lines[name]) == [i.offset for i in kernel.instructions]
        rows = {r.line for r in ptx[name].rows}
        assert set(lines[name].values()) <= rows  # every instruction comes from its kernel
    by_line = {r.line: r.text.strip() for r in ptx["softmax_kernel"].rows}
    first_load = next(i for i in sass["softmax_kernel"].instructions if i.opcode.startswith("LDG"))
    assert by_line[lines["softmax_kernel"][first_load.offset]].startswith("ld.global.nc.f32")


def test_file_table_paths_are_rewritten_and_nothing_else() -> None:
    text = '\tld.param.u64 \t%rd1, [p];\n\t.file\t1 "/cache/ab/src/kernels/k.cu"\n'
    fixed = relative_file_table(text, lambda p: p.replace("/cache/ab/", ""))
    assert fixed == '\tld.param.u64 \t%rd1, [p];\n\t.file\t1 "src/kernels/k.cu"\n'


def test_a_source_line_selects_its_ptx_rows_and_a_ptx_row_its_sass(
    session: ProfileSession,
) -> None:
    selection = _selection(session, "softmax_kernel")
    kernel = selection.kernel
    assert kernel is not None and kernel.ptx.rows and not kernel.ptx.note
    selection.select_line(13)
    assert selection.ptx_rows
    assert all((SOFTMAX, 13) in kernel.ptx.rows[r].frames for r in selection.ptx_rows)
    assert selection.ptx_row == min(selection.ptx_rows)
    load = next(r for r in selection.ptx_rows if "ld.global" in kernel.ptx.rows[r].text)
    selection.select_ptx_row(load)
    assert selection.picked == "ptx" and selection.line == 13 and selection.lines == {13}
    assert [kernel.instructions[i].text for i in sorted(selection.instructions)] == [
        "LDG.E.CONSTANT R9, desc[UR4][R2.64+0x400]"
    ]
    assert load in selection.ptx_rows and selection.ptx_row == load


def test_an_instruction_selects_the_ptx_row_it_was_assembled_from(
    session: ProfileSession,
) -> None:
    selection = _selection(session, "softmax_kernel")
    kernel = selection.kernel
    assert kernel is not None
    stored = read_ptx_lines(WS_MLP / "ptx_lines.json")["softmax_kernel"]
    for index, insn in enumerate(kernel.instructions):
        selection.select_instruction(index)
        assert kernel.ptx.rows[selection.ptx_row].line == stored[insn.offset]
        assert selection.ptx_row in selection.ptx_rows


def test_a_ptx_row_inlined_from_a_header_shows_its_line_in_the_kernel_file(
    session: ProfileSession,
) -> None:
    selection = _selection(session, "softmax_kernel")
    kernel = selection.kernel
    assert kernel is not None
    row = next(r for r, p in enumerate(kernel.ptx.rows) if p.frames[:1] == ((MATH, 1133),))
    selection.select_ptx_row(row)
    assert selection.file == SOFTMAX and selection.line == kernel.ptx.rows[row].frames[-1][1]
    selection.set_file(MATH)
    selection.select_ptx_row(row)
    assert selection.file == MATH and selection.line == 1133


def test_ptx_rows_count_the_instructions_assembled_from_them(session: ProfileSession) -> None:
    kernel = session.kernel("fused_matmul_add_relu_kernel")
    counts = [m.get(SASS_COUNT, 0.0) for m in kernel.ptx_metrics]
    assert sum(counts) == len(kernel.instructions)
    assert counts == [float(len(i)) for i in kernel.ptx.instructions]


def test_a_workspace_built_before_ptx_was_kept_says_to_rebuild(tmp_path: Path) -> None:
    old = tmp_path / "old"
    shutil.copytree(WS_MLP, old)
    manifest = _manifest()
    for role in ("ptx", "ptx_lines"):
        (old / manifest["files"].pop(role)).unlink()
    (old / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    assert not Workspace.open(old).has_ptx
    session = open_document(old)
    selection = _selection(session, "softmax_kernel")
    kernel = selection.kernel
    assert kernel is not None and not kernel.ptx.rows and kernel.ptx.note == NOT_KEPT
    selection.select_line(11)
    selection.select_instruction(3)
    selection.select_ptx_row(0)  # no such row: nothing happens
    assert selection.ptx_rows == set() and selection.ptx_row == -1 and selection.line == 11


def _manifest() -> dict:
    return json.loads((WS_MLP / "manifest.json").read_text(encoding="utf-8"))


def _selection(session: ProfileSession, kernel: str) -> Selection:
    selection = Selection()
    selection.kernel_requested.connect(
        lambda doc, name: selection.kernel_loaded(doc, session.kernel(name))
    )
    selection.set_document(session.document, session)
    selection.show(kernel)
    return selection


def test_a_build_keeps_its_ptx_with_the_workspace_files_relative(build_once) -> None:
    ws = build_once("small_cnn.onnx")
    assert ws.has_ptx and ws.manifest.files["ptx"] == "module.ptx"
    named = set(re.findall(r'\.file\s+\d+\s+"([^"]+)"', ws.file("ptx").read_text("utf-8")))
    assert {k.file for k in ws.manifest.kernels} <= named  # as sass.json names them
    session = open_document(ws.path)
    for info in ws.manifest.kernels:
        ptx, lines = ws.ptx(info.name)
        assert ptx is not None
        assert sorted(lines) == [i.offset for i in ws.sass(info.name).instructions]
        kernel = session.kernel(info.name)
        rows = [kernel.ptx.row_of(i) for i in range(len(kernel.instructions))]
        assert None not in rows  # every instruction comes from a PTX row of its kernel
        assert any(f == kernel.main_file for r in kernel.ptx.rows for f, _ in r.frames)


def test_the_ptx_of_each_pc_is_what_nvidias_reader_gives_for_it(build_once) -> None:
    """The H200 report profiled this model's build (the same nvcc makes the same cubin):
    ``ncu_report``'s ``ptx_by_pc`` names, for every instruction, the PTX the build's
    ``ptx_lines.json`` points at."""
    ncu_report = pytest.importorskip("ncu_report")
    from kernelscope.core.ncu.report import ReportReader

    ws = build_once("small_cnn.onnx")
    report = H200_REPORT
    launches = ReportReader(report).launches()
    actions = ncu_report.load_report(str(report)).range_by_idx(0)
    compared = 0
    for launch in launches:
        action = actions.action_by_idx(launch.id)
        sass = ws.sass(launch.name).instructions
        start = launch.function_start
        assert start is not None
        theirs = [_sass_text(action.sass_by_pc(start + i.offset)) for i in sass]
        if theirs != [_sass_text(i.text) for i in sass]:
            pytest.skip(f"this nvcc builds other SASS for {launch.name} than the report's")
        ptx, lines = ws.ptx(launch.name)
        assert ptx is not None
        text = {r.line: " ".join(r.text.split()) for r in ptx.rows}
        for insn in sass:
            assert (
                " ".join(action.ptx_by_pc(start + insn.offset).split()) == text[lines[insn.offset]]
            ), (launch.name, hex(insn.offset))
            compared += 1
    assert compared > 600


def test_ptx_rows_sum_nvidias_per_pc_samples(build_once, tmp_path: Path) -> None:
    """With the H200 report attached, a PTX row's warp samples are the sum of what
    ``ncu_report`` gives for the PCs assembled from it, and the rows together hold them all."""
    ncu_report = pytest.importorskip("ncu_report")
    from kernelscope.core.ncu import SAMPLES, label_of
    from kernelscope.core.ncu.report import ReportReader

    built = build_once("small_cnn.onnx")
    ws = Workspace.open(shutil.copytree(built.path, tmp_path / "small.kscope"))
    report = ws.attach_profile(H200_REPORT)
    session = open_document(ws.path)
    assert session.document.has_profile
    actions = ncu_report.load_report(str(report)).range_by_idx(0)
    checked = 0
    for launch in ReportReader(report).launches():
        metric = actions.action_by_idx(launch.id).metric_by_name(SAMPLES)
        ids = metric.correlation_ids()
        start = launch.function_start
        theirs = {
            ids.as_uint64(k) - start: metric.as_double(k) for k in range(metric.num_instances())
        }
        kernel = session.kernel(launch.name)
        if kernel.instructions[0].text != ws.sass(launch.name).instructions[0].text:
            pytest.skip("this nvcc builds other SASS than the report's")
        expected = [0.0] * len(kernel.ptx.rows)
        for offset, value in theirs.items():
            index = kernel.offset_index[offset]
            expected[kernel.ptx.row_of(index)] += value
        ours = [m.get(label_of(SAMPLES), 0.0) for m in kernel.ptx_metrics]
        assert ours == pytest.approx(expected), launch.name
        assert sum(theirs.values()) > 0
        assert sum(ours) == pytest.approx(sum(theirs.values()))
        checked += 1
    assert checked == 4


def _sass_text(text: str) -> str:
    """An instruction's opcode and first operand, as both print them (nvdisasm marks register
    reuse, ncu prints branch targets as addresses and numbers labels its own way)."""
    return " ".join(text.replace(".reuse", "").split("`")[0].split()[:2])


def test_cli_prints_a_kernels_ptx_with_source_lines_and_sass_counts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rc, out, _ = _cli(["ptx", WS_MLP, "--kernel", "^transpose_kernel$"], capsys)
    assert rc == 0
    lines = out.splitlines()
    assert lines[0].startswith("transpose_kernel (module.ptx lines 2061-2097)")
    assert lines[1].split() == ["line", "SASS", "source", "PTX"]
    load = next(ln for ln in lines if "ld.global.nc.f32" in ln)
    assert load.split()[:3] == ["2088", "1", "transpose_kernel.cu:3"]
    total = sum(
        int(ln.split()[1]) for ln in lines[2:] if ln.split()[1:2] and ln.split()[1].isdigit()
    )
    assert total == len(read_sass(WS_MLP / "sass.json")["transpose_kernel"].instructions)


def test_cli_line_lists_its_rows_each_with_its_sass(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = _cli(["ptx", WS_MLP, "--kernel", "softmax", "--line", "13"], capsys)
    assert rc == 0
    assert out.splitlines()[1:] == [
        "1708  1  softmax_kernel.cu:13  ld.global.nc.f32 %f2, [%rd6+1024];",
        "        /*0090*/ LDG.E.CONSTANT R9, desc[UR4][R2.64+0x400]",
        "1711  1  math_functions.hpp:1133 < softmax_kernel.cu:13  max.ftz.f32 %f23, %f22, %f2;",
        "        /*0100*/ FMNMX.FTZ R11, R10, R9, !PT",
    ]
    rc, out, _ = _cli(["ptx", WS_MLP, "--kernel", "softmax", "--line", "13", "--json"], capsys)
    rows = json.loads(out)
    assert [r["line"] for r in rows] == [1708, 1711]
    assert rows[1]["source"] == [{"file": MATH, "line": 1133}, {"file": SOFTMAX, "line": 13}]
    assert rows[0]["sass"] == [
        {"offset": 0x90, "text": "LDG.E.CONSTANT R9, desc[UR4][R2.64+0x400]"}
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--kernel", "transpose"], "2 kernels match 'transpose'"),
        (["--kernel", "nothing"], "no kernel matches 'nothing'"),
        (["--kernel", "softmax", "--line", "3"], "line 3 of softmax_kernel.cu has no PTX"),
    ],
)
def test_cli_bad_choices_say_what_to_do(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, _, err = _cli(["ptx", WS_MLP, *args], capsys)
    assert rc != 0 and message in err and "hint:" in err


def test_cli_on_a_workspace_without_ptx_says_to_rebuild(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "old"
    shutil.copytree(WS_MLP, old)
    manifest = _manifest()
    for role in ("ptx", "ptx_lines"):
        (old / manifest["files"].pop(role)).unlink()
    (old / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    rc, _, err = _cli(["ptx", old, "--kernel", "softmax"], capsys)
    assert rc != 0 and "built before kernelscope kept the PTX" in err
    assert "kernelscope build MODEL -o WORKSPACE" in err
