"""One set of Nsight Compute options: every command that profiles parses the same flags into
the same ``NcuOptions``, which makes the same ncu flags and the same command line back; a
settings file recorded beside a report before ``NcuOptions`` (one flat object) still reads
back, and new ones keep that shape."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from kernelscope.core.cli.main import make_parser
from kernelscope.core.cli.profile import ncu_options
from kernelscope.core.profiling import NcuOptions, ProfileRequest, recorded_request
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
    assert (request.warmup, request.iterations, request.seed, request.host) == (1, 2, 5, "me@gpu")
    assert request.ssh_options == ["-p", "2222"]
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
    from kernelscope.core.cli.remote import host_fields

    args = make_parser(command).parse_args(
        [command, positional, *shlex.split(HOST_FLAGS), *shlex.split(extra)]
    )
    fields = host_fields(args)
    assert fields["host"] == "me@gpu-box" and fields["remote_python"] == "/opt/py/bin/python3"
    assert fields["ssh_options"] == ["-p", "2222", "-i", "/keys/id", "-oProxyJump=gate"]
    assert fields.get("remote_ncu", "/opt/ncu/ncu") == "/opt/ncu/ncu"
    assert fields.get("remote_runtime_root", "/rt") == "/rt"
