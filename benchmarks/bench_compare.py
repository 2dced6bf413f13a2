"""Benchmark ``kernelscope diff`` against the targets of issue 11.

    python benchmarks/bench_compare.py [BASE NEW [WS_BASE WS_NEW]]

Data: the H200 pairs of tests/data/compare, each report's results repeated and cut to 60
launches (written to benchmarks/out/, checked with ncu_report; see bench_import.py for how a
report is extended):

* batch change: cnn3 at batch 8 vs batch 2, with both workspaces (matched by structure);
* renumbered, no workspaces: cnn3 vs cnn3 with a layer in front (matched by name, launch
  configuration and the reports' embedded sources).

With BASE and NEW (and their workspaces), that pair is measured as it is instead.

Every figure runs in a fresh Python process; "cold" with an empty kernelscope cache (the OS
file cache is warm), "warm" on the cache a cold run left. "one cold open" is what opening one
of the two reports costs: ``Profile.open`` and its kernel list. "kernel comparison" is what
selecting a kernel in compare mode costs in core (``Comparison.kernel``: both sides' lines,
their alignment and the SASS) after the kernel-level diff: cold (the kernel's per-instruction
data read from the reports) and warm (from the cache, as after a first look). "switching
kernels in the window" is the same in the viewer, offscreen: the two reports opened as
documents (with their workspaces when given, as ``kernelscope profile`` attaches them), then
each matched kernel chosen in turn, timed until every pane shows it compared (the kernel's
first load, hot lines, its columns and side-by-side view; a first look at each kernel, the
reports' data cached as the window's open leaves it, and the kernels compared ahead in the
background as the window does once the comparison is made).
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
from collections.abc import Callable
from pathlib import Path

from bench_import import _blocks, _is_result_header
from paths_support import data_path

ROOT = Path(__file__).resolve().parent.parent
DATA = data_path("compare")  # stored compressed: an unpacked copy
OUT = Path(__file__).resolve().parent / "out"
LAUNCHES = 60
TARGETS = {
    "diff cold / one cold open": 2.0,
    "diff warm s": 0.5,
    "kernel comparison, warm, slowest s": 0.15,
    "switching kernels in the window, slowest s": 0.15,
}
CASES = {
    "batch change, with workspaces": ("cnn3_b8_run1", "cnn3_b2", "cnn3_b8", "cnn3_b2"),
    "renumbered, no workspaces": ("cnn3_b8_run1", "cnn3x_b8", None, None),
}


def cut_report(src: Path, dst: Path, launches: int) -> None:
    """The report with copies of its results appended until it holds ``launches`` of them."""
    data = src.read_bytes()
    blocks = _blocks(data)
    results = [
        blocks[i] + blocks[i + 1] for i in range(len(blocks) - 1) if _is_result_header(blocks[i])
    ]
    if launches < len(results):
        raise ValueError(f"{src} already has {len(results)} launches")
    extra = [results[i % len(results)] for i in range(len(results), launches)]
    dst.write_bytes(data + b"".join(extra))


def make_data() -> dict[str, Path]:
    import ncu_report

    OUT.mkdir(exist_ok=True)
    files = {}
    for name in {n for case in CASES.values() for n in case[:2]}:
        dst = OUT / f"{name}_x{LAUNCHES}.ncu-rep"
        if not dst.is_file():
            cut_report(DATA / f"{name}.ncu-rep", dst, LAUNCHES)
            got = ncu_report.load_report(str(dst)).range_by_idx(0).num_actions()
            if got != LAUNCHES:
                raise SystemExit(f"synthetic {dst.name}: ncu_report sees {got} launches")
        files[name] = dst
    return files


# ---- one measurement per process ----------------------------------------------------------------
def _measure(what: str, args: list[str]) -> dict[str, float]:
    t0 = time.perf_counter()
    from kernelscope.core.compare import open_comparison
    from kernelscope.core.ncu import Profile

    out: dict[str, float] = {"import s": time.perf_counter() - t0}
    t1 = time.perf_counter()
    if what == "open":
        Profile.open(args[0]).kernels()
        out["open s"] = time.perf_counter() - t1
        return out
    base, new, wb, wn = (a or None for a in args)
    cmp = open_comparison(base, new, base_workspace=wb, new_workspace=wn)
    diff = cmp.summary()
    out["diff s"] = time.perf_counter() - t1
    out["kernels"] = len(diff.kernels)
    if what == "kernels":
        times = []
        for k in diff.matched:
            t = time.perf_counter()
            cmp.kernel(k)
            times.append(time.perf_counter() - t)
        out["kernel max s"] = max(times)
        out["kernel median s"] = statistics.median(times)
    return out


def _compared(window: object, name: str) -> bool:
    from kernelscope.viewer.compare import CompareFeature

    compare = window.feature(CompareFeature)  # type: ignore[attr-defined]
    current = compare.mode.controller.current
    return current is not None and current.kernel.match.new == name


def open_window(scratch: str, args: list[str | None]) -> tuple[object, list[Path]]:
    """A shown offscreen window (settings of its own in ``scratch``) and the paths to open:
    the new and the base report (``args``: base, new, their workspaces), each attached to a
    copy of its workspace in ``scratch``, or the report itself where it has none. The caller
    has made the QApplication."""
    import shutil

    from PySide6.QtCore import QCoreApplication, QSettings

    from kernelscope.core.workspace import Workspace
    from kernelscope.viewer.main_window import MainWindow

    base, new, wb, wn = args
    paths: list[Path] = []
    for report, ws in ((new, wn), (base, wb)):
        assert report is not None
        if ws is None:
            paths.append(Path(report))
            continue
        folder = Path(scratch) / f"{len(paths)}_{Path(ws).name}"
        shutil.copytree(ws, folder)
        Workspace.open(folder).attach_profile(Path(report))
        paths.append(folder)
    QCoreApplication.setOrganizationName("kernelscope-bench")
    settings = QSettings(str(Path(scratch) / "bench.ini"), QSettings.Format.IniFormat)
    window = MainWindow(restore_layout=False, settings=settings)
    window.resize(1600, 1000)
    window.show()
    return window, paths


def wait_until(app: object, done: Callable[[], bool]) -> None:
    """Handle the application's events until ``done()``."""
    while not done():
        app.processEvents()  # type: ignore[attr-defined]
        time.sleep(0.001)


