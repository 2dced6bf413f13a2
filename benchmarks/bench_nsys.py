"""Nsight Systems exports of a serving run (issue 33 item 6): open and summarise by kernel and
by step, growth with the launches, against another kernelscope in the same run:

    python benchmarks/bench_nsys.py [--launches 10000 100000 1000000] [--runs N] [--baseline REF]

The exports are synthetic, in the schema nsys writes (``tests/nsys_support.py``): 200 kernels
a step, each step opened by kernelscope's marker launch ("markers") or inside an NVTX range
``decode N`` ("nvtx"), written to benchmarks/out/ once. Each measurement is a fresh process
that reads the export (``read_nsys_sqlite``) and computes its kernel and step shares: wall
and CPU seconds, peak resident MB (budget: 5 s and 1 GB for a million launches). With
``--baseline REF`` (a git revision) the same is run with that revision's ``core`` (extracted
with ``git archive``), alternately with this one's; the baseline's per-step figure is its
kernel shares only (it had no steps).

``--window``: instead, the export opened in the window (``kernelscope gui EXPORT
--screenshot``, offscreen, a fresh process with an empty cache: open, read, every pane filled,
rendered): wall seconds and the process's peak MB; with ``--baseline`` that revision's
``core`` and ``viewer`` alternately.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "out"
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(HERE))

from bench_import import baseline_tree  # noqa: E402

CHILD = """
import json, resource, sys, time
t0, c0 = time.perf_counter(), time.process_time()
from pathlib import Path
from kernelscope.core.timeline import read_nsys_sqlite
t = read_nsys_sqlite(Path(sys.argv[1]))
opened = time.perf_counter() - t0
kernels = t.kernel_shares()
steps = t.step_shares() if hasattr(t, "step_shares") else []
print(json.dumps({
    "open s": opened,
    "summary s": time.perf_counter() - t0,
    "cpu s": time.process_time() - c0,
    "peak MB": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    "calls": len(t.calls), "kernels": len(kernels), "steps": len(steps),
}))
"""


def export(launches: int, how: str) -> Path:
    from nsys_support import make_export

    path = OUT / f"nsys_{how}_{launches}.sqlite"
    if not path.is_file():
        OUT.mkdir(exist_ok=True)
        make_export(path, launches, markers=how == "markers", nvtx=how == "nvtx")
    return path


def measure(path: Path, pythonpath: Path | None) -> dict[str, float]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True, env=env
    )
    if proc.returncode != 0:
        raise SystemExit(f"{path.name} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout)


def measure_window(path: Path, pythonpath: Path | None) -> dict[str, float]:
    """``kernelscope gui PATH --screenshot``: wall seconds and peak MB of the window."""
    import resource

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["QT_QPA_PLATFORM"] = "offscreen"
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    with tempfile.TemporaryDirectory() as tmp:
        env["KERNELSCOPE_CACHE_DIR"] = tmp
        shot = Path(tmp) / "shot.png"
        cmd = [sys.executable, "-m", "kernelscope.core.cli", "gui", str(path)]
        t = time.perf_counter()
        proc = subprocess.run([*cmd, "--screenshot", str(shot)], capture_output=True, env=env)
        wall = time.perf_counter() - t
        if proc.returncode != 0 or not shot.is_file():
            raise SystemExit(f"{path.name} in the window failed:\n{proc.stderr[-3000:]!r}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # the largest yet
    return {"window s": wall, "peak MB": peak}


def window(launches: list[int], runs: int, baseline: str | None) -> int:
    paths = {n: export(n, "nvtx") for n in launches}
    with tempfile.TemporaryDirectory() as tmp:
        sides: dict[str, Path | None] = {"this": None}
        if baseline:
            sides[baseline] = baseline_tree(baseline, Path(tmp), ("core", "viewer"))
        results: dict[tuple[str, int], list[dict[str, float]]] = {}
        for _ in range(runs):
            for n, path in paths.items():
                for side, pythonpath in sides.items():  # each side in its own process
                    res = measure_window(path, pythonpath)
                    results.setdefault((side, n), []).append(res)
    print(f"{os.cpu_count()} cores; load average now {os.getloadavg()[0]:.1f}; medians of {runs}")
    print("| code | launches | shown in the window, wall s | peak MB (the largest so far) |")
    print("| --- | --- | --- | --- |")
    for (side, n), rows in results.items():
        wall = statistics.median(r["window s"] for r in rows)
        print(f"| {side} | {n:,} | {wall:.2f} | {max(r['peak MB'] for r in rows):.0f} |")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--launches", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--baseline", help="a git revision to compare with (e.g. main)")
    parser.add_argument("--window", action="store_true", help="the export in the window")
    args = parser.parse_args()
    if args.window:
        return window(args.launches, args.runs, args.baseline)
    cases = [(n, how) for n in args.launches for how in ("markers", "nvtx")]
    paths = {case: export(*case) for case in cases}
    with tempfile.TemporaryDirectory() as tmp:
        sides: dict[str, Path | None] = {"this": None}
        if args.baseline:
            sides[args.baseline] = baseline_tree(args.baseline, Path(tmp))
        results: dict[tuple[str, int, str], list[dict[str, float]]] = {}
        loads = [os.getloadavg()[0]]
        for _ in range(args.runs):
            for case in cases:
                for side, pythonpath in sides.items():
                    res = measure(paths[case], pythonpath)
                    results.setdefault((side, *case), []).append(res)
                    loads.append(os.getloadavg()[0])
    print(
        f"{os.cpu_count()} cores; load average (1 min) while measuring: "
        f"{min(loads):.1f}-{max(loads):.1f}; medians of {args.runs} (min-max)"
    )
    print(
        "| code | launches | steps by | calls | opened | + kernel and step shares | CPU s "
        "| peak MB |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for (side, n, how), runs in results.items():

        def cell(key: str, fmt: str = "{:.2f}", runs: list[dict[str, float]] = runs) -> str:
            values = [r[key] for r in runs]
            return (
                f"{fmt.format(statistics.median(values))} "
                f"({fmt.format(min(values))}-{fmt.format(max(values))})"
            )

        print(
            f"| {side} | {n:,} | {how} | {runs[0]['calls']:,} | {cell('open s')} "
            f"| {cell('summary s')} | {cell('cpu s')} | {cell('peak MB', '{:.0f}')} |"
        )
    for side in sides:
        for how in ("markers", "nvtx"):
            pts = [
                (n, statistics.median(r["summary s"] for r in results[(side, n, how)]))
                for n in args.launches
            ]
            if len(pts) > 1:
                (n0, t0), (n1, t1) = pts[0], pts[-1]
                print(
                    f"{side}, {how}: {(t1 - t0) / (n1 - n0) * 1e6:.2f} us per launch "
                    f"(from {n0:,} to {n1:,} launches)"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
