"""What is installed around kernelscope, and whether a window can open: the facts the
welcome page, Help > About and ``kernelscope doctor`` show; the system libraries Qt's
platform plugins need (which setup installs); the bundled demo; the user documentation."""

from .demo import Demo, demo, prepare_demo, unpack_report
from .display import display_problem
from .docs import USER_GUIDE, user_docs
from .facts import Fact, installed_facts, missing_packages
from .qt_runtime import needed_libraries, qt_runtime_packages
from .versions import AboutInfo, VersionRow, about_info

__all__ = [
    "AboutInfo",
    "VersionRow",
    "about_info",
    "USER_GUIDE",
    "Demo",
    "Fact",
    "demo",
    "display_problem",
    "installed_facts",
    "missing_packages",
    "needed_libraries",
    "prepare_demo",
    "unpack_report",
    "qt_runtime_packages",
    "user_docs",
]
