"""How the window's cost grows with a report's launches (issue 23, item 7), offscreen:

    python benchmarks/bench_big_reports.py [--launches 60 250 500] [--runs N] [--shown K]
    python benchmarks/bench_big_reports.py --first-look [--launches 1000 5000] [--baseline REF]

Each report is the mlp fixture's ``--set full`` profile (5 launches) repeated, as
bench_import makes its big reports (``repeat_report``): 60, 250 and 500 launches, written to
benchmarks/out/ once. Per report, in a fresh window with an empty profile cache (the report
is read in a child process, shown as it is read): when the kernel list is on screen (budget
1 s), when the first kernel is, when all of it is read; the window process's peak resident
memory after showing ``--shown`` kernels spread over the list (budget 500 MB), and the peak
of the child that read the report (budget 400 MB). Best and median of ``--runs``.

``--small-cnn``: the window's figures on the H200 small_cnn report repeated (as below).

``--llm``: the window's figures (with ``--first-look``: the first look's) on the recorded
H100 tiny Llama decode report (96 launches of ``profile --steps``, kernelscope's step
section set: 254 metrics a launch, no source counters or rules) repeated to at least the
launches asked for, the shape of report the goal names.

``--first-look`` (issue 33 item 6: a 5,000-launch report's kernel list <= 1.5 s): the H200
small_cnn report repeated instead (4 launches, 126 KB each: 1,000 and 5,000 launches, 126 and
630 MB), and only what the window does before its kernel list shows, in a fresh process
without Qt: the first look at the report (``Profile.open(first_look=True)``), the kernel
list and each kernel's totals (``view.from_profile``); wall and CPU seconds, peak MB; with
``--baseline REF`` the same with that git revision's ``core``, alternately. The repeated
launches are byte-identical copies, which favours what is decoded once per distinct bytes
(the rule results).
"""

from __future__ import annotations

import argparse
import json
import lzma
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
LLM_DECODE = HERE.parent / "tests" / "data" / "llm" / "tiny_decode.ncu-rep.xz"
sys.path.insert(0, str(HERE))

import bench_import  # noqa: E402
from bench_viewer import OPEN_TIMED, WAIT  # noqa: E402

OPEN = (
    WAIT
    + textwrap.dedent(
        """
    import resource, sys, time
    t0 = float(sys.argv[1])
    from PySide6.QtCore import QEventLoop, QTimer

    def wait_for(window, name):
        "Until ``name`` is on screen (it may be already: a kernel read before shows at once)."
        selection = window.selection
        def shown():
            return selection.kernel is not None and selection.kernel.name == name
        if shown() and not selection.loading:
            return
        loop = QEventLoop()
        check = QTimer()
        check.timeout.connect(lambda: loop.quit() if shown() and not selection.loading else None)
        check.start(10)
        loop.exec()
        check.stop()

    from kernelscope.viewer.app import application
    from kernelscope.viewer.main_window import MainWindow
    app = application()
    window = MainWindow(restore_layout=False)
    window.resize(1600, 1000)
    window.show()
    app.processEvents()
    marks = {"window": time.time() - t0}
    REPORT = sys.argv[2]
    """
    )
    + OPEN_TIMED
    + textwrap.dedent(
        """
    summaries = window.selection.document.summaries
    names = list(dict.fromkeys(s.name for s in summaries))  # a repeated report repeats names
    shown = int(sys.argv[3])
    step = max(1, len(names) // shown)
    for name in names[::step][:shown]:
        if window.selection.kernel is not None and window.selection.kernel.name == name:
            continue
        window.selection.show(name)
        wait_for(window, name)
        window.repaint()
        app.processEvents()
    wait_idle(window)
    status = {l.split(":")[0]: int(l.split()[1]) for l in open("/proc/self/status")
              if l.startswith(("VmRSS", "VmHWM", "RssAnon", "RssFile"))}
    child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print("RESULT", len(summaries), marks["list"], marks["kernel"], marks["all"],
          status["VmHWM"] / 1024, status["VmRSS"] / 1024, child,
          status["RssAnon"] / 1024, status["RssFile"] / 1024, flush=True)
    window.close()
    """
    )
)


FIRST_LOOK = """
import json, resource, sys, time
t0, c0 = time.perf_counter(), time.process_time()
from kernelscope.core.ncu import Profile
glance = Profile.open(sys.argv[1], first_look=True)
kernels = glance.kernels()
for k in kernels:
    glance.totals(k.name)
print(json.dumps({"list s": time.perf_counter() - t0, "cpu s": time.process_time() - c0,
                  "peak MB": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "launches": len(glance.launches)}))
"""


def small_cnn_report(launches: int) -> Path:
    """The H200 small_cnn report repeated to ``launches`` launches (4 each), made once."""
    times = launches // 4
    out = bench_import.OUT / f"small_cnn_x{times}.ncu-rep"
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        bench_import.repeat_report(bench_import.SMALL_CNN, out, times)
    return out


