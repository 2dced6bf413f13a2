"""The remote side against a private OpenSSH server on 127.0.0.1: the doctor (what a GPU host
has, what to do when something is missing), the runtime-only TVM install, and what a Cancel,
a dying ncu or a bad login leave behind (nothing). This machine has no GPU, so the host's
nvidia-smi and ncu are stand-ins; Python, numpy, TVM, ssh and the file copies are real."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import threading
from pathlib import Path

import pytest
from ssh_support import (  # noqa: F401 - fixture_*: fixtures
    BASE_PYTHON,
    NCU_VERSION,
    NVIDIA_SMI,
    SshServer,
    fixture_host_bin,
    fixture_ssh_server,
    free_port,
    old_python,
    pids_gone,
    stand_in,
)

from kernelscope.core.errors import Cancelled, KernelscopeError
from kernelscope.core.profiling import (
    COUNTERS_FIX,
    ProfileRequest,
    SshTarget,
    check_host,
    install_runtime,
    local_tvm_version,
    make_bundle,
    profile_workspace,
)
from kernelscope.core.timeline import TimelineRequest, measure_timeline


def _target(server: SshServer, **kw: object) -> SshTarget:
    return SshTarget(server.target, list(server.options), **kw)  # type: ignore[arg-type]


PROBE_OK = (
    NCU_VERSION
    + """
echo '==PROF== Connected to process 4242'
echo '==PROF== Profiling "kernelscope_spin" - 0: 0%....50%....100% - 1 pass'
echo '==PROF== Disconnected from process 4242'
"""
)
PROBE_FORBIDDEN = (
    NCU_VERSION
    + """
echo '==PROF== Connected to process 4242'
printf '%s%s\n' '==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access ' \
  'NVIDIA GPU Performance Counters on the target device 0.'
