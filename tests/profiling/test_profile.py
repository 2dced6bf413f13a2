"""Profiling: the report made on an H200 by kernelscope's own runner and profiler, the runner's
checks, the ncu command, and what happens on a machine without a GPU or when ncu fails."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from paths_support import H200_REPORT, data_path
from process_support import descendants, still_alive

from kernelscope.core.cli.main import main
from kernelscope.core.errors import Cancelled, KernelscopeError
from kernelscope.core.ncu import Profile
from kernelscope.core.ncu.build_match import check_against_workspace
from kernelscope.core.profiling import runner
from kernelscope.core.profiling.run_ncu import (
    NcuOptions,
    ProfileRequest,
    ncu_arguments,
    profile_workspace,
)
from kernelscope.core.profiling.runner.main import main as runner_main
from kernelscope.core.profiling.runner.model import install_cubin
from kernelscope.core.profiling.runner_app import runner_path, stdin_script


def test_h200_report_matches_the_workspace_kernel_for_kernel(build_once) -> None:
    ws = build_once("small_cnn.onnx")
    profile = Profile.open(H200_REPORT, workspace=ws)
    check = check_against_workspace(profile, ws)
    launched = sorted(k.name for k in ws.manifest.kernels if k.launched)
    assert sorted(check["matched"]) == launched
    assert check["profile_only"] == [] and check["build_only"] == []
    assert [s["status"] for s in check["sources"]] == ["ok"] * len(launched)
    for name in launched:
        own = profile.source_files(name)[0]
        assert profile.resolver.workspace_file(own).resolve() == ws.source_path(name).resolve()
        assert profile.source(own).text == ws.source_text(name)
    # the launch facts kernelscope read from TVM's IR are what the GPU ran
    for k in profile.kernels():
        info = ws.manifest.kernel(k.name)
        assert tuple(info.grid) == tuple(k.first.grid)
        assert tuple(info.block) == tuple(k.first.block)
        # ptxas's count, except that ncu reports at least 16 per thread (the least allocated)
        assert info.registers is not None and k.registers == max(info.registers, 16)


def test_h200_report_per_instruction_data_lines_up_with_the_static_sass(build_once) -> None:
    ws = build_once("small_cnn.onnx")
    profile = Profile.open(H200_REPORT, workspace=ws)
    for kernel in ("fused_conv2d_add_relu_kernel", "max_pool2d_kernel"):
        static = {i.offset: i.text for i in ws.sass(kernel).instructions}
        measured = profile.sass(kernel)
        assert measured, kernel
        for offset, text in measured.items():
            # ncu prints SASS without nvdisasm's operand-reuse flags, and branch targets as
            # addresses where nvdisasm prints labels
            ours = static[offset].replace(".reuse", "").split("`(")[0]
            assert " ".join(text.split()).startswith(ours), offset


def test_without_ncu_profile_says_what_is_missing_and_writes_nothing(
    build_once, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ws_path = tmp_path / "ws"
    shutil.copytree(build_once("small_cnn.onnx").path, ws_path)
    monkeypatch.setenv("KERNELSCOPE_NCU", str(tmp_path / "no-ncu-here"))  # also on a GPU host
    assert main(["profile", str(ws_path)]) == 1
    err = capsys.readouterr().err
    assert "kernelscope: error: Nsight Compute (ncu) is not installed here" in err
    assert "then attach the report: kernelscope import REPORT -w WORKSPACE" in err
    assert not (ws_path / "profiles").exists()


def test_ncu_command_profiles_with_sources_and_the_chosen_filters(tmp_path: Path) -> None:
    req = ProfileRequest(
        workspace=tmp_path,
        ncu=NcuOptions(
            set=None,
            sections=["SourceCounters", "SpeedOfLight"],
            kernel_regex="conv",
            launch_skip=2,
            launch_count=5,
            clock_control="none",
        ),
    )
    args = ncu_arguments(req, "/ws/profiles/.partial-x", "/ws/src")
    joined = " ".join(args)
    assert "--import-source yes" in joined and "--source-folders /ws/src" in joined
    assert "--section SourceCounters --section SpeedOfLight" in joined and "--set" not in args
    assert "--kernel-name regex:conv" in joined
    assert "--launch-skip 2 --launch-count 5" in joined and "--clock-control none" in joined
    assert args[args.index("-o") + 1] == "/ws/profiles/.partial-x"


def test_the_runner_travels_as_one_zipapp_cached_by_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The runner package zipped into one file, written once into the cache folder; it runs
    without kernelscope (an isolated interpreter, elsewhere), as a file and from stdin."""
    monkeypatch.setenv("KERNELSCOPE_CACHE_DIR", str(tmp_path / "cache"))
    path = runner_path()
    assert path.parent == tmp_path / "cache" / "runner" and path.suffix == ".pyz"
    stamp = path.stat().st_mtime_ns
    assert runner_path() == path and path.stat().st_mtime_ns == stamp
    (tmp_path / "tmp").mkdir()
    env = {**os.environ, "TMPDIR": str(tmp_path / "tmp")}
    for argv, stdin in (
        ([sys.executable, "-I", str(path), "--check"], None),
        ([sys.executable, "-I", "-", "--check"], stdin_script()),
    ):
        proc = subprocess.run(
            argv, input=stdin, capture_output=True, cwd=tmp_path, timeout=120, env=env
        )
        assert proc.returncode == 0, proc.stderr
        lines = proc.stdout.decode().splitlines()
        assert any(line.startswith(runner.RESULT_TAG + '{"python"') for line in lines)
    assert not any((tmp_path / "tmp").iterdir()), "the copy stdin's script ran is removed"
    (tmp_path / "file").write_text("")  # a cache folder that cannot be made: said, no traceback
    monkeypatch.setenv("KERNELSCOPE_CACHE_DIR", str(tmp_path / "file"))
    with pytest.raises(KernelscopeError, match="cannot write the model runner"):
        runner_path()


