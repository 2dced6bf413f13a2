"""Start-up of the ``kernelscope`` command's window, offscreen (issue 23, item 4):

    python benchmarks/bench_startup.py [--runs N] [--base OLD_CHECKOUT] [REPORT]

1. ``kernelscope``: from the command to the welcome page painted (budget 1.0 s);
2. ``kernelscope WORKSPACE`` (tests/data/ws_mlp): to the workspace's kernel painted (1.5 s);
3. ``kernelscope --screenshot out.png REPORT``: the whole command (3 s for 60 launches; the
   report defaults to bench_import's ``mlp_x12.ncu-rep``, written if missing), with the
   profile cache of an earlier run and with an empty one.

Each case runs the real command line (``kernelscope.core.cli.main.main``) in a fresh
interpreter; the clock starts in this process just before the child starts, so the figures
include the interpreter's own start. The child also says which heavy modules were loaded by
the mark (numpy, pyqtgraph, sqlite_utils, tvm, ncu_report). Beside the wall-clock medians,
the median CPU seconds the command used (with its children) by the mark: on a machine other
sessions load, the steadier measure of the work a start does.

The children write and use bytecode caches (``__pycache__``), as an installed kernelscope
does: ``PYTHONDONTWRITEBYTECODE`` is removed from their environment (with it set, every start
compiles kernelscope's ~140 modules again: about 0.35 s on the 2-core machine).

``--display :N``: the welcome page and workspace cases on that X server (start one with
``Xvfb :N``) instead of offscreen: the command then checks Qt's system libraries before Qt
starts, as on a desktop.

``--base OLD_CHECKOUT``: also run every case with ``PYTHONPATH=OLD_CHECKOUT/.shim`` (another
git worktree with its own import shim), alternating old and new runs so both see the same
machine load; medians are printed with the load average.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORKSPACE = ROOT / "tests" / "data" / "ws_mlp"
HEAVY = ("numpy", "pyqtgraph", "sqlite_utils", "tvm", "ncu_report", "onnx")

# Runs the command in this interpreter; when the event loop starts, watches for the mark:
# the welcome page's first paint, or a kernel shown and painted. Prints seconds since the
# parent's clock and the heavy modules loaded by then, and leaves at once.
MARK = """
import os, sys, time
t0 = float(sys.argv[1]); mode = sys.argv[2]; argv = sys.argv[3:]
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication

HEAVY = os.environ["HEAVY_MODULES_LIST"].split(",")

def report():
    loaded = [m for m in HEAVY if m in sys.modules]
    print("MARK", time.time() - t0, ",".join(loaded) or "-", flush=True)
    os._exit(0)

