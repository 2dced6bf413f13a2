"""``kernelscope diff`` as a user and a CI job run it: text, Markdown, JSON, --kernel, --hot,
--fail-above exit codes and bad input (never a traceback)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import run_cli
from paths_support import DATA, data_path

from kernelscope.core.cli.diff import EXIT_REGRESSION

PAIRS = data_path("compare")
B8, RUN2, B2, X8 = (
    PAIRS / f"{n}.ncu-rep" for n in ("cnn3_b8_run1", "cnn3_b8_run2", "cnn3_b2", "cnn3x_b8")
)
WS_B8, WS_B2, WS_X8 = (PAIRS / f"{n}.kscope" for n in ("cnn3_b8", "cnn3_b2", "cnn3x_b8"))


def test_text_table_of_the_renumbered_pair(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run_cli(["diff", B8, X8, "-w", WS_B8, "--w-new", WS_X8], capsys)
    assert rc == 0
    lines = out.splitlines()
    assert lines[0].startswith("base  cnn3_b8_run1.ncu-rep (report, cnn3.onnx")
    assert "NVIDIA H200 (cc 9.0)" in lines[0] and "NVIDIA H200 (cc 9.0)" in lines[1]
    row = next(ln for ln in lines if ln.startswith("fused_conv2d_add_relu_kernel -> "))
    assert row.split()[:4] == [
        "fused_conv2d_add_relu_kernel",
        "->",
        "fused_conv2d1_add1_relu1_kernel",
        "structure",
    ]
    assert row.split()[5:7] == ["13.25", "13.31"] and row.endswith("~ noise")
    only = next(
        ln for ln in lines if ln.startswith("fused_conv2d_add_relu_kernel ") and "only in new" in ln
    )
    assert "unmatched" in only
    total = next(ln for ln in lines if ln.startswith("total (sum over kernels)"))
    assert total.split()[5:9] == ["214", "223", "+9.60", "+4.5%"]
    assert "each kernel's sum over its launches, per pass" in out
    assert "built from different model files" in out
    assert "matching:" in out and "same fused operators, attributes, shapes and dtypes" in out


def test_markdown_for_a_pull_request(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run_cli(["diff", B8, B2, "-w", WS_B8, "--w-new", WS_B2, "--markdown"], capsys)
    assert rc == 0
    assert out.startswith("### kernelscope diff: -30.0% total (214 -> 150 us per pass, faster)")
    assert "| kernel | match | launches | base us |" in out
    assert (
        "| `fused_conv2d1_add1_relu1_kernel` | name | 1/1 | 89.86 | 49.95 | -39.90 | -44.4% |"
        in out
    )
    assert "| **total (sum over kernels)** |" in out
    assert "- note: inputs: x 8x3x56x56 -> 2x3x56x56" in out


def test_json_has_everything_a_script_needs(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run_cli(
        [
            "diff",
            B8,
            X8,
            "-w",
            WS_B8,
            "--w-new",
            WS_X8,
            "--json",
            "--kernel",
            "matmul",
            "--hot",
            "3",
        ],
        capsys,
    )
    assert rc == 0
    data = json.loads(out)
    assert data["base"]["devices"] == ["NVIDIA H200"] and data["new"]["passes"] == 1
    k = next(k for k in data["kernels"] if k["match"]["base"] == "fused_matmul_add3_kernel")
    assert k["match"]["new"] == "fused_matmul_add4_kernel" and k["match"]["method"] == "structure"
    assert k["delta_ns"] == pytest.approx(k["new_ns"] - k["base_ns"]) and k["status"] == "slower"
    assert data["total"]["pct"] == pytest.approx(4.49, abs=0.01)
    assert len(data["launches"]) == 8
    (detail,) = data["kernel_details"]
    assert detail["sources_identical"] and detail["instructions_aligned"] == 1.0
    assert {r["kind"] for r in detail["lines"]} == {"same"}
    assert data["metric"] == "smsp__pcsamp_sample_count"
    assert len(data["regressions"]) <= 3 and all(r["delta"] > 0 for r in data["regressions"])


def test_per_line_table_with_kernel(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run_cli(
        [
            "diff",
            B8,
            B2,
            "-w",
            WS_B8,
            "--w-new",
            WS_B2,
            "--kernel",
            "^fused_matmul",
            "--metric",
            "Instructions Executed",
        ],
        capsys,
    )
    assert rc == 0
    assert (
        "== fused_matmul_add3_kernel (name: same name; same fused operators, shapes differ" in out
    )
    assert "Instructions Executed (inst_executed) per pass" in out
    row = next(ln for ln in out.splitlines() if ln.split()[:3] == ["23", "23", "changed"])
    assert "if (((int)threadIdx.y) < 1) {" in row
    assert any(ln.split()[:3] == ["1613", "base", "only"] for ln in out.splitlines())
    assert "FFMA.FTZ" in out and "SASS instructions not aligned" in out


def test_hot_lines_lists_regressions_and_improvements(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run_cli(["diff", B8, B2, "-w", WS_B8, "--w-new", WS_B2, "--hot", "3"], capsys)
    assert rc == 0
    assert "biggest regressions by # Samples per pass:" in out
    tail = out.split("biggest improvements by # Samples per pass:")[1].splitlines()
    assert tail[2].split()[:3] == ["1", "fused_conv2d2_add2_relu2_kernel", "39->39"]


@pytest.mark.parametrize(
    ("args", "pct", "rc"),
    [
        ([B8, RUN2, "-w", WS_B8], 1, 0),  # run to run: within noise, however small PCT is
        ([B8, X8, "-w", WS_B8, "--w-new", WS_X8], 50, 0),  # transpose +38%, total +4.5%
        ([B8, X8, "-w", WS_B8, "--w-new", WS_X8], 20, EXIT_REGRESSION),  # transpose +38%
        ([B8, X8, "-w", WS_B8, "--w-new", WS_X8], 3, EXIT_REGRESSION),
        ([B8, B2, "-w", WS_B8, "--w-new", WS_B2], 1, 0),  # everything got faster
        ([B2, B8, "-w", WS_B2, "--w-new", WS_B8], 10, EXIT_REGRESSION),
    ],
)
def test_fail_above_exit_codes(
    args: list[object], pct: float, rc: int, capsys: pytest.CaptureFixture[str]
) -> None:
    got, out, err = run_cli(["diff", *args, "--fail-above", pct], capsys)
    assert got == rc
    assert "total (sum over kernels)" in out
    if rc:
        assert "kernelscope: regression:" in err
    else:
        assert "regression" not in err


def test_fail_above_names_what_regressed(capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = run_cli(
        ["diff", B8, X8, "-w", WS_B8, "--w-new", WS_X8, "--fail-above", "20"], capsys
    )
    assert rc == EXIT_REGRESSION
    lines = [ln for ln in err.splitlines() if ln.startswith("kernelscope: regression:")]
    assert len(lines) == 1 and "transpose_kernel +38.4% (2.34 -> 3.23 us" in lines[0]


# ---- bad input -----------------------------------------------------------------------------------
def test_reports_of_different_models(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run_cli(["diff", data_path("ncu/mlp/mlp.ncu-rep"), B8], capsys)
    assert rc == 0
    assert "these look like profiles of different models" in out
    assert "only in base" in out and "only in new" in out
    assert "transpose_kernel" in out


def test_csv_export_without_source_counters_against_a_report(
    capsys: pytest.CaptureFixture[str],
) -> None:
    csv = data_path("ncu/cnn/details.csv")
    rc, out, _ = run_cli(["diff", csv, B8, "--kernel", "fused_conv2d_add_relu"], capsys)
    assert rc == 0
    assert "base  details.csv (CSV export, no workspace)" in out
    assert "kernel level only; these CSV exports hold no per-instruction metrics" in out
    assert "note: base: these CSV exports hold no per-instruction metrics" in out
    assert "sources: only new has one" in out


def test_a_report_without_source_counters_compares_kernels_only(
    capsys: pytest.CaptureFixture[str],
) -> None:
    nosource = PAIRS / "cnn3_b8_nosource.ncu-rep"
    rc, out, _ = run_cli(["diff", nosource, B8, "-w", WS_B8, "--kernel", "mean"], capsys)
    assert rc == 0
    assert "base cnn3_b8_nosource.ncu-rep: kernel level only" in out and "SourceCounters" in out
    assert "SASS: the same opcodes and counts (executions not measured on both)" in out
    assert "~ noise" in out.splitlines()[5]


def test_different_gpus_are_in_the_header(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = data_path("ncu/cnn/raw.csv")
    other = tmp_path / "raw.csv"  # what a report from another GPU differs in (see test_compare)
    other.write_text(raw.read_text().replace("NVIDIA H200", "NVIDIA A100-SXM4-80GB"))
    rc, out, _ = run_cli(["diff", raw, other], capsys)
    assert rc == 0
    assert "NVIDIA H200" in out.splitlines()[0] and "NVIDIA A100-SXM4-80GB" in out.splitlines()[1]
    assert "different GPUs" in out


def test_reports_of_a_gpu_without_a_noise_band_say_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """kernelscope's band was measured on an H200; an H100's reports (the cnn raw export
    with its device attributes rewritten, as in test_compare) get the stated default."""
    raw = (DATA / "ncu" / "cnn" / "raw.csv").read_text()
    h100 = tmp_path / "raw_h100.csv"
    h100.write_text(raw.replace("NVIDIA H200", "NVIDIA H100 80GB HBM3"))
    rc, out, _ = run_cli(["diff", h100, h100], capsys)
    assert rc == 0
    assert "no noise band is known for NVIDIA H100 80GB HBM3 (kernelscope's was measured " in out
    assert "Within noise: |delta| <= 15 % of the kernel's time or 3 standard deviations" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([DATA / "bad" / "random.ncu-rep", B8], "not a readable Nsight Compute report"),
        ([DATA / "bad" / "empty.csv", B8], "empty.csv"),
        ([PAIRS / "nope.ncu-rep", B8], "no such file"),
        ([B8, RUN2, "-w", PAIRS], "not a kernelscope workspace"),
        ([B8, RUN2, "--kernel", "("], "not a regular expression"),
        ([B8, RUN2, "--kernel", "softmax"], "no kernel matches"),
        ([B8, RUN2, "--passes", "0"], "--passes 0"),
        ([B8, RUN2, "--metric", "nonsense", "--kernel", "mean"], "unknown metric"),
    ],
)
def test_bad_input_is_a_message_not_a_traceback(
    args: list[object], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, out, err = run_cli(["diff", *args], capsys)
    assert rc == 1
    assert message in err and "kernelscope: error:" in err


def test_a_kernel_on_one_side_only_is_explained(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run_cli(
        ["diff", B8, X8, "-w", WS_B8, "--w-new", WS_X8, "--kernel", "^fused_conv2d_add_relu"],
        capsys,
    )
    assert rc == 0
    assert "fused_conv2d_add_relu_kernel: only in new; conv2d+add+relu on 8x3x56x56" in out
    # the base kernel of that name is still compared, with its structural counterpart
    assert "== fused_conv2d_add_relu_kernel -> fused_conv2d1_add1_relu1_kernel" in out
