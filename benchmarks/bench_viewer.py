"""Viewer speed and memory, offscreen: ``python benchmarks/bench_viewer.py [REPORT]``.

1. start to usable window: a fresh interpreter imports the viewer, shows the window on the
   test workspace with a kernel selected, and paints it (TVM must not be imported);
2. selecting a kernel with 5,000 SASS instructions fills the source and SASS panes (painted);
3. opening a report (given as REPORT) in the window, off the GUI thread, first with an
   empty profile cache (the report is read in a child process, shown as it is read), then
   cached: when its kernel list is on screen, when its first kernel is, when all of it is
   read; peak and final resident memory of the viewer process with every kernel shown, and
   the peak of the child that read the report.
Budgets: 1.5 s, 150 ms, kernel list of an uncached report 1 s, 400 MB (window and child).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORKSPACE = ROOT / "tests" / "data" / "ws_mlp"
ENV = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}

# The window opens documents and kernels in the background: wait for its signals.
WAIT = textwrap.dedent(
    """
    from PySide6.QtCore import QEventLoop

    def wait_shown(window):
        "Until a kernel is on screen and no other is on its way."
        selection = window.selection
        if selection.kernel is not None and not window.busy:
            return
        loop = QEventLoop()
        done = lambda *args: loop.quit() if selection.kernel and not selection.loading else None
        selection.kernel_changed.connect(done)
        loop.exec()
        selection.kernel_changed.disconnect(done)

    def wait_idle(window):
        "Until every job is done (source colours too)."
        if window.workers.busy:
            loop = QEventLoop()
            window.workers.idle.connect(loop.quit)
            loop.exec()
            window.workers.idle.disconnect(loop.quit)
    """
)

START = WAIT + textwrap.dedent(
    """
    import sys, time
    from kernelscope.viewer.app import application
    from kernelscope.viewer.main_window import MainWindow
    app = application()
    window = MainWindow(restore_layout=False)
    window.resize(1600, 1000)
    window.show()
    window.open_path(sys.argv[1])
    wait_shown(window)
    window.repaint()
    app.processEvents()
    print(
        ("TVM" if "tvm" in sys.modules else "no TVM")
        + (", pyqtgraph" if "pyqtgraph" in sys.modules else ", no pyqtgraph"),
        flush=True,
    )
    window.close()
    """
)

SELECT = WAIT + textwrap.dedent(
    """
    import sys, time
    from dataclasses import replace
    from kernelscope.core.view import open_document
    from kernelscope.viewer.app import application
    from kernelscope.viewer.main_window import MainWindow
    app = application()
    window = MainWindow(restore_layout=False)
    window.resize(1600, 1000)
    window.show()
    session = open_document(sys.argv[1])
    document = session.document
    base = session.kernel("fused_matmul_add_relu_kernel")
    insns = [replace(base.instructions[i % len(base.instructions)], offset=16 * i)
             for i in range(5000)]
    big = replace(base, instructions=insns, instruction_metrics=[{} for _ in insns])
    window.selection.set_document(document, session)
    window.selection.kernel_loaded(document, big)  # the kernel, grown to 5,000 instructions
    for name in ["fused_matmul_add_relu_kernel", "softmax_kernel"]:  # loaded and coloured
        window.selection.show(name)
        wait_shown(window)
        wait_idle(window)
    app.processEvents()
    times = []
    for name in ["fused_matmul_add_relu_kernel", "softmax_kernel"] * 5:
        t = time.perf_counter()
        window.selection.show(name)
        window.selection.select_line(17)
        window.repaint()
        app.processEvents()
        if name.startswith("fused"):
            times.append(time.perf_counter() - t)
    print(len(big.instructions), min(times), max(times))
    window.close()
    """
)

# Opens ``REPORT`` in ``window`` (both set before it) and times into ``marks`` the kernel
# list shown, the first kernel shown and everything read (a child reads the rest).
OPEN_TIMED = textwrap.dedent(
    """
    started = time.perf_counter()
    def listed(document):
        window.repaint()
        marks.setdefault("list", time.perf_counter() - started)
    window.document_opened.connect(listed)
    window.open_path(REPORT)
    wait_shown(window)
    window.repaint()
    marks["kernel"] = time.perf_counter() - started
    if window.loader.busy:  # the child still reads the rest
        loop = QEventLoop()
        window.loader.busy_changed.connect(lambda busy: None if busy else loop.quit())
        loop.exec()
    marks["all"] = time.perf_counter() - started
    """
)

MEMORY = (
    WAIT
    + textwrap.dedent(
        """
    import resource, sys, time
    from PySide6.QtCore import QEventLoop
    from kernelscope.viewer.app import application
    from kernelscope.viewer.main_window import MainWindow
    app = application()
    window = MainWindow(restore_layout=False)
    window.resize(1600, 1000)
    window.show()
    app.processEvents()
    marks = {}
    REPORT = sys.argv[1]
    """
    )
    + OPEN_TIMED
    + textwrap.dedent(
        """
    window.hot.scope.setCurrentIndex(1)
    for s in window.selection.document.summaries:
        window.selection.show(s.name)
        wait_shown(window)
        window.repaint()
        app.processEvents()
    status = {l.split(":")[0]: int(l.split()[1]) for l in open("/proc/self/status")
              if l.startswith(("VmRSS", "VmHWM"))}
    child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(marks["list"], marks["kernel"], marks["all"], status["VmHWM"] / 1024,
          status["VmRSS"] / 1024, child)
    window.close()
    """
    )
)


def run(code: str, *args: str, env: dict[str, str] = ENV) -> tuple[str, float]:
    started = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, check=True
    ).stdout
    return out.strip().splitlines()[-1], time.perf_counter() - started


def main() -> int:
    report = Path(sys.argv[1]) if len(sys.argv) > 1 else None
    run(START, str(WORKSPACE))  # warm the file cache once
    starts = []
    for _ in range(3):
        marker, seconds = run(START, str(WORKSPACE))
        starts.append(seconds)
    print(f"start to usable window: {min(starts):.2f} s (best of 3; {marker})  budget 1.5 s")
    line, _ = run(SELECT, str(WORKSPACE))
    count, best, worst = line.split()
    print(
        f"select a kernel with {count} SASS lines, both panes painted: "
        f"{1000 * float(best):.0f} ms best, {1000 * float(worst):.0f} ms worst  budget 150 ms"
    )
    if report is not None:
        with tempfile.TemporaryDirectory() as cache:
            env = {**ENV, "KERNELSCOPE_CACHE_DIR": cache}
            for state in ("first open, empty cache", "cached"):
                line, _ = run(MEMORY, str(report), env=env)
                listed, first, done, peak, rss, child = map(float, line.split())
                print(
                    f"{report.name} ({state}): kernel list shown after {listed:.2f} s "
                    f"(budget 1 s), first kernel {first:.2f} s, all read {done:.2f} s; viewer "
                    f"memory with every kernel shown: peak {peak:.0f} MB, now {rss:.0f} MB; "
                    f"child that read it: peak {child:.0f} MB  budget 400 MB"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
