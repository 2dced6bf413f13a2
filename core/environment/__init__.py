"""What is installed around kernelscope, and whether a window can open: the facts the
welcome page, Help > About and ``kernelscope doctor`` show; the system libraries Qt's
platform plugins need (which setup installs); the bundled demo; the user documentation."""

from .demo import DEMO_ARCH, Demo, demo, prepare_demo, unpack_report
from .display import display_problem
from .docs import USER_GUIDE, user_docs
from .facts import Fact, frozen, installed_facts, missing_packages, project_urls
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
from .versions import AboutInfo, VersionRow, about_info

__all__ = [
    "AboutInfo",
    "VersionRow",
    "about_info",
    "DEBIAN_PACKAGES",
    "DEMO_ARCH",
    "PLATFORMS",
    "USER_GUIDE",
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
    "prepare_demo",
    "unpack_report",
    "project_urls",
    "qt_dir",
    "qt_runtime",
    "qt_runtime_packages",
    "user_docs",
]
