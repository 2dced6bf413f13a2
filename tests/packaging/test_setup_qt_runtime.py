"""The setup installs what Qt's platform plugins really link: checked against the installed
PySide6 (its ELF NEEDED entries), the dynamic loader, dpkg, and a real X server."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kernelscope.core.environment import display_problem
from kernelscope.core.environment.qt_runtime import (
    PLATFORMS,
    missing_qt_packages,
    qt_dir,
    qt_runtime,
)


@pytest.mark.parametrize("platform", sorted(PLATFORMS))
def test_the_plugins_are_where_the_check_looks(platform: str) -> None:
    """A PySide6 that moved its plugins would make the check vacuous: fail instead."""
    runtime = qt_runtime(platform)
    assert runtime.qt_dir is not None, "PySide6 is not installed"
    users = {user for lib in runtime.libraries for user in lib.needed_by}
    plugin = "libqxcb.so" if platform == "x11" else "libqwayland"
    assert any(plugin in user for user in users), sorted(users)
    sonames = {lib.soname for lib in runtime.libraries}
    assert {"libxkbcommon.so.0", "libGL.so.1"} <= sonames
    if platform == "x11":
        # the two the old hand list forgot
        assert {"libxcb-icccm.so.4", "libxcb-keysyms.so.1"} <= sonames


@pytest.mark.parametrize("platform", sorted(PLATFORMS))
def test_every_library_resolves_or_the_setup_installs_it(platform: str) -> None:
    runtime = qt_runtime(platform)
    unknown = [
        f"{lib.soname} (needed by {lib.needed_by[0]})"
        for lib in runtime.libraries
        if not lib.packages
    ]
    assert not unknown, (
        "Qt links system libraries that no Debian package in DEBIAN_PACKAGES provides; "
        "add them: " + ", ".join(unknown)
    )
    to_install, no_package = missing_qt_packages([platform])
    assert no_package == []
    for lib in runtime.missing:
        assert set(lib.packages) & set(to_install), lib


def _dpkg_owner(path: str) -> str | None:
    candidates = [path, str(Path(path).resolve())]
    candidates += [p.removeprefix("/usr") for p in candidates if p.startswith("/usr/lib/")]
    for candidate in candidates:
        proc = subprocess.run(["dpkg", "-S", candidate], capture_output=True, text=True)
        if proc.returncode == 0:
            return proc.stdout.split(":", 1)[0].strip()
    return None


@pytest.mark.skipif(shutil.which("dpkg") is None, reason="needs dpkg (Debian/Ubuntu)")
@pytest.mark.parametrize("platform", sorted(PLATFORMS))
def test_the_package_table_agrees_with_dpkg(platform: str) -> None:
    """Every installed library Qt links belongs to the package the table names for it."""
    wrong = []
    for lib in qt_runtime(platform).libraries:
        if lib.path is None:
            continue
        owner = _dpkg_owner(lib.path)
        if owner is not None and owner not in lib.packages:
            wrong.append(f"{lib.soname}: dpkg says {owner}, the table {lib.packages}")
    assert not wrong, "\n".join(wrong)


def test_a_plugin_without_its_libraries_is_reported(tmp_path: Path) -> None:
    """The xcb plugin copied away from Qt's own libraries: they are missing, and since no
    Debian package provides them they are named rather than guessed."""
    source = qt_dir()
    assert source is not None
    plugin = tmp_path / "Qt/plugins/platforms/libqxcb.so"
    plugin.parent.mkdir(parents=True)
    shutil.copy(source / "Qt/plugins/platforms/libqxcb.so", plugin)
    runtime = qt_runtime("x11", tmp_path)
    missing = {lib.soname for lib in runtime.missing}
    assert "libQt6XcbQpa.so.6" in missing
    assert not runtime.ok
    assert all(not lib.packages for lib in runtime.missing if lib.soname.startswith("libQt6"))


def test_the_doctor_names_the_packages_to_install() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "kernelscope.core.cli", "doctor", "--missing-packages"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    expected, _ = missing_qt_packages()
    assert set(expected) <= set(proc.stdout.split())


def test_no_display_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(var, raising=False)
    problem = display_problem()
    assert problem is not None
    assert "no display" in problem.message and "DISPLAY" in problem.message
    assert "--screenshot" in problem.hint
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    assert display_problem() is None


@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs Xvfb (scripts/test.sh installs it)")
def test_the_window_opens_on_a_real_x_server(tmp_path: Path) -> None:
    """With the libraries the setup installs, Qt's xcb plugin loads and renders the window."""
    if not qt_runtime("x11").ok:
        pytest.fail(
            "the X11 libraries Qt needs are missing; scripts/bootstrap.sh installs them: "
            + " ".join(qt_runtime("x11").missing_packages())
        )
    display = f":{os.getpid() % 500 + 100}"
    server = subprocess.Popen(
        ["Xvfb", display, "-screen", "0", "1600x1000x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        socket = Path(f"/tmp/.X11-unix/X{display[1:]}")
        deadline = time.monotonic() + 20
        while not socket.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb"}
        env.pop("WAYLAND_DISPLAY", None)
        out = tmp_path / "window.png"
        proc = subprocess.run(
            [sys.executable, "-m", "kernelscope.core.cli", "--screenshot", str(out)],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 0, proc.stderr
        assert out.stat().st_size > 1000
    finally:
        server.terminate()
        server.wait(timeout=10)


CHECK = """
import json, sys
from kernelscope.core.environment import display_problem
problem = display_problem()
print(json.dumps([problem is None, "elftools" in sys.modules]))
"""


def test_the_display_check_reads_qt_once_while_nothing_changes(tmp_path: Path) -> None:
    """The window's start checks Qt's libraries by reading its plugins' ELF files (0.06-0.2 s):
    once, then from a memo while the plugins, the loader's cache and LD_LIBRARY_PATH's folders
    are unchanged."""
    if not qt_runtime("x11").ok:
        pytest.skip("this machine lacks libraries Qt's xcb plugin needs")
    libs = tmp_path / "libs"
    libs.mkdir()
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY")},
        "DISPLAY": ":99",  # the check reads the libraries, not the server
        "KERNELSCOPE_CACHE_DIR": str(tmp_path / "cache"),
        "LD_LIBRARY_PATH": str(libs),
    }

    def check() -> list[bool]:
        out = subprocess.run(
            [sys.executable, "-c", CHECK], env=env, capture_output=True, text=True, check=True
        ).stdout
        return json.loads(out.strip().splitlines()[-1])

    assert check() == [True, True], "the first start reads the plugins"
    assert check() == [True, False], "the next one does not"
    (libs / "libsomething.so.1").write_bytes(b"")  # a library folder changed
    assert check() == [True, True]