def _window(args: list[str], compare: bool) -> dict[str, float]:
    """An offscreen window, in compare mode or on the new profile alone (what switching costs
    without comparing): each kernel chosen in turn, a first look at each."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from kernelscope.viewer.compare import CompareFeature

    app = QApplication([])
    wait = functools.partial(wait_until, app)
    with tempfile.TemporaryDirectory() as scratch:
        window, paths = open_window(scratch, [a or None for a in args])
        t = time.perf_counter()
        window.open_path(paths[0])
        feature = window.feature(CompareFeature)
        if compare:
            feature.compare_with_paths([paths[1]])
        compared = feature.mode.controller
        wait(lambda: (compared.diff is not None or not compare) and not window.busy)
        out: dict[str, float] = {"window open s": time.perf_counter() - t}
        t = time.perf_counter()
        wait(lambda: not window.workers.busy)  # the kernels compared ahead, in the background
        out["ahead s"] = time.perf_counter() - t
        document = window.selection.document
        assert document is not None
        # kernels the model never launches are listed but have nothing to compare
        names = [s.name for s in document.summaries if s.name not in document.never_launched]
        first = window.selection.kernel.name if window.selection.kernel else None
        times = []
        for name in [n for n in names if n != first] + ([first] if first else []):
            delta = compared.delta_of(name) if compare else None
            one_sided = delta is not None and delta.match.base is None
            t = time.perf_counter()
            window.selection.show(name)
            wait(
                lambda name=name, one_sided=one_sided: (
                    not window.busy
                    and window.selection.kernel is not None
                    and window.selection.kernel.name == name
                    and (not compare or one_sided or _compared(window, name))
                )
            )
            times.append(time.perf_counter() - t)
        window.close()
    out["switch max s"] = max(times)
    out["switch median s"] = statistics.median(times)
    return out


def child(what: str, args: list[str], cache: Path) -> dict[str, float]:
    env = dict(os.environ, KERNELSCOPE_CACHE_DIR=str(cache))
    cmd = [sys.executable, __file__, "--child", what, *args]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stderr}")
    return json.loads(proc.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    parser.add_argument("pair", nargs="*", help="BASE NEW [WS_BASE WS_NEW] instead of the data")
    args = parser.parse_args()
    if args.child:
        what, rest = args.child[0], args.child[1:]
        if what.startswith("window"):
            print(json.dumps(_window(rest, compare=what == "window")))
        else:
            print(json.dumps(_measure(what, rest)))
        return
    if args.pair:
        if len(args.pair) not in (2, 4):
            parser.error("give BASE NEW, or BASE NEW WS_BASE WS_NEW")
        cases = {"given pair": [*args.pair, "", ""][:4]}
    else:
        files = make_data()
        cases = {
            f"{label} ({LAUNCHES} launches a side)": [
                str(files[base]),
                str(files[new]),
                str(DATA / f"{wb}.kscope") if wb else "",
                str(DATA / f"{wn}.kscope") if wn else "",
            ]
            for label, (base, new, wb, wn) in CASES.items()
        }
    rows: list[tuple[str, str, str]] = []
    for label, argv in cases.items():
        with tempfile.TemporaryDirectory() as cache:
            opened = child("open", [argv[0]], Path(cache))["open s"]
        with tempfile.TemporaryDirectory() as cache:
            cold = child("diff", argv, Path(cache))
            warm = child("diff", argv, Path(cache))
            first = child("kernels", argv, Path(cache))
            again = child("kernels", argv, Path(cache))
        with tempfile.TemporaryDirectory() as cache:
            child("diff", argv, Path(cache))  # the reports read, as the window's open does
            window = child("window", argv, Path(cache))
        with tempfile.TemporaryDirectory() as cache:
            child("diff", argv, Path(cache))
            plain = child("window-alone", argv, Path(cache))
        figures = {
            "one cold open (Profile.open + kernel list) s": opened,
            "diff cold s": cold["diff s"],
            "diff cold / one cold open": cold["diff s"] / opened,
            "diff warm s": warm["diff s"],
            "kernel comparison, cold, median s": first["kernel median s"],
            "kernel comparison, warm, median s": again["kernel median s"],
            "kernel comparison, warm, slowest s": again["kernel max s"],
            "window: open both and compare s": window["window open s"],
            "window: then every kernel compared ahead s": window["ahead s"],
            "switching kernels in the window, median s": window["switch median s"],
            "switching kernels in the window, slowest s": window["switch max s"],
            "same, new profile alone (not comparing), median s": plain["switch median s"],
            "same, new profile alone (not comparing), slowest s": plain["switch max s"],
            "python + kernelscope import (not in the above) s": cold["import s"],
        }
        rows += [
            (label, name, f"{value:.2f}" if name.endswith("open") else f"{value:.3f}")
            for name, value in figures.items()
        ]
    width = max(len(r[0]) for r in rows)
    what = max(len(r[1]) for r in rows)
    print(f"{'case':<{width}}  {'what':<{what}}  value")
    for case, name, value in rows:
        print(f"{case:<{width}}  {name:<{what}}  {value:>7}")
    print("\ntargets (issue 11):", ", ".join(f"{k} <= {v}" for k, v in TARGETS.items()))


if __name__ == "__main__":
    main()
