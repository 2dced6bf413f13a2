"""The LLM steps (issue 29): the MLC-style Llama's prefill and decode driven by
``kernelscope profile WS --steps prefill=32,decode=4 --profile-steps decode:0-1``, which
profiles the first two decode steps only, each opened by the runner's step marker."""

from __future__ import annotations

import pytest
from gpu_support import kernelscope

from kernelscope.core.ncu import Profile, report_steps
from kernelscope.core.workspace import Workspace

pytestmark = pytest.mark.gpu
STEPS = "prefill=32,decode=4"


def test_llm_decode_steps(workspace, figure) -> None:
    """profile --steps: two decode steps, each with its own launches, the KV cache's
    runtime-launched attention among them"""
    ws = workspace("llama_mlc")
    proc = kernelscope(
        "profile", ws, "--steps", STEPS, "--profile-steps", "decode:0-1", "--name", "decode"
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    profile = Profile.open(ws / "profiles" / "decode.ncu-rep")
    steps = report_steps(profile, ws)
    assert [s.label for s in steps] == ["decode 0", "decode 1"]
    first, second = ([x.name for x in s.launches] for s in steps)
    assert first == second and first, (first, second)  # the same kernels, in the same order
    manifest = Workspace.open(ws).manifest
    # every kernel the decode function launches, directly or through the runtime, ran
    expected = {
        k.name for k in manifest.kernels if any(s.function == "decode" for s in k.launched_by)
    }
    runtime = {
        k.name
        for k in manifest.kernels
        if any(s.function == "decode" and s.via != "call_tir" for s in k.launched_by)
    }
    assert runtime and runtime <= set(first), (runtime, first)
    assert set(first) == expected, set(first) ^ expected
    assert steps[1].total_len == steps[0].total_len + 1  # one token more in the cache
    us = [s.duration_ns / 1000 for s in steps]
    figure(f"{len(first)} launches a decode step, {us[0]:.1f} / {us[1]:.1f} µs under ncu")
