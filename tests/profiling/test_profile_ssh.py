"""Profiling on a remote GPU host over plain ssh/scp, against a private OpenSSH server on
127.0.0.1. The host has no GPU either, so its ``ncu`` is a stand-in that checks what
kernelscope copied and answers with the report made on an H200."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from paths_support import H200_REPORT
from ssh_support import SshServer, fixture_ssh_server, free_port  # noqa: F401 - a fixture

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.ncu import Profile
from kernelscope.core.profiling import ProfileRequest, SshTarget, StepOptions, profile_workspace


@pytest.fixture()
def ssh_host(ssh_server: SshServer) -> list[str]:
    return [ssh_server.target, *ssh_server.options]


STAND_IN_NCU = """#!/usr/bin/env bash
# Stands in for ncu on a host without a GPU: checks what kernelscope sent, then answers with
# a real report.
out=""; args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do [ "${args[i]}" = -o ] && out="${args[i+1]}"; done
runner="${args[-8]}"; ws="${args[-7]}"
for f in "$runner" "$ws/manifest.json" "$ws/model.so" "$ws/module.cubin" \\
         "$ws/src/tvm_kernels.cu" "$ws/src/kernels/max_pool2d_kernel.cu"; do
  [ -e "$f" ] || { echo "==ERROR== missing $f"; exit 1; }
done
echo "$@" > "$(dirname "$out")/ncu-args.txt"
for k in fused_conv2d_add_relu_kernel max_pool2d_kernel transpose_kernel fused_matmul_add1_kernel
do echo "==PROF== Profiling \\"$k\\" - 0: 0%....50%....100% - 9 passes"; done
cp REPORT "$out.ncu-rep"
"""


def _stand_in(tmp_path: Path) -> Path:
    script = tmp_path / "remote-ncu"
    script.write_text(STAND_IN_NCU.replace("REPORT", str(H200_REPORT)))
    script.chmod(0o755)
    return script


def test_profile_over_ssh_copies_runs_and_fetches_the_report(
    ssh_host: list[str], build_once, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(build_once("small_cnn.onnx").path, ws)
    steps: list[tuple[str, float | None]] = []
    result = profile_workspace(
        ProfileRequest(
            workspace=ws,
            name="remote",
            host=SshTarget(ssh_host[0], ssh_host[1:], ncu=str(_stand_in(tmp_path))),
        ),
        progress=lambda step, fraction, message: steps.append((step, fraction)),
    )
    assert result.report == ws / "profiles" / "remote.ncu-rep"
    assert result.report.read_bytes() == H200_REPORT.read_bytes()
    assert result.launches == 4
    assert [step for step, _ in steps[:2]] == ["connect", "copy"]
    assert steps[0][1] is None  # busy while ssh connects
    assert "fetch" in [step for step, _ in steps]
    # with the settings it was made with (how another build is profiled to compare with it)
    assert sorted(os.listdir(ws / "profiles")) == ["remote.ncu-rep", "remote.ncu-rep.settings.json"]
    kernels = {k.name for k in Profile.open(result.report).kernels()}
    assert kernels == {k.name for k in build_once("small_cnn.onnx").manifest.kernels if k.launched}


def test_remote_failure_is_explained_and_leaves_nothing(
    ssh_server: SshServer, ssh_host: list[str], build_once, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(build_once("small_cnn.onnx").path, ws)
    with pytest.raises(KernelscopeError) as err:
        profile_workspace(
            ProfileRequest(
                workspace=ws,
                host=SshTarget(ssh_host[0], ssh_host[1:], ncu="/nonexistent/ncu"),
            )
        )
    assert "/nonexistent/ncu" in err.value.details
    assert list((ws / "profiles").iterdir()) == []
    assert ssh_server.leftovers() == []


def test_unreachable_host_is_a_clear_error(build_once, tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(build_once("small_cnn.onnx").path, ws)
    with pytest.raises(KernelscopeError, match="ssh nobody@127.0.0.1 failed"):
        profile_workspace(
            ProfileRequest(
                workspace=ws,
                host=SshTarget("nobody@127.0.0.1", [f"-oPort={free_port()}", "-oConnectTimeout=5"]),
            )
        )


STEPPED_NCU = """#!/usr/bin/env bash
# A stand-in ncu for a run of an LLM's steps with a hook: the hook file must be on the host,
# where the runner is told to find it.
out=""; hook=""; args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  [ "${args[i]}" = -o ] && out="${args[i+1]}"
  [ "${args[i]}" = --hook ] && hook="${args[i+1]}"
done
grep -q "def run(session)" "$hook" || { echo "==ERROR== no hook at $hook"; exit 1; }
case " $* " in *" --profile-from-start off "*) ;;
  *) echo "==ERROR== profiled from the start"; exit 1;; esac
echo '==PROF== Profiling "kernelscope_step_marker" - 0: 0%....50%....100% - 1 pass'
step='{"name": "decode", "index": 0, "profiled": true}'
echo 'KERNELSCOPE_RESULT {"mode": "steps", "hook": "'"$hook"'", "steps": ['"$step"']}'
cp REPORT "$out.ncu-rep"
"""


def test_a_hook_travels_with_the_workspace(ssh_host: list[str], build_once, tmp_path: Path) -> None:
    import json

    ws = tmp_path / "ws"
    shutil.copytree(build_once("small_cnn.onnx").path, ws)
    hook = tmp_path / "my loop.py"
    hook.write_text("def run(session):\n    pass\n")
    ncu = tmp_path / "remote-ncu"
    ncu.write_text(STEPPED_NCU.replace("REPORT", str(H200_REPORT)))
    ncu.chmod(0o755)
    result = profile_workspace(
        ProfileRequest(
            workspace=ws,
            name="hooked",
            host=SshTarget(ssh_host[0], ssh_host[1:], ncu=str(ncu)),
            llm=StepOptions(hook=hook, profile_steps="decode:0"),
        )
    )
    steps = json.loads((ws / "profiles" / "hooked.ncu-rep.steps.json").read_text())
    assert steps["hook"].endswith("/hook/my loop.py") and steps["hook"] != str(hook)
    assert result.launches == 1
