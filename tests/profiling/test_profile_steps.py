"""``kernelscope profile WS --steps ... --profile-steps ...``: what ncu and the runner are asked
for, the step list kept beside the report, the settings and the command that repeat it, and
steps refused before anything runs. ncu is a stand-in here (no GPU): it prints what the
runner would, a marker launch first."""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

import pytest
from paths_support import H200_REPORT

from kernelscope.core.cli.main import make_parser
from kernelscope.core.cli.profile import _request
from kernelscope.core.errors import KernelscopeError
from kernelscope.core.profiling import (
    NcuOptions,
    ProfileRequest,
    StepOptions,
    profile_command,
    profile_workspace,
    recorded_request,
    runner,
)

STEPS = {
    "mode": "steps",
    "plan": {"prefill": 16, "decode": 4},
    "steps": [
        {"name": "prefill", "index": 0, "profiled": False, "seq_len": 16, "batch": 2},
        *[
            {"name": "decode", "index": i, "profiled": True, "seq_len": 1, "batch": 2}
            for i in range(4)
        ],
    ],
}
STEPPED_NCU = """#!/usr/bin/env bash
out=""; echo "$@" >> "$NCU_CALLS"
while [ $# -gt 0 ]; do [ "$1" = -o ] && out="$2"; shift; done
[ -n "$out" ] || exit 0
echo '==PROF== Profiling "kernelscope_step_marker" - 0: 0%....50%....100% - 1 pass'
echo '==PROF== Profiling "fused_conv2d_add_relu_kernel" - 1: 0%....50%....100% - 9 passes'
echo "$RESULT"
cp "$H200" "$out.ncu-rep"
"""


@pytest.fixture()
def stepped_ncu(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    ncu = tmp_path / "ncu"
    ncu.write_text(STEPPED_NCU)
    ncu.chmod(0o755)
    calls = tmp_path / "ncu-calls.txt"
    monkeypatch.setenv("KERNELSCOPE_NCU", str(ncu))
    monkeypatch.setenv("H200", str(H200_REPORT))
    monkeypatch.setenv("NCU_CALLS", str(calls))
    monkeypatch.setenv("RESULT", runner.RESULT_TAG + json.dumps(STEPS))
    return calls


def test_profiled_steps_only_and_their_list_beside_the_report(
    ws_with_profile: Path, stepped_ncu: Path
) -> None:
    req = ProfileRequest(
        workspace=ws_with_profile,
        name="llm",
        llm=StepOptions(steps="prefill=16,decode=4", batch=2, profile_steps="decode:0-3"),
    )
    result = profile_workspace(req)
    call = stepped_ncu.read_text().split()
    assert "--profile-from-start off" in " ".join(call)
    # a CUDA graph's kernel nodes are launches of their own (build --cuda-graph)
    assert "--graph-profiling node" in " ".join(call)
    runner_args = " ".join(call[call.index(str(ws_with_profile)) :])
    assert "--steps prefill=16,decode=4 --batch 2 --profile-steps decode:0-3" in runner_args
    kept = json.loads((ws_with_profile / "profiles" / "llm.ncu-rep.steps.json").read_text())
    assert kept["steps"] == STEPS["steps"]
    assert result.launches == 2
    again = recorded_request(result.report, ws_with_profile)
    assert again is not None
    assert again.llm == req.llm


def test_a_kernel_filter_keeps_the_step_markers() -> None:
    from kernelscope.core.profiling import ncu_arguments

    req = ProfileRequest(
        workspace=Path("ws"),
        llm=StepOptions(steps="prefill=4"),
        ncu=NcuOptions(kernel_regex="matmul|gemv"),
    )
    args = ncu_arguments(req, "out", "src")
    assert args[args.index("--kernel-name") + 1] == (
        "regex:(?:matmul|gemv)|^kernelscope_step_marker$"
    )


def test_the_profile_command_of_a_stepped_request_parses_back(tmp_path: Path) -> None:
    for request in (
        ProfileRequest(
            workspace=Path("/w/llama.kscope"),
            llm=StepOptions(
                steps="prefill=128,decode=32", batch=4, profile_steps="prefill,decode:16"
            ),
        ),
        ProfileRequest(
            workspace=Path("/w/llama.kscope"), llm=StepOptions(hook=Path("/w/my loop.py"))
        ),
    ):
        line = profile_command(request)
        args = make_parser("profile").parse_args(shlex.split(shlex.join(line))[1:])
        assert _request(args, args.workspace) == request


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"steps": "prefill=16,decode=4", "profile_steps": "decode:9"}, "decode runs 4 step(s)"),
        ({"steps": "prefill=16,decode=4", "profile_steps": "decode:"}, "'decode:' is not a step"),
        ({"steps": "prefill=16,decode=x"}, "'decode=x' is not prefill=N or decode=N"),
        ({"profile_steps": "decode:0"}, "--profile-steps chooses among an LLM's steps"),
        ({"hook": Path("/nowhere/hook.py")}, "--hook /nowhere/hook.py: no such file"),
    ],
)
def test_bad_steps_are_refused_before_ncu_starts(
    ws_with_profile: Path, stepped_ncu: Path, fields: dict, said: str
) -> None:
    with pytest.raises(KernelscopeError, match=said.replace("(", r"\(").replace(")", r"\)")):
        profile_workspace(ProfileRequest(workspace=ws_with_profile, llm=StepOptions(**fields)))
    assert not stepped_ncu.exists()  # ncu never ran
    assert sorted(os.listdir(ws_with_profile / "profiles")) == ["earlier.ncu-rep"]


def test_a_step_run_without_its_step_list_keeps_no_report(
    ws_with_profile: Path, stepped_ncu: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RESULT", "")
    with pytest.raises(KernelscopeError, match="printed no list of them; no report was kept"):
        profile_workspace(
            ProfileRequest(ws_with_profile, name="llm", llm=StepOptions(steps="prefill=16"))
        )
    assert sorted(os.listdir(ws_with_profile / "profiles")) == ["earlier.ncu-rep"]
