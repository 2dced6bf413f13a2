"""A GPU host over SSH: plain OpenSSH in batch mode (never a password prompt), nothing of
kernelscope's own installed there except what a run copies into a temporary folder.

``RemoteFolder`` is one run's temporary folder on the host: files go there as one tar
stream over ssh, commands run in it under ``remote_supervisor.py`` (which ends the
command's whole process tree when the connection ends, so Cancel stops the remote ncu and
the model it runs), results come back with ``cat``, and the folder is removed on the way
out whatever happened. The host needs ``sh``, ``mktemp``, ``tar`` and ``cat``; the
supervisor and the model runner need its python3.
"""

from __future__ import annotations

import contextlib
import logging
import shlex
import shutil
import tarfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from ..errors import KernelscopeError
from ..process import KEEP_OPEN, run_process
from ..tasks import Cancel
from ..workspace import Workspace
from . import model_runner, remote_supervisor

log = logging.getLogger(__name__)

# What the runner needs from a workspace (reports and timelines are not among them).
RUNNER_FILES = ("manifest.json", "model.so", "module.cubin", "params.npz", "src")
RUNNER = "runner.py"
SUPERVISOR = "supervisor.py"
# Where the host looks for ncu when it is not on PATH, newest Nsight Compute first; the
# same places as on this machine (toolchain.find_tool).
FIND_NCU_SH = (
    "ncu_path=$(command -v ncu 2>/dev/null || for d in /usr/local/cuda/bin "
    "$(ls -d /opt/nvidia/nsight-compute/* 2>/dev/null | sort -r); do "
    '[ -x "$d/ncu" ] && { echo "$d/ncu"; break; }; done)'
)


@dataclass
class SshTarget:
    """A host and how to reach it: ``user@host``, options for ssh (``-p 2222``,
    ``-i key``, ``-oProxyJump=...``), the host's python3 and ncu (``ncu``: found on PATH
    or in the usual install folders), and where runtimes are installed there (None: the
    host's ``~/.cache/kernelscope/runtime``)."""

    host: str
    options: list[str] = field(default_factory=list)
    python: str = "python3"
    ncu: str = "ncu"
    runtime_root: str | None = None

    def ssh(self, *extra: str) -> list[str]:
        path = shutil.which("ssh")
        if not path:
            raise KernelscopeError(
                "ssh not found", hint="install OpenSSH's client: apt-get install openssh-client"
            )
        defaults = ["-o", "BatchMode=yes"]
        if not any("connecttimeout" in o.lower() for o in self.options):
            defaults += ["-o", "ConnectTimeout=15"]
        return [path, *defaults, *self.options, *extra, self.host]

    def runner_root_args(self) -> list[str]:
        return ["--runtime-root", self.runtime_root] if self.runtime_root else []


def ssh_options(
    port: int | None = None, identity: str | None = None, extra: Iterable[str] = ()
) -> list[str]:
    """The ssh options for a port and an identity file (the dialog's fields)."""
    options = []
    if port:
        options += ["-p", str(port)]
    if identity:
        options += ["-i", str(Path(identity).expanduser())]
    return options + list(extra)


# --- running commands ------------------------------------------------------------------


@dataclass
class CommandResult:
    code: int
    output: str


def run_command(
    cmd: list[str],
    what: str,
    cancel: Cancel | None = None,
    on_line: Callable[[str], None] | None = None,
    stdin: bytes | Callable[[BinaryIO], None] | None = None,
    timeout: float | None = None,
    stdout_to: Path | None = None,
) -> CommandResult:
    """Run ``cmd`` (``process.run_process``), passing each output line to ``on_line``; its
    stdin stays open (a pipe) until it ends, which is what tells the remote supervisor to
    keep going; ``stdin`` bytes (or a function writing to the pipe) are fed to it instead,
    then the pipe is closed. Cancel (or the timeout) ends it: SIGINT, then SIGKILL, and
    raises ``Cancelled``. With ``stdout_to`` stdout goes to that file and only stderr is
    read."""
    with contextlib.ExitStack() as stack:
        sink = stack.enter_context(stdout_to.open("wb")) if stdout_to else None
        result = run_process(
            cmd,
            what,
            on_line=on_line,
            cancel=cancel,
            timeout=timeout,
            check=False,
            stdin=KEEP_OPEN if stdin is None else stdin,
            stdout=sink,
        )
    return CommandResult(result.returncode, result.output)


# --- what ssh's failures mean ----------------------------------------------------------

_SSH_FAILURES = (
    (
        ("Could not resolve hostname", "Name or service not known"),
        "the host name is not known",
        "check the spelling, or add the host to ~/.ssh/config",
    ),
    (
        ("Connection refused",),
        "nothing accepts SSH connections on that host and port (connection refused)",
        "is sshd running there, and is the port right (-p PORT)?",
    ),
    (
        ("timed out", "No route to host", "Network is unreachable"),
        "the host cannot be reached (no answer)",
        "check the network, VPN or jump host (--ssh-option=-oProxyJump=...)",
    ),
    (
        ("Permission denied", "Too many authentication failures"),
        "the host refused the login: wrong user name or key",
        "kernelscope logs in without a password prompt: give the right user@host and "
        "key (-i KEY), load it into ssh-agent, or install it with ssh-copy-id",
    ),
    (
        ("Host key verification failed", "REMOTE HOST IDENTIFICATION HAS CHANGED"),
        "the host's key is not the one ~/.ssh/known_hosts expects, or is not known yet",
        "connect once by hand (ssh user@host) to check and accept the host key",
    ),
)


