"""The remote doctor: can this SSH host run kernelscope's profiling, and what to do if not.

Three steps, each only when the one before found what it needs: a POSIX sh script (user,
GPUs and driver through nvidia-smi, the driver's profiling restriction, ncu and nsys and
their versions, python3), then the model runner's ``--check`` fed to the host's Python on
stdin (numpy, TVM, PyTorch, the CUDA driver as Python sees them), then with ``probe`` one tiny
kernel under the host's ncu: the only sure way to know whether ncu may read the GPU's
performance counters there (a container's /proc shows the host's driver settings).
"""

from __future__ import annotations

import importlib.metadata
import re
import shlex
from dataclasses import asdict, dataclass, field
from typing import Any

from ..errors import KernelscopeError
from ..tasks import Cancel, ProgressFn, check_cancel, no_progress
from . import runner
from .remote import (
    FIND_NCU_SH,
    RUNNER,
    RemoteFolder,
    SshSession,
    SshTarget,
    run_command,
    run_script,
)
from .runner_app import stdin_script

# The fix when ncu may not read the performance counters (NVIDIA's ERR_NVGPUCTRPERM page).
COUNTERS_FIX = (
    "let every user profile: add 'options nvidia NVreg_RestrictProfilingToAdminUsers=0' to "
    "a file in /etc/modprobe.d/ and reload the NVIDIA driver (reboot; on Debian/Ubuntu run "
    "update-initramfs -u first), or run ncu as root; in a container, start it with the "
    "SYS_ADMIN capability (docker run --cap-add=SYS_ADMIN)"
)
_CAP_SYS_ADMIN = 21

_PROBE_SH = """
echo "ks:user $(id -un 2>/dev/null) $(id -u 2>/dev/null)"
echo "ks:uname $(uname -srm 2>/dev/null)"
echo "ks:glibc $(getconf GNU_LIBC_VERSION 2>/dev/null)"
if command -v nvidia-smi >/dev/null 2>&1; then
  nvidia-smi --query-gpu=index,name,driver_version,memory.total,compute_cap \\
    --format=csv,noheader </dev/null 2>&1 | sed 's/^/ks:gpu /'
else
  echo "ks:gpu-none"
fi
grep -h RmProfilingAdminOnly /proc/driver/nvidia/params 2>/dev/null | sed 's/^/ks:param /'
grep CapEff /proc/self/status 2>/dev/null | sed 's/^/ks:cap /'
{find_ncu}
if [ -n "$ncu_path" ]; then
  echo "ks:ncu $ncu_path"
  "$ncu_path" --version </dev/null 2>&1 | sed 's/^/ks:ncu-version /'
else
  echo "ks:ncu-none"
fi
nsys_path=$(command -v nsys 2>/dev/null || for d in /usr/local/cuda/bin \\
  $(ls -d /opt/nvidia/nsight-systems/*/bin 2>/dev/null | sort -r); do
  [ -x "$d/nsys" ] && {{ echo "$d/nsys"; break; }}; done)
[ -n "$nsys_path" ] && echo "ks:nsys $nsys_path"
py=$(command -v {python} 2>/dev/null)
if [ -n "$py" ]; then
  echo "ks:python $py"
  "$py" -c 'import sys; print("ks:python-version %d.%d.%d" % tuple(sys.version_info[:3]))' \\
    </dev/null 2>&1
else
  echo "ks:python-none"
fi
exit 0
"""


@dataclass
class Check:
    """One line of the doctor's answer; ``ok`` None means unknown or optional."""

    name: str
    ok: bool | None
    summary: str
    fix: str = ""


