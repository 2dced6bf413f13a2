"""A real torch.compile run folder (PyTorch 2.11, Triton 3.6, made on an H200 by
tests/data/torch/transformer_block.py; tests/data/inductor/README.md) opened like a workspace:
provenance, autotune configuration, wrapper launches, SASS and PTX from Triton's cache, its
report's launches tied to the wrapper's calls, the CLI on it, and what goes wrong with a
folder that lost files or a report of another compile."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from cli_support import run_cli
from paths_support import DATA, data_path

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.inductor import is_run_folder, open_run, open_workspace, run_workspace
from kernelscope.core.inductor.derived import derived_folder
from kernelscope.core.inductor.launches import report_problems, tie_launches
from kernelscope.core.ncu import Profile
from kernelscope.core.ncu.report import ReportReader
from kernelscope.core.view import open_document

INDUCTOR = DATA / "inductor"
LN = "triton_per_fused_native_layer_norm_0"
SOFTMAX = "triton_per_fused__softmax_amax_mul_sub_view_3"
GELU = "triton_poi_fused_addmm_gelu_view_7"


def _unpack(name: str, target: Path) -> Path:
    """The stored report ``name`` of tests/data/inductor, copied to ``target``."""
    return Path(shutil.copyfile(data_path(f"inductor/{name}"), target))


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("reports")
    return _unpack("transformer_profile.ncu-rep", folder / "profile.ncu-rep")


@pytest.fixture()
def bare_run(tmp_path: Path) -> Path:
    """The run folder without a report."""
    return Path(shutil.copytree(INDUCTOR / "transformer", tmp_path / "transformer"))


@pytest.fixture()
def run_dir(bare_run: Path, report: Path) -> Path:
    """The run folder with its H200 report, as the capture script leaves it."""
    shutil.copy(report, bare_run / "profile.ncu-rep")
    return bare_run


def test_provenance_config_and_wrapper_lines_of_each_triton_kernel(bare_run: Path) -> None:
    run = open_run(bare_run)
    assert is_run_folder(bare_run) and not is_run_folder(bare_run / "inductor_cache")
    assert run.versions["triton"] == "3.6.0" and run.versions["torch"].startswith("2.11")
    assert len(run.kernels) == 9 and run.report is None and not run.notes
    ln = run.kernel(LN)
    assert (ln.kind, ln.aten, ln.source_nodes) == (
        "persistent_reduction",
        ("aten.native_layer_norm",),
        ("layer_norm",),
    )
    assert "layer_norm => add, add_1, mul, mul_1, rsqrt, sub, var_mean" in ln.node_mapping
    # one compiled variant, its block size fixed in the source: no autotune record needed
    assert ln.config == {"num_warps": 1, "num_stages": 1, "R0_BLOCK": 256}
    assert ln.config_origin == "Triton's cache"
    soft = run.kernel(SOFTMAX)
    assert soft.describe_config() == "XBLOCK=1 warps=2 stages=1"
    assert soft.config_origin == "autotune record"
    assert (
        soft.cache_dir is not None
        and soft.cache_dir.name == "CY5Z3XBVUMU2SKYES57VODYIMCC24TG2IB3TBTQVOLCH7H5SRBKA"
    )
    two_d = run.kernel("triton_poi_fused_addmm_clone_permute_select_transpose_view_2")
    assert two_d.block_sizes == {"XBLOCK": 32, "YBLOCK": 32}
    # the wrapper line that launches it, and the kernel file the line information names
    (launch,) = soft.launches
    assert launch.text == f"{SOFTMAX}.run(buf10, 4096, 128, stream=stream0)"
    assert run.kernels[0].source is not None and run.kernels[0].source.parent.name == "e4"
    assert soft.cubin is not None and soft.ptx is not None
    assert [x.operator for x in run.extern_launches] == ["mm", "bmm", "bmm", "mm", "mm", "mm"]
    assert [x.index for x in run.launches] == list(range(15))


def test_the_workspace_has_sass_and_ptx_from_tritons_cache(bare_run: Path) -> None:
    ws = run_workspace(bare_run)
    assert ws.manifest.model_format == "inductor"
    assert ws.manifest.target["arch"] == "sm_90"
    info = ws.manifest.kernel(LN)
    assert info.file == "src/ce4kgmd5nm6mysl4mhbgqifan5lmqqqtyjokikhr2mlghsvvd5y2.py"
    assert [o.op for o in info.ops] == ["aten.native_layer_norm"] and info.block == [32, 1, 1]
    assert ws.source_text(info) == open_run(bare_run).kernel(LN).source.read_text()  # type: ignore[union-attr]
    sass = ws.sass(LN)
    assert len(sass.instructions) == info.sass_instructions > 100
    own = {i.line for i in sass.instructions if i.file == info.file}
    assert 34 in own  # tmp0 = tl.load(in_ptr0 + (r0_1 + 256*x0), xmask, other=0.0)
    ptx, lines = ws.ptx(SOFTMAX)
    assert (
        ptx is not None
        and lines
        and set(lines) <= {i.offset for i in ws.sass(SOFTMAX).instructions}
    )
    sources = {f for r in ptx.rows for f, _ in r.frames}
    assert ws.manifest.kernel(SOFTMAX).file in sources
    # the second open reuses it: same folder, nothing made again
    stamp = (ws.path / "manifest.json").stat().st_mtime_ns
    again = open_workspace(bare_run)
    assert again.path == ws.path == derived_folder(open_run(bare_run))
    assert (again.path / "manifest.json").stat().st_mtime_ns == stamp


def test_report_launches_are_tied_to_the_wrapper_calls(run_dir: Path) -> None:
    run = open_run(run_dir)
    profile = Profile.open(run.report, workspace=run_workspace(run))  # type: ignore[arg-type]
    tied = tie_launches(run, profile)
    assert len(tied) == 16 and [t.launch_id for t in tied] == list(range(16))
    library = [(t.operator, t.call.line) for t in tied if not t.triton and t.call]
    # the last mm ran as two cuBLAS kernels (split K): both are that call's
    assert [op for op, _ in library] == ["mm", "bmm", "bmm", "mm", "mm", "mm", "mm"]
    assert library[-1][1] == library[-2][1]
    assert all("cublas" in t.name for t in tied if not t.triton)
    assert all(t.call is not None and t.call.kernel == t.name for t in tied if t.triton)
    assert report_problems(run, profile) == []


def test_decoded_inductor_report_reads_as_nvidias_reader(report: Path) -> None:
    """Per instruction (and so per line) the numbers are ncu_report's, Triton and cuBLAS
    kernels alike, and the embedded Triton files are its files."""
    fast, slow = ReportReader(report), ReportReader(report, decode=False)
    launches = fast.launches()
    assert launches == slow.launches() and len(launches) == 16
    for launch in launches:
        a = fast.instructions(launch.id, launch.function_start)
        b = slow.instructions(launch.id, launch.function_start)
        assert a is not None and b is not None
        assert np.array_equal(a.offsets, b.offsets) and a.locations == b.locations
        for key in a.numbers:
            assert np.array_equal(a.numbers[key], b.numbers[key], equal_nan=True), key
    theirs, ours = slow.sources_for(None), fast.sources_for(None)
    assert {p: t for p, t in ours.items() if p in theirs} == theirs
    assert any(
        p.endswith("ce4kgmd5nm6mysl4mhbgqifan5lmqqqtyjokikhr2mlghsvvd5y2.py") for p in theirs
    )


def test_per_line_samples_of_a_triton_kernel_sum_nvidias_instructions(run_dir: Path) -> None:
    run = open_run(run_dir)
    ws = run_workspace(run)
    profile = Profile.open(run.report, workspace=ws, use_cache=False)  # type: ignore[arg-type]
    slow = ReportReader(run.report, decode=False)  # type: ignore[arg-type]
    launch = next(x for x in slow.launches() if x.name == GELU)
    table = slow.instructions(launch.id, launch.function_start)
    assert table is not None
    samples = table.numbers["smsp__pcsamp_sample_count"]
    expected: dict[int, float] = {}
    for loc, value in zip(table.locations, samples, strict=True):
        own = loc is not None and loc[0].endswith(ws.manifest.kernel(GELU).file.split("/")[-1])
        if own and not np.isnan(value):
            expected[loc[1]] = expected.get(loc[1], 0.0) + float(value)
    lines = profile.lines(GELU)
    got = {loc[1]: m.values.get("smsp__pcsamp_sample_count", 0.0) for loc, m in lines.items()
           if loc[0].endswith(".py") and "cvh2k7" in loc[0]}  # fmt: skip
    assert got and {n: v for n, v in got.items() if v} == {n: v for n, v in expected.items() if v}


def test_cli_kernels_hot_and_ptx_on_a_run_folder(
    run_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, out, err = run_cli(["kernels", run_dir], capsys)
    assert rc == 0 and err == ""
    assert "native_layer_norm" in out and "R0_BLOCK=256 warps=1 stages=1" in out
    assert "16 launches (9 Triton, 7 library)" in out
    assert [line.split()[2:4] for line in out.splitlines() if " library " in line][0] == [
        "library",
        "mm",
    ]
    rc, out, err = run_cli(["hot", run_dir, "--top", "3"], capsys)
    assert rc == 0 and "tmp7 = libdevice.erf(tmp6)" in out.splitlines()[2]
    # cuBLAS has no lines of its own: the warning names the wrapper line launching it
    split_k = next(line for line in err.splitlines() if "split_k" in line)
    assert split_k.endswith("a library kernel without line information (SASS-level metrics "
                            "only), launched at output_code.py:706")  # fmt: skip
    assert "nvcc -lineinfo" not in err
    rc, out, _ = run_cli(["ptx", run_dir, "--kernel", "layer_norm_0", "--line", "34"], capsys)
    assert rc == 0 and "ld.global" in out
    rc, out, _ = run_cli(["details", run_dir, "--kernel", "gelu_view_7"], capsys)
    assert rc == 0 and GELU in out


def test_a_run_folder_without_report_lists_kernels_and_says_how_to_profile(
    bare_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, out, _ = run_cli(["kernels", bare_run], capsys)
    assert rc == 0 and "9 Triton kernels, 6 library calls" in out and "mm" in out
    rc, _, err = run_cli(["hot", bare_run], capsys)
    assert rc != 0 and "holds no Nsight Compute report" in err and "--import-source yes" in err


def test_lost_kernel_file_and_cubin_are_notes_not_errors(
    bare_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = open_run(bare_run)
    run.kernel(LN).source.unlink()  # type: ignore[union-attr]
    run.kernel(SOFTMAX).cubin.unlink()  # type: ignore[union-attr]
    run = open_run(bare_run)
    assert "gone from the run folder" in run.kernel(LN).notes[0]
    assert run.kernel(LN).source is None and "tl.load" in run.kernel(LN).source_text
    assert "no triton_per_fused__softmax_amax_mul_sub_view_3.cubin" in run.kernel(SOFTMAX).notes[0]
    ws = run_workspace(run)
    assert ws.sass(SOFTMAX).instructions == [] and ws.sass(LN).instructions  # from the cubin
    assert any("SASS needs it" in n for n in ws.manifest.notes)
    rc, _, err = run_cli(["ptx", bare_run, "--kernel", "softmax"], capsys)
    assert rc != 0 and "no PTX for" in err


def test_tritons_cache_is_found_where_triton_keeps_it(
    bare_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run that left TRITON_CACHE_DIR at its default: the cache of this machine."""
    elsewhere = tmp_path / "home" / ".triton" / "cache"
    shutil.move(bare_run / "triton_cache", elsewhere)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("TRITON_CACHE_DIR", raising=False)
    run = open_run(bare_run)
    assert all(k.cubin is not None and k.cubin.is_relative_to(elsewhere) for k in run.kernels)
    assert run.kernel(SOFTMAX).config_origin == "autotune record"
    monkeypatch.setenv("TRITON_CACHE_DIR", str(elsewhere))
    monkeypatch.setenv("HOME", str(tmp_path))
    assert open_run(bare_run).kernel(LN).cubin is not None


