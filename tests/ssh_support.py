"""A private OpenSSH server on 127.0.0.1 for the remote tests, and stand-ins for what a GPU
host has that this machine lacks (nvidia-smi, ncu).

``ssh_server`` (module scope) starts sshd on a free loopback port, logging in with a key made
for the session; its sessions get ``bin`` first on PATH, where ``host_bin`` (one test) puts
stand-in programs and removes them afterwards, and a TMPDIR of their own, so a test sees
exactly the temporary folders kernelscope left there. It logs every login to a file
(``logins()`` counts them); on a second port (``options_without_gzip``) its sessions find no
gzip on their PATH, and on a third (``options_noisy``) a login script prints a greeting before
each command. Nothing is started system-wide. Import ``fixture_ssh_server`` (and
``fixture_host_bin``) into a test module to use them; ``start_sshd`` starts one outside pytest
(the benchmarks).
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest


@dataclass
class SshServer:
    target: str  # user@127.0.0.1
    options: list[str]  # what reaches it: port, key, no host-key prompts
    folder: Path
    bin: Path  # first on the PATH of its sessions
    tmp: Path  # their TMPDIR
    wrong_key: Path = field(default_factory=Path)
    options_without_gzip: list[str] = field(default_factory=list)  # another port: no gzip
    options_noisy: list[str] = field(default_factory=list)  # a port that greets first
    log: Path = field(default_factory=Path)  # sshd's log

    def leftovers(self) -> list[str]:
        return sorted(p.name for p in self.tmp.iterdir())

    def logins(self) -> int:
        """Logins so far (sshd logs each accepted key once per connection, not per
        command run over a shared connection)."""
        return self.log.read_text(errors="replace").count("Accepted publickey for ")

    def run(self, command: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            ["ssh", "-oBatchMode=yes", *self.options, self.target, command],
            capture_output=True,
            text=True,
            timeout=60,
        )


def _sshd() -> tuple[str, dict[str, str]] | None:
    env = dict(os.environ)
    given = os.environ.get("KERNELSCOPE_TEST_SSHD")
    if given:
        env["LD_LIBRARY_PATH"] = os.environ.get("KERNELSCOPE_TEST_SSHD_LIBS", "")
        return given, env
    found = shutil.which("sshd") or ("/usr/sbin/sshd" if Path("/usr/sbin/sshd").exists() else None)
    return (found, env) if found else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _without(folder: Path, tool: str) -> None:
    """``folder`` gets a link to every program on the usual PATH except ``tool``."""
    folder.mkdir()
    for base in ("/usr/local/bin", "/usr/bin", "/bin"):
        for entry in Path(base).iterdir() if Path(base).is_dir() else []:
            link = folder / entry.name
            if entry.name != tool and not link.exists() and not link.is_symlink():
                link.symlink_to(entry)


def start_sshd(d: Path) -> tuple[SshServer, subprocess.Popen]:
    """An sshd on 127.0.0.1 with its keys, config and log in the folder ``d``; raises
    RuntimeError when there is none here or it does not start."""
    found = _sshd()
    if found is None:
        raise RuntimeError("no OpenSSH server here (scripts/bootstrap.sh unpacks one)")
    sshd, env = found
    for key in ("host", "user", "other"):
        subprocess.run(
            ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(d / key)], check=True
        )
    shutil.copy(d / "user.pub", d / "authorized_keys")
    (d / "bin").mkdir()
    (d / "tmp").mkdir()
    _without(d / "no-gzip", "gzip")
    sftp = next(Path(sshd).parents[1].glob("lib/openssh/sftp-server"), None)
    port, port_no_gzip, port_noisy = free_port(), free_port(), free_port()
    greet = stand_in(
        d, "greet", 'echo "Welcome to the GPU cluster"\nexec sh -c "$SSH_ORIGINAL_COMMAND"\n'
    )
    tmpdir = f"TMPDIR={d / 'tmp'}"
    (d / "sshd_config").write_text(
        f"Port {port}\nPort {port_no_gzip}\nPort {port_noisy}\nListenAddress 127.0.0.1\n"
        f"HostKey {d / 'host'}\n"
        f"PidFile {d / 'pid'}\n"
        f"AuthorizedKeysFile {d / 'authorized_keys'}\nStrictModes no\nUsePAM no\n"
        "PasswordAuthentication no\nKbdInteractiveAuthentication no\n"
        "PermitRootLogin prohibit-password\nLogLevel INFO\n"
        + (f"Subsystem sftp {sftp}\n" if sftp else "Subsystem sftp internal-sftp\n")
        + f"SetEnv PATH={d / 'bin'}:/usr/local/bin:/usr/bin:/bin {tmpdir}\n"
        f"Match LocalPort {port_no_gzip}\n  SetEnv PATH={d / 'bin'}:{d / 'no-gzip'} {tmpdir}\n"
        f"Match LocalPort {port_noisy}\n  ForceCommand {greet}\n"
    )
    if os.geteuid() == 0:
        Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)
    log = d / "sshd.log"
    proc = subprocess.Popen(
        [sshd, "-D", "-E", str(log), "-f", str(d / "sshd_config")],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    common = [
        f"-oIdentityFile={d / 'user'}",
        "-oIdentitiesOnly=yes",
        "-oStrictHostKeyChecking=no",
        "-oUserKnownHostsFile=/dev/null",
        "-oLogLevel=ERROR",
    ]
    user = os.environ.get("USER") or subprocess.check_output(["id", "-un"], text=True).strip()
    server = SshServer(
        f"{user}@127.0.0.1",
        [f"-oPort={port}", *common],
        d,
        d / "bin",
        d / "tmp",
        d / "other",
        [f"-oPort={port_no_gzip}", *common],
        [f"-oPort={port_noisy}", *common],
        log,
    )
    for _ in range(100):
        if server.run("true").returncode == 0:
            return server, proc
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    proc.kill()
    proc.wait()
    said = log.read_text(errors="replace") if log.exists() else ""
    raise RuntimeError(f"could not log in to the test sshd: {said}")


def stop_sshd(proc: subprocess.Popen) -> None:
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture(scope="module", name="ssh_server")
def fixture_ssh_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SshServer]:
    if _sshd() is None:
        pytest.skip("no OpenSSH server here (scripts/bootstrap.sh unpacks one)")
    try:
        server, proc = start_sshd(tmp_path_factory.mktemp("sshd"))
    except RuntimeError as exc:
        pytest.fail(str(exc))
    yield server
    stop_sshd(proc)


@pytest.fixture(name="host_bin")
def fixture_host_bin(ssh_server: SshServer) -> Iterator[Path]:
    """The host's PATH folder for stand-ins, emptied after the test."""
    yield ssh_server.bin
    for entry in ssh_server.bin.iterdir():
        entry.unlink()


