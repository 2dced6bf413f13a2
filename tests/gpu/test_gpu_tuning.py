"""A tuning round measured on the GPU (``kernelscope measure-batch``), as the batch mode's user
does: exported here by ``gpu-check.sh stage``, measured there, and brought back
(``gpu-check.sh import`` commits it to the staged database)."""

from __future__ import annotations

import json
import math
import os
import shutil
import statistics
from pathlib import Path

import pytest
from gpu_support import RESULTS_ENV, ROUND_RESULTS, kernelscope, stage_dir

pytestmark = pytest.mark.gpu


@pytest.mark.needs("round")
def test_measure_batch(gpu, figure, tmp_path: Path) -> None:
    """measure-batch of a tuning round exported here: every candidate timed on this GPU"""
    folder = Path(shutil.copytree(stage_dir() / "round", tmp_path / "round"))
    proc = kernelscope("measure-batch", folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    spec = json.loads((folder / "round.json").read_text())
    results = json.loads((folder / "results.json").read_text())
    assert not results["errors"], results["errors"]
    by_kind: dict[str, list[float]] = {}
    for item in spec["candidates"]:
        runs = results["times"].get(item["file"])
        assert runs and all(math.isfinite(t) and t > 0 for t in runs), (item["file"], runs)
        by_kind.setdefault(item["kind"], []).append(statistics.median(runs) * 1e6)
    assert "NVIDIA" in results["gpu"], results["gpu"]
    out = os.environ.get(RESULTS_ENV)
    if out:  # brought back for `gpu-check.sh import` here
        shutil.copyfile(folder / "results.json", Path(out) / ROUND_RESULTS)
    default, best = min(by_kind["default"]), min(by_kind.get("candidate", [math.inf]))
    figure(
        f"{len(spec['candidates'])} timed on {results['gpu']}: default {default:.1f} µs, "
        f"best candidate {best:.1f} µs ({best / default:.2f}x)"
    )