def test_a_folder_with_only_a_wrapper_still_opens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))  # no Triton cache on this machine either
    monkeypatch.delenv("TRITON_CACHE_DIR", raising=False)
    run = open_run(INDUCTOR / "resnet18_wrapper_only")
    assert len(run.kernels) == 22 and all(k.cubin is None for k in run.kernels)
    assert "TRITON_CACHE_DIR" in run.kernels[0].notes[-1]
    assert sum(x.operator == "convolution" for x in run.extern_launches) == 20
    ws = run_workspace(run)
    assert len(ws.manifest.kernels) == 22 and ws.sass(run.kernels[0].name).instructions == []


def test_a_report_of_another_compile_is_named(
    bare_run: Path, report: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # resnet18's wrapper with the transformer's report: none of its Triton kernels are there
    other = Path(shutil.copytree(INDUCTOR / "resnet18_wrapper_only", tmp_path / "r18"))
    shutil.copy(report, other / "profile.ncu-rep")
    rc, _, err = run_cli(["kernels", other], capsys)
    assert rc == 0 and "9 of the report's 9 Triton kernels are not in this run folder" in err
    # the same model compiled again after profiling: a kernel's text changed
    run = open_run(bare_run)
    kernel = run.kernel(GELU)
    wrapper = kernel.wrapper.read_text()
    edited = kernel.source_text.replace("tmp7 = ", "tmp7 = 1.0 * ", 1)
    kernel.wrapper.write_text(wrapper.replace(kernel.source_text, edited))
    kernel.source.write_text(edited)  # type: ignore[union-attr]
    shutil.copy(report, bare_run / "profile.ncu-rep")
    rc, _, err = run_cli(["hot", bare_run, "--top", "1"], capsys)
    assert rc == 0 and "1 Triton kernels differ from the copies the report embedded" in err


def test_a_triton_cache_of_another_version_is_named(bare_run: Path) -> None:
    info = bare_run / "run.json"
    info.write_text(info.read_text().replace('"triton": "3.6.0"', '"triton": "3.5.1"'))
    (note,) = open_run(bare_run).notes
    assert (
        "says Triton 3.5.1, but the kernels in Triton's cache were compiled by Triton 3.6.0" in note
    )


def test_not_a_run_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(KernelscopeError, match="holds no torch.compile output"):
        open_run(tmp_path)
    rc, _, err = run_cli(["kernels", tmp_path], capsys)
    assert rc != 0 and "not a kernelscope workspace" in err


def test_open_document_opens_a_run_folder_with_its_report(run_dir: Path) -> None:
    session = open_document(run_dir)
    names = [k.name for k in session.document.summaries]
    assert LN in names and any("cublas" in n for n in names)
    view = session.kernel(LN)
    assert view.main_file.endswith("ce4kgmd5nm6mysl4mhbgqifan5lmqqqtyjokikhr2mlghsvvd5y2.py")
    assert view.ptx.rows


def test_tvm_against_inductor_per_operator_group(
    run_dir: Path,
    build_once: Callable[..., object],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    ws_path = Path(
        shutil.copytree(build_once("transformer_block.py").path, tmp_path / "tvm.kscope")
    )  # type: ignore[attr-defined]
    (ws_path / "profiles").mkdir(exist_ok=True)
    _unpack("tvm_transformer.ncu-rep", ws_path / "profiles" / "h200.ncu-rep")
    rc, out, err = run_cli(["diff", ws_path, run_dir], capsys)
    assert rc == 0, err
    rows = {line.split()[0]: line.split() for line in out.splitlines()[2:] if line.split()}
    assert rows["matmul"][1:3] == ["6", "202.6"] and rows["matmul"][3:5] == ["7", "115.3"]
    assert rows["softmax"][5] == "Inductor" and rows["layer_norm"][1] == "2"
    assert rows["total"][1:5] == ["18", "254.3", "16", "149.6"]
    assert "TVM fuses the bias and activation into its GEMM kernel" in out
    rc, out2, _ = run_cli(["diff", run_dir, ws_path], capsys)  # either order
    assert out2 == out


def test_a_report_without_sources_maps_to_the_run_folders_files(
    bare_run: Path, report: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The H200 report written again without the Triton files ``--import-source yes``
    embedded: the run folder supplies them, and a note asks for a new report only where its
    files cannot be the ones profiled."""
    from kernelscope.core.ncu.rep.container import ReportFile

    copy = bare_run / "profile.ncu-rep"
    with ReportFile(report) as full:
        assert any(m.files for m in full.modules)
        assert full.write_without_sources(copy) == list(range(16))
    with ReportFile(copy) as bare:
        assert len(bare) == 16 and not any(m.files for m in bare.modules)
        assert all(m.cubin_at for m in bare.modules)
    session = open_document(bare_run)
    view = session.kernel(GELU)
    shown = view.files[view.main_file]
    assert shown.origin == "workspace" and shown.status == "ok"
    assert shown.text.splitlines()[31].strip() == "tmp7 = libdevice.erf(tmp6)"  # type: ignore[union-attr]
    assert view.file_metrics(view.main_file)[32]["# Samples"] == 122  # as with the sources
    rc, out, err = run_cli(["hot", bare_run, "--top", "1"], capsys)
    assert rc == 0 and "tmp7 = libdevice.erf(tmp6)" in out.splitlines()[2]
    assert "not the ones profiled" not in err  # the folder's files fit: nothing to say
    # the kernel file gone from the folder: the wrapper's copy (the same text) does as well
    run = open_run(bare_run)
    run.kernel(GELU).source.unlink()  # type: ignore[union-attr]
    rc, out, err = run_cli(["hot", bare_run, "--top", "1"], capsys)
    assert rc == 0 and "tmp7 = libdevice.erf(tmp6)" in out and "not the ones profiled" not in err
    # compiled again after profiling: the kernel is shorter than the lines the report measured
    kernel = open_run(bare_run).kernel(GELU)
    wrapper = kernel.wrapper.read_text()
    shorter = "\n".join(kernel.source_text.split("\n")[:25]) + "\n"
    kernel.wrapper.write_text(wrapper.replace(kernel.source_text, shorter))
    rc, _, err = run_cli(["hot", bare_run, "--top", "1"], capsys)
    assert rc == 0, err
    assert f"1 Triton kernels' files in the run folder are not the ones profiled ({GELU}" in err
    assert "the report carries no sources" in err and "ncu --import-source yes" in err
