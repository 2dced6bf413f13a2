"""scripts/start.sh and scripts/bootstrap.sh: which virtual environment a clone uses, and what
start.sh opens. The environments here are stand-ins (a real one is gigabytes): a folder with
the file pip's editable install leaves, and a ``kernelscope`` that notes how it was called."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from paths_support import ROOT

SCRIPTS = ROOT / "scripts"


def _clone(folder: Path) -> Path:
    """A clone as far as bootstrap.sh looks: its scripts and pyproject.toml."""
    (folder / "scripts").mkdir(parents=True)
    shutil.copy(SCRIPTS / "bootstrap.sh", folder / "scripts")
    shutil.copy(ROOT / "pyproject.toml", folder)
    return folder


def _installed_from(venv: Path, clone: Path) -> None:
    """What ``pip install -e CLONE`` leaves in a virtual environment (file URL, %-quoted)."""
    info = venv / "lib" / "python3.11" / "site-packages" / "kernelscope-0.1.0.dist-info"
    info.mkdir(parents=True)
    url = clone.as_uri()
    (info / "direct_url.json").write_text(json.dumps({"dir_info": {"editable": True}, "url": url}))


def _venv_of(clone: Path, env: dict[str, str], said: list[str] | None = None) -> str:
    proc = subprocess.run(
        ["bash", "-c", 'source "$1/scripts/bootstrap.sh"; printf %s "$KS_VENV"', "-", str(clone)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    if said is not None:
        said.append(proc.stderr)
    return proc.stdout


def test_a_second_clone_gets_its_own_environment(tmp_path: Path) -> None:
    """A second clone must not re-point the first one's editable install at itself."""
    first, second = _clone(tmp_path / "first clone"), _clone(tmp_path / "second")
    env = {k: v for k, v in os.environ.items() if k != "KERNELSCOPE_VENV"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    usual = tmp_path / "cache" / "kernelscope" / "venv"
    assert _venv_of(second, env) == str(usual)  # none yet: the usual one

    _installed_from(usual, first)
    assert _venv_of(first, env) == str(usual)
    digest = hashlib.sha256(str(second).encode()).hexdigest()[:8]
    said: list[str] = []
    assert _venv_of(second, env, said) == f"{usual}-{digest}"
    assert said[0] == (  # said out loud, before it is made
        f"kernelscope setup: another clone, {first}, uses {usual}; this clone gets its own, "
        f"{usual}-{digest}\nkernelscope setup: (set KERNELSCOPE_VENV to choose one)\n"
    )
    Path(f"{usual}-{digest}").mkdir()
    assert _venv_of(second, env, said) == f"{usual}-{digest}" and said[1] == ""  # made: quiet
    assert _venv_of(second, {**env, "KERNELSCOPE_VENV": "/somewhere/venv"}) == "/somewhere/venv"

    shutil.rmtree(first)  # the clone it ran is gone: the next clone takes it over
    assert _venv_of(second, env) == str(usual)


def _stand_in_venv(venv: Path, calls: Path) -> None:
    """A virtual environment already set up for this clone, whose ``kernelscope`` notes its
    arguments instead of running."""
    (venv / "bin").mkdir(parents=True)
    for name in ("python", "kernelscope"):
        program = venv / "bin" / name
        program.write_text(f'#!/bin/sh\necho "{name} $*" >> "{calls}"\n')
        program.chmod(0o755)
    stamp = (ROOT / "pyproject.toml").read_bytes() + f"{ROOT}\n".encode()
    (venv / ".kernelscope-stamp").write_text(hashlib.sha256(stamp).hexdigest()[:16] + "\n")


@pytest.mark.skipif(shutil.which("g++") is None, reason="start.sh would install g++ first")
def test_start_opens_the_window_on_its_welcome_page_with_the_demo_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kernelscope.core.environment import demo

    calls = tmp_path / "calls"
    _stand_in_venv(tmp_path / "venv", calls)
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")},
        "KERNELSCOPE_VENV": str(tmp_path / "venv"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "QT_QPA_PLATFORM": "offscreen",
    }
    proc = subprocess.run(
        ["bash", str(SCRIPTS / "start.sh"), "--palette", "dark"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    workspace = demo().workspace  # where the welcome page's "Open the demo" looks
    run = calls.read_text().splitlines()
    assert run[0] == "kernelscope doctor --missing-packages"
    assert run[1] == (
        f"kernelscope build {ROOT}/resources/demo/squeezenet1_1.onnx -o {workspace} --arch sm_90"
    )
    # the report shipped compressed, unpacked beside the workspace where the window's demo puts it
    assert run[2].startswith(f"kernelscope import {demo().report} -w")
    assert demo().report.stat().st_size > 40_000_000
    assert run[3:] == ["kernelscope gui --palette dark"]  # the welcome page, not the demo

    calls.unlink()
    del env["QT_QPA_PLATFORM"]
    proc = subprocess.run(
        ["bash", str(SCRIPTS / "start.sh")], env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert "no display here" in proc.stderr and "welcome page" in proc.stderr
    assert not any(line.startswith("kernelscope gui") for line in calls.read_text().splitlines())