def explain_ssh_failure(target: SshTarget, result: CommandResult, what: str) -> KernelscopeError:
    """A failed ssh run as a message people can act on (exit 255: ssh's own failure)."""
    out = result.output
    if result.code == 255:
        for markers, message, hint in _SSH_FAILURES:
            if any(m in out for m in markers):
                return KernelscopeError(
                    f"ssh {target.host} failed: {message}", hint=hint, details=out
                )
    tail = out.strip().splitlines()[-1] if out.strip() else ""
    return KernelscopeError(
        f"ssh {target.host} failed ({what}, exit code {result.code})"
        + (f": {tail}" if tail else ""),
        details=out,
    )


def run_script(
    target: SshTarget,
    script: str,
    what: str,
    cancel: Cancel | None = None,
    stdin: bytes | None = None,
    timeout: float | None = 120,
    check: bool = True,
) -> CommandResult:
    """Run a POSIX sh script on the host (passed as one argument, so any login shell
    runs it the same way)."""
    cmd = [*target.ssh(), "sh -c " + shlex.quote(script)]
    result = run_command(
        cmd, what, cancel, stdin=stdin if stdin is not None else b"", timeout=timeout
    )
    if check and result.code != 0:
        raise explain_ssh_failure(target, result, what)
    return result


# --- one run's folder on the host ------------------------------------------------------

CLEANUP_SH = """d={folder}
if [ -f "$d/supervisor.pid" ]; then
  s=$(cat "$d/supervisor.pid"); i=0
  while kill -0 "$s" 2>/dev/null && [ $i -lt 150 ]; do sleep 0.1; i=$((i+1)); done
fi
if [ -f "$d/pgid" ]; then kill -9 -"$(cat "$d/pgid")" 2>/dev/null; fi
rm -rf "$d"
"""


class RemoteFolder:
    """A temporary folder on the host for one run, removed on exit in every outcome."""

    def __init__(self, target: SshTarget, cancel: Cancel | None = None) -> None:
        self.target = target
        self.cancel = cancel
        self.path = ""

    def __enter__(self) -> RemoteFolder:
        out = run_script(
            self.target,
            'mktemp -d "${TMPDIR:-/tmp}/kernelscope.XXXXXX"',
            "making a temporary folder",
            self.cancel,
        ).output
        lines = [ln for ln in out.splitlines() if ln.startswith("/")]
        if not lines:
            raise KernelscopeError(
                f"could not make a temporary folder on {self.target.host}", details=out
            )
        self.path = lines[-1].strip()
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()

    def remove(self) -> None:
        if not self.path:
            return
        try:
            run_script(
                self.target,
                CLEANUP_SH.format(folder=shlex.quote(self.path)),
                "removing the temporary folder",
                timeout=60,
                check=False,
            )
        except KernelscopeError as exc:  # never hide the error that got us here
            log.warning("could not remove %s:%s: %s", self.target.host, self.path, exc)
        self.path = ""

    def file(self, name: str) -> str:
        return f"{self.path}/{name}"

    def upload(self, entries: Iterable[tuple[str, Path]]) -> None:
        """Copy local files and folders (name in the folder, local path) as one tar stream;
        the runner and the supervisor always go along."""
        items = [
            (RUNNER, Path(model_runner.__file__)),
            (SUPERVISOR, Path(remote_supervisor.__file__)),
            *entries,
        ]

        def write_tar(pipe: BinaryIO) -> None:
            with tarfile.open(fileobj=pipe, mode="w|", dereference=True) as tar:
                for name, path in items:
                    tar.add(str(path), arcname=name)

        result = run_command(
            [*self.target.ssh(), f"tar -xf - -C {shlex.quote(self.path)}"],
            "copying files",
            self.cancel,
            stdin=write_tar,
        )
        if result.code != 0:
            raise explain_ssh_failure(self.target, result, "copying files")

    def supervised(self, argv: list[str], find_ncu: bool = False) -> list[str]:
        """The ssh command that runs ``argv`` in this folder under the supervisor. With
        ``find_ncu``, ``argv[0]`` is replaced by the host's ncu (see ``FIND_NCU_SH``)."""
        folder = shlex.quote(self.path)
        head = f"cd {folder} && "
        if find_ncu:
            head += (
                FIND_NCU_SH + ' && [ -n "$ncu_path" ] || { echo "==ERROR== ncu not found on '
                "this host (looked on PATH, in /usr/local/cuda/bin and "
                '/opt/nvidia/nsight-compute/*)"; exit 127; }; '
            )
            rest = '"$ncu_path" ' + shlex.join(argv[1:])
        else:
            rest = shlex.join(argv)
        script = (
            head
            + f"exec {shlex.quote(self.target.python)} {folder}/{SUPERVISOR} {folder} -- {rest}"
        )
        return [*self.target.ssh(), "sh -c " + shlex.quote(script)]

    def fetch(self, name: str, local: Path) -> None:
        result = run_command(
            [*self.target.ssh(), f"cat {shlex.quote(self.file(name))}"],
            f"fetching {name}",
            self.cancel,
            stdin=b"",
            stdout_to=local,
        )
        if result.code != 0:
            local.unlink(missing_ok=True)
            raise explain_ssh_failure(self.target, result, f"fetching {name}")


def workspace_entries(ws: Workspace, under: str = "ws") -> list[tuple[str, Path]]:
    """The workspace files the runner needs, named ``under/...`` in the remote folder."""
    return [
        (f"{under}/{name}", ws.path / name) for name in RUNNER_FILES if (ws.path / name).exists()
    ]
