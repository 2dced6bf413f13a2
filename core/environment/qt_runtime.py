"""The system libraries Qt needs to open a window, read from Qt's own plugins.

PySide6's wheel bundles Qt, but not the distribution's X11, Wayland, GL, font and D-Bus
libraries that Qt's platform plugins link. When one is missing, Qt cannot load its ``xcb``
plugin and aborts the process ("could not load the Qt platform plugin"). Rather than a hand
list that drifts with each Qt release, this module walks the ELF ``NEEDED`` entries of the
installed PySide6's platform plugins (and the Qt libraries they pull in, through their
``RUNPATH``), and asks the dynamic loader's cache which of the libraries outside PySide6 are
there. ``DEBIAN_PACKAGES`` names the Debian/Ubuntu package of each such library;
tests/packaging/test_setup_qt_runtime.py checks it against the installed PySide6 and, where a
library is installed, against ``dpkg -S``.

No Qt import: PySide6 is located with ``importlib.util.find_spec``, which does not load it.
"""

from __future__ import annotations

import fnmatch
import functools
import importlib.util
import os
import platform
import shutil
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from ..paths import cache_root, memo_by_stat

# What each windowing system loads, relative to the PySide6 folder (fnmatch patterns). The
# Qt modules the viewer imports are common to both.
COMMON = ("QtCore.abi3.so", "QtGui.abi3.so", "QtWidgets.abi3.so")
PLATFORMS: dict[str, tuple[str, ...]] = {
    "x11": ("Qt/plugins/platforms/libqxcb.so", "Qt/plugins/xcbglintegrations/*.so"),
    "wayland": (
        "Qt/plugins/platforms/libqwayland*.so",
        "Qt/plugins/wayland-shell-integration/libxdg-shell.so",
        "Qt/plugins/wayland-graphics-integration-client/libqt-plugin-wayland-egl.so",
        "Qt/plugins/wayland-decoration-client/*.so",
    ),
}

# Library (soname) -> Debian/Ubuntu packages that provide it, newest naming first (the
# 64-bit time_t transition renamed some: libglib2.0-0t64 on Debian 13 and Ubuntu 24.04).
DEBIAN_PACKAGES: dict[str, tuple[str, ...]] = {
    "libc.so.6": ("libc6",),
    "libm.so.6": ("libc6",),
    "libdl.so.2": ("libc6",),
    "libpthread.so.0": ("libc6",),
    "librt.so.1": ("libc6",),
    "ld-linux-x86-64.so.2": ("libc6",),
    "ld-linux-aarch64.so.1": ("libc6",),
    "libstdc++.so.6": ("libstdc++6",),
    "libgcc_s.so.1": ("libgcc-s1",),
    "libz.so.1": ("zlib1g",),
    "libzstd.so.1": ("libzstd1",),
    "libglib-2.0.so.0": ("libglib2.0-0t64", "libglib2.0-0"),
    "libgthread-2.0.so.0": ("libglib2.0-0t64", "libglib2.0-0"),
    "libdbus-1.so.3": ("libdbus-1-3",),
    "libfontconfig.so.1": ("libfontconfig1",),
    "libfreetype.so.6": ("libfreetype6",),
    "libEGL.so.1": ("libegl1",),
    "libGL.so.1": ("libgl1",),
    "libOpenGL.so.0": ("libopengl0",),
    "libxkbcommon.so.0": ("libxkbcommon0",),
    "libxkbcommon-x11.so.0": ("libxkbcommon-x11-0",),
    "libX11.so.6": ("libx11-6",),
    "libX11-xcb.so.1": ("libx11-xcb1",),
    "libxcb.so.1": ("libxcb1",),
    "libxcb-cursor.so.0": ("libxcb-cursor0",),
    "libxcb-glx.so.0": ("libxcb-glx0",),
    "libxcb-icccm.so.4": ("libxcb-icccm4",),
    "libxcb-image.so.0": ("libxcb-image0",),
    "libxcb-keysyms.so.1": ("libxcb-keysyms1",),
    "libxcb-randr.so.0": ("libxcb-randr0",),
    "libxcb-render.so.0": ("libxcb-render0",),
    "libxcb-render-util.so.0": ("libxcb-render-util0",),
    "libxcb-shape.so.0": ("libxcb-shape0",),
    "libxcb-shm.so.0": ("libxcb-shm0",),
    "libxcb-sync.so.1": ("libxcb-sync1",),
    "libxcb-util.so.1": ("libxcb-util1",),
    "libxcb-xfixes.so.0": ("libxcb-xfixes0",),
    "libxcb-xkb.so.1": ("libxcb-xkb1",),
    "libwayland-client.so.0": ("libwayland-client0",),
    "libwayland-cursor.so.0": ("libwayland-cursor0",),
    "libwayland-egl.so.1": ("libwayland-egl1",),
}

