"""``kernelscope kernels``, ``hot`` and ``import`` as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import run_cli
from ncu_support import MLP, MLP_CSVS, SMALL, make_mlp_workspace


def test_kernels_of_a_report_every_launch(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run_cli(["kernels", SMALL / "lineinfo.ncu-rep"], capsys)
    assert rc == 0
    rows = [ln.split() for ln in out.splitlines()[1:4]]
    assert [r[0] for r in rows] == ["0", "1", "2"]
    assert [r[1] for r in rows] == ["scale", "row_sum", "scale"]
    assert rows[0][2:4] == ["8192x1x1", "256x1x1"]
    assert "3 launches of 2 kernels" in out and "NVIDIA H200" in out


def test_kernels_json_same_for_report_and_csvs(capsys: pytest.CaptureFixture[str]) -> None:
    _, rep, _ = run_cli(["kernels", "--json", MLP / "mlp.ncu-rep"], capsys)
    _, csv, _ = run_cli(["kernels", "--json", *MLP_CSVS], capsys)
    a, b = json.loads(rep)["launches"], json.loads(csv)["launches"]
    assert [(x["id"], x["name"], x["grid"], x["block"]) for x in a] == [
        (x["id"], x["name"], x["grid"], x["block"]) for x in b
    ]
    assert a[3]["duration_ns"] == pytest.approx(b[3]["duration_ns"])
    assert a[1]["rules"][0]["speedup_pct"] is not None or a[1]["rules"][1]["speedup_pct"]


def test_kernels_by_kernel_and_rules(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run_cli(["kernels", "--by-kernel", "--rules", SMALL / "lineinfo.ncu-rep"], capsys)
    assert rc == 0
    assert out.splitlines()[1].split()[:2] == ["2", "scale"]
    assert "est. speedup" in out
    rc, out, _ = run_cli(["kernels", "--by-kernel", "--json", SMALL / "lineinfo.ncu-rep"], capsys)
    assert json.loads(out)["kernels"][0]["launch_ids"] == [0, 2]


def test_kernels_of_a_workspace(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = make_mlp_workspace(tmp_path / "ws")
    rc, out, _ = run_cli(["kernels", ws, "--json"], capsys)
    assert rc == 0 and len(json.loads(out)) == 5
    rc, out, _ = run_cli(["kernels", ws], capsys)
    assert rc == 0 and "softmax_kernel" in out


def test_hot_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run_cli(["hot", MLP / "mlp.ncu-rep", "--top", "3"], capsys)
    assert rc == 0
    lines = out.splitlines()
    assert lines[0].startswith("hottest lines by # Samples")
    assert len(lines) == 5 and lines[2].split()[0] == "1"
    rc, out, _ = run_cli(["hot", MLP / "mlp.ncu-rep", "--top", "3", "--json"], capsys)
    data = json.loads(out)
    assert data["metric"] == "smsp__pcsamp_sample_count"
    assert [x["rank"] for x in data["lines"]] == [1, 2, 3]
    assert data["lines"][0]["stalls"][0]["reason"] == "long_scoreboard"
    assert data["lines"][0]["source_status"] == "ok"


def test_hot_csv_with_kernel_and_metric(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["hot", MLP / "details.csv", MLP / "source_cuda_sass.csv", "--json"]
    rc, out, _ = run_cli(
        [*args, "--kernel", "softmax_kernel", "--metric", "Instructions Executed"], capsys
    )
    assert rc == 0
    data = json.loads(out)
    assert data["metric"] == "inst_executed"
    assert {x["kernel"] for x in data["lines"]} == {"softmax_kernel"}
    rc, _, err = run_cli([*args, "--metric", "no such metric"], capsys)
    assert rc == 1 and "unknown metric" in err
    rc, _, err = run_cli([*args, "--kernel", "nope"], capsys)
    assert rc == 1 and "no kernel 'nope'" in err


def test_import_into_a_workspace(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = make_mlp_workspace(tmp_path / "ws")
    rc, out, _ = run_cli(["import", MLP / "mlp.ncu-rep", "-w", ws, "--json"], capsys)
    assert rc == 0
    check = json.loads(out)
    assert (ws / "profiles" / "mlp.ncu-rep").read_bytes() == (MLP / "mlp.ncu-rep").read_bytes()
    assert len(check["matched"]) == 5 and not check["profile_only"]
    assert [s["status"] for s in check["sources"]] == ["ok"] * 5
    assert not list((ws / "profiles").glob(".*"))  # no temporary file left behind


def test_import_reports_mismatches(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    names = ["transpose_kernel", "softmax_kernel", "other_kernel"]
    ws = make_mlp_workspace(tmp_path / "ws", kernels=names)
    (ws / "src" / "kernels" / "softmax_kernel.cu").write_text("// edited\n", encoding="utf-8")
    rc, out, _ = run_cli(["import", MLP / "mlp.ncu-rep", "-w", ws], capsys)
    assert rc == 0
    assert "2 kernels match" in out
    assert "mismatch: fused_matmul_add_relu_kernel is in the profile but not in this build" in out
    assert "note: other_kernel is launched by the build but was not profiled" in out
    assert "mismatch: softmax_kernel:" in out and "differs from the copy embedded" in out


def test_import_refuses_a_foreign_profile(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ws = make_mlp_workspace(tmp_path / "ws")
    rc, _, err = run_cli(["import", SMALL / "lineinfo.ncu-rep", "-w", ws], capsys)
    assert rc == 1 and "not imported" in err and "--force" in err
    assert not (ws / "profiles").exists()
    rc, _, _ = run_cli(["import", SMALL / "lineinfo.ncu-rep", "-w", ws, "--force"], capsys)
    assert rc == 0 and (ws / "profiles" / "lineinfo.ncu-rep").is_file()
    rc, _, err = run_cli(["import", MLP / "details.csv", "-w", ws], capsys)
    assert rc == 1 and "only .ncu-rep reports" in err
    rc, _, err = run_cli(["import", MLP / "mlp.ncu-rep", "-w", tmp_path], capsys)
    assert rc == 1 and "not a kernelscope workspace" in err
