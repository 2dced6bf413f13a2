"""A tuning round measured on the GPU (``kernelscope measure-batch``), as the batch mode's user
does: exported here by ``gpu-check.sh stage``, measured there, and brought back
(``gpu-check.sh import`` commits it to the staged database and builds the model again from it);
the next run profiles that tuned build against the default one."""

from __future__ import annotations

import json
import math
import os
import shutil
import statistics
from pathlib import Path

import pytest
from gpu_support import RESULTS_ENV, ROUND_RESULTS, kernelscope, stage_dir

from kernelscope.core.ncu import Profile

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


def _kernel_us(report: Path, names: list[str]) -> dict[str, float]:
    """Each named kernel's time in a report, µs (its launches summed)."""
    times: dict[str, float] = {}
    for launch in Profile.open(report).launches:
        if launch.name in names and launch.duration_ns:
            times[launch.name] = times.get(launch.name, 0.0) + launch.duration_ns / 1000
    return times


@pytest.mark.needs("tuned")
def test_tuned_build_is_faster(gpu, workspace, figure) -> None:
    """the build from the round's records, profiled: faster than the default on the kernels tuned"""
    tuned = gpu["tuned"]
    kernels = list(tuned["kernels"])
    reports = {}
    for which, name in (("default", tuned["default"]), ("tuned", tuned["workspace"])):
        ws = workspace(name)
        proc = kernelscope("profile", ws, "--name", which, "--top", "0")
        assert proc.returncode == 0, proc.stdout + proc.stderr
        reports[which] = _kernel_us(ws / "profiles" / f"{which}.ncu-rep", kernels)
    default, faster = reports["default"], reports["tuned"]
    assert set(default) == set(faster) == set(kernels), reports  # each profiled in both
    ratios = {k: faster[k] / default[k] for k in kernels}
    assert all(r < 1.0 for r in ratios.values()), ratios
    figure(
        ", ".join(
            f"{k}: {default[k]:.1f} -> {faster[k]:.1f} µs ({ratios[k]:.2f}x)" for k in kernels
        )
    )
