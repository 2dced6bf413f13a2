"""Build & Profile's profiling step on a real GPU with real ncu: on the GPU machine itself (the
workstation case) and through ``--host`` against an sshd on that machine (the laptop case).

The staged small_cnn is the build tests/data/h200's report profiled (same model, sm_90, same
TVM), so its launches are known: the same kernels in the same order, each taking about as long
(within a factor of 2: an H100 or H200, clocks locked to base by ncu)."""

from __future__ import annotations

import os
import statistics
import sys
from pathlib import Path

import pytest
from gpu_support import kernelscope
from paths_support import H200_REPORT
from ssh_support import start_sshd, stop_sshd

from kernelscope.core.ncu import Profile
from kernelscope.core.toolchain import find_tool

pytestmark = pytest.mark.gpu
FACTOR = 2.0  # a launch's time against the H200's report of the same build


def _same_launches(report: Path) -> str:
    """Asserts the report has the H200 report's launches, each within FACTOR of its time;
    returns the figure."""
    got = Profile.open(report).launches
    want = Profile.open(H200_REPORT).launches
    assert [x.name for x in got] == [x.name for x in want]
    ratios = [g.duration_ns / w.duration_ns for g, w in zip(got, want, strict=True)]  # type: ignore[operator]
    assert all(1 / FACTOR <= r <= FACTOR for r in ratios), ratios
    total = sum(x.duration_ns or 0 for x in got) / 1000
    ratio = statistics.median(ratios)
    return f"{len(got)} launches, {total:.1f} µs in all ({ratio:.2f}x the H200 report's)"


def test_profile_local(workspace, figure) -> None:
    """kernelscope profile WS on the GPU machine: a report with the right launches"""
    ws = workspace("small_cnn")
    proc = kernelscope("profile", ws, "--name", "local", "--top", "3")
    assert proc.returncode == 0, proc.stderr
    assert "fused_conv2d_add_relu_kernel" in proc.stdout  # the hot lines, printed after
    figure(_same_launches(ws / "profiles" / "local.ncu-rep"))


def test_profile_over_ssh(workspace, figure, tmp_path: Path) -> None:
    """kernelscope profile WS --host against an sshd on the GPU machine: the report comes back"""
    ws = workspace("small_cnn")
    try:
        server, sshd = start_sshd(tmp_path / "sshd")
    except RuntimeError as exc:
        pytest.skip(f"no sshd to profile through: {exc}")
    try:
        options = [f"--ssh-option={o}" for o in server.options]
        runtime = os.environ.get("KERNELSCOPE_RUNTIME_ROOT")
        where = ["--remote-runtime-root", runtime] if runtime else []
        proc = kernelscope(
            "profile", ws, "--name", "over-ssh", "--host", server.target, *options,
            "--remote-python", sys.executable, "--remote-ncu", find_tool("ncu").require(), *where,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert server.logins() >= 1
    finally:
        stop_sshd(sshd)
    figure(_same_launches(ws / "profiles" / "over-ssh.ncu-rep") + ", over SSH")