# e_machine of the ELF file -> the tag ``ldconfig -p`` prints for that architecture
_LDCONFIG_ARCH = {"EM_X86_64": "x86-64", "EM_AARCH64": "AArch64"}


@dataclass(frozen=True)
class Library:
    """A system library that Qt links."""

    soname: str
    needed_by: tuple[str, ...]  # Qt files linking it, relative to the PySide6 folder
    path: str | None  # where the dynamic loader finds it; None: missing
    packages: tuple[str, ...]  # Debian packages providing it (alternatives); () if unknown

    @property
    def found(self) -> bool:
        return self.path is not None


@dataclass(frozen=True)
class QtRuntime:
    """The system libraries one windowing system's Qt plugins need, found or not."""

    platform: str  # "x11" or "wayland"
    qt_dir: Path | None  # the PySide6 folder; None when PySide6 is not installed
    libraries: tuple[Library, ...] = field(default=())

    @property
    def missing(self) -> tuple[Library, ...]:
        return tuple(lib for lib in self.libraries if not lib.found)

    @property
    def ok(self) -> bool:
        return self.qt_dir is not None and not self.missing

    def missing_packages(self) -> list[str]:
        """Debian packages that bring every missing library (unknown ones left out)."""
        return sorted({debian_package(lib.packages) for lib in self.missing if lib.packages})


