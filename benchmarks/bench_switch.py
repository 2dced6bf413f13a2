"""Kernel switches in the window, one by one, against issue 23's targets (median <= 100 ms,
slowest <= 150 ms from the click until every pane, Details included, is painted).

    python benchmarks/bench_switch.py [--runs N] [--against PATH] [--profile OUT]

Data: bench_compare's "batch change" pair (cnn3 at batch 8 and 2, 60 launches a side, with
their workspaces). Each run is a fresh offscreen window (a child process) on the reports'
data cached as the window's open leaves it: the new profile opened, the Details pane shown,
everything the window reads in the background done; then each kernel chosen once in turn
(a first look at each), timed from ``selection.show`` until the window is not busy, the
kernel and its Details are on screen (compared, in compare mode) and the paint events are
handled. Both modes: the new profile alone, and compared with the base.

``--against PATH``: the same children with ``PATH`` first on ``PYTHONPATH`` (a folder where
``import kernelscope`` finds other code, e.g. a checkout of an older commit), alternating
with this checkout's in every run, so that both see the same load on a shared machine.
``--profile OUT``: cProfile of this checkout's switches (GUI thread) in compare mode.
Prints per checkout and mode the median and slowest switch over all runs, the median of
each run's slowest, the process CPU time of a switch (all threads), and the load average.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import bench_compare

TARGETS = {"median s": 0.1, "slowest s": 0.15}


def _window(args: list[str], compare: bool, profile: str | None) -> dict[str, list[float]]:
    """One window: each kernel chosen in turn; per switch its wall and CPU seconds."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from kernelscope.viewer.compare import CompareFeature
    from kernelscope.viewer.details import DetailsFeature

    app = QApplication([])
    wait = functools.partial(bench_compare.wait_until, app)
    with tempfile.TemporaryDirectory() as scratch:
        window, paths = bench_compare.open_window(scratch, list(args))
        window.open_path(paths[0])
        if compare:
            window.feature(CompareFeature).compare_with_paths([paths[1]])
        controller = window.feature(CompareFeature).mode.controller
        wait(lambda: (controller.diff is not None or not compare) and not window.busy)
        details = window.feature(DetailsFeature)
        details.show_pane("details")
        wait(lambda: not window.busy)
        wait(lambda: not window.workers.busy)  # what the window reads in the background
        document = window.selection.document
        assert document is not None
        names = [s.name for s in document.summaries if document.launched(s.name)]
        first = window.selection.kernel.name if window.selection.kernel else None
        pane = details.details_pane

        def shown(name: str, one_sided: bool) -> bool:
            kernel, details = window.selection.kernel, pane.details
            return (
                not window.busy
                and kernel is not None
                and kernel.name == name
                and details is not None
                and details.kernel == name
                and (not compare or one_sided or bench_compare._compared(window, name))
            )

        wall: list[float] = []
        cpu: list[float] = []
        profiler = None
        if profile:
            import cProfile

            profiler = cProfile.Profile()
        for name in [n for n in names if n != first] + ([first] if first else []):
            delta = controller.delta_of(name) if compare else None
            one_sided = delta is not None and delta.match.base is None
            if profiler:
                profiler.enable()
            t, c = time.perf_counter(), time.process_time()
            window.selection.show(name)
            wait(lambda name=name, one_sided=one_sided: shown(name, one_sided))
            app.processEvents()  # the paint events the last changes posted
            wall.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
            if profiler:
                profiler.disable()
        if profiler and profile:
            profiler.dump_stats(profile)
        window.close()
    return {"wall": wall, "cpu": cpu}


def _data() -> list[str]:
    files = bench_compare.make_data()
    base, new, wb, wn = bench_compare.CASES["batch change, with workspaces"]
    assert wb and wn
    return [
        str(files[base]),
        str(files[new]),
        str(bench_compare.DATA / f"{wb}.kscope"),
        str(bench_compare.DATA / f"{wn}.kscope"),
    ]


def _child(mode: str, path: str | None, cache: Path, profile: str | None) -> dict:
    env = dict(os.environ, KERNELSCOPE_CACHE_DIR=str(cache), QT_QPA_PLATFORM="offscreen")
    if path:
        env["PYTHONPATH"] = os.pathsep.join([path, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    argv = _data()
    here = Path(__file__).resolve().parent
    diff = [sys.executable, str(here / "bench_compare.py"), "--child", "diff", *argv]
    subprocess.run(diff, env=env, capture_output=True, text=True, check=True)  # as opening does
    cmd = [sys.executable, __file__, "--child", mode, profile or "", *argv]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--against", help="PYTHONPATH entry where other kernelscope code is")
    parser.add_argument("--profile", help="write a cProfile of compare-mode switches here")
    args = parser.parse_args()
    if args.child:
        mode, profile, *rest = args.child
        print(json.dumps(_window(rest, mode == "compare", profile or None)))
        return
    checkouts: list[tuple[str, str | None]] = [("this checkout", None)]
    if args.against:
        checkouts.insert(0, (f"--against {args.against}", args.against))
    results: dict[tuple[str, str], dict[str, list[float]]] = {}
    for run in range(args.runs):
        for mode in ("alone", "compare"):
            for label, path in checkouts:
                profile = args.profile if path is None and mode == "compare" and not run else None
                with tempfile.TemporaryDirectory() as cache:
                    got = _child(mode, path, Path(cache), profile)
                keep = results.setdefault((label, mode), {"wall": [], "cpu": [], "max": []})
                keep["wall"] += got["wall"]
                keep["cpu"] += got["cpu"]
                keep["max"].append(max(got["wall"]))
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    print(f"kernel switches, {args.runs} runs, load average {load}, {os.cpu_count()} cores")
    for (label, mode), r in results.items():
        ms = [1000 * statistics.median(r["wall"]), 1000 * max(r["wall"])]
        print(
            f"{label:<30} {mode:<8} {len(r['wall'])} switches: median {ms[0]:.0f} ms, "
            f"slowest {ms[1]:.0f} ms, median of each run's slowest "
            f"{1000 * statistics.median(r['max']):.0f} ms; CPU a switch median "
            f"{1000 * statistics.median(r['cpu']):.0f} ms, most {1000 * max(r['cpu']):.0f} ms"
        )
    print("targets (issue 23):", ", ".join(f"{k} <= {v}" for k, v in TARGETS.items()))


if __name__ == "__main__":
    main()
