"""Issue 19: the timeline against Nsight Compute.

* Profile This Kernel on a fused kernel with a long name: ncu prints names of more than 31
  characters as their first 29 and "..." (real logs: the H200's transformer layer, and
  MobileNetV2's call 7 through ``kernelscope timeline --host --profile``), which the kernel
  check took for another kernel; the full name is the report's.
* The command printed to profile a call again carries the host, its SSH options and the
  check, and parses back into the same request.
* Per call, how far the timeline and ncu's ``gpu__time_duration`` agree, from a report of the
  workspace that profiled a whole pass (the CLI's JSON and --calls).
"""

from __future__ import annotations

import csv
import json
import os
import shlex
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from cli_support import run_cli_process as _cli
from paths_support import DATA, H200_REPORT, data_path

from kernelscope.core.environment import demo, unpack_report
from kernelscope.core.errors import KernelscopeError
from kernelscope.core.profiling import (
    NcuOptions,
    ProfileRequest,
    SshTarget,
    launch_sequence,
    profile_command,
    profile_workspace,
    same_kernel,
    timeline_command,
)
from kernelscope.core.profiling.run_ncu import profiled_kernels
from kernelscope.core.timeline import Timeline, TimelineCall, ncu_agreement
from kernelscope.core.workspace import Workspace

MOBILENET = DATA / "timeline_h200" / "mobilenet_v2.kscope"
CALL7_LOG = DATA / "timeline_h200" / "call7_ncu_log.txt"
TRANSFORMER = data_path("ncu/transformer")


# --- ncu's shortened names -------------------------------------------------------------------


def test_ncus_printed_names_are_the_launches_full_names() -> None:
    """The transformer layer's real log beside the same run's kernel names (its raw page):
    every printed name is its launch's kernel, shortened ones too, and a shortened name
    that three kernels share is none of the others'."""
    log = (TRANSFORMER / "ncu_log.txt").read_text()
    printed = profiled_kernels(log, TRANSFORMER / "no-report.ncu-rep")
    with (TRANSFORMER / "raw.csv").open(newline="") as f:
        full = [row["Kernel Name"] for row in list(csv.DictReader(f))[1:]]
    assert len(printed) == len(full) == 19
    assert sum(p.endswith("...") for p in printed) == 6
    assert all(same_kernel(p, k) for p, k in zip(printed, full, strict=True))
    assert "fused_reshape1_transpose2_res..." in printed
    shared = "fused_reshape1_transpose2_res..."
    assert same_kernel(shared, "fused_reshape1_transpose2_reshape2_kernel")
    assert not same_kernel(shared, "fused_reshape1_transpose3_kernel")
    assert not same_kernel("take1_kernel", "take1_kernel_1")
    assert not same_kernel("...", "take1_kernel")


def test_the_report_gives_the_full_names_of_shortened_launches(tmp_path: Path) -> None:
    """Where the log shortened names, the report's names (decoded from the file) are the
    profiled kernels: the demo's real 39-launch SqueezeNet report, each launch printed as
    ncu prints it (the rule the real logs show: more than 31 characters, 29 and "...")."""
    shipped = demo()  # the demo ships its report compressed
    report = unpack_report(replace(shipped, report=tmp_path / "squeezenet_h200.ncu-rep"))
    from kernelscope.core.ncu.rep.decoded import read_launches

    names = [launch.name() for launch in read_launches(report)]
    shown = [n if len(n) <= 31 else n[:29] + "..." for n in names]
    log = "".join(
        f'==PROF== Profiling "{n}" - {i}: 0%....50%....100% - 9 passes\n'
        for i, n in enumerate(shown)
    )
    assert any(s != n for s, n in zip(shown, names, strict=True))
    assert profiled_kernels(log, report) == names
    assert profiled_kernels(log, tmp_path / "missing.ncu-rep") == shown  # no report: the log


# The stand-in ncu prints what the H200's ncu printed for MobileNetV2's call 7 (profiled
# through kernelscope timeline --host --profile 7) and writes a report.
CALL7_NCU = """#!/usr/bin/env bash
out=""; while [ $# -gt 0 ]; do [ "$1" = -o ] && out="$2"; shift; done
[ -n "$out" ] || exit 0
cat LOG
cp REPORT "$out.ncu-rep"
"""


@pytest.fixture()
def mobilenet(tmp_path: Path) -> Path:
    path = tmp_path / "mobilenet_v2.kscope"
    shutil.copytree(MOBILENET, path)
    return path


