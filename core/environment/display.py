"""Can a window open here? Asked before Qt starts, because a Qt that finds no display, or
cannot load its platform plugin's libraries, aborts the process with a core dump instead of
an error the user can act on."""

from __future__ import annotations

import os

from ..errors import KernelscopeError
from .qt_runtime import qt_runtime, qt_runtime_ok

# Qt platform plugins that need no display.
_HEADLESS = {"offscreen", "minimal", "vnc", "eglfs", "linuxfb"}
# Qt's plugin names -> this package's windowing systems
_SYSTEMS = {"xcb": "x11", "wayland": "wayland", "wayland-egl": "wayland"}


def _candidates() -> list[str]:
    """The platform plugins Qt will try, in order (as Qt 6 picks them on Linux)."""
    forced = os.environ.get("QT_QPA_PLATFORM", "")
    if forced:
        return [p.split(":", 1)[0].strip() for p in forced.split(";") if p.strip()]
    return ["wayland", "xcb"] if os.environ.get("WAYLAND_DISPLAY") else ["xcb"]


def display_problem() -> KernelscopeError | None:
    """Why the window cannot open here, or None when one of Qt's platforms can work."""
    candidates = _candidates()
    if any(p in _HEADLESS for p in candidates):
        return None
    reasons = []
    for plugin in candidates:
        system = _SYSTEMS.get(plugin)
        if system is None:
            return None  # a plugin we know nothing about: let Qt try it
        variable = "DISPLAY" if system == "x11" else "WAYLAND_DISPLAY"
        if not os.environ.get(variable):
            reasons.append(f"{variable} is not set")
            continue
        if qt_runtime_ok(system):  # what an earlier start found, while nothing changed
            return None
        runtime = qt_runtime(system)
        if runtime.qt_dir is None:
            return None  # no PySide6 to inspect: Qt's own import error will say so
        if not runtime.missing:
            return None
        packages = runtime.missing_packages()
        missing = ", ".join(lib.soname for lib in runtime.missing)
        return KernelscopeError(
            f"cannot open the window: Qt's {plugin} platform needs {missing}, "
            "which this machine does not have",
            hint=(
                f"install them: sudo apt-get install {' '.join(packages)}"
                if packages
                else "install the packages that provide them"
            )
            + " (kernelscope doctor lists what is missing)",
        )
    return KernelscopeError(
        "cannot open the window: no display (" + "; ".join(reasons) + ")",
        hint="start kernelscope from a desktop session (or ssh -X); without a display the "
        "command line works (kernelscope --help), and kernelscope --screenshot OUT.png PATH "
        "renders the window into a PNG",
    )
