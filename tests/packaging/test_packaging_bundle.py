"""The packaging recipe's decisions, checked without running PyInstaller: what the bundle
keeps and leaves out, the .deb's dependencies and layout (a real dpkg-deb build of a tiny app
folder), and the frozen entry point's stand-in for ``python`` (run with this interpreter).
``bash packaging/smoke.sh`` tests the real package; KERNELSCOPE_TEST_PACKAGE=1 builds the app
and runs it here."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from paths_support import ROOT

PACKAGING = ROOT / "packaging"


def _load(name: str):  # noqa: ANN202 - a module of packaging/
    spec = importlib.util.spec_from_file_location(name, PACKAGING / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


bundle = _load("bundle")
deb = _load("deb")


def test_the_bundle_keeps_the_compiler_and_leaves_out_what_is_never_run() -> None:
    files = {Path(dest) / Path(src).name for src, dest in bundle.tree_datas()}
    names = {p.as_posix() for p in files}
    for needed in (
        "nvidia/cu13/bin/nvcc",
        "nvidia/cu13/bin/ptxas",
        "nvidia/cu13/bin/nvdisasm",
        "nvidia/cu13/bin/cuobjdump",
        "nvidia/cu13/nvvm/bin/cicc",
        "nvidia/cu13/nvvm/libdevice/libdevice.10.bc",
        "nvidia/cu13/include/cuda_runtime.h",
        "tvm/lib/libtvm_compiler.so",
        "tvm_ffi/lib/libtvm_ffi_testing.so",  # linked by tvm_ffi's core module
        "ncu_report/libnvperf_host.so",
        "kernelscope/resources/demo/squeezenet1_1.onnx",
        "kernelscope/resources/demo/squeezenet_h200.ncu-rep.xz",
        "kernelscope/resources/icons/kernelscope.svg",
        "kernelscope/docs/user-guide.md",  # Help > User Guide
        "kernelscope/docs/troubleshooting.md",
        "kernelscope/docs/images/kernel.png",
        "kernelscope/core/share/page.js",  # File > Share as Web Page…
        "kernelscope/core/share/page.css",
    ):
        assert needed in names, needed
    unused_files = ("nvidia/cu13/bin/nvlink", "nvidia/cu13/lib/libnvvm.so.4")
    for unused in (
        *unused_files,
        "kernelscope/docs/make_screenshots.py",
        "kernelscope/core/share/page.py",  # a module: in the PYZ, not a data file
    ):
        assert unused not in names, unused
    assert not any(n.startswith("tvm/3rdparty/cutlass/") for n in names)
    assert not any(n.endswith((".pyc", ".a")) for n in names)


def test_qt_plugins_for_x11_wayland_and_offscreen_stay() -> None:
    plugins = "PySide6/Qt/plugins/"
    for kept in (
        "platforms/libqxcb.so",
        "platforms/libqwayland.so",
        "platforms/libqoffscreen.so",
        "xcbglintegrations/libqxcb-glx-integration.so",
        "imageformats/libqsvg.so",
    ):
        assert not bundle.unused(plugins + kept), kept
    for dropped in ("platforms/libqeglfs.so", "platforms/libqvnc.so", "platformthemes/libqgtk3.so"):
        assert bundle.unused(plugins + dropped), dropped


def test_system_libraries_become_dependencies() -> None:
    toc = [
        ("libQt6Core.so.6", "/opt/venv/PySide6/Qt/lib/libQt6Core.so.6", "BINARY"),
        ("libz.so.1", "/lib/x86_64-linux-gnu/libz.so.1", "BINARY"),
        ("libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "BINARY"),
    ]
    kept, left_out = bundle.split_system_libraries(toc)
    assert [k[0] for k in kept] == ["libQt6Core.so.6"]
    assert left_out == ["/lib/x86_64-linux-gnu/libz.so.1"]  # the driver is neither


def test_only_libraries_a_bundled_file_links_are_dependencies() -> None:
    """Qt's xcb library links libxcb, which links libXau: only libxcb is the package's
    dependency (libxcb1's own dependencies bring libXau)."""
    from kernelscope.core.environment.qt_runtime import find_library, qt_dir

    qpa = qt_dir() / "Qt/lib/libQt6XcbQpa.so.6"
    system = [find_library("libxcb.so.1"), find_library("libXau.so.6")]
    assert all(system)
    assert bundle.directly_needed(system, [str(qpa)]) == system[:1]


@pytest.mark.skipif(shutil.which("dpkg") is None, reason="needs dpkg")
def test_depends_names_the_owners_qt_and_the_compiler() -> None:
    libz = next(
        p
        for p in ("/lib/x86_64-linux-gnu/libz.so.1", "/usr/lib/x86_64-linux-gnu/libz.so.1")
        if Path(p).exists()
    )
    depends = bundle.depends([libz])
    assert {"zlib1g", "g++", "libxcb-icccm4", "libxcb-keysyms1", "libwayland-client0"} <= set(
        depends
    )
    with pytest.raises(SystemExit, match="no Debian package owns"):
        bundle.depends(["/usr/lib/not-a-library-of-any-package.so.1"])


@pytest.mark.skipif(shutil.which("dpkg-deb") is None, reason="needs dpkg-deb")
def test_the_deb_installs_the_app_and_the_desktop_files(tmp_path: Path) -> None:
    app = tmp_path / "kernelscope"
    (app / "_internal").mkdir(parents=True)
    (app / "kernelscope").write_text("#!/bin/sh\necho kernelscope\n")
    (app / "kernelscope").chmod(0o755)
    out = deb.build_deb(app, ["libc6", "g++"], tmp_path / "dist")
    info = subprocess.run(["dpkg-deb", "-I", str(out)], capture_output=True, text=True, check=True)
    assert "Package: kernelscope" in info.stdout
    assert "Depends: libc6, g++" in info.stdout
    listing = subprocess.run(
        ["dpkg-deb", "-c", str(out)], capture_output=True, text=True, check=True
    ).stdout
    for path in (
        "./opt/kernelscope/kernelscope",
        "./usr/bin/kernelscope -> /opt/kernelscope/kernelscope",
        "./usr/share/applications/kernelscope.desktop",
        f"./usr/share/metainfo/{deb.APP_ID}.metainfo.xml",
        "./usr/share/mime/packages/kernelscope.xml",
        "./usr/share/icons/hicolor/scalable/apps/kernelscope.svg",
        "./usr/share/icons/hicolor/48x48/apps/kernelscope.png",
        "./usr/share/icons/hicolor/512x512/apps/kernelscope.png",
    ):
        assert path in listing, path
    assert "root/root" in listing and "-rwxr-xr-x" in listing


ENTRY = PACKAGING / "entry.py"


def _entry(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ENTRY), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )


