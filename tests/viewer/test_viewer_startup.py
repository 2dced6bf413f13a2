"""The window's first paint loads only what it needs (issue 23, item 4): ``kernelscope`` alone
and ``kernelscope WORKSPACE`` run the real command line in a fresh interpreter, offscreen, and
say which modules were loaded when the welcome page (or the workspace's kernel) was painted.
The other commands' modules, the kernel DB (sqlite-utils), plots (pyqtgraph), TVM, NVIDIA's
reader and the syntax highlighters' lexers load when they are first used, not at start-up."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from paths_support import DATA

WORKSPACE = DATA / "ws_mlp"

# Runs the command; when the event loop starts, waits for the welcome page's first paint
# (or a kernel shown), prints the loaded modules and leaves.
CHILD = """
import json, os, sys
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication

def report():
    print("MODULES", json.dumps(sorted(sys.modules)), flush=True)
    os._exit(0)

def on_welcome(obj):
    # the page or what it holds: a page its children cover whole gets no paint of its own
    while obj is not None:
        if type(obj).__name__ == "WelcomePage":
            return True
        obj = obj.parentWidget() if hasattr(obj, "parentWidget") else None
    return False

class Painted(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and on_welcome(obj):
            QTimer.singleShot(0, report)
        return False

exec_ = QApplication.exec
def exec_watched(*args):
    app = QApplication.instance()
    window = next(w for w in app.topLevelWidgets() if type(w).__name__ == "MainWindow")
    if sys.argv[1:]:
        selection = window.selection
        def check(*args):
            if selection.kernel is not None and not selection.loading:
                window.repaint()
                report()
        selection.kernel_changed.connect(check)
    else:
        app._painted = Painted()
        app.installEventFilter(app._painted)
    QTimer.singleShot(60_000, lambda: (print("TIMEOUT", flush=True), os._exit(1)))
    return exec_()
QApplication.exec = exec_watched

from kernelscope.core.cli.main import main
sys.exit(main(sys.argv[1:]))
"""

# Loaded when first used; none is needed to paint the welcome page or a workspace.
LATER = {"sqlite_utils", "pyqtgraph", "tvm", "ncu_report", "onnx"}
LATER_OURS = {
    "kernelscope.core.build",  # the build command and the Build dialog's work
    "kernelscope.core.kernel_db",
    "kernelscope.core.cli.build",  # the other commands' parsers
    "kernelscope.core.cli.db",
    "kernelscope.core.cli.details",
    "pygments.lexers.c_like",  # the highlighters' lexers, made when a line is first lexed
    "pygments.lexers.ptx",
    "kernelscope.viewer.code.sass_lexer",
}


def _loaded_at_first_paint(tmp_path: Path, *argv: str) -> set[str]:
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "KERNELSCOPE_CACHE_DIR": str(tmp_path / "cache"),
        "HOME": str(tmp_path),  # no recent files, settings or kernel DB of the user's
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, *argv],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("MODULES ")]
    assert lines, proc.stdout + proc.stderr
    return set(json.loads(lines[0].split(" ", 1)[1]))


def test_the_welcome_page_paints_without_the_other_commands_or_heavy_libraries(
    tmp_path: Path,
) -> None:
    loaded = _loaded_at_first_paint(tmp_path)
    assert "kernelscope.viewer.panels.welcome" in loaded
    assert not LATER & {m.split(".")[0] for m in loaded}
    # numpy (~0.1 s) loads with the first instruction table: a report's or a workspace's
    assert "numpy" not in loaded
    assert not LATER_OURS & loaded


def test_a_workspace_paints_without_the_kernel_db_plots_or_tvm(tmp_path: Path) -> None:
    loaded = _loaded_at_first_paint(tmp_path, str(WORKSPACE))
    assert not LATER & {m.split(".")[0] for m in loaded}
    assert not {"kernelscope.core.build", "kernelscope.core.kernel_db"} & loaded