def _call7_ncu(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ncu = tmp_path / "ncu"
    ncu.write_text(CALL7_NCU.replace("LOG", str(CALL7_LOG)).replace("REPORT", str(H200_REPORT)))
    ncu.chmod(0o755)
    monkeypatch.setenv("KERNELSCOPE_NCU", str(ncu))


def _mobilenet_timeline(ws: Workspace) -> Timeline:
    calls, start = [], 0.0
    for i, name in enumerate(launch_sequence(ws) or []):
        calls.append(TimelineCall(index=i, kernels=[name], start_us=start, duration_us=5.0))
        start += 5.0
    return Timeline(source="runner", origin=str(ws.path), device="NVIDIA H200", calls=calls)


def test_profile_this_kernel_accepts_ncus_shortened_name(
    mobilenet: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 19's failure: MobileNetV2's call 7 is
    fused_conv2d7_tir_isnan_where_add5_maximum3_tir_isnan_where_minimum3_kernel, which ncu
    printed as "fused_conv2d7_tir_isnan_where..."; the launch was the right one and the
    report is kept (the CLI's --profile and the window's Profile This Kernel go this way)."""
    _call7_ncu(tmp_path, monkeypatch)
    ws = Workspace.open(mobilenet)
    timeline = _mobilenet_timeline(ws)
    assert len(timeline.calls[7].kernels[0]) > 31
    request = timeline.selection(7, warmup=1).profile_request(
        mobilenet, NcuOptions(set=None), name="call7"
    )
    result = profile_workspace(request)
    assert result.report == mobilenet / "profiles" / "call7.ncu-rep" and result.report.is_file()
    assert result.launches == 1


def test_another_kernel_with_a_long_name_is_still_refused(
    mobilenet: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same ncu output for a call of another kernel: refused, no report, and the way
    out measures again with the same inputs (and on the same host: the command's host part
    is checked with the printed profile command below)."""
    _call7_ncu(tmp_path, monkeypatch)
    ws = Workspace.open(mobilenet)
    timeline = _mobilenet_timeline(ws)
    other = next(c.index for c in timeline.calls if c.kernels[0].startswith("fused_conv2d12_"))
    request = timeline.selection(other, warmup=1).profile_request(
        mobilenet, NcuOptions(set=None), seed=4
    )
    with pytest.raises(KernelscopeError, match="not fused_conv2d12_") as err:
        profile_workspace(request)
    assert "fused_conv2d7_tir_isnan_where..." in str(err.value)
    assert err.value.hint.endswith(f"kernelscope timeline {mobilenet} --seed 4")
    assert not list((mobilenet / "profiles").iterdir())


# --- the command that profiles a call again ---------------------------------------------------


def test_the_printed_profile_command_is_the_same_request() -> None:
    """What ``timeline --select`` prints to run the profile again parses back, through
    ``kernelscope profile``'s own parser, into the request --profile makes: host, port, key,
    other SSH options, remote Python, ncu and runtime folder, inputs, seed, the check."""
    from kernelscope.core.cli.main import make_parser
    from kernelscope.core.cli.profile import _request

    request = ProfileRequest(
        workspace=Path("/w/model.kscope"),
        ncu=NcuOptions(
            set=None,
            sections=["SpeedOfLight"],
            metrics=["gpu__time_duration.sum"],
            launch_skip=62,
            launch_count=1,
            clock_control="none",
            cache_control="none",
        ),
        warmup=1,
        inputs=Path("/w/in put.npz"),
        seed=3,
        name="call7",
        host=SshTarget(
            "me@gpu-box",
            ["-p", "2222", "-i", "/keys/id", "-oProxyJump=gate"],
            python="/opt/py/bin/python3",
            ncu="/opt/ncu/ncu",
            runtime_root="/opt/ks-runtime",
        ),
        expect_kernel="fused_conv2d7_kernel",
    )
    line = profile_command(request)
    assert line[:2] == ["kernelscope", "profile"]
    args = make_parser("profile").parse_args(shlex.split(shlex.join(line))[1:])
    assert _request(args, args.workspace) == request
    again = timeline_command(request)
    assert again[:3] == ["kernelscope", "timeline", "/w/model.kscope"]
    assert again[3:9] == ["--host", "me@gpu-box", "-p", "2222", "-i", "/keys/id"]


def test_timeline_select_prints_the_command_with_its_host(tmp_path: Path) -> None:
    """Issue 19: the line printed to repeat the run left out --host."""
    ws_path = tmp_path / "mobilenet_v2.kscope"
    shutil.copytree(MOBILENET, ws_path)
    timeline = _mobilenet_timeline(Workspace.open(ws_path))
    saved = timeline.save(ws_path / "timelines" / "t.json")
    proc = _cli("timeline", str(saved), "--select", "7", "--host", "me@gpu-box", "-p", "2222",
                "--remote-runtime-root", "/opt/ks-runtime")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    line = next(ln for ln in proc.stdout.splitlines() if ln.startswith("kernelscope profile"))
    assert "--host me@gpu-box -p 2222 --remote-runtime-root /opt/ks-runtime" in line
    assert f"--expect-kernel {timeline.calls[7].kernels[0]}" in line
    # a timeline measured on a host: its calls are profiled there unless --host says else
    timeline.meta["host"] = "me@gpu-box"
    timeline.save(saved)
    proc = _cli("timeline", str(saved), "--select", "7")
    line = next(ln for ln in proc.stdout.splitlines() if ln.startswith("kernelscope profile"))
    assert line.endswith("--host me@gpu-box")


# --- the timeline against ncu, call by call --------------------------------------------------


@pytest.fixture()
def cnn3(tmp_path: Path) -> Path:
    """The cnn3 workspace with two real H200 reports: three whole passes, and a newer one of
    another model (which has no pass of this one)."""
    path = tmp_path / "cnn3_b8.kscope"
    shutil.copytree(data_path("compare/cnn3_b8.kscope"), path)
    (path / "profiles").mkdir()
    shutil.copy(data_path("compare/cnn3_b8_3passes.ncu-rep"), path / "profiles" / "passes.ncu-rep")
    other = path / "profiles" / "other.ncu-rep"
    shutil.copy(H200_REPORT, other)
    os.utime(other, (2e9, 2e9))
    return path


def _cnn3_timeline(ws: Path) -> Timeline:
    names = ["fused_conv2d_add_relu_kernel", "fused_conv2d1_add1_relu1_kernel",
             "max_pool2d_kernel", "fused_conv2d2_add2_relu2_kernel", "mean_kernel",
             "transpose_kernel", "fused_matmul_add3_kernel"]  # fmt: skip
    durations = [13.0, 90.0, 5.7, 94.0, 3.0, 2.4, 6.1]
    calls, start = [], 0.0
    for i, (n, d) in enumerate(zip(names, durations, strict=True)):
        calls.append(TimelineCall(index=i, kernels=[n], start_us=start, duration_us=d))
        start += d
    return Timeline(source="runner", origin=str(ws), device="NVIDIA H200", calls=calls)


def test_each_call_beside_ncus_duration_of_the_same_launch(cnn3: Path) -> None:
    """The last pass of the report that has one (its third), call by call; the newer report
    of another model is passed over."""
    agreement = ncu_agreement(_cnn3_timeline(cnn3), cnn3)
    assert agreement.report == "passes.ncu-rep"
    ncu = [c.ncu_us for c in agreement.calls]
    assert ncu == pytest.approx([13.184, 90.336, 5.056, 93.856, 3.36, 2.528, 6.432])
    assert [c.diff_us for c in agreement.calls] == pytest.approx(
        [c.timeline_us - n for c, n in zip(agreement.calls, ncu, strict=True)]
    )
    s = agreement.summary()
    assert s["calls"] == 7 and s["within_0_5_us"] == 6 and s["within_1_us"] == 7


def test_no_report_with_a_pass_gives_no_ncu_figures(cnn3: Path) -> None:
    (cnn3 / "profiles" / "passes.ncu-rep").unlink()
    agreement = ncu_agreement(_cnn3_timeline(cnn3), cnn3)
    assert agreement.report is None and all(c.ncu_us is None for c in agreement.calls)
    assert "no ncu report" in agreement.describe()


def test_the_cli_shows_the_agreement_in_json_and_per_call(cnn3: Path) -> None:
    saved = _cnn3_timeline(cnn3).save(cnn3 / "timelines" / "t.json")
    proc = _cli("timeline", str(saved), "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["ncu"]["report"] == "passes.ncu-rep" and out["ncu"]["calls"] == 7
    row = out["ncu"]["rows"][1]
    assert row == {"index": 1, "timeline_us": 90.0, "ncu_us": pytest.approx(90.336),
                   "diff_us": pytest.approx(-0.336)}  # fmt: skip
    proc = _cli("timeline", str(saved), "--calls")
    assert proc.returncode == 0, proc.stderr
    assert "against ncu (passes.ncu-rep): median difference" in proc.stdout
    assert "ncu us" in proc.stdout and "-0.336" in proc.stdout