def qt_dir() -> Path | None:
    """The installed PySide6 package folder (also inside the frozen app), without importing it."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def _dynamic(path: Path) -> tuple[list[str], list[str], str]:
    """(NEEDED sonames, RUNPATH/RPATH folders, e_machine) of an ELF file; OSError for a file
    that cannot be read or is not ELF."""
    # pyelftools loads when a file is read, not with the window's display check
    from elftools.common.exceptions import ELFError
    from elftools.elf.dynamic import DynamicSection
    from elftools.elf.elffile import ELFFile

    needed: list[str] = []
    runpath: list[str] = []
    try:
        with path.open("rb") as f:
            elf = ELFFile(f)
            for section in elf.iter_sections():
                if not isinstance(section, DynamicSection):
                    continue
                for tag in section.iter_tags():
                    kind = tag.entry.d_tag
                    text = cast(Any, tag)  # pyelftools sets .needed/.runpath/.rpath by kind
                    if kind == "DT_NEEDED":
                        needed.append(text.needed)
                    elif kind == "DT_RUNPATH":
                        runpath.extend(text.runpath.split(":"))
                    elif kind == "DT_RPATH":
                        runpath.extend(text.rpath.split(":"))
            machine = elf["e_machine"]
    except ELFError as exc:
        raise OSError(f"{path}: {exc}") from exc
    origin = str(path.parent)
    dirs = [d.replace("$ORIGIN", origin).replace("${ORIGIN}", origin) for d in runpath if d]
    return needed, dirs, machine


def needed_libraries(path: Path) -> list[str]:
    """The sonames an ELF file links directly (its NEEDED entries); [] for other files."""
    try:
        return _dynamic(path)[0]
    except OSError:
        return []


def plugin_files(root: Path, platform_name: str) -> list[Path]:
    """The files of PySide6 that ``platform_name`` (x11, wayland) loads first."""
    patterns = (*COMMON, *PLATFORMS[platform_name])
    files: list[Path] = []
    for pattern in patterns:
        folder = (root / pattern).parent
        if folder.is_dir():
            name = Path(pattern).name
            files.extend(sorted(p for p in folder.iterdir() if fnmatch.fnmatch(p.name, name)))
    return files


def system_needs(root: Path, platform_name: str) -> tuple[dict[str, set[str]], str]:
    """{soname: Qt files needing it} for the libraries from outside PySide6, and e_machine.

    Follows NEEDED through the libraries shipped with PySide6 (those a file's RUNPATH finds:
    Qt/lib, shiboken6); any other library is the system's.
    """
    needs: dict[str, set[str]] = {}
    seen: set[Path] = set()
    pending = plugin_files(root, platform_name)
    machine = ""
    while pending:
        path = pending.pop()
        real = path.resolve()
        if real in seen:
            continue
        seen.add(real)
        try:
            needed, dirs, machine = _dynamic(real)
        except OSError:
            continue
        for soname in needed:
            bundled = next((Path(d) / soname for d in dirs if (Path(d) / soname).exists()), None)
            if bundled is not None:
                pending.append(bundled)
            else:
                needs.setdefault(soname, set()).add(_relative(real, root.resolve()))
    return needs, machine


def _relative(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


@functools.cache
def _loader_cache() -> dict[tuple[str, str], str]:
    """{(soname, arch tag): path} from ``ldconfig -p`` (the dynamic loader's cache)."""
    ldconfig = shutil.which("ldconfig") or next(
        (p for p in ("/sbin/ldconfig", "/usr/sbin/ldconfig") if os.access(p, os.X_OK)), None
    )
    if ldconfig is None:
        return {}
    try:
        out = subprocess.run(
            [ldconfig, "-p"], capture_output=True, text=True, timeout=30, check=False
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return {}
    cache: dict[tuple[str, str], str] = {}
    for line in out.splitlines()[1:]:
        name, sep, path = line.strip().partition(" => ")
        if not sep:
            continue
        soname, _, flags = name.partition(" (")
        arch = next((tag for tag in _LDCONFIG_ARCH.values() if tag in flags), "")
        cache.setdefault((soname, arch), path.strip())
    return cache


# Where the loader looks when a library is not in its cache (glibc's trusted folders).
_DEFAULT_DIRS = ("/lib", "/usr/lib", "/lib64", "/usr/lib64")


def find_library(soname: str, machine: str = "") -> str | None:
    """Where the dynamic loader finds ``soname``: LD_LIBRARY_PATH, its cache, the defaults."""
    search = [d for d in os.environ.get("LD_LIBRARY_PATH", "").split(":") if d]
    for entry in search:
        if (Path(entry) / soname).exists():
            return str(Path(entry) / soname)
    arch = _LDCONFIG_ARCH.get(machine, "")
    cached = _loader_cache().get((soname, arch))
    if cached:
        return cached
    triplet = f"{platform.machine()}-linux-gnu"
    for base in _DEFAULT_DIRS:
        for folder in (Path(base) / triplet, Path(base)):
            if (folder / soname).exists():
                return str(folder / soname)
    return None


def qt_runtime(platform_name: str, root: Path | None = None) -> QtRuntime:
    """The system libraries ``platform_name``'s Qt plugins link, and which are missing."""
    root = root or qt_dir()
    if root is None:
        return QtRuntime(platform_name, None)
    needs, machine = system_needs(root, platform_name)
    libraries = tuple(
        Library(
            soname,
            tuple(sorted(users)),
            find_library(soname, machine),
            DEBIAN_PACKAGES.get(soname, ()),
        )
        for soname, users in sorted(needs.items())
    )
    return QtRuntime(platform_name, root, libraries)


def qt_runtime_ok(platform_name: str) -> bool:
    """``qt_runtime(platform_name).ok``, remembered (``paths.memo_by_stat``) for as long as
    Qt's plugin files, the dynamic loader's cache and the LD_LIBRARY_PATH folders keep their
    stat: the window's start reads no ELF file after the first (0.06-0.2 s on 2 cores)."""
    root = qt_dir()
    if root is None:
        return False
    ld_path = [Path(d) for d in os.environ.get("LD_LIBRARY_PATH", "").split(":") if d]
    files = [*plugin_files(root, platform_name), Path("/etc/ld.so.cache"), *ld_path]
    try:
        verdict = memo_by_stat(
            [f for f in files if f.exists()],
            cache_root() / "qt_runtime" / platform_name,
            lambda: "ok" if qt_runtime(platform_name, root).ok else "missing",
        )
    except OSError:  # a file gone between the listing and its stat: no memo this time
        return qt_runtime(platform_name, root).ok
    return verdict == "ok"


@functools.cache
def _known_to_dpkg(package: str) -> bool:
    """Whether dpkg or apt knows ``package`` on this machine (installed or installable)."""
    for cmd in (
        ["dpkg-query", "-W", "-f=${Status}", package],
        ["apt-cache", "show", "--no-all-versions", package],
    ):
        if shutil.which(cmd[0]) is None:
            continue
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if proc.returncode == 0 and proc.stdout.strip():
            return True
    return False


def debian_package(alternatives: Iterable[str]) -> str:
    """The first of ``alternatives`` this distribution knows (else the first)."""
    names = list(alternatives)
    if len(names) == 1:
        return names[0]
    return next((name for name in names if _known_to_dpkg(name)), names[0])


def qt_runtime_packages(platforms: Iterable[str] = tuple(PLATFORMS)) -> list[str]:
    """Every Debian package Qt's plugins need on this distribution (installed or not)."""
    packages = set()
    for name in platforms:
        for lib in qt_runtime(name).libraries:
            if lib.packages:
                packages.add(debian_package(lib.packages))
    return sorted(packages)


def missing_qt_packages(platforms: Iterable[str] = tuple(PLATFORMS)) -> tuple[list[str], list[str]]:
    """(Debian packages to install, sonames no known package provides) for what is missing."""
    packages: set[str] = set()
    unknown: set[str] = set()
    for name in platforms:
        runtime = qt_runtime(name)
        packages.update(runtime.missing_packages())
        unknown.update(lib.soname for lib in runtime.missing if not lib.packages)
    return sorted(packages), sorted(unknown)