def _runner(capsys: pytest.CaptureFixture[str], ws: Path, *args: str) -> tuple[int, str]:
    """The runner's exit code and stderr (it checks its inputs before it needs a GPU)."""
    code = runner_main([str(ws), *args])
    return code, capsys.readouterr().err


def test_runner_names_inputs_it_cannot_feed(
    build_once, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ws = build_once("tiny_mlp.py")
    np.savez(tmp_path / "wrong.npz", y=np.zeros((4, 64), "float32"))
    code, err = _runner(capsys, ws.path, "--inputs", str(tmp_path / "wrong.npz"))
    assert code == runner.EXIT_BAD_INPUT
    assert "does not take: y" in err and "it takes: x" in err
    np.savez(tmp_path / "shape.npz", x=np.zeros((4, 65), "float32"))
    code, err = _runner(capsys, ws.path, "--inputs", str(tmp_path / "shape.npz"))
    assert code == runner.EXIT_BAD_INPUT
    assert "x: the model takes float32[4, 64], the .npz has float32[4, 65]" in err


def test_runner_refuses_runtime_weights_without_values(
    build_once, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Built with --params runtime, the weights are inputs without values: the runner must
    not invent random ones."""
    ws = build_once("small_mlp_noparams.onnx", params="runtime")
    np.savez(tmp_path / "input.npz", input=np.zeros((4, 32), "float32"))
    code, err = _runner(capsys, ws.path, "--inputs", str(tmp_path / "input.npz"))
    assert code == runner.EXIT_BAD_INPUT
    assert (
        "no value for 'fc1.weight' (float32[32, 64]), 'fc1.bias' (float32[64]), "
        "'fc2.weight' (float32[64, 8]) (the workspace was built with --params runtime)"
    ) in err


def test_runner_refuses_a_cuda_source_that_is_not_the_built_one(build_once, tmp_path: Path):
    """The compile callback is what TVM's runtime calls with the module's CUDA source."""
    import tvm_ffi
    from tvm.support import nvcc  # TVM registers its own callback on import: before ours

    ws = build_once("tiny_mlp.py")
    calls = install_cubin(tvm_ffi, ws.path, ws.manifest.files)
    callback = tvm_ffi.get_global_func("tvm_callback_cuda_compile")
    try:
        good = ws.file("tvm_source").read_text()
        assert bytes(callback(good)) == ws.file("cubin").read_bytes()
        # TVM's FFI hands the callback's RunnerError back as a RuntimeError
        with pytest.raises(RuntimeError, match="refusing to run different code"):
            callback(good.replace("max(", "fmaxf(", 1))
        assert calls == {"count": 1, "mismatch": 1}
    finally:  # re-register TVM's own compiler callback
        tvm_ffi.register_global_func(
            "tvm_callback_cuda_compile", nvcc.tvm_callback_cuda_compile, override=True
        )


# --- ncu failures, with a stand-in for ncu: there is no GPU on this machine -----------------


def _stand_in_ncu(tmp_path: Path, body: str, monkeypatch: pytest.MonkeyPatch) -> None:
    script = tmp_path / "ncu"
    script.write_text("#!/usr/bin/env bash\n" + body)
    script.chmod(0o755)
    monkeypatch.setenv("KERNELSCOPE_NCU", str(script))


HALF_THEN_FAIL = """
out=""; while [ $# -gt 0 ]; do [ "$1" = -o ] && out="$2"; shift; done
[ -n "$out" ] || exit 2
echo '==PROF== Profiling "fused_conv2d_add_relu_kernel" - 0: 0%....50%....100% - 9 passes'
echo partial > "$out.ncu-rep"
echo '==ERROR== The application returned an error code (1).'
exit 1
"""


def test_failed_profile_leaves_no_partial_report_and_keeps_earlier_ones(
    ws_with_profile: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _stand_in_ncu(tmp_path, HALF_THEN_FAIL, monkeypatch)
    before = (ws_with_profile / "profiles" / "earlier.ncu-rep").read_bytes()
    with pytest.raises(KernelscopeError, match="ncu failed") as err:
        profile_workspace(ProfileRequest(workspace=ws_with_profile, name="new"))
    assert "application returned an error code" in str(err.value)
    assert sorted(os.listdir(ws_with_profile / "profiles")) == ["earlier.ncu-rep"]
    assert (ws_with_profile / "profiles" / "earlier.ncu-rep").read_bytes() == before


FILTERED_RUN = """
out=""; while [ $# -gt 0 ]; do [ "$1" = -o ] && out="$2"; shift; done
echo '==PROF== Connected to process 528 (/usr/bin/python3.12)'
echo '==PROF== Profiling "fused_conv2d_add_relu_kernel": 0%....50%....100% - 9 passes'
echo '==PROF== Disconnected from process 528'
[ -z "$out" ] || cp "$H200" "$out.ncu-rep"  # not for the --version probe: no stray report
"""


def test_a_kernel_filter_run_counts_the_launches_ncu_names_without_an_index(
    ws_with_profile: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With --kernel-name, ncu 2025.3 prints no launch index (the H200's output, verbatim)."""
    _stand_in_ncu(tmp_path, FILTERED_RUN, monkeypatch)
    monkeypatch.setenv("H200", str(H200_REPORT))
    steps: list[str] = []
    req = ProfileRequest(
        workspace=ws_with_profile, name="conv", ncu=NcuOptions(kernel_regex="conv2d")
    )
    result = profile_workspace(req, lambda step, fraction, message: steps.append(message))
    assert result.launches == 1
    assert result.report.name == "conv.ncu-rep" and result.report.is_file()
    assert "profiling fused_conv2d_add_relu_kernel (1 of 1)" in steps


def test_cli_profile_prints_the_hottest_lines_of_what_it_profiled(
    ws_with_profile: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``kernelscope profile`` ends with ``kernelscope hot``'s table of the new report (the
    stand-in ncu stands in for the GPU too: there is none here)."""
    from kernelscope.core import profiling

    _stand_in_ncu(tmp_path, FILTERED_RUN, monkeypatch)
    monkeypatch.setenv("H200", str(H200_REPORT))
    monkeypatch.setattr(profiling, "profiling_problem", lambda: None)
    assert main(["profile", str(ws_with_profile), "--top", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("profiled 1 kernel launches in ")
    assert out[1].startswith("hottest lines by # Samples")
    assert len(out) == 2 + 1 + 3  # the table's header and its 3 lines


def test_cli_profile_of_timings_only_keeps_the_report_and_says_there_are_no_hot_lines(
    ws_with_profile: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A profile made for times alone (``--set none --metric gpu__time_duration.sum``, as the
    LLM step figures are) has no per-line metrics: the command succeeds, keeps the report and
    says where its launches are, instead of ending in an error after a good profile (seen on
    the GPU: ``kernelscope: error: no source-line metrics in decode.ncu-rep``)."""
    from kernelscope.core import profiling

    _stand_in_ncu(tmp_path, FILTERED_RUN, monkeypatch)
    monkeypatch.setenv("H200", str(data_path("llm/tiny_decode.ncu-rep")))
    monkeypatch.setattr(profiling, "profiling_problem", lambda: None)
    command = ["profile", str(ws_with_profile), "--set", "none", "--name", "times"]
    assert main([*command, "--metric", "gpu__time_duration.sum"]) == 0
    captured = capsys.readouterr()
    assert "no hot lines: no source-line metrics in times.ncu-rep" in captured.err
    assert f"kernelscope kernels {ws_with_profile}/profiles/times.ncu-rep" in captured.out
    assert (ws_with_profile / "profiles" / "times.ncu-rep").is_file()


def test_missing_counter_permission_names_the_driver_setting(
    ws_with_profile: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _stand_in_ncu(
        tmp_path,
        'echo "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access '
        'NVIDIA GPU Performance Counters on the target device 0."\nexit 1\n',
        monkeypatch,
    )
    with pytest.raises(KernelscopeError) as err:
        profile_workspace(ProfileRequest(workspace=ws_with_profile))
    assert "NVreg_RestrictProfilingToAdminUsers=0" in err.value.hint
    assert sorted(os.listdir(ws_with_profile / "profiles")) == ["earlier.ncu-rep"]


def test_cancel_stops_ncu_and_discards_the_partial_report(
    ws_with_profile: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _stand_in_ncu(
        tmp_path,
        'out=""; while [ $# -gt 0 ]; do [ "$1" = -o ] && out="$2"; shift; done\n'
        '[ -n "$out" ] || exit 2\n'
        # as ncu does, it stops on SIGINT (but leaves a process behind: the group goes)
        "trap 'exit 130' INT\n"
        'echo partial > "$out.ncu-rep"; sleep 60 &\n'
        "echo '==PROF== Profiling \"k\" - 0: 0%'; wait\n",
        monkeypatch,
    )
    cancel = threading.Event()
    seen: list[str] = []
    running: list[int] = []

    def progress(step: str, fraction: float | None, message: str) -> None:
        seen.append(message)
        if step == "profile":
            running.extend(descendants())  # the stand-in ncu and its sleep
            cancel.set()

    with pytest.raises(Cancelled, match="profile cancelled"):
        profile_workspace(
            ProfileRequest(workspace=ws_with_profile, name="new"), progress=progress, cancel=cancel
        )
    assert any("profiling k" in m for m in seen)
    assert len(running) == 2 and not still_alive(running)
    assert sorted(os.listdir(ws_with_profile / "profiles")) == ["earlier.ncu-rep"]


def test_nvidias_reader_is_found_beside_the_ncu_it_comes_with(tmp_path, monkeypatch) -> None:
    """A GPU host with Nsight Compute installed and no ``pip install ncu-report``: the reader
    in Nsight Compute's extras/python is the one used (and the one doctor reports)."""
    from kernelscope.core.environment import installed_facts
    from kernelscope.core.toolchain import ncu_report_dir

    install = tmp_path / "nsight-compute" / "2099.1.0"
    (install / "extras" / "python").mkdir(parents=True)
    (install / "extras" / "python" / "ncu_report.py").write_text("")
    ncu = install / "ncu"
    ncu.write_text("#!/bin/sh\necho 'Version 2099.1.0'\n")
    ncu.chmod(0o755)
    link = tmp_path / "bin" / "ncu"  # as /usr/local/cuda/bin/ncu points into the install
    link.parent.mkdir()
    link.symlink_to(ncu)
    monkeypatch.setenv("KERNELSCOPE_NCU", str(link))
    assert ncu_report_dir() == install / "extras" / "python"
    monkeypatch.setenv("KERNELSCOPE_NCU", str(tmp_path / "no-ncu-here"))
    found = ncu_report_dir()
    assert found is None or found.match("/opt/nvidia/nsight-compute/*/extras/python")
    facts = {f.name: f for f in installed_facts(probe_gpu=False)}
    assert facts["ncu_report"].found  # this venv has the pip one