@dataclass
class HostReport:
    host: str
    checks: list[Check] = field(default_factory=list)
    gpus: list[dict[str, str]] = field(default_factory=list)
    ncu: str | None = None
    ncu_version: str | None = None
    nsys: str | None = None
    python: str | None = None
    python_version: str | None = None
    machine: str | None = None
    glibc: str | None = None
    runner_check: dict[str, Any] = field(default_factory=dict)
    tvm_wanted: str = ""

    def check(self, name: str) -> Check | None:
        return next((c for c in self.checks if c.name == name), None)

    @property
    def can_profile(self) -> bool:
        """Every check that matters for ``kernelscope profile --host`` passed."""
        needed = ("ssh", "gpu", "ncu", "counters", "python", "numpy", "tvm")
        return all((c := self.check(n)) is not None and c.ok is not False for n in needed)

    @property
    def can_profile_torch(self) -> bool:
        """Every check that matters for ``kernelscope profile-torch --host`` passed (PyTorch
        found, not only not missing: it is the host's own, never installed by kernelscope)."""
        needed = ("ssh", "gpu", "ncu", "counters", "python")
        torch = self.check("torch")
        return (
            torch is not None
            and torch.ok is True
            and all((c := self.check(n)) is not None and c.ok is not False for n in needed)
        )

    def verdict(self) -> str:
        """What the host can profile, in words (the doctor's last line)."""
        if self.can_profile and self.can_profile_torch:
            return "ready to profile (TVM workspaces and PyTorch models)"
        if self.can_profile:
            return "ready to profile"
        if self.can_profile_torch:
            return "ready to profile PyTorch models, not TVM workspaces"
        return "not ready to profile"

    def to_dict(self) -> dict[str, Any]:
        return {
            **asdict(self),
            "can_profile": self.can_profile,
            "can_profile_torch": self.can_profile_torch,
        }


def local_tvm_version() -> str:
    """The TVM kernelscope builds with here: what a host's runtime has to match ("" where this
    machine has none: a GPU host checking itself, say)."""
    try:
        return importlib.metadata.version("apache-tvm")
    except importlib.metadata.PackageNotFoundError:
        return ""


def _version_tuple(text: str | None) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", text or "")[:3])


def check_host(
    target: SshTarget,
    probe: bool = True,
    progress: ProgressFn = no_progress,
    cancel: Cancel | None = None,
) -> HostReport:
    """Ask the host what it has; raises only when it cannot be reached or logged in to."""
    progress("connect", None, f"connecting to {target.host}")  # no measure of it: busy
    with SshSession(target, cancel) as session:
        return _check_host(session.target, probe, progress, cancel)


def _check_host(
    target: SshTarget, probe: bool, progress: ProgressFn, cancel: Cancel | None
) -> HostReport:
    report = HostReport(host=target.host, tvm_wanted=local_tvm_version())
    find_ncu = (
        FIND_NCU_SH
        if target.ncu == "ncu"
        else f"ncu_path=$(command -v {shlex.quote(target.ncu)} 2>/dev/null)"
    )
    script = _PROBE_SH.format(find_ncu=find_ncu, python=shlex.quote(target.python))
    out = run_script(target, script, "checking the host", cancel, timeout=60).output
    _read_probe(report, out)
    user = next((ln[8:] for ln in out.splitlines() if ln.startswith("ks:user ")), "?")
    report.checks.append(Check("ssh", True, f"logged in as {user.split()[0]} ({report.machine})"))
    _gpu_checks(report, out)
    _ncu_check(report, target)
    if _python_check(report, target):
        check_cancel(cancel, "host check")
        progress("python", 0.4, f"checking Python, numpy and TVM on {target.host}")
        report.runner_check = runner_check(target, report.tvm_wanted, cancel)
        _runtime_checks(report)
        _torch_check(report)
    if probe and report.ncu and report.gpus and _usable_python(report):
        check_cancel(cancel, "host check")
        progress("probe", 0.7, f"profiling one tiny kernel with ncu on {target.host}")
        _probe_counters(report, target, cancel)
    nsys = f"{report.nsys}" if report.nsys else "not found (only needed for Nsight Systems)"
    report.checks.append(Check("nsys", True if report.nsys else None, f"nsys: {nsys}"))
    progress("done", 1.0, "host checked")
    return report


def _read_probe(report: HostReport, out: str) -> None:
    for line in out.splitlines():
        key, _, value = line.partition(" ")
        value = value.strip()
        if key == "ks:uname":
            report.machine = value.split()[-1] if value else None
        elif key == "ks:glibc":
            report.glibc = value.split()[-1] if value else None
        elif key == "ks:ncu":
            report.ncu = value
        elif key == "ks:ncu-version" and (m := re.search(r"Version (\S+)", value)):
            report.ncu_version = m.group(1)
        elif key == "ks:nsys":
            report.nsys = value
        elif key == "ks:python":
            report.python = value
        elif key == "ks:python-version":
            report.python_version = value


