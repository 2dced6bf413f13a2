"""What the frozen app carries and what it leaves out: read by kernelscope.spec (PyInstaller)
and by build.sh (the .deb's dependencies), and checked by
tests/packaging/test_packaging_bundle.py.

The app needs: kernelscope, TVM's compiler (libtvm_compiler.so and its Python package, as
source because TVMScript reads function sources), the NVIDIA compiler wheels (nvcc, cicc,
ptxas, fatbinary, cudafe++, nvdisasm, cuobjdump, the CUDA headers and libdevice), NVIDIA's
report reader (ncu_report), Qt's Core/Gui/Widgets with the X11, Wayland and offscreen
platform plugins, the bundled demo, and the user guide (Help > User Guide). Everything else
the build venv holds is excluded.
System libraries (those of the distribution: /lib, /usr/lib) are left out and become the
package's dependencies instead, so that the app uses the machine's X11, GL and fonts.
"""

from __future__ import annotations

import fnmatch
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

# Distributions whose metadata the app reads at run time: kernelscope's own (its entry points
# register the gui command; its version is shown), and the versions Help > About shows.
METADATA = (
    "kernelscope",
    "apache-tvm",
    "apache-tvm-ffi",
    "PySide6-Essentials",
    "shiboken6",
    "ncu-report",
    "onnx",
    "numpy",
    "nvidia-cuda-nvcc",
    "nvidia-cuda-nvdisasm",
)

# Packages whose every module is bundled although nothing imports it statically: TVM
# registers passes, target tags and callbacks when its modules are imported by name.
SUBMODULES = ("kernelscope", "tvm", "tvm_ffi")

# Kept as .py files next to the app: TVMScript parses the source of decorated functions; the
# profiling runner's package is zipped from its sources into the zipapp ncu runs
# (``kernelscope runner-*.pyz WORKSPACE``) and remote profiling copies to the GPU machine.
SOURCE_MODULES = {
    "tvm": "py",
    "tvm_ffi": "py",
    "kernelscope.core.profiling.runner": "pyz+py",
}

EXCLUDES = [
    # development tools in the venv
    "pytest",
    "_pytest",
    "pytestqt",
    "hypothesis",
    "ruff",
    "pip",
    "setuptools",
    "pkg_resources",
    "IPython",
    "tkinter",
    "_tkinter",
    "lib2to3",
    "pydoc_data",
    # optional imports of TVM and friends that kernelscope never reaches
    "torch",
    "tensorflow",
    "jax",
    "scipy",
    "matplotlib",
    "pandas",
    "psutil",
    "xgboost",
    "cloudpickle",
    "tornado",
    "ml_dtypes.tests",
    # scripts that regenerate the docs (the package kernelscope.docs holds the pages)
    "kernelscope.docs.make_screenshots",
    "kernelscope.docs.make_cli_reference",
    "kernelscope.docs.error_messages",
    # Qt modules the viewer does not use
    "PySide6.QtQml",
    "PySide6.QtQuick",
    "PySide6.QtQuickWidgets",
    "PySide6.QtNetwork",
    "PySide6.QtOpenGL",
    "PySide6.QtOpenGLWidgets",
    "PySide6.QtSql",
    "PySide6.QtTest",
    "PySide6.QtDBus",
    "PySide6.QtPrintSupport",
    "PySide6.QtUiTools",
    "PySide6.QtXml",
    "PySide6.QtDesigner",
    "PySide6.QtHelp",
    "PySide6.QtConcurrent",
]

# Packages copied as they are (files, with their permissions) into the app's folder. The
# nvidia wheels' tools are found by kernelscope.core.toolchain under _internal/nvidia/*/bin.
TREES = (
    "nvidia",
    "tvm",
    "tvm_ffi",
    "ncu_report",
    "kernelscope.resources",
    "kernelscope.docs",
    "kernelscope.core.share",  # the shared page's style sheet and script (its modules: the PYZ)
)

# Never loaded by kernelscope (paths relative to site-packages / the bundle, fnmatch):
UNUSED = (
    "*/__pycache__/*",
    "kernelscope/docs/*.py",  # the docs' generators; the pages and pictures stay
    "kernelscope/core/share/*.py",
    "*.pyc",
    "*.a",  # static CUDA runtime: kernelscope compiles cubins, it never links programs
    "nvidia/*/bin/nvlink",  # device linking (-rdc); kernelscope compiles one unit to a cubin
    "nvidia/*/lib/libnvvm.so*",  # NVVM as a library; nvcc runs cicc, which carries its own
    "nvidia/*/lib/stubs/*",
    "tvm/3rdparty/cutlass/*",  # CUTLASS offload (BYOC), not used by kernelscope's builds
    "tvm/web/*",
    "tvm_ffi/3rdparty/*",
    "tvm_ffi/share/*",
    "tvm_ffi/cython/*",
    "PySide6/Qt/translations/*",
    "PySide6/Qt/qml/*",
    "PySide6/Qt/metatypes/*",
    "PySide6/Qt/libexec/*",
    "PySide6/Qt/lib/libQt6Qml*",
    "PySide6/Qt/lib/libQt6Quick*",
    "PySide6/Qt/lib/libQt6Pdf*",
    "PySide6/Qt/lib/libQt6VirtualKeyboard*",
    "PySide6/Qt/plugins/platforms/libqeglfs.so",
    "PySide6/Qt/plugins/platforms/libqlinuxfb.so",
    "PySide6/Qt/plugins/platforms/libqvnc.so",
    "PySide6/Qt/plugins/platforms/libqvkkhrdisplay.so",
    "PySide6/Qt/plugins/platforms/libqminimalegl.so",
    "PySide6/Qt/plugins/egldeviceintegrations/*",
    "PySide6/Qt/plugins/wayland-graphics-integration-server/*",
    "PySide6/Qt/plugins/wayland-shell-integration/libivi-shell.so",
    "PySide6/Qt/plugins/wayland-shell-integration/libfullscreen-shell-v1.so",
    "PySide6/Qt/plugins/wayland-shell-integration/libwl-shell-plugin.so",
    "PySide6/Qt/lib/libQt6WaylandCompositor*",
    "PySide6/Qt/lib/libQt6EglFS*",
    "PySide6/Qt/plugins/platforminputcontexts/*",
    "PySide6/Qt/plugins/platformthemes/libqgtk3.so",  # would make GTK 3 a dependency
    "PySide6/Qt/plugins/networkinformation/*",
    "PySide6/Qt/plugins/tls/*",
    "PySide6/Qt/plugins/sqldrivers/*",
    "PySide6/Qt/plugins/designer/*",
    "PySide6/Qt/plugins/qmllint/*",
    "PySide6/Qt/plugins/qmltooling/*",
)

