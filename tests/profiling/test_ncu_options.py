"""One set of profiling options: every command that profiles parses the same flags into the
same ``NcuOptions``, every command with a host into the same ``SshTarget``, every command with
LLM steps into the same ``StepOptions``; each makes the same command line back; a settings
file recorded beside a report before these were values (one flat object) still reads back,
and new ones keep that shape."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from kernelscope.core.cli.main import make_parser
from kernelscope.core.cli.profile import ncu_options
from kernelscope.core.profiling import (
    NcuOptions,
    ProfileRequest,
    SshTarget,
    StepOptions,
    profile_command,
    recorded_request,
)
from kernelscope.core.profiling.run_ncu import _record_settings

FLAGS = (
    "--set detailed --section SourceCounters --section WarpStateStats --metric "
    "gpu__time_duration.sum --kernel conv|gemm --launch-skip 3 --launch-count 7 "
    "--clock-control none --cache-control none"
)
WANTED = NcuOptions(
    set="detailed",
    sections=["SourceCounters", "WarpStateStats"],
    metrics=["gpu__time_duration.sum"],
    kernel_regex="conv|gemm",
    launch_skip=3,
    launch_count=7,
    clock_control="none",
    cache_control="none",
)


@pytest.mark.parametrize(
    ("command", "positional"),
    [("profile", "m.kscope"), ("run", "m.onnx"), ("profile-torch", "m.py")],
)
def test_every_profiling_command_parses_the_same_ncu_options(command: str, positional: str):
    parser = make_parser(command)
    args = parser.parse_args([command, positional, *shlex.split(FLAGS)])
    assert ncu_options(args) == WANTED
    defaults = parser.parse_args([command, positional])
    assert ncu_options(defaults) == NcuOptions()  # the same defaults everywhere


def test_the_options_give_their_flags_back() -> None:
    args = make_parser("profile").parse_args(["profile", "w", *WANTED.command_arguments()])
    assert ncu_options(args) == WANTED
    assert NcuOptions(set=None).command_arguments() == ["--set", "none"]


def test_a_settings_file_of_the_old_flat_shape_still_reads(tmp_path: Path) -> None:
    report = tmp_path / "old.ncu-rep"
    old = {  # as kernelscope wrote it before NcuOptions
        "set": None, "sections": ["SpeedOfLight"], "metrics": [], "kernel_regex": "conv",
        "launch_skip": 2, "launch_count": 4, "clock_control": "none", "cache_control": "all",
        "warmup": 1, "iterations": 2, "inputs": None, "seed": 5, "host": "me@gpu",
        "ssh_options": ["-p", "2222"], "remote_ncu": "ncu", "remote_python": "python3",
        "remote_runtime_root": None,
    }  # fmt: skip
    (tmp_path / "old.ncu-rep.settings.json").write_text(json.dumps(old), encoding="utf-8")
    request = recorded_request(report, tmp_path / "ws")
    assert request is not None
    assert request.ncu == NcuOptions(
        set=None, sections=["SpeedOfLight"], kernel_regex="conv", launch_skip=2,
        launch_count=4, clock_control="none",
    )  # fmt: skip
    assert (request.warmup, request.iterations, request.seed) == (1, 2, 5)
    assert request.host == SshTarget("me@gpu", ("-p", "2222"))
    # written again, it has the same flat shape (older kernelscope versions read it too)
    _record_settings(request, tmp_path / "new.ncu-rep")
    written = json.loads((tmp_path / "new.ncu-rep.settings.json").read_text(encoding="utf-8"))
    assert "ncu" not in written and {k: written[k] for k in old} == old
    assert recorded_request(tmp_path / "new.ncu-rep", tmp_path / "ws") == request


def test_a_profile_request_carries_the_options_to_ncu() -> None:
    from kernelscope.core.profiling import ncu_arguments

    args = ncu_arguments(ProfileRequest(Path("w"), WANTED), "out", "src")
    joined = " ".join(args)
    assert "--set detailed --section SourceCounters --section WarpStateStats" in joined
    assert "--metrics gpu__time_duration.sum --kernel-name regex:conv|gemm" in joined
    assert "--launch-skip 3 --launch-count 7 --clock-control none --cache-control none" in joined


HOST_FLAGS = (
    "--host me@gpu-box -p 2222 -i /keys/id --ssh-option=-oProxyJump=gate "
    "--remote-python /opt/py/bin/python3"
)


@pytest.mark.parametrize(
    ("command", "positional", "extra"),
    [
        ("profile", "m.kscope", "--remote-ncu /opt/ncu/ncu --remote-runtime-root /rt"),
        ("run", "m.onnx", "--remote-ncu /opt/ncu/ncu --remote-runtime-root /rt"),
        ("profile-torch", "m.py", "--remote-ncu /opt/ncu/ncu"),
        ("timeline", "m.kscope", "--remote-ncu /opt/ncu/ncu --remote-runtime-root /rt"),
    ],
)
def test_every_command_with_a_host_reads_its_flags_the_same_way(
    command: str, positional: str, extra: str
) -> None:
    from kernelscope.core.cli.remote import host_options

    parser = make_parser(command)
    args = parser.parse_args([command, positional, *shlex.split(HOST_FLAGS), *shlex.split(extra)])
    host = host_options(args)
    assert host is not None
    assert host.host == "me@gpu-box" and host.python == "/opt/py/bin/python3"
    assert host.options == ("-p", "2222", "-i", "/keys/id", "-oProxyJump=gate")
    assert host.ncu == "/opt/ncu/ncu"
    assert host.runtime_root == ("/rt" if "runtime-root" in extra else None)
    assert host_options(parser.parse_args([command, positional])) is None  # this machine


STEP_FLAGS = "--steps prefill=16,decode=4 --batch 3"


@pytest.mark.parametrize(
    ("command", "positional"), [("profile", "m.kscope"), ("run", "m.onnx"), ("timeline", "w")]
)
def test_every_command_with_steps_reads_them_the_same_way(command: str, positional: str) -> None:
    from kernelscope.core.cli.profile import step_options

    parser = make_parser(command)
    args = parser.parse_args([command, positional, *shlex.split(STEP_FLAGS)])
    assert step_options(args) == StepOptions(steps="prefill=16,decode=4", batch=3)
    assert step_options(parser.parse_args([command, positional])) == StepOptions()
    assert not StepOptions().stepped and StepOptions(hook=Path("h.py")).stepped


def test_a_request_with_steps_and_a_host_gives_its_command_back(tmp_path: Path) -> None:
    from kernelscope.core.cli.profile import _request

    request = ProfileRequest(
        tmp_path / "ws",
        llm=StepOptions(steps="prefill=8,decode=2", profile_steps="decode:1", batch=2),
        host=SshTarget("me@gpu", ["-p", "2222", "-oProxyJump=gate"], "/py", "/ncu", "/rt"),
    )
    line = profile_command(request)
    assert line[line.index("--steps") :][:6] == [
        "--steps", "prefill=8,decode=2", "--batch", "2", "--profile-steps", "decode:1",
    ]  # fmt: skip
    args = make_parser("profile").parse_args(line[1:])
    assert _request(args, tmp_path / "ws") == request
    # and a report made so records them in the flat shape, read back equal
    _record_settings(request, tmp_path / "r.ncu-rep")
    written = json.loads((tmp_path / "r.ncu-rep.settings.json").read_text(encoding="utf-8"))
    assert written["steps"] == "prefill=8,decode=2" and written["batch"] == 2
    assert written["ssh_options"] == ["-p", "2222", "-oProxyJump=gate"]
    assert written["remote_runtime_root"] == "/rt" and written["host"] == "me@gpu"
    assert recorded_request(tmp_path / "r.ncu-rep", tmp_path / "ws") == request


def test_tune_gain_takes_the_ssh_options_given_for_the_recorded_host(ws_with_profile: Path) -> None:
    """``kernelscope tune-gain WS -p 2222``: the recorded host, reached on the port given;
    the recorded steps kept where only --batch is given."""
    from kernelscope.core.cli.tune import _given_profile
    from kernelscope.core.workspace import Workspace

    ws = Workspace.open(ws_with_profile)
    recorded = ProfileRequest(
        ws.path, host=SshTarget("me@gpu", python="/py"), llm=StepOptions(steps="prefill=4")
    )
    _record_settings(recorded, ws.profiles()[-1])
    parser = make_parser("tune-gain")
    args = parser.parse_args(["tune-gain", str(ws.path), "-p", "2222", "--batch", "2"])
    given = _given_profile(args, ws)
    assert given is not None
    assert given.host == SshTarget("me@gpu", ("-p", "2222"), "/py")
    assert given.llm == StepOptions(steps="prefill=4", batch=2)
    assert _given_profile(parser.parse_args(["tune-gain", str(ws.path)]), ws) is None
