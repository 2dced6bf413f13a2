"""The LLM steps (issue 29): the MLC-style Llama's prefill and decode driven by
``kernelscope profile WS --steps prefill=32,decode=4 --profile-steps decode:0-1``, which
profiles the first two decode steps only. Skips until that command exists."""

from __future__ import annotations

import pytest
from gpu_support import kernelscope

from kernelscope.core.ncu import Profile

pytestmark = pytest.mark.gpu
STEPS = "prefill=32,decode=4"


def test_llm_decode_steps(workspace, figure) -> None:
    """profile --steps: the decode steps profiled, each one's kernels in the report"""
    if "--steps" not in kernelscope("profile", "--help").stdout:
        pytest.skip("waits for issue 29's step driver (kernelscope profile --steps)")
    ws = workspace("llama_mlc")
    proc = kernelscope(
        "profile", ws, "--steps", STEPS, "--profile-steps", "decode:0-1", "--name", "decode"
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    launches = Profile.open(ws / "profiles" / "decode.ncu-rep").launches
    names = [x.name for x in launches]
    # two decode steps: the same kernels in the same order, twice
    assert len(names) % 2 == 0 and names[: len(names) // 2] == names[len(names) // 2 :], names
    figure(f"{len(names) // 2} launches a decode step, 2 steps profiled")
