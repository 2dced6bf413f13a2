"""Running the ``kernelscope`` command line inside a test."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kernelscope.core.cli import main as cli


def run_cli(args: list[object], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``kernelscope ARGS`` in this process: its exit code, stdout and stderr; never a
    traceback."""
    rc = cli.main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, out, err


def run_cli_process(*args: str) -> subprocess.CompletedProcess:
    """``kernelscope ARGS`` in a child Python, for what only a separate process shows (its
    exit code and output as a user sees them)."""
    return subprocess.run(
        [sys.executable, "-m", "kernelscope.core.cli", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