def llm_report(launches: int) -> Path:
    """The recorded H100 tiny Llama decode report (``profile --steps``: 4 decode steps, 96
    launches, kernelscope's step section set) repeated to at least ``launches`` launches,
    made once."""
    times = -(-launches // 96)
    out = bench_import.OUT / f"tiny_decode_x{times}.ncu-rep"
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        src = out.with_name("tiny_decode.ncu-rep")
        src.write_bytes(lzma.decompress(LLM_DECODE.read_bytes()))
        bench_import.repeat_report(src, out, times)
    return out


def first_look(launches: list[int], runs: int, baseline: str | None, llm: bool = False) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        sides: dict[str, Path | None] = {"this": None}
        if baseline:
            sides[baseline] = bench_import.baseline_tree(baseline, Path(tmp))
        results: dict[tuple[str, int], list[dict[str, float]]] = {}
        loads = [os.getloadavg()[0]]
        for _ in range(runs):
            for n in launches:
                path = llm_report(n) if llm else small_cnn_report(n)
                for side, pythonpath in sides.items():
                    env = bench_import.child_env()
                    if pythonpath is not None:
                        env["PYTHONPATH"] = str(pythonpath)
                    proc = subprocess.run(
                        [sys.executable, "-c", FIRST_LOOK, str(path)],
                        capture_output=True,
                        text=True,
                        env=env,
                        check=True,
                    )
                    results.setdefault((side, n), []).append(json.loads(proc.stdout))
                    loads.append(os.getloadavg()[0])
    print(f"load average (1 min) while measuring: {min(loads):.1f}-{max(loads):.1f}")
    print("| code | launches | kernel list (first look) s | CPU s | peak MB | ms per launch |")
    print("| --- | --- | --- | --- | --- | --- |")
    for (side, n), rows in results.items():
        wall = statistics.median(r["list s"] for r in rows)
        cpu = statistics.median(r["cpu s"] for r in rows)
        peak = statistics.median(r["peak MB"] for r in rows)
        print(f"| {side} | {n:,} | {wall:.2f} | {cpu:.2f} | {peak:.0f} | {cpu / n * 1000:.2f} |")
    for side in sides:
        pts = [(n, statistics.median(r["cpu s"] for r in results[(side, n)])) for n in launches]
        if len(pts) > 1:
            (n0, t0), (n1, t1) = pts[0], pts[-1]
            print(f"{side}: {(t1 - t0) / (n1 - n0) * 1000:.2f} ms CPU per launch")


def report(launches: int) -> Path:
    """The mlp report repeated to ``launches`` launches (5 each), made once."""
    times = launches // 5
    out = bench_import.OUT / f"mlp_x{times}.ncu-rep"
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        bench_import.repeat_report(bench_import.MLP / "mlp.ncu-rep", out, times)
    return out


def measure(path: Path, shown: int) -> list[float]:
    with tempfile.TemporaryDirectory() as cache:
        env = {**bench_import.child_env(cache), "QT_QPA_PLATFORM": "offscreen"}
        proc = subprocess.run(
            [sys.executable, "-c", OPEN, repr(time.time()), str(path), str(shown)],
            capture_output=True,
            text=True,
            env=env,
            timeout=900,
        )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULT")]
    if proc.returncode != 0 or not lines:
        raise SystemExit(f"{path.name} failed:\n{proc.stdout}\n{proc.stderr[-3000:]}")
    return [float(x) for x in lines[0].split()[1:]]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--launches", type=int, nargs="+", default=[60, 250, 500])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--shown", type=int, default=10, help="kernels shown one by one")
    parser.add_argument("--first-look", action="store_true", help="the kernel list alone")
    parser.add_argument(
        "--small-cnn", action="store_true", help="the H200 small_cnn report repeated, not mlp"
    )
    parser.add_argument("--baseline", help="with --first-look: a git revision to compare with")
    parser.add_argument(
        "--llm",
        action="store_true",
        help="the recorded tiny Llama decode report repeated instead (100 launches each)",
    )
    args = parser.parse_args()
    if args.first_look:
        first_look(args.launches, args.runs, args.baseline, args.llm)
        return 0
    make = llm_report if args.llm else small_cnn_report if args.small_cnn else report
    paths = {n: make(n) for n in args.launches}
    rows: dict[int, list[list[float]]] = {n: [] for n in args.launches}
    loads = [os.getloadavg()[0]]
    for _ in range(args.runs):  # the sizes alternate, so each sees the same machine load
        for n, path in paths.items():
            rows[n].append(measure(path, args.shown))
            loads.append(os.getloadavg()[0])
    print(f"load average (1 min) while measuring: {min(loads):.1f}-{max(loads):.1f}")
    print(
        "| launches | report MB | kernel list shown | first kernel | all read | window peak MB "
        "| window now MB (anonymous + file pages) | child peak MB |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for n, path in paths.items():
        runs = rows[n]

        def cell(i: int, unit: str, fmt: str = "{:.2f}", runs: list[list[float]] = runs) -> str:
            values = [r[i] for r in runs]
            med = fmt.format(statistics.median(values))
            return f"{med}{unit} ({fmt.format(min(values))}-{fmt.format(max(values))})"

        print(
            f"| {n} | {path.stat().st_size / 1e6:.0f} | {cell(1, ' s')} "
            f"| {cell(2, ' s')} | {cell(3, ' s')} | {cell(4, '', '{:.0f}')} "
            f"| {cell(5, '', '{:.0f}')} ({statistics.median(r[7] for r in runs):.0f} + "
            f"{statistics.median(r[8] for r in runs):.0f}) | {cell(6, '', '{:.0f}')} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