def _gpu_checks(report: HostReport, out: str) -> None:
    rows = [ln[7:] for ln in out.splitlines() if ln.startswith("ks:gpu ")]
    for row in rows:
        parts = [p.strip() for p in row.split(",")]
        if len(parts) >= 5 and parts[0].isdigit():
            report.gpus.append(
                dict(zip(("index", "name", "driver", "memory", "compute_cap"), parts, strict=False))
            )
    if report.gpus:
        names = ", ".join(
            f"{g['name']} (sm_{g['compute_cap'].replace('.', '')})" for g in report.gpus
        )
        report.checks.append(
            Check(
                "gpu",
                True,
                f"{len(report.gpus)} GPU(s): {names}; driver {report.gpus[0]['driver']}",
            )
        )
    else:
        said = rows[0] if rows else "nvidia-smi is not installed"
        report.checks.append(
            Check(
                "gpu",
                False,
                f"no NVIDIA GPU found ({said})",
                "profile on a machine with an NVIDIA GPU and its driver (nvidia-smi lists it)",
            )
        )
    params = [ln for ln in out.splitlines() if ln.startswith("ks:param ")]
    restricted = bool(params) and params[0].rstrip().endswith("1")
    cap = next((ln.split()[-1] for ln in out.splitlines() if ln.startswith("ks:cap ")), "0")
    user = next((ln.split() for ln in out.splitlines() if ln.startswith("ks:user ")), [])
    root = len(user) > 2 and user[2] == "0"
    admin = root or bool(int(cap, 16) >> _CAP_SYS_ADMIN & 1)
    if not report.gpus:
        return
    if not params:
        report.checks.append(Check("counters", None, "performance counters: not known yet"))
    elif restricted and not admin:
        report.checks.append(
            Check(
                "counters",
                False,
                "performance counters: only admin users may profile "
                "(NVreg_RestrictProfilingToAdminUsers=1)",
                COUNTERS_FIX,
            )
        )
    else:
        why = "as an admin user" if restricted else "every user may profile"
        report.checks.append(Check("counters", True, f"performance counters: allowed ({why})"))


def _ncu_check(report: HostReport, target: SshTarget) -> None:
    if report.ncu:
        version = report.ncu_version or "version unknown"
        report.checks.append(Check("ncu", True, f"ncu {version} at {report.ncu}"))
    else:
        report.checks.append(
            Check(
                "ncu",
                False,
                f"ncu not found ({target.ncu}; looked on PATH, in /usr/local/cuda/bin and "
                "/opt/nvidia/nsight-compute/*)",
                "install Nsight Compute on the host (it comes with the CUDA toolkit), or "
                "give its path: --remote-ncu /path/to/ncu",
            )
        )


def _usable_python(report: HostReport) -> bool:
    return _version_tuple(report.python_version)[:2] >= runner.MIN_PYTHON


def _python_check(report: HostReport, target: SshTarget) -> bool:
    """Whether the runner's --check can run there (it parses on Python 3.7+)."""
    need = ".".join(map(str, runner.MIN_PYTHON))
    if not report.python:
        report.checks.append(
            Check(
                "python",
                False,
                f"{target.python} not found",
                f"install Python {need}+ there, or give one: --remote-python /path/to/python3",
            )
        )
        return False
    if not report.python_version:
        report.checks.append(
            Check(
                "python",
                False,
                f"{report.python} does not run",
                f"give a working Python {need}+: --remote-python /path/to/python3",
            )
        )
        return False
    if not _usable_python(report):
        report.checks.append(
            Check(
                "python",
                False,
                f"Python {report.python_version} at {report.python} is too old "
                f"(TVM {report.tvm_wanted} needs {need}+)",
                f"give a newer interpreter: --remote-python /path/to/python{need}",
            )
        )
        return _version_tuple(report.python_version)[:2] >= (3, 7)
    report.checks.append(
        Check("python", True, f"Python {report.python_version} at {report.python}")
    )
    return True


def runner_check(target: SshTarget, tvm_version: str, cancel: Cancel | None) -> dict[str, Any]:
    """The runner's ``--check`` on the host, the runner itself sent on stdin."""
    argv = [target.python, "-", "--check", "--tvm-version", tvm_version, *target.runner_root_args()]
    result = run_command(
        [*target.ssh(), shlex.join(argv)],
        "checking Python on the host",
        cancel,
        stdin=stdin_script(),
        timeout=120,
    )
    answer = runner.read_result(result.output)
    if answer is None:
        raise KernelscopeError(
            f"the runner's check did not answer on {target.host} (exit code {result.code})",
            details=result.output,
        )
    return answer


