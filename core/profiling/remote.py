"""A GPU host over SSH: plain OpenSSH in batch mode (never a password prompt), nothing of
kernelscope's own installed there except what a run copies into a temporary folder.

``RemoteFolder`` is one run's temporary folder on the host: files go there as one tar
stream over ssh, commands run in it under ``remote_supervisor.py`` (which ends the
command's whole process tree when the connection ends, so Cancel stops the remote ncu and
the model it runs), results come back gzipped when the host has gzip (plain ``cat`` when
not), and the folder is removed on the way out whatever happened. The host needs ``sh``,
``mktemp``, ``tar``, ``wc`` and ``cat``; the supervisor and the model runner need its python3.

``SshSession`` is one login for a whole run: OpenSSH's connection sharing (a ControlMaster
started once, every later ssh a client of it through a socket in a private folder) instead
of a login per command. Everything that takes an ``SshTarget`` goes through the session when
given ``session.target``; the session's own ``run``, ``upload``, ``fetch`` and ``forward`` are
the helpers for code that wants a host rather than a folder (see its docstring).
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import logging
import os
import shlex
import shutil
import socket
import stat
import subprocess
import tarfile
import tempfile
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from ..errors import Cancelled, KernelscopeError
from ..process import KEEP_OPEN, run_process
from ..tasks import Cancel, ProgressFn
from ..workspace import Workspace
from . import remote_supervisor
from .runner_app import runner_path

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


@dataclass(frozen=True)
class SshTarget:
    """A host and how to reach it: ``user@host``, options for ssh (``-p 2222``,
    ``-i key``, ``-oProxyJump=...``), the host's python3 and ncu (``ncu``: found on PATH
    or in the usual install folders), and where runtimes are installed there (None: the
    host's ``~/.cache/kernelscope/runtime``). The one value for "where to run" of every
    request that can run on a host (``ProfileRequest.host``, ``TimelineRequest.host``,
    ``TorchRequest.host``; None there: this machine), built by the CLI's SSH group
    (``cli.remote``) and the window's host form. ``control_path`` is set by ``SshSession``:
    the socket of the shared connection its commands go through."""

    host: str
    options: tuple[str, ...] = ()
    python: str = "python3"
    ncu: str = "ncu"
    runtime_root: str | None = None
    control_path: str | None = None

    def __post_init__(self) -> None:
        # options given as a list are kept as a tuple: equal targets compare equal however
        # their options were given
        object.__setattr__(self, "options", tuple(self.options))

    def command_arguments(self) -> list[str]:
        """kernelscope's flags that give this host back (``--host`` and the SSH group of
        ``cli.remote``): ``-p PORT -i KEY`` as ``ssh_options`` puts them first, every other
        ssh option as it is, the host's Python, ncu and runtime folder where not the
        defaults."""
        line = ["--host", self.host]
        options = list(self.options)
        for flag in ("-p", "-i"):
            if len(options) >= 2 and options[0] == flag:
                line += [flag, options[1]]
                options = options[2:]
        line += [f"--ssh-option={o}" for o in options]
        if self.python != "python3":
            line += ["--remote-python", self.python]
        if self.ncu != "ncu":
            line += ["--remote-ncu", self.ncu]
        if self.runtime_root:
            line += ["--remote-runtime-root", self.runtime_root]
        return line

    def ssh(self, *extra: str) -> list[str]:
        """The ssh command line for this host up to the host, ``extra`` ssh options last
        before it (the remote command goes after the list). Through the shared connection
        when there is one: ssh takes the first value it is given for an option, so these
        win over the user's options and ~/.ssh/config."""
        sharing = ["-o", "ControlMaster=no", "-o", f"ControlPath={self.control_path}"]
        return self._ssh(sharing if self.control_path else [], extra)

    def _ssh(self, first: list[str], extra: Iterable[str]) -> list[str]:
        path = shutil.which("ssh")
        if not path:
            raise KernelscopeError(
                "ssh not found", hint="install OpenSSH's client: apt-get install openssh-client"
            )
        defaults = [*first, "-o", "BatchMode=yes"]
        if not any("connecttimeout" in o.lower() for o in self.options):
            defaults += ["-o", "ConnectTimeout=15"]
        return [path, *defaults, *self.options, *extra, self.host]

    def runner_root_args(self) -> list[str]:
        return ["--runtime-root", self.runtime_root] if self.runtime_root else []