exit 1
"""
)


def test_doctor_lists_the_gpu_ncu_python_and_what_is_missing(
    ssh_server: SshServer, host_bin: Path, tmp_path: Path
) -> None:
    stand_in(host_bin, "nvidia-smi", NVIDIA_SMI)
    ncu = stand_in(tmp_path, "ncu", PROBE_OK)
    steps: list[tuple[str, float | None]] = []
    report = check_host(
        _target(ssh_server, python=BASE_PYTHON, ncu=str(ncu), runtime_root=str(tmp_path / "rt")),
        progress=lambda step, fraction, message: steps.append((step, fraction)),
    )
    checks = {c.name: c for c in report.checks}
    assert checks["ssh"].ok and report.machine == os.uname().machine
    assert checks["gpu"].ok and "NVIDIA H200 (sm_90)" in checks["gpu"].summary
    assert "driver 580.159.04" in checks["gpu"].summary
    assert checks["ncu"].ok and report.ncu_version == "2025.3.1.0"
    assert checks["counters"].ok and "profiled a test kernel" in checks["counters"].summary
    assert checks["python"].ok
    assert report.python_version == ".".join(map(str, sys.version_info[:3]))
    # the base interpreter has no TVM runtime: the fix is remote-install
    assert checks["tvm"].ok is False and "kernelscope remote-install" in checks["tvm"].fix
    # said once (issue 19: "no TVM runtime for this Python (no TVM runtime for this ...")
    assert checks["tvm"].summary.count("no TVM runtime") == 1
    assert not report.can_profile
    assert [step for step, _ in steps] == ["connect", "python", "probe", "done"]
    assert steps[0] == ("connect", None)  # busy until ssh answers, not a 0 % that sits there
    assert ssh_server.leftovers() == []


def test_doctor_says_how_to_allow_the_performance_counters(
    ssh_server: SshServer, host_bin: Path, tmp_path: Path
) -> None:
    stand_in(host_bin, "nvidia-smi", NVIDIA_SMI)
    ncu = stand_in(tmp_path, "ncu", PROBE_FORBIDDEN)
    report = check_host(_target(ssh_server, python=BASE_PYTHON, ncu=str(ncu)))
    counters = report.check("counters")
    assert counters is not None and counters.ok is False
    assert "ERR_NVGPUCTRPERM" in counters.summary
    assert counters.fix == COUNTERS_FIX and "NVreg_RestrictProfilingToAdminUsers=0" in counters.fix
    assert ssh_server.leftovers() == []


def test_doctor_on_a_host_without_gpu_or_ncu_and_the_cli_exit_code(
    ssh_server: SshServer, host_bin: Path
) -> None:
    report = check_host(_target(ssh_server, python=BASE_PYTHON))
    checks = {c.name: c for c in report.checks}
    assert checks["gpu"].ok is False and "nvidia-smi is not installed" in checks["gpu"].summary
    assert checks["ncu"].ok is False and "--remote-ncu" in checks["ncu"].fix
    assert "counters" not in checks  # no GPU: nothing to ask
    proc = subprocess.run(
        [sys.executable, "-m", "kernelscope.core.cli", "remote-check", ssh_server.target,
         *(f"--ssh-option={o}" for o in ssh_server.options), "--remote-python", BASE_PYTHON],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 1
    assert "FAIL  no NVIDIA GPU found" in proc.stdout and "not ready to profile" in proc.stdout
    assert "fix ncu: install Nsight Compute" in proc.stdout


def test_doctor_names_a_python_too_old_for_tvm(ssh_server: SshServer) -> None:
    old = old_python()
    if old is None:
        pytest.skip("no Python older than 3.10 here")
    report = check_host(_target(ssh_server, python=old))
    python = report.check("python")
    assert python is not None and python.ok is False
    assert "too old" in python.summary and "needs 3.10+" in python.summary
    assert "--remote-python" in python.fix
    with pytest.raises(KernelscopeError, match="too old"):
        install_runtime(_target(ssh_server, python=old))


def test_install_copies_a_runtime_only_tvm_that_then_loads(
    ssh_server: SshServer, tmp_path: Path
) -> None:
    root = tmp_path / "runtimes"
    target = _target(ssh_server, python=BASE_PYTHON, runtime_root=str(root))
    logins = ssh_server.logins()
    result = install_runtime(target)
    assert ssh_server.logins() - logins == 1  # two host checks and the copy, one login
    name = f"tvm-{local_tvm_version()}-cp{sys.version_info[0]}{sys.version_info[1]}"
    assert result.folder == str(root / name)
    installed = root / name
    assert (installed / "tvm" / "lib" / "libtvm_runtime_cuda.so").is_file()
    assert not (installed / "tvm" / "lib" / "libtvm_compiler.so").exists()
    assert (
        not (installed / "tvm" / "3rdparty").exists() and not (installed / "tvm" / "src").exists()
    )
    assert (installed / "tvm_ffi" / "__init__.py").is_file()
    # what TVM's RPC server's workers import, so that `tune --host` measures there
    assert (installed / "cloudpickle" / "__init__.py").is_file()
    assert result.bundle_bytes < 30e6
    marker = json.loads((installed / "kernelscope-runtime.json").read_text())
    assert marker["tvm"] == local_tvm_version()
    # the doctor now finds it, from the runtime folder, runtime-only
    tvm = result.report.runner_check["tvm"]
    assert tvm["version"] == local_tvm_version() and tvm["runtime_only"]
    assert tvm["path"] == str(installed / "tvm")
    # no NVIDIA driver on this host: the CUDA runtime library cannot load, and says so
    assert "libcuda" in result.report.runner_check["tvm_cuda"]["error"]
    # a second install replaces it in one step and leaves no half-unpacked folder
    install_runtime(target)
    assert sorted(p.name for p in root.iterdir()) == [name]


def test_bundle_leaves_out_the_compiler(tmp_path: Path) -> None:
    bundle = make_bundle(tuple(sys.version_info[:2]))
    with tarfile.open(bundle) as tar:
        names = tar.getnames()
    assert "tvm/lib/libtvm_runtime_cuda.so" in names and "kernelscope-runtime.json" in names
    assert not [
        n for n in names if "libtvm_compiler" in n or n.startswith(("tvm/3rdparty", "tvm/src"))
    ]
    assert not [n for n in names if "__pycache__" in n]


# --- a run that is cancelled, dies, or cannot log in ------------------------------------

TREE_NCU = """
out=""; args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do [ "${args[i]}" = -o ] && out="${args[i+1]}"; done
echo "$(pwd)" > PIDFILE
sleep 300 & echo $! >> PIDFILE                       # the model ncu runs
setsid bash -c 'trap "" INT; sleep 301' & echo $! >> PIDFILE   # one that left the group
echo $$ >> PIDFILE
echo '==PROF== Profiling "fused_conv2d_add_relu_kernel" - 0: 0%....50%....100% - 9 passes'
wait
"""


def test_cancel_stops_the_remote_ncu_tree_and_removes_the_remote_folder(
    ssh_server: SshServer, ws_with_profile: Path, tmp_path: Path
) -> None:
    pidfile = tmp_path / "pids"
    ncu = stand_in(tmp_path, "ncu", TREE_NCU.replace("PIDFILE", str(pidfile)))
    cancel = threading.Event()

    def progress(step: str, fraction: float | None, message: str) -> None:
        if step == "profile":
            cancel.set()

    with pytest.raises(Cancelled):
        profile_workspace(
            ProfileRequest(
                workspace=ws_with_profile,
                name="new",
                host=SshTarget(ssh_server.target, list(ssh_server.options), ncu=str(ncu)),
            ),
            progress=progress,
            cancel=cancel,
        )
    folder, *pids = pidfile.read_text().split()
    assert len(pids) == 3
    assert pids_gone([int(p) for p in pids]), "a remote process outlived the Cancel"
    assert not Path(folder).exists() and ssh_server.leftovers() == []
    assert sorted(os.listdir(ws_with_profile / "profiles")) == ["earlier.ncu-rep"]


def test_ncu_dying_mid_run_is_reported_and_leaves_nothing(
    ssh_server: SshServer, ws_with_profile: Path, tmp_path: Path
) -> None:
    ncu = stand_in(
        tmp_path,
        "ncu",
        "echo '==PROF== Profiling \"fused_conv2d_add_relu_kernel\" - 0: 0%....50%'\nkill -9 $$\n",
    )
    with pytest.raises(KernelscopeError, match=r"ncu failed \(exit code 137\)"):
        profile_workspace(
            ProfileRequest(
                workspace=ws_with_profile,
                host=SshTarget(ssh_server.target, list(ssh_server.options), ncu=str(ncu)),
            )
        )
    assert sorted(os.listdir(ws_with_profile / "profiles")) == ["earlier.ncu-rep"]
    assert ssh_server.leftovers() == []


def test_wrong_key_or_user_is_a_login_error(ssh_server: SshServer) -> None:
    wrong = [o for o in ssh_server.options if "IdentityFile" not in o]
    wrong.append(f"-oIdentityFile={ssh_server.wrong_key}")
    with pytest.raises(KernelscopeError, match="wrong user name or key") as err:
        check_host(SshTarget(ssh_server.target, wrong))
    assert "ssh-copy-id" in err.value.hint
    with pytest.raises(KernelscopeError, match="wrong user name or key"):
        check_host(SshTarget("nobody-here@127.0.0.1", list(ssh_server.options)))


def test_unreachable_host_in_the_cli(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "kernelscope.core.cli", "remote-check", "someone@127.0.0.1",
         "-p", str(free_port())],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 1
    assert "connection refused" in proc.stderr and "Traceback" not in proc.stderr


def test_remote_timeline_on_a_host_without_gpu_says_so_and_leaves_nothing(
    ssh_server: SshServer, ws_with_profile: Path, tmp_path: Path
) -> None:
    """The whole remote path runs for real (copy, supervisor, the runner with TVM), up to
    the GPU this host does not have."""
    with pytest.raises(KernelscopeError, match="could not be measured on") as err:
        measure_timeline(
            TimelineRequest(
                workspace=ws_with_profile,
                warmup=0,
                repeat=1,
                host=SshTarget(
                    ssh_server.target,
                    list(ssh_server.options),
                    python=sys.executable,
                    runtime_root=str(tmp_path / "none"),
                ),
            )
        )
    assert "GPU" in err.value.message or "driver" in err.value.message
    assert "--host" in err.value.hint
    assert not (ws_with_profile / "timelines").exists()
    assert ssh_server.leftovers() == []
