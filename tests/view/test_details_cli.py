"""``kernelscope details`` and ``kernelscope roofline`` as a user runs them, bad input too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import run_cli
from ncu_support import MLP
from paths_support import DATA, H200_REPORT

SMALL_H200 = H200_REPORT
WS = DATA / "ws_ops"
REPORT = MLP / "mlp.ncu-rep"


def test_headroom_list(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run_cli(["details", REPORT, "-w", WS / "mlp"], capsys)
    assert rc == 0
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["kernel", "launches", "measured"]
    assert lines[1].split()[0] == "fused_matmul1_add1_kernel"  # most to save
    assert "µs measured is above the operator-bound ideal" in out
    assert "matmul [32,4096] x [4096,1000] -> [32,1000]" in out
    rc, out, _ = run_cli(["details", REPORT, "-w", WS / "mlp", "--json"], capsys)
    data = json.loads(out)
    saves = [k["savings_ns"] for k in data["kernels"]]
    assert saves == sorted(saves, reverse=True)
    assert data["ceilings"]["bandwidth"]["dram"] > 4e12


def test_one_kernels_details(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run_cli(["details", REPORT, "-w", WS / "mlp", "--kernel", "softmax"], capsys)
    assert rc == 0
    assert out.startswith("softmax_kernel — launch 4, 2.82 us, NVIDIA H200")
    for title in ("Launch Statistics", "GPU Speed Of Light Throughput", "Occupancy", "Rules"):
        assert f"\n{title}" in out
    assert "op: softmax [32,1000] -> [32,1000]" in out
    assert "long_scoreboard" in out and "bound by dram" in out
    rc, out, _ = run_cli(["details", REPORT, "--kernel", "softmax", "--json"], capsys)
    data = json.loads(out)
    assert data["kernel"] == "softmax_kernel" and data["launch_ids"] == [4]
    sol = next(v for v in data["views"] if v["key"] == "sol")
    duration = next(r for r in sol["rows"] if r["name"] == "gpu__time_duration.sum")
    assert duration["value"] == 2816.0 and duration["description"]
    assert data["roofline"]["bound"] == "dram"
    assert data["descriptions"]["dram__bytes.sum.per_second"].startswith("# of bytes")


def test_stall_reasons_of_a_line_and_of_an_instruction(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run_cli(
        ["details", REPORT, "--kernel", "softmax", "--line", "11", "--json"], capsys
    )
    assert rc == 0
    line = json.loads(out)
    assert line["where"] == "softmax_kernel.cu:11" and line["reasons"]
    assert sum(r["share"] for r in line["reasons"]) == pytest.approx(1.0)
    assert sum(r["samples"] for r in line["reasons"]) == pytest.approx(line["total"])
    rc, out, _ = run_cli(["details", REPORT, "--kernel", "softmax", "--sass", "0xf0"], capsys)
    assert rc == 0 and out.startswith("softmax_kernel SASS +0xf0:")
    assert "stall_long_sb" in out
    rc, _, err = run_cli(["details", REPORT, "--kernel", "softmax", "--line", "9999"], capsys)
    assert rc == 1 and "has no instructions" in err


def test_roofline_table_and_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    png = tmp_path / "roof.png"
    rc, out, _ = run_cli(["roofline", REPORT, "--png", png], capsys)
    assert rc == 0 and png.stat().st_size > 10_000
    assert "NVIDIA H200 ceilings (measured peaks)" in out
    row = next(ln for ln in out.splitlines() if ln.startswith("fused_matmul_add_relu_kernel"))
    assert row.split()[-2] == "compute"
    rc, out, _ = run_cli(["roofline", REPORT, "--json"], capsys)
    assert len(json.loads(out)["kernels"]) == 5
    rc, out, _ = run_cli(["roofline", REPORT, "--kernel", "relu"], capsys)
    assert rc == 0 and "fused_matmul_add_relu_kernel [1]" in out


def test_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a report without the roofline sections: which sections, and the flag
    rc, _, err = run_cli(["roofline", SMALL_H200, "--png", tmp_path / "x.png"], capsys)
    assert rc == 1 and "--section SpeedOfLight_RooflineChart" in err
    assert not (tmp_path / "x.png").exists()
    rc, out, _ = run_cli(["details", SMALL_H200, "--kernel", "conv2d"], capsys)
    assert rc == 0 and "--section ComputeWorkloadAnalysis" in out
    # a kernel without launches
    rc, _, err = run_cli(
        ["details", SMALL_H200, "-w", WS / "small_cnn", "--kernel", "^reshape_"], capsys
    )
    assert rc == 1 and "reshape_kernel has no launches" in err and "never launches" in err
    # ambiguous and broken patterns
    rc, _, err = run_cli(["details", REPORT, "--kernel", "matmul"], capsys)
    assert rc == 1 and "2 kernels match" in err
    rc, _, err = run_cli(["details", REPORT, "--kernel", "("], capsys)
    assert rc == 1 and "not a regular expression" in err
    # a CSV export without the raw page
    rc, out, _ = run_cli(["details", MLP / "details.csv", "--kernel", "softmax"], capsys)
    assert rc == 0 and "--page raw" in out
    rc, _, err = run_cli(["roofline", MLP / "details.csv", "--png", tmp_path / "y.png"], capsys)
    assert rc == 1 and "raw page" in err
    # a workspace whose manifest lacks operator facts
    rc, out, _ = run_cli(["details", REPORT, "-w", DATA / "ws_mlp"], capsys)
    assert rc == 0 and "no operator shapes" in out and "rebuild" in out
    rc, _, err = run_cli(["details", tmp_path / "missing.ncu-rep"], capsys)
    assert rc == 1 and "no such file" in err
    rc, _, err = run_cli(["details", REPORT, "--line", "3"], capsys)
    assert rc == 1 and "need --kernel" in err
