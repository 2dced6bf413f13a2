"""Benchmark the Details view, the roofline and the headroom list against issue 10's targets.

    python benchmarks/bench_details.py

Data: the mlp fixture (tests/data/ncu/mlp, a 5-launch ``--set full`` H200 report) and a
60-launch report made from it by repeating its results 12 times (as bench_import.py does),
with the manifest of a real build of the same model (tests/data/ws_ops/mlp).

* one kernel's details, warm: ``kernel_details`` again on an open profile;
* the roofline of the 60-launch report, warm: ``roofline`` again on an open profile;
* the headroom list of the 60-launch report, cold from a cached profile: a fresh Python
  process opens the report (whose kernelscope cache an earlier process filled) and the
  workspace, and computes the list; imports not counted, opening the profile counted.

Each figure is the best of 5 runs (the machine is shared; the best run is the code's cost).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_import import OUT, repeat_report  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
MLP = ROOT / "tests" / "data" / "ncu" / "mlp" / "mlp.ncu-rep"
WS = ROOT / "tests" / "data" / "ws_ops" / "mlp"
TARGETS = {
    "one kernel's details, warm": 0.05,
    "roofline of 60 launches, warm": 0.2,
    "headroom list of 60 launches, cold from a cached profile": 1.0,
}
RUNS = 5


def _best(fn, runs: int = RUNS) -> float:
    best = float("inf")
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def _child(report: str) -> None:
    """In a fresh process: the headroom list, profile opened from the cache."""
    from kernelscope.core.ncu import Profile
    from kernelscope.core.roofline import headroom
    from kernelscope.core.workspace import Workspace

    t = time.perf_counter()
    rows = headroom(Profile.open(report), Workspace.open(WS)).rows
    elapsed = time.perf_counter() - t
    import sys as _sys

    print(
        json.dumps(
            {"seconds": elapsed, "rows": len(rows), "ncu_report": "ncu_report" in _sys.modules}
        )
    )


def main() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        _child(sys.argv[2])
        return 0
    OUT.mkdir(parents=True, exist_ok=True)
    big = OUT / "mlp_x12.ncu-rep"
    if not big.is_file():
        repeat_report(MLP, big, 12)
    cache = Path(tempfile.mkdtemp(prefix="ks-bench-details-"))
    os.environ["KERNELSCOPE_CACHE_DIR"] = str(cache)
    from kernelscope.core.ncu import Profile, kernel_details
    from kernelscope.core.roofline import roofline

    results: dict[str, float] = {}
    small = Profile.open(MLP)
    kernel_details(small, "fused_matmul_add_relu_kernel")
    results["one kernel's details, warm"] = _best(
        lambda: kernel_details(small, "fused_matmul_add_relu_kernel")
    )
    profile = Profile.open(big)
    assert len(profile.launches) == 60
    first = time.perf_counter()
    roofline(profile)  # reads every launch's metrics into the cache
    filled = time.perf_counter() - first
    results["roofline of 60 launches, warm"] = _best(lambda: roofline(profile))

    env = dict(os.environ, KERNELSCOPE_CACHE_DIR=str(cache))
    cold = []
    for _ in range(RUNS):
        proc = subprocess.run(
            [sys.executable, __file__, "--child", str(big)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        cold.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    results["headroom list of 60 launches, cold from a cached profile"] = min(
        c["seconds"] for c in cold
    )
    print(f"(first roofline of the 60-launch report, reading it: {filled:.2f} s)")
    print(f"(headroom child loaded ncu_report: {cold[0]['ncu_report']}; rows: {cold[0]['rows']})")
    failed = 0
    for name, seconds in results.items():
        target = TARGETS[name]
        ok = seconds < target
        failed += not ok
        verdict = "ok" if ok else "SLOW"
        print(f"{name:60s} {seconds * 1000:8.1f} ms  (target < {target * 1000:.0f} ms) {verdict}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