def _runtime_checks(report: HostReport) -> None:
    info = report.runner_check
    numpy = info.get("numpy", {})
    need_np = ".".join(map(str, runner.MIN_NUMPY))
    install = f"kernelscope remote-install {report.host}"
    if "version" in numpy and _version_tuple(numpy["version"]) >= runner.MIN_NUMPY:
        report.checks.append(Check("numpy", True, f"numpy {numpy['version']}"))
    else:
        what = f"numpy {numpy['version']} is too old" if "version" in numpy else "no numpy"
        report.checks.append(
            Check("numpy", False, f"{what} (the runner needs {need_np}+)", f"{install} brings it")
        )
    tvm = info.get("tvm", {})
    if "version" in tvm:
        where = "kernelscope's runtime-only install" if tvm.get("runtime_only") else "installed"
        same = tvm["version"] == report.tvm_wanted
        cuda = info.get("tvm_cuda", {})
        summary = f"TVM {tvm['version']} ({where}, {tvm['path']})"
        if cuda.get("error"):
            summary += f"; its CUDA runtime does not load: {cuda['error']}"
        ok: bool | None = same
        if same and cuda.get("error"):  # without a GPU there is no driver to load it with
            ok = False if report.gpus else None
        if not report.tvm_wanted:  # nothing here to match: neither right nor wrong
            ok, hint = None, "this machine has no TVM to build with, so no version to match"
        elif same:
            hint = ""
        else:
            hint = f"workspaces here are built with TVM {report.tvm_wanted}: run {install}"
        report.checks.append(Check("tvm", ok, summary, hint))
    else:
        report.checks.append(
            Check(
                "tvm",
                False,
                _no_tvm(tvm),
                f"{install} copies a runtime-only TVM {report.tvm_wanted} there (no root, "
                "no downloads on the host)",
            )
        )


def _torch_check(report: HostReport) -> None:
    """PyTorch (and Triton) for PyTorch models: optional, and never installed by kernelscope."""
    torch = report.runner_check.get("torch", {})
    if "version" in torch:
        triton = report.runner_check.get("triton", {}).get("version")
        with_triton = f", Triton {triton}" if triton else ", no Triton (Inductor needs it on GPUs)"
        report.checks.append(
            Check("torch", True, f"PyTorch {torch['version']}{with_triton} (PyTorch models)")
        )
    else:
        report.checks.append(
            Check(
                "torch",
                None,
                "no PyTorch for this Python (needed only for PyTorch models: profile-torch)",
                "install PyTorch with CUDA for this Python there; kernelscope installs none of it",
            )
        )


def _no_tvm(tvm: dict[str, Any]) -> str:
    """Why the host's Python has no TVM, said once: the runner's own message (it names the
    interpreter) as it is, anything else it caught (a broken install's C++ error) after
    what it means."""
    error = tvm.get("error")
    if not error:
        return "no TVM runtime for this Python"
    if "code" in tvm:  # a RunnerError: a whole sentence already
        return str(error)
    return f"no TVM runtime for this Python ({error})"


def _probe_counters(report: HostReport, target: SshTarget, cancel: Cancel | None) -> None:
    with RemoteFolder(target, cancel) as folder:
        folder.upload([])
        argv = [
            report.ncu or target.ncu,
            "--launch-count",
            "1",
            "--metrics",
            "sm__cycles_elapsed.avg",
            report.python or target.python,
            folder.file(RUNNER),
            "--probe-kernel",
        ]
        result = run_command(folder.supervised(argv), "ncu probe", cancel, timeout=180)
    out = result.output
    counters = report.check("counters")
    report.checks = [c for c in report.checks if c.name != "counters"]
    if "ERR_NVGPUCTRPERM" in out or "permission to access NVIDIA GPU Performance" in out:
        report.checks.append(
            Check(
                "counters",
                False,
                "performance counters: ncu may not read them (ERR_NVGPUCTRPERM)",
                COUNTERS_FIX,
            )
        )
    elif result.code == 0 and "==PROF== Profiling" in out:
        report.checks.append(
            Check("counters", True, "performance counters: allowed (ncu profiled a test kernel)")
        )
    else:
        tail = out.strip().splitlines()[-1] if out.strip() else f"exit code {result.code}"
        known = f"; {counters.summary}" if counters else ""
        report.checks.append(
            Check("counters", counters.ok if counters else None, f"ncu probe failed: {tail}{known}")
        )