class Painted(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and type(obj).__name__ == "WelcomePage":
            QTimer.singleShot(0, report)  # after this paint is done
        return False

def watch_kernel(window):
    selection = window.selection
    def check(*args):
        if selection.kernel is not None and not selection.loading:
            window.repaint()
            report()
    selection.kernel_changed.connect(check)
    check()

exec_ = QApplication.exec
def exec_watched(*args):
    app = QApplication.instance()
    if mode == "welcome":
        app._painted = Painted()
        app.installEventFilter(app._painted)
    elif mode == "kernel":
        window = next(w for w in app.topLevelWidgets() if type(w).__name__ == "MainWindow")
        watch_kernel(window)
    return exec_()
QApplication.exec = exec_watched

from kernelscope.core.cli.main import main
code = main(argv)
print("MARK", time.time() - t0, "exit", code, flush=True)
"""


def run_case(
    shim: Path, mode: str, argv: list[str], cache: str, display: str | None = None
) -> tuple[float, float, str]:
    """Seconds to the mark (the whole command for a screenshot), CPU seconds of the command
    and its children by then (it leaves at the mark), the heavy modules loaded."""
    drop = {"PYTHONDONTWRITEBYTECODE", *(["QT_QPA_PLATFORM"] if display else [])}
    env = {
        "HEAVY_MODULES_LIST": ",".join(HEAVY),
        **{k: v for k, v in os.environ.items() if k not in drop},
        **({"DISPLAY": display} if display else {"QT_QPA_PLATFORM": "offscreen"}),
        "PYTHONPATH": str(shim),
        "KERNELSCOPE_CACHE_DIR": cache,
    }
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.time()
    out = subprocess.run(
        [sys.executable, "-c", MARK, repr(started), mode, *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    wall = time.time() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    marks = [line for line in out.stdout.splitlines() if line.startswith("MARK")]
    if out.returncode != 0 or not marks:
        raise SystemExit(f"{mode} {argv} failed:\n{out.stdout}\n{out.stderr}")
    fields = marks[0].split()
    if mode.startswith("screenshot"):
        return wall, cpu, "-"
    return float(fields[1]), cpu, fields[2]


def default_report() -> Path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import bench_import

    out = bench_import.OUT / "mlp_x12.ncu-rep"
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        bench_import.repeat_report(bench_import.MLP / "mlp.ncu-rep", out, 12)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", nargs="?", type=Path, help="the screenshot's report")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--base", type=Path, help="an old checkout to compare with")
    parser.add_argument(
        "--display",
        help="an X server (Xvfb :N) for the window cases, as on a desktop: the command then "
        "checks Qt's libraries first, which offscreen skips",
    )
    parser.add_argument(
        "--only",
        choices=("welcome", "kernel", "screenshot", "screenshot-cold"),
        action="append",
        help="run only this case (repeatable)",
    )
    args = parser.parse_args()
    report = args.report or default_report()
    shims = {"new": ROOT / ".shim"}
    if args.base:
        shims = {"old": args.base.resolve() / ".shim", **shims}
    with tempfile.TemporaryDirectory() as scratch:
        png = str(Path(scratch) / "shot.png")
        cases = {
            "welcome page painted": ("welcome", []),
            "workspace kernel painted": ("kernel", [str(WORKSPACE)]),
            f"--screenshot {report.name}, whole command, cached": (
                "screenshot",
                ["--screenshot", png, str(report)],
            ),
            f"--screenshot {report.name}, whole command, empty cache": (
                "screenshot-cold",
                ["--screenshot", png, str(report)],
            ),
        }
        cases = {k: v for k, v in cases.items() if not args.only or v[0] in args.only}
        budgets = {"welcome": 1.0, "kernel": 1.5, "screenshot": 3.0, "screenshot-cold": 3.0}
        results: dict[tuple[str, str], list[float]] = {}
        cpus: dict[tuple[str, str], list[float]] = {}
        loaded: dict[tuple[str, str], str] = {}
        loads = [os.getloadavg()[0]]
        for name, (mode, argv) in cases.items():
            for which, shim in shims.items():  # warm the file cache and the profile cache
                display = args.display if not mode.startswith("screenshot") else None
                run_case(shim, mode, argv, str(Path(scratch) / f"cache-{which}"), display)
            for _ in range(args.runs):
                for which, shim in shims.items():
                    cache = str(Path(scratch) / f"cache-{which}")
                    if mode == "screenshot-cold":
                        cache = tempfile.mkdtemp(dir=scratch)
                    seconds, cpu, heavy = run_case(shim, mode, argv, cache, display)
                    results.setdefault((name, which), []).append(seconds)
                    cpus.setdefault((name, which), []).append(cpu)
                    loaded[(name, which)] = heavy
            loads.append(os.getloadavg()[0])
        print(f"load average (1 min) while measuring: {min(loads):.1f}-{max(loads):.1f}")
        for name, (mode, _) in cases.items():
            row = []
            for which in shims:
                times = results[(name, which)]
                row.append(
                    f"{which} median {statistics.median(times):.2f} s "
                    f"(min {min(times):.2f}, max {max(times):.2f}; "
                    f"CPU {statistics.median(cpus[(name, which)]):.2f} s; "
                    f"loaded: {loaded[(name, which)]})"
                )
            print(f"{name} (budget {budgets[mode]} s): " + "; ".join(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
