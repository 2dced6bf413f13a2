"""Exporting with the H200 profile of the build: measured time in NNFusion's Miscs and the
line summary kept beside each kernel."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from paths_support import H200_REPORT

from kernelscope.core.cli import main as cli
from kernelscope.core.kernel_db import KernelDB
from kernelscope.core.workspace import Workspace


def test_export_with_a_profile_stores_time_and_hot_lines(
    build_once: Callable[..., Workspace], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ws = build_once("small_cnn.onnx")
    db = tmp_path / "kernel_cache.db"
    argv = ["export-db", str(ws.path), "--db", str(db), "--profile", str(H200_REPORT)]
    assert cli.main(argv) == 0
    with KernelDB.open(db) as kdb:
        conv = next(e for e in kdb.list_entries() if e.kernel_name.startswith("fused_conv2d"))
        detail = kdb.get(conv.key)
    assert detail.miscs["external_profile"]["time"].startswith("NVIDIA H200:")
    assert detail.time_us is not None and detail.time_us > 0
    summary = detail.metrics
    assert summary is not None and summary["profile"] == H200_REPORT.name
    assert summary["launches"] == 1 and summary["samples"] > 0
    lines = summary["hot_lines"]
    assert lines and lines == sorted(lines, key=lambda h: -h["samples"])
    assert all(1 <= h["line"] <= ws.manifest.kernel(conv.kernel_name).source_lines for h in lines)
    assert 0 < sum(h["share"] for h in lines) <= 1.0 + 1e-9  # the top lines: part of the whole
    capsys.readouterr()
    assert cli.main(["db", "show", "--db", str(db), conv.key]) == 0
    shown = capsys.readouterr().out
    assert "warp-stall samples" in shown and f"line {lines[0]['line']}:" in shown
    assert cli.main(["db", "show", "--db", str(db), conv.key, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["metrics"]["hot_lines"][0] == lines[0]