def ssh_options(
    port: int | None = None, identity: str | None = None, extra: Iterable[str] = ()
) -> tuple[str, ...]:
    """The ssh options for a port and an identity file (the dialog's fields)."""
    options = []
    if port:
        options += ["-p", str(port)]
    if identity:
        options += ["-i", str(Path(identity).expanduser())]
    return (*options, *extra)


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
) -> CommandResult:
    """Run ``cmd`` (``process.run_process``), passing each output line to ``on_line``; its
    stdin stays open (a pipe) until it ends, which is what tells the remote supervisor to
    keep going; ``stdin`` bytes (or a function writing to the pipe) are fed to it instead,
    then the pipe is closed. Cancel (or the timeout) ends it: SIGINT, then SIGKILL, and
    raises ``Cancelled``."""
    result = run_process(
        cmd,
        what,
        on_line=on_line,
        cancel=cancel,
        timeout=timeout,
        check=False,
        stdin=KEEP_OPEN if stdin is None else stdin,
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


# --- one connection for a run -----------------------------------------------------------

# How long the shared connection outlives its last client. A session keeps one client
# connected while it lasts (its "keeper"), so this is only how long the connection stays
# after kernelscope was killed.
CONTROL_PERSIST_S = 30
_LOGIN_TIMEOUT_S = 90.0
# A Unix socket's path has room for about 104 bytes, and ssh binds the master's socket under
# a name 17 characters longer before renaming it: the private folder's path stays short.
_SOCKET_PATH_MAX = 80


def _control_folder() -> Path | None:
    """A new private (0700) folder for the control socket, in the temporary folder when its
    path is short and plain, else in /tmp; None when neither can hold one."""
    for base in (tempfile.gettempdir(), "/tmp"):
        plain = all(c.isalnum() or c in "/._-" for c in base)
        if plain and len(base) <= _SOCKET_PATH_MAX - 20 and os.path.isdir(base):
            prune_control_folders(Path(base))
            with contextlib.suppress(OSError):
                return Path(tempfile.mkdtemp(prefix=_CONTROL_PREFIX, dir=base))
    return None


_CONTROL_PREFIX = "ks-ssh-"
# A control folder without a socket this long after it was made belongs to no session: one
# still logging in has one within _LOGIN_TIMEOUT_S, and ssh removes the socket when the
# connection ends, CONTROL_PERSIST_S after a killed kernelscope.
_STALE_S = 10 * 60


def prune_control_folders(base: Path, now: float | None = None) -> list[Path]:
    """Remove this user's control folders in ``base`` that a killed kernelscope left behind
    (no socket, older than ``_STALE_S``; a session's own folder is removed when it closes);
    returns what was removed."""
    now = time.time() if now is None else now
    removed = []
    for folder in base.glob(f"{_CONTROL_PREFIX}*"):
        with contextlib.suppress(OSError):
            info = folder.lstat()
            if (
                stat.S_ISDIR(info.st_mode)
                and info.st_uid == os.getuid()
                and now - info.st_mtime > _STALE_S
                and not any(folder.iterdir())
            ):
                folder.rmdir()
                removed.append(folder)
    return removed


class SshSession:
    """One SSH login to a host shared by every command of a run.

    ``with SshSession(target, cancel) as session:`` logs in once (an OpenSSH ControlMaster
    with its socket in a private 0700 folder of its own, never ~/.ssh) and ends that
    connection and removes the folder on the way out. ``session.target`` is ``target`` with
    the socket set: every ssh command made from it (``target.ssh()``, ``RemoteFolder``,
    ``run_command``) is a client of the shared connection, with no login of its own. The
    options kernelscope passes come before the user's, so a ControlMaster/ControlPath in
    ~/.ssh/config does not interfere; a session inside another (the same target) reuses it.
    Should the connection go away, later commands log in on their own (ssh's fallback). One
    client, a ``cat`` on the host reading a pipe from this process, stays connected for as
    long as the session lasts, so that the connection (and a port forwarded over it) does not
    end between commands however long the gap; when this process dies, the pipe closes and
    the connection ends ``CONTROL_PERSIST_S`` later.

    For code that wants a host rather than a run's folder:

    * ``run(script, what)``: a POSIX sh script there (``run_script``);
    * ``upload(folder, entries)``: local files and folders into a folder there, one tar stream;
    * ``fetch(remote_path, local, progress)``: a file back, gzipped on the way when the host
      has gzip, with ``Transfer`` progress;
    * ``forward(remote_port, remote_host="127.0.0.1", local_port=None)``: a context manager
      forwarding a local port to ``remote_host:remote_port`` as seen from the host, over the
      same connection; it yields the local port.
    """

    def __init__(self, target: SshTarget, cancel: Cancel | None = None) -> None:
        self.given = target
        self.target = target
        self.cancel = cancel
        self._folder: Path | None = None
        self._keeper: subprocess.Popen | None = None

    @property
    def shared(self) -> bool:
        """Whether commands go through one shared connection."""
        return self.target.control_path is not None

    def __enter__(self) -> SshSession:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def open(self) -> None:
        """Log in (the only login of the session); raises what ssh's failure means."""
        if self.given.control_path is not None:  # inside another session: use its connection
            return
        folder = _control_folder()
        if folder is None:
            log.warning("no short private folder for ssh's control socket: one login a command")
            return
        self._folder = folder
        control = str(folder / "c")
        try:
            self._start_master(control)
        except BaseException:
            self._remove_folder()
            raise
        if _is_socket(control):
            self.target = dataclasses.replace(self.given, control_path=control)
            self._keeper = subprocess.Popen(
                [*self.target.ssh(), "cat >/dev/null"],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        else:  # ssh could not listen there: commands log in one by one, as without a session
            log.warning("ssh did not open a shared connection to %s", self.given.host)
            self._remove_folder()

    def _start_master(self, control: str) -> None:
        """Run the master until it has logged in and gone to the background (ControlPersist
        does that), in a session of its own so that stopping a command's process group never
        reaches it; its messages go to a file, not to a pipe the background master would hold.
        A master that cannot listen on the socket stays in the foreground: it is ended."""
        assert self._folder is not None
        cmd = self.given._ssh(
            ["-o", "ControlMaster=yes", "-o", f"ControlPath={control}",
             "-o", f"ControlPersist={CONTROL_PERSIST_S}"],
            ["-N"],
        )  # fmt: skip
        errors = self._folder / "login.log"
        with errors.open("wb") as err:
            proc = subprocess.Popen(
                cmd,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=err,
                start_new_session=True,
            )
        deadline = time.monotonic() + _LOGIN_TIMEOUT_S
        try:
            while proc.poll() is None:
                if self.cancel is not None and self.cancel.is_set():
                    raise Cancelled(f"logging in to {self.given.host}")
                if time.monotonic() > deadline:
                    raise KernelscopeError(
                        f"ssh {self.given.host} did not log in within {_LOGIN_TIMEOUT_S:g} s",
                        details=errors.read_text(errors="replace"),
                    )
                if "disabling multiplexing" in errors.read_text(errors="replace"):
                    return
                time.sleep(0.02)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        if proc.returncode != 0:
            result = CommandResult(proc.returncode, errors.read_text(errors="replace"))
            raise explain_ssh_failure(self.given, result, "logging in")

    def close(self) -> None:
        """End the shared connection and remove its folder (nothing when not the owner)."""
        if self._folder is None:
            return
        if self._keeper is not None and self._keeper.stdin is not None:
            with contextlib.suppress(OSError):
                self._keeper.stdin.close()
        if self.shared:
            ctl = self.given._ssh(["-o", f"ControlPath={self.target.control_path}"], ["-O", "exit"])
            with contextlib.suppress(OSError, subprocess.SubprocessError):
                subprocess.run(ctl, stdin=subprocess.DEVNULL, capture_output=True, timeout=15)
        if self._keeper is not None:
            try:
                self._keeper.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._keeper.kill()
                self._keeper.wait()
            self._keeper = None
        self.target = self.given
        self._remove_folder()

    def _remove_folder(self) -> None:
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None

    # --- what a session does on its host ---------------------------------------------

    def run(
        self,
        script: str,
        what: str,
        stdin: bytes | None = None,
        timeout: float | None = 120,
        check: bool = True,
    ) -> CommandResult:
        return run_script(self.target, script, what, self.cancel, stdin, timeout, check)

    def upload(self, folder: str, entries: Iterable[tuple[str, Path]]) -> None:
        upload_tar(self.target, folder, entries, self.cancel)

    def fetch(self, remote: str, local: Path, progress: TransferFn | None = None) -> Transfer:
        return fetch_file(self.target, remote, local, self.cancel, progress)

    @contextlib.contextmanager
    def forward(
        self, remote_port: int, remote_host: str = "127.0.0.1", local_port: int | None = None
    ) -> Iterator[int]:
        """Forward ``127.0.0.1:local_port`` here (a free one when None) to
        ``remote_host:remote_port`` as the host sees it, for as long as the block runs."""
        if not self.shared:
            raise KernelscopeError(
                f"cannot forward a port to {self.target.host} without a shared connection"
            )
        port = local_port or _free_port()
        spec = f"127.0.0.1:{port}:{remote_host}:{remote_port}"
        result = run_command(self.target.ssh("-O", "forward", "-L", spec), "forward", stdin=b"")
        if result.code != 0:
            raise explain_ssh_failure(self.target, result, f"forwarding port {port}")
        try:
            yield port
        finally:
            run_command(self.target.ssh("-O", "cancel", "-L", spec), "forward", stdin=b"")


def _is_socket(path: str) -> bool:
    try:
        return stat.S_ISSOCK(os.stat(path).st_mode)
    except OSError:
        return False


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# --- files both ways -------------------------------------------------------------------


def upload_tar(
    target: SshTarget,
    folder: str,
    entries: Iterable[tuple[str, Path]],
    cancel: Cancel | None = None,
) -> None:
    """Copy local files and folders (name there, local path) into ``folder`` on the host as
    one tar stream."""
    items = list(entries)

    def write_tar(pipe: BinaryIO) -> None:
        with tarfile.open(fileobj=pipe, mode="w|", dereference=True) as tar:
            for name, path in items:
                tar.add(str(path), arcname=name)

    result = run_command(
        [*target.ssh(), f"tar -xf - -C {shlex.quote(folder)}"],
        "copying files",
        cancel,
        stdin=write_tar,
    )
    if result.code != 0:
        raise explain_ssh_failure(target, result, "copying files")


@dataclass
class Transfer:
    """A file coming back from the host: its size, how much of it has arrived, and how many
    bytes crossed the connection for that (fewer when gzipped)."""

    name: str
    size: int = 0
    done: int = 0
    sent: int = 0
    compressed: bool = False
    seconds: float = 0.0

    @property
    def fraction(self) -> float:
        return self.done / self.size if self.size else 1.0

    def describe(self) -> str:
        """``report.ncu-rep: 12.0 MB of 63.1 MB (19 %, 1.2 MB gzipped)``."""
        from ..formatting import format_bytes

        how = f"{format_bytes(self.sent)} gzipped" if self.compressed else "not compressed"
        done, size = format_bytes(self.done), format_bytes(self.size)
        return f"{self.name}: {done} of {size} ({100 * self.fraction:.0f} %, {how})"


TransferFn = Callable[[Transfer], None]


def transfer_progress(progress: ProgressFn, step: str, start: float, end: float) -> TransferFn:
    """A ``TransferFn`` reporting a fetch as ``step`` of a job's progress, from ``start`` to
    ``end``, with its sizes in the message."""
    return lambda t: progress(step, start + (end - start) * t.fraction, t.describe())


# Sends a line "<marker> gzip SIZE" (or "raw SIZE") and then the file, gzipped when the host
# has gzip; the marker tells the file from what a login script may print first. Level 1: a
# 66 MB report becomes 6.9 MB in 0.4 s (level 6: 5.6 MB in 1.5 s, slower than sending it as
# it is over a 1 Gbit/s link, and not faster over 100 Mbit/s).
_FETCH_MARKER = b"kernelscope-fetch"
FETCH_SH = """f={path}
[ -f "$f" ] || {{ echo "no such file on the host: $f" >&2; exit 2; }}
n=$(wc -c < "$f") || exit 2
if command -v gzip >/dev/null 2>&1; then echo kernelscope-fetch gzip $n; exec gzip -1 -c "$f"; fi
echo kernelscope-fetch raw $n; exec cat "$f"
"""
_HEADER_LINES = 200  # what a login script may print before it, at most
_PROGRESS_STEP = 0.1  # a report per tenth of the file ...
_PROGRESS_GAP_S = 0.2  # ... at most this often


class _Receiver:
    """Reads a fetch's stream from a pipe into the local file (in a thread of its own, so that
    the ssh command's output never waits), decompressing it and reporting progress."""

    def __init__(self, local: Path, transfer: Transfer, progress: TransferFn | None) -> None:
        self.local = local
        self.transfer = transfer
        self.progress = progress
        self.error: BaseException | None = None
        self.header_seen = False
        self.noise: list[str] = []  # lines before the header
        self.complete = False
        self._reported = (-1.0, 0.0)  # fraction, time

    def report(self, final: bool = False) -> None:
        t = self.transfer
        last_fraction, last_time = self._reported
        now = time.monotonic()
        due = t.fraction >= last_fraction + _PROGRESS_STEP and now - last_time >= _PROGRESS_GAP_S
        if self.progress is not None and (final or last_fraction < 0 or due):
            self._reported = (t.fraction, now)
            self.progress(t)

    def run(self, fd: int) -> None:
        start = time.monotonic()
        with os.fdopen(fd, "rb") as pipe:
            try:
                self._receive(pipe)
            except BaseException as exc:  # noqa: BLE001 - raised again by the caller
                self.error = exc
                while pipe.read1(1 << 16):  # keep the remote side from blocking
                    pass
        self.transfer.seconds = time.monotonic() - start

    def _receive(self, pipe: io.BufferedReader) -> None:
        for _ in range(_HEADER_LINES):
            line = pipe.readline(4096)
            header = line.split()
            if not line or (len(header) == 3 and header[0] == _FETCH_MARKER):
                break
            self.noise.append(line.decode(errors="replace"))
        if len(header) != 3 or header[1] not in (b"gzip", b"raw") or not header[2].isdigit():
            while pipe.read1(1 << 16):
                pass
            return  # no file follows: the exit status, or ``noise``, says why
        self.header_seen = True
        t = self.transfer
        t.size, t.compressed = int(header[2]), header[1] == b"gzip"
        decompress = zlib.decompressobj(wbits=31) if t.compressed else None
        self.report()
        with self.local.open("wb") as out:
            while chunk := pipe.read1(1 << 16):
                t.sent += len(chunk)
                data = decompress.decompress(chunk) if decompress else chunk
                out.write(data)
                t.done += len(data)
                self.report()
        self.complete = t.done == t.size and (decompress is None or decompress.eof)
        if self.complete:
            self.report(final=True)


def fetch_file(
    target: SshTarget,
    remote: str,
    local: Path,
    cancel: Cancel | None = None,
    progress: TransferFn | None = None,
) -> Transfer:
    """Copy the host's file ``remote`` to ``local``, gzipped over the connection when the
    host has gzip; ``local`` is left only when the whole file arrived. ``progress`` gets the
    ``Transfer`` as it grows, from another thread, and once more when complete."""
    name = remote.rsplit("/", 1)[-1]
    what = f"fetching {name}"
    receiver = _Receiver(local, Transfer(name), progress)
    cmd = [*target.ssh(), "sh -c " + shlex.quote(FETCH_SH.format(path=shlex.quote(remote)))]
    read_end, write_end = os.pipe()
    thread = threading.Thread(target=receiver.run, args=(read_end,), daemon=True)
    thread.start()
    try:
        with os.fdopen(write_end, "wb") as sink:
            result = run_process(cmd, what, cancel=cancel, check=False, stdin=b"", stdout=sink)
        # the stream ends when the ssh client (and a shared connection's master) let go of it
        thread.join(timeout=60)
        if result.returncode != 0:
            raise explain_ssh_failure(target, CommandResult(result.returncode, result.output), what)
        if receiver.error is not None:
            raise KernelscopeError(
                f"could not write {local}: {receiver.error}"
                if isinstance(receiver.error, OSError)
                else f"{what} from {target.host} failed: {receiver.error}"
            ) from receiver.error
        if not receiver.header_seen:
            raise KernelscopeError(
                f"{what} from {target.host}: the host sent something else",
                hint="a login script on the host that prints to stdout can cause this",
                details="".join(receiver.noise),
            )
        if not receiver.complete:
            t = receiver.transfer
            raise KernelscopeError(
                f"{what} from {target.host} was cut short ({t.done} of {t.size} bytes)",
                hint="try again; check the host's disk and the connection",
            )
    except BaseException:
        local.unlink(missing_ok=True)
        raise
    return receiver.transfer


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
            (RUNNER, runner_path()),
            (SUPERVISOR, Path(remote_supervisor.__file__)),
            *entries,
        ]
        upload_tar(self.target, self.path, items, self.cancel)

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

    def fetch(self, name: str, local: Path, progress: TransferFn | None = None) -> Transfer:
        """The folder's file ``name`` to ``local`` (``fetch_file``: gzipped on the way)."""
        return fetch_file(self.target, self.file(name), local, self.cancel, progress)


def workspace_entries(ws: Workspace, under: str = "ws") -> list[tuple[str, Path]]:
    """The workspace files the runner needs, named ``under/...`` in the remote folder."""
    return [
        (f"{under}/{name}", ws.path / name) for name in RUNNER_FILES if (ws.path / name).exists()
    ]