# Where a library the distribution provides lives: such libraries are not bundled.
SYSTEM_DIRS = ("/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/", "/usr/local/lib/")
# ... except that a driver library must come from the machine, and is never a dependency.
DRIVER_LIBS = ("libcuda.so*", "libnvidia-*")

# Needed at run time but linked by nothing: TVM's export_library runs the C++ compiler.
EXTRA_DEPENDS = ("g++",)


def unused(path: str) -> bool:
    return any(fnmatch.fnmatch(path, pattern) for pattern in UNUSED)


def package_folders(name: str) -> list[Path]:
    """The folders of an installed package (several for a namespace package like nvidia)."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"{name} is not installed in the build environment")
    return [Path(p) for p in spec.submodule_search_locations]


def tree_datas() -> list[tuple[str, str]]:
    """(file, destination folder) for every file of TREES that the app may use."""
    out = []
    for tree in TREES:
        base = Path(*tree.split("."))  # where the package lives inside the app
        for folder in package_folders(tree):
            for path in sorted(folder.rglob("*")):
                rel = base / path.relative_to(folder)
                if path.is_file() and not unused(rel.as_posix()):
                    out.append((str(path), str(rel.parent)))
    return out


def drop_unused(toc: list) -> list:
    """Remove the TOC entries (name, source, kind) that the app never loads."""
    return [e for e in toc if not unused(e[0])]


def is_system_library(source: str) -> bool:
    prefix = sys.base_prefix.rstrip("/") + "/"
    return source.startswith(SYSTEM_DIRS) and not source.startswith(prefix)


def split_system_libraries(binaries: list) -> tuple[list, list[str]]:
    """Keep bundled binaries; return the distribution's libraries separately (as sources)."""
    kept, system = [], []
    for entry in binaries:
        name, source = entry[0], entry[1]
        if any(fnmatch.fnmatch(Path(name).name, p) for p in DRIVER_LIBS):
            continue
        if is_system_library(str(source)):
            system.append(str(source))
        else:
            kept.append(entry)
    return kept, sorted(set(system))


def directly_needed(system: list[str], bundled: list[str]) -> list[str]:
    """The system libraries that a bundled file links itself. Those only other system
    libraries link are the distribution's business: its packages depend on each other."""
    from kernelscope.core.environment import needed_libraries

    wanted: set[str] = set()
    for path in bundled:
        with open(path, "rb") as f:
            if f.read(4) != b"\x7fELF":
                continue
        wanted.update(needed_libraries(Path(path)))
    return [lib for lib in system if Path(lib).name in wanted]


def owning_packages(paths: list[str]) -> tuple[list[str], list[str]]:
    """Debian packages owning ``paths`` (``dpkg -S``), and the paths no package owns."""
    owners: set[str] = set()
    unowned = []
    for path in paths:
        resolved = Path(path).resolve()
        candidates = {path, str(resolved)}
        # merged /usr: dpkg knows /lib/x86_64-linux-gnu/... while Python sees /usr/lib/...
        for p in list(candidates):
            if p.startswith("/usr/lib/"):
                candidates.add(p.removeprefix("/usr"))
        for p in candidates:
            proc = subprocess.run(["dpkg", "-S", p], capture_output=True, text=True, check=False)
            if proc.returncode == 0:
                owners.add(proc.stdout.split(":", 1)[0].strip())
                break
        else:
            unowned.append(path)
    return sorted(owners), unowned


def depends(left_out: list[str]) -> list[str]:
    """The .deb's Depends: owners of the libraries left out, Qt's runtime packages (X11 and
    Wayland, from kernelscope.core.environment), and what no library names (g++)."""
    from kernelscope.core.environment import qt_runtime_packages

    owners, unowned = owning_packages(left_out)
    if unowned:
        raise SystemExit("no Debian package owns: " + ", ".join(unowned))
    return sorted({*owners, *qt_runtime_packages(), *EXTRA_DEPENDS})


if __name__ == "__main__":
    # python packaging/bundle.py depends LEFT_OUT_FILE: print the Depends list as JSON
    if sys.argv[1:2] == ["depends"]:
        lines = Path(sys.argv[2]).read_text().split()
        print(json.dumps(depends(lines)))
    else:
        raise SystemExit("usage: bundle.py depends LEFT_OUT_FILE")
