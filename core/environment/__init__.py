"""What is installed around kernelscope, and whether a window can open: the facts the
welcome page, Help > About and ``kernelscope doctor`` show; the system libraries Qt's
platform plugins need (which setup installs); the bundled demo."""

from .demo import Demo, demo
from .display import display_problem
from .facts import Fact, frozen, installed_facts, missing_packages
from .qt_runtime import (
    DEBIAN_PACKAGES,
    PLATFORMS,
    Library,
    QtRuntime,
    find_library,
    missing_qt_packages,
    needed_libraries,
    qt_dir,
    qt_runtime,
    qt_runtime_packages,
)

__all__ = [
    "DEBIAN_PACKAGES",
    "PLATFORMS",
    "Demo",
    "Fact",
    "Library",
    "QtRuntime",
    "demo",
    "display_problem",
    "find_library",
    "frozen",
    "installed_facts",
    "missing_packages",
    "missing_qt_packages",
    "needed_libraries",
    "qt_dir",
    "qt_runtime",
    "qt_runtime_packages",
]
