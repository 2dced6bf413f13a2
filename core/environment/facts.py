"""What is installed: the facts the welcome page, Help > About and ``kernelscope doctor`` show.

One row per component: kernelscope, Python, Qt, TVM, the C++ compiler TVM links models with,
the NVIDIA tools (nvcc, nvdisasm, cuobjdump, ncu), NVIDIA's report reader, the GPU, and the
system libraries Qt needs for a window (X11, Wayland). Each row says whether it is there, its
version and location, what it is needed for, and what to do when it is missing. Versions come
from package metadata and the tools' ``--version``, so nothing heavy (TVM, Qt) is imported.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import platform
import shutil
import sys
from dataclasses import asdict, dataclass

from ..toolchain import find_all, how_to_get, local_gpu_arch, ncu_report_dir
from .qt_runtime import PLATFORMS, missing_qt_packages, qt_runtime

# Distribution names whose version is the component's.
_DISTRIBUTIONS = {
    "kernelscope": "kernelscope",
    "Qt": "PySide6-Essentials",
    "TVM": "apache-tvm",
    "ncu_report": "ncu-report",
}
_PIP_HINT = "reinstall kernelscope (bash scripts/start.sh) so that its dependencies are there"
# The packaged app carries its Python packages: one missing is a damaged install.
_PACKAGE_HINT = (
    "the app is incomplete: reinstall its package (sudo apt install --reinstall kernelscope)"
)


@dataclass(frozen=True)
class Fact:
    """One component: found or not, its version and place, and what to do when missing."""

    name: str
    found: bool
    version: str | None
    location: str  # a path, or "" when it has none
    needed_for: str
    hint: str  # what to do about it (empty when found)
    required: bool  # without it kernelscope cannot build (nvcc, nvdisasm, TVM, g++)
    absent: str = "MISSING"  # the status word when not found ("none" for the GPU)

    @property
    def status(self) -> str:
        if self.found:
            return f"ok {self.version}" if self.version else "ok"
        return self.absent

    def as_dict(self) -> dict[str, object]:
        return {**asdict(self), "status": self.status}


def project_urls() -> dict[str, str]:
    """kernelscope's addresses by label ("Homepage", "Issues"), from its package metadata."""
    try:
        entries = importlib.metadata.metadata("kernelscope").get_all("Project-URL") or []
    except importlib.metadata.PackageNotFoundError:
        return {}
    pairs = (entry.split(",", 1) for entry in entries if "," in entry)
    return {label.strip(): url.strip() for label, url in pairs}


def frozen() -> bool:
    """True inside the packaged app (PyInstaller sets ``sys.frozen``)."""
    return bool(getattr(sys, "frozen", False))


def _version(distribution: str) -> str | None:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def _module_location(module: str) -> str:
    spec = importlib.util.find_spec(module)
    if spec is None:
        return ""
    if spec.submodule_search_locations:
        return str(next(iter(spec.submodule_search_locations)))
    return spec.origin or ""


def _package_fact(
    name: str, module: str, needed_for: str, required: bool, hint: str, elsewhere: str = ""
) -> Fact:
    """A Python package's fact; ``elsewhere`` is where it is when not importable (a copy the
    process adds to its path when it needs it)."""
    hint = _PACKAGE_HINT if frozen() else hint
    location = _module_location(module) or elsewhere
    version = _version(_DISTRIBUTIONS[name])
    found = bool(location)
    return Fact(name, found, version, location, needed_for, "" if found else hint, required)


def _nsight_reader() -> str:
    """The reader that comes with Nsight Compute, which ``core.ncu`` falls back on."""
    folder = ncu_report_dir()
    return str(folder / "ncu_report.py") if folder else ""


def installed_facts(*, probe_gpu: bool = True) -> list[Fact]:
    """Everything the welcome page and Help > About list, in display order.

    ``probe_gpu=False`` skips ``nvidia-smi`` (a second or more on some machines).
    """
    facts = [
        Fact(
            "kernelscope",
            True,
            _version("kernelscope"),
            "packaged app" if frozen() else _module_location("kernelscope.core"),
            "everything",
            "",
            True,
        ),
        Fact(
            "Python",
            True,
            platform.python_version(),
            "bundled with the app" if frozen() else sys.executable,
            "everything",
            "",
            True,
        ),
        _package_fact("Qt", "PySide6", "the window", False, _PIP_HINT),
        _package_fact("TVM", "tvm", "building models", True, _PIP_HINT),
    ]
    cxx = os.environ.get("CXX") or "g++"
    cxx_path = shutil.which(cxx)
    facts.append(
        Fact(
            "C++ compiler",
            cxx_path is not None,
            None,
            cxx_path or "",
            "building models (TVM links the model library with it)",
            "" if cxx_path else "install one: apt-get install g++ (or set CXX)",
            True,
        )
    )
    for name, tool in find_all().items():
        facts.append(
            Fact(
                name,
                tool.found,
                tool.version,
                str(tool.path or ""),
                _TOOL_USE[name],
                "" if tool.found else how_to_get(name),
                name in ("nvcc", "nvdisasm"),
            )
        )
    facts.append(
        _package_fact(
            "ncu_report",
            "ncu_report",
            "reading .ncu-rep reports (NVIDIA's report reader)",
            False,
            _PIP_HINT,
            _nsight_reader(),
        )
    )
    gpu = local_gpu_arch() if probe_gpu else None
    facts.append(
        Fact(
            "GPU",
            gpu is not None,
            gpu,
            "",
            "profiling on this machine",
            ""
            if gpu
            else "profiling needs an NVIDIA GPU and its driver: profile on another machine "
            "(kernelscope profile --host user@gpu-box) or import a report made elsewhere",
            False,
            absent="none",
        )
    )
    facts.extend(_window_facts())
    return facts


def missing_packages() -> list[str]:
    """Debian packages that would bring what this machine lacks and pip cannot install: the
    system libraries Qt's platform plugins link, and the C++ compiler TVM links models with."""
    packages = set(missing_qt_packages()[0])
    if shutil.which(os.environ.get("CXX") or "g++") is None:
        packages.add("g++")
    return sorted(packages)


_TOOL_USE = {
    "nvcc": "building models (compiles each kernel with line information)",
    "nvdisasm": "building models (SASS with its line table)",
    "cuobjdump": "registers and local memory per kernel",
    "ncu": "profiling on this machine",
}


def _window_facts() -> list[Fact]:
    """One row per windowing system: are the system libraries Qt's plugin links there?"""
    out = []
    for name in PLATFORMS:
        runtime = qt_runtime(name)
        if runtime.qt_dir is None:
            continue
        missing = runtime.missing
        packages = runtime.missing_packages()
        unknown = [lib.soname for lib in missing if not lib.packages]
        hint = ""
        if missing:
            wanted = [f"apt-get install {' '.join(packages)}"] if packages else []
            wanted += [f"whatever provides {', '.join(unknown)}"] if unknown else []
            hint = f"missing {', '.join(lib.soname for lib in missing)}: {' and '.join(wanted)}"
        out.append(
            Fact(
                f"{_DISPLAY_NAMES[name]} libraries",
                not missing,
                None,
                "",
                f"the window on {_DISPLAY_NAMES[name]}",
                hint,
                False,
            )
        )
    return out


_DISPLAY_NAMES = {"x11": "X11", "wayland": "Wayland"}