def test_the_entry_point_runs_children_like_python(tmp_path: Path) -> None:
    """What kernelscope starts with sys.executable: -m MODULE, -c CODE, a script."""
    script = tmp_path / "child.py"
    script.write_text("import sys\nprint('script', sys.argv[1:])\n")
    assert _entry(str(script), "a").stdout.strip() == "script ['a']"
    assert (
        _entry("-B", "-s", "-c", "import sys; print('code', sys.argv[1:])", "b").stdout.strip()
        == "code ['b']"
    )
    proc = _entry("-m", "kernelscope.core.cli", "doctor", "--json")
    assert proc.returncode in (0, 1) and '"tool": "nvcc"' in proc.stdout


def test_the_entry_point_runs_the_model_runners_zipapp() -> None:
    """What ncu starts in the frozen app: the app as python on the runner's zipapp."""
    from kernelscope.core.profiling import runner
    from kernelscope.core.profiling.runner_app import runner_path

    proc = _entry(str(runner_path()), "--check")
    assert proc.returncode == 0, proc.stderr
    assert any(line.startswith(runner.RESULT_TAG) for line in proc.stdout.splitlines())


@pytest.mark.parametrize("how", ["pip", "frozen"])
def test_the_gui_command_refuses_to_open_a_window_without_a_display(how: str) -> None:
    """The gui command itself says so (a pip install and the app alike), before Qt aborts;
    ``kernelscope`` alone is that command (the window on its welcome page), not the help."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    }
    program = [str(ENTRY)] if how == "frozen" else ["-m", "kernelscope.core.cli"]
    for args in (["gui"], [str(ROOT / "tests/data/ws_mlp")], []):
        proc = subprocess.run(
            [sys.executable, *program, *args], capture_output=True, text=True, timeout=120, env=env
        )
        assert proc.returncode == 1, proc.stderr
        assert "kernelscope: error: cannot open the window: no display" in proc.stderr
        assert "hint:" in proc.stderr and "Traceback" not in proc.stderr
        assert "usage:" not in proc.stdout + proc.stderr


@pytest.mark.skipif(
    not os.environ.get("KERNELSCOPE_TEST_PACKAGE"),
    reason="builds the app (about 6 minutes on 2 cores): set KERNELSCOPE_TEST_PACKAGE=1",
)
def test_the_package_builds_and_passes_the_smoke_test(tmp_path: Path) -> None:
    """The app folder, as PyInstaller makes it (the .deb's layout is tested above; its xz
    compression would add ten minutes)."""
    env = {**os.environ, "KERNELSCOPE_DIST": str(tmp_path / "dist")}
    subprocess.run(
        ["bash", str(PACKAGING / "build.sh"), "--folder"], check=True, env=env, timeout=3600
    )
    proc = subprocess.run(
        ["bash", str(PACKAGING / "smoke.sh")], env=env, capture_output=True, text=True, timeout=3600
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "smoke: all passed" in proc.stdout