def stand_in(folder: Path, name: str, body: str) -> Path:
    """An executable bash script ``folder/name``."""
    path = folder / name
    path.write_text("#!/usr/bin/env bash\n" + body)
    path.chmod(0o755)
    return path


NVIDIA_SMI = """# nvidia-smi of one H200 (the query kernelscope's doctor makes)
echo "0, NVIDIA H200, 580.159.04, 143771 MiB, 9.0"
"""

NCU_VERSION = """if [ "$1" = --version ]; then
  echo "NVIDIA (R) Nsight Compute Command Line Profiler"
  echo "Version 2025.3.1.0 (build 36398880) (public-release)"
  exit 0
fi
"""


# This Python's own interpreter without the venv, as a host's Python: same version as here (no
# wheel to download), and without kernelscope's packages.
BASE_PYTHON = getattr(sys, "_base_executable", sys.executable)


def pids_gone(pids: list[int], timeout: float = 20) -> bool:
    """Whether every pid has exited (zombies count as gone) within ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        alive = []
        for pid in pids:
            try:
                state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if state != "Z":
                alive.append(pid)
        if not alive:
            return True
        time.sleep(0.1)
    return False


def old_python() -> str | None:
    """A Python older than TVM's 3.10 on this machine, if there is one that runs."""
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    candidates = sorted(glob.glob(str(pyenv / "3.[789].*" / "bin" / "python3")), reverse=True)
    candidates += [p for m in (9, 8, 7) if (p := shutil.which(f"python3.{m}"))]
    for candidate in candidates:
        if subprocess.run([candidate, "-c", "pass"], capture_output=True).returncode == 0:
            return candidate
    return None
