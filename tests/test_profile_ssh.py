"""Profiling on a remote GPU host over plain ssh/scp, against a private OpenSSH server on
127.0.0.1. The host has no GPU either, so its ``ncu`` is a stand-in that checks what
kernelscope copied and answers with the report made on an H200."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.ncu import Profile
from kernelscope.core.profiling import ProfileRequest, profile_workspace

H200_REPORT = Path(__file__).parent / "data" / "h200" / "small_cnn_h200.ncu-rep"


def _sshd() -> tuple[str, dict[str, str]] | None:
    env = dict(os.environ)
    given = os.environ.get("KERNELSCOPE_TEST_SSHD")
    if given:
        env["LD_LIBRARY_PATH"] = os.environ.get("KERNELSCOPE_TEST_SSHD_LIBS", "")
        return given, env
    found = shutil.which("sshd") or ("/usr/sbin/sshd" if Path("/usr/sbin/sshd").exists() else None)
    return (found, env) if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def ssh_host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[str]]:
    """Start sshd on a free loopback port; yield the ssh options that reach it."""
    found = _sshd()
    if found is None:
        pytest.skip("no OpenSSH server here (scripts/test.sh unpacks one)")
    sshd, env = found
    d = tmp_path_factory.mktemp("sshd")
    for key in ("host", "user"):
        subprocess.run(
            ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(d / key)], check=True
        )
    shutil.copy(d / "user.pub", d / "authorized_keys")
    sftp = next(Path(sshd).parents[1].glob("lib/openssh/sftp-server"), None)
    port = _free_port()
    (d / "sshd_config").write_text(
        f"Port {port}\nListenAddress 127.0.0.1\nHostKey {d / 'host'}\nPidFile {d / 'pid'}\n"
        f"AuthorizedKeysFile {d / 'authorized_keys'}\nStrictModes no\nUsePAM no\n"
        "PasswordAuthentication no\nKbdInteractiveAuthentication no\n"
        "PermitRootLogin prohibit-password\nLogLevel ERROR\n"
        + (f"Subsystem sftp {sftp}\n" if sftp else "Subsystem sftp internal-sftp\n")
    )
    if os.geteuid() == 0:
        Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)
    proc = subprocess.Popen(
        [sshd, "-D", "-e", "-f", str(d / "sshd_config")],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    options = [
        f"-oPort={port}",
        f"-oIdentityFile={d / 'user'}",
        "-oStrictHostKeyChecking=no",
        "-oUserKnownHostsFile=/dev/null",
        "-oLogLevel=ERROR",
    ]
    user = os.environ.get("USER") or subprocess.check_output(["id", "-un"], text=True).strip()
    target = f"{user}@127.0.0.1"
    for _ in range(100):
        ok = subprocess.run(
            ["ssh", "-oBatchMode=yes", *options, target, "true"], capture_output=True
        )
        if ok.returncode == 0:
            break
        if proc.poll() is not None:
            pytest.fail(f"sshd did not start: {proc.stderr.read().decode() if proc.stderr else ''}")
        time.sleep(0.1)
    else:
        proc.kill()
        pytest.fail("could not log in to the test sshd")
    yield [target, *options]
    proc.terminate()
    proc.wait(timeout=10)


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
    steps: list[str] = []
    result = profile_workspace(
        ProfileRequest(
            workspace=ws,
            name="remote",
            host=ssh_host[0],
            ssh_options=ssh_host[1:],
            remote_ncu=str(_stand_in(tmp_path)),
        ),
        progress=lambda step, fraction, message: steps.append(step),
    )
    assert result.report == ws / "profiles" / "remote.ncu-rep"
    assert result.report.read_bytes() == H200_REPORT.read_bytes()
    assert result.launches == 4
    assert steps[:2] == ["connect", "copy"] and "fetch" in steps
    assert sorted(os.listdir(ws / "profiles")) == ["remote.ncu-rep"]
    kernels = {k.name for k in Profile.open(result.report).kernels()}
    assert kernels == {k.name for k in build_once("small_cnn.onnx").manifest.kernels if k.launched}


def test_remote_failure_is_explained_and_leaves_nothing(
    ssh_host: list[str], build_once, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(build_once("small_cnn.onnx").path, ws)
    with pytest.raises(KernelscopeError) as err:
        profile_workspace(
            ProfileRequest(
                workspace=ws,
                host=ssh_host[0],
                ssh_options=ssh_host[1:],
                remote_ncu="/nonexistent/ncu",
            )
        )
    assert "/nonexistent/ncu" in err.value.details
    assert list((ws / "profiles").iterdir()) == []
    leftovers = subprocess.run(
        ["ssh", *ssh_host[1:], ssh_host[0], "ls -d ${TMPDIR:-/tmp}/kernelscope.* 2>/dev/null"],
        capture_output=True,
        text=True,
    )
    assert leftovers.stdout.strip() == ""


def test_unreachable_host_is_a_clear_error(build_once, tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(build_once("small_cnn.onnx").path, ws)
    with pytest.raises(KernelscopeError, match="ssh nobody@127.0.0.1 failed"):
        profile_workspace(
            ProfileRequest(
                workspace=ws,
                host="nobody@127.0.0.1",
                ssh_options=[f"-oPort={_free_port()}", "-oConnectTimeout=5"],
            )
        )
