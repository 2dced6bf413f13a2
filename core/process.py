"""Running other programs: the one implementation every tool call and child process uses.

``run_process`` starts a command, streams its output line by line to a callback, polls a
``Cancel`` and a timeout while it waits, and stops the command with SIGINT and then SIGKILL
of its whole process group (so that nvcc's cicc/ptxas, ncu's target or TVM's g++ go too).
A failure is a ``KernelscopeError`` naming the command and carrying its output; a command
killed by a signal is reported by the signal's name (SIGSEGV), not as a negative exit code.

``run_child`` runs a Python module of kernelscope in a child process (C++ we do not own,
TVM and NVIDIA's report reader, then cannot take the caller down). The child calls
``child_main``: its progress reaches the parent's ``ProgressFn`` as the same calls, its
stderr (and anything printed) goes to a log file, its ``KernelscopeError`` is raised again in
the parent with the same message, hint (and window hint) and details, and a crash becomes a
``KernelscopeError`` naming the step it was in, the signal and the log.

Process groups: a command gets a process group of its own and ``$KERNELSCOPE_PROCESS_GROUP=1``
in its environment. A process that finds that variable set (a build child) starts its own
commands in its group rather than new ones, so that stopping the group stops all of them:
the build child, nvcc and its cicc/ptxas, and the g++ TVM starts.
"""

from __future__ import annotations

import codecs
import contextlib
import faulthandler
import json
import logging
import os
import selectors
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, BinaryIO, NoReturn

from .errors import Cancelled, KernelscopeError
from .tasks import Cancel, ProgressFn

logger = logging.getLogger(__name__)

GROUP_ENV = "KERNELSCOPE_PROCESS_GROUP"
_POLL_S = 0.05
_MESSAGE = "\x1ekernelscope "  # starts each line a child sends its parent
_LOG_TAIL_LINES = 80

LineFn = Callable[[str], None]
# ``stdin`` of run_process: an open pipe nobody writes to, closed when the command ends (a
# remote supervisor keeps its command running while its ssh's stdin is open).
KEEP_OPEN = "keep-open"
Stdin = bytes | Callable[[BinaryIO], None] | str | None


def signal_name(returncode: int) -> str | None:
    """``"SIGSEGV"`` for a process a signal killed (a negative ``returncode``), else None."""
    if returncode >= 0:
        return None
    try:
        return signal.Signals(-returncode).name
    except ValueError:
        return f"signal {-returncode}"


def describe_exit(returncode: int) -> str:
    """``"exit code 2"`` or ``"killed by SIGSEGV (Segmentation fault)"``."""
    name = signal_name(returncode)
    if name is None:
        return f"exit code {returncode}"
    words = signal.strsignal(-returncode) if name.startswith("SIG") else None
    return f"killed by {name}" + (f" ({words})" if words else "")


def command_details(cmd: Sequence[str], output: str) -> str:
    """The command line and what it printed: the ``details`` of a failure."""
    return f"$ {shlex.join(cmd)}\n{output}"


@dataclass(frozen=True)
class ProcessResult:
    cmd: list[str]
    returncode: int
    output: str  # stdout (with stderr, unless it went elsewhere), decoded with replacement

    @property
    def signal(self) -> str | None:
        return signal_name(self.returncode)


class ProcessError(KernelscopeError):
    """A command failed; ``result`` holds its exit status and output."""

    def __init__(self, what: str, result: ProcessResult, hint: str = "") -> None:
        super().__init__(
            f"{what} failed ({describe_exit(result.returncode)})",
            hint=hint,
            details=command_details(result.cmd, result.output),
        )
        self.result = result


def run_process(
    cmd: Sequence[str],
    what: str,
    *,
    cwd: str | os.PathLike[str] | None = None,
    env: dict[str, str] | None = None,
    on_line: LineFn | None = None,
    cancel: Cancel | None = None,
    timeout: float | None = None,
    check: bool = True,
    stdin: Stdin = None,
    stdout: IO[Any] | None = None,
    stderr: int | IO[Any] = subprocess.STDOUT,
    interrupt_grace: float = 10.0,
) -> ProcessResult:
    """Run ``cmd`` to its end and return its exit status and output.

    ``what`` names it in errors ("nvcc", "ssh gpu1"). ``on_line`` gets every output line
    (without its newline) as it arrives, in the calling thread. ``cancel`` set, or
    ``timeout`` seconds past, stops the command (SIGINT to its process group, SIGKILL after
    ``interrupt_grace`` seconds) and raises ``Cancelled(what)`` or a ``KernelscopeError``;
    so does an exception in ``on_line`` or a KeyboardInterrupt, which is raised again.
    ``check``: raise ``ProcessError`` when the command fails.

    ``stdin``: None (/dev/null), bytes or a function writing to the pipe (fed from a thread,
    then closed), or ``KEEP_OPEN``. ``stdout``: a file that gets the command's stdout, the
    output read then being its stderr. ``stderr``: a file to send the command's stderr to
    instead of mixing it into the output.
    """
    cmd = [str(c) for c in cmd]
    own_group = os.environ.get(GROUP_ENV) != "1"
    child_env = dict(os.environ if env is None else env)
    child_env[GROUP_ENV] = "1"
    logger.debug("running %s", shlex.join(cmd))
    try:
        proc = subprocess.Popen(
            cmd,
            cwd=cwd,
            env=child_env,
            stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE,
            stdout=subprocess.PIPE if stdout is None else stdout,
            stderr=stderr if stdout is None else subprocess.PIPE,
            process_group=0 if own_group else None,
        )
    except OSError as exc:
        raise KernelscopeError(f"cannot run {cmd[0]}: {exc}") from exc
    reader = _Output(on_line)
    output = proc.stdout if stdout is None else proc.stderr
    assert output is not None
    if proc.stdin is not None and stdin != KEEP_OPEN:
        threading.Thread(target=_feed, args=(proc.stdin, stdin), daemon=True).start()
    try:
        _pump(proc, cmd, output, reader, what, cancel, timeout, own_group, interrupt_grace)
        # The command has exited but is not reaped yet, so its pid still names its group:
        # whatever it left running goes now.
        if own_group:
            _signal_group(proc, signal.SIGKILL)
        proc.wait()
    except BaseException:
        if proc.returncode is None:
            _stop(proc, own_group, interrupt_grace)
        raise
    finally:
        output.close()
        if proc.stdin is not None and stdin == KEEP_OPEN:
            proc.stdin.close()
    result = ProcessResult(cmd, proc.returncode, reader.text())
    logger.debug("%s: %s", what, describe_exit(result.returncode))
    if check and result.returncode != 0:
        raise ProcessError(what, result)
    return result


def _feed(pipe: BinaryIO, data: bytes | Callable[[BinaryIO], None]) -> None:
    try:
        if callable(data):
            data(pipe)
        else:
            pipe.write(data)
        pipe.close()
    except (OSError, ValueError):  # the command stopped reading: its exit status says why
        pass


def _pump(
    proc: subprocess.Popen,
    cmd: list[str],
    output: IO[bytes],
    reader: _Output,
    what: str,
    cancel: Cancel | None,
    timeout: float | None,
    own_group: bool,
    grace: float,
) -> None:
    """Read the command's output until it has exited, watching ``cancel`` and the clock."""
    deadline = None if timeout is None else time.monotonic() + timeout
    fd = output.fileno()
    pause = 0.001
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        pipe_open = True
        while True:
            if pipe_open and selector.select(_POLL_S):
                chunk = os.read(fd, 1 << 16)
                if chunk:
                    reader.feed(chunk)
                else:  # every writer closed the pipe: the command is ending
                    pipe_open = False
                    selector.unregister(fd)
            elif _has_exited(proc):
                if pipe_open:  # a grandchild holds the pipe open after the command ended
                    if own_group:
                        _signal_group(proc, signal.SIGKILL)
                    _drain(selector, fd, reader)
                return
            elif not pipe_open:
                time.sleep(pause)
                pause = min(2 * pause, _POLL_S)
            if cancel is not None and cancel.is_set():
                _stop(proc, own_group, grace)
                raise Cancelled(what)
            if deadline is not None and time.monotonic() > deadline:
                _stop(proc, own_group, grace)
                raise KernelscopeError(
                    f"{what} did not finish within {timeout:g} s and was stopped",
                    details=command_details(cmd, reader.text()),
                )


class _Output:
    """Collects a command's output and hands complete lines to a callback."""

    def __init__(self, on_line: LineFn | None) -> None:
        self.on_line = on_line
        self.chunks: list[bytes] = []
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.partial = ""

    def feed(self, chunk: bytes) -> None:
        self.chunks.append(chunk)
        if self.on_line is None:
            return
        lines = (self.partial + self.decoder.decode(chunk)).split("\n")
        self.partial = lines.pop()
        for line in lines:
            self.on_line(line)

    def text(self) -> str:
        if self.on_line is not None and self.partial:
            self.on_line(self.partial)
            self.partial = ""
        return b"".join(self.chunks).decode("utf-8", errors="replace")


def _has_exited(proc: subprocess.Popen) -> bool:
    """Whether the command has ended, without reaping it (its pid, which names its group,
    stays reserved until ``wait``)."""
    try:
        return os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def _drain(selector: selectors.BaseSelector, fd: int, reader: _Output) -> None:
    """Read what is left in the pipe; give up on writers that keep it open (2 s)."""
    until = time.monotonic() + 2.0
    while time.monotonic() < until and selector.select(_POLL_S):
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return
        reader.feed(chunk)


def _signal_group(proc: subprocess.Popen, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signum)


def _stop(proc: subprocess.Popen, own_group: bool, grace: float) -> None:
    """SIGINT (ncu then ends its target cleanly; Python raises KeyboardInterrupt), SIGKILL
    when it still runs after ``grace`` seconds or the wait is interrupted (a second Ctrl-C)."""
    logger.debug("stopping pid %d", proc.pid)
    exited = False
    try:
        if own_group:
            _signal_group(proc, signal.SIGINT)
        else:
            proc.send_signal(signal.SIGINT)
        exited = _wait_exit(proc, grace)
    finally:
        if own_group:  # the leader is not reaped yet, so its pid still names the group
            _signal_group(proc, signal.SIGKILL)
        elif not exited:
            proc.send_signal(signal.SIGKILL)
        proc.wait()


def _wait_exit(proc: subprocess.Popen, timeout: float) -> bool:
    """Wait up to ``timeout`` seconds for the command to exit, without reaping it."""
    end = time.monotonic() + timeout
    pause = 0.001
    while not _has_exited(proc):
        if time.monotonic() >= end:
            return False
        time.sleep(pause)
        pause = min(2 * pause, _POLL_S)
    return True


# --- Python children ------------------------------------------------------------------


class ChildCrashed(KernelscopeError):
    """A child process ended without reporting a result: killed by a signal, or exited."""

    def __init__(
        self, what: str, step: str | None, returncode: int, log_file: Path | None, tail: str
    ) -> None:
        where = f" in {step}" if step else ""
        hint = f"the child's full log is in {log_file}" if log_file else ""
        # With a log kept, the native stack dump (tens of lines) stays in it: printed below
        # the message it would push the message and the log's path off screen.
        super().__init__(
            f"{what} crashed{where}: {describe_exit(returncode)}",
            hint=hint,
            details="" if log_file else tail,
        )
        self.step = step
        self.returncode = returncode
        self.log_file = log_file

    def renamed(self, what: str) -> ChildCrashed:
        """The same crash, said of ``what`` (a child started before its work was known)."""
        return ChildCrashed(what, self.step, self.returncode, self.log_file, self.details)


class ChildFailed(KernelscopeError):
    """A child raised what is not a ``KernelscopeError``: a bug, named by its step."""

    def __init__(
        self, what: str, step: str | None, reason: str, log_file: Path | None, details: str
    ) -> None:
        where = f" in {step}" if step else ""
        super().__init__(
            f"{what} failed{where}: {reason}",
            hint="this is a bug in kernelscope or a library it uses"
            + (f"; the child's full log is in {log_file}" if log_file else ""),
            details=details,
        )
        self.step = step
        self.reason = reason
        self.log_file = log_file

    def renamed(self, what: str) -> ChildFailed:
        """The same failure, said of ``what`` (a child started before its work was known)."""
        return ChildFailed(what, self.step, self.reason, self.log_file, self.details)


def run_child(
    module: str,
    args: Sequence[str],
    what: str,
    *,
    progress: ProgressFn | None = None,
    cancel: Cancel | None = None,
    timeout: float | None = None,
    log_file: Path | None = None,
    interrupt_grace: float = 3.0,
    stdin: Stdin = None,
) -> dict[str, Any]:
    """Run ``python -m module *args`` (a module that calls ``child_main``); return the dict
    its work returned. ``stdin`` as for ``run_process`` (work handed over after the start).

    The child's stderr goes to ``log_file`` (kept; written as the child runs, so a crash's
    stack dump is in it) or to a temporary file. Errors are raised as ``run_process``
    raises them, the child's own ``KernelscopeError`` with its message, any other exception
    of the child as ``ChildFailed`` (``what`` failed in STEP: ValueError: ...) and a child
    that dies without a result as ``ChildCrashed`` (``what`` crashed in STEP: killed by
    SIGSEGV).
    """
    messages = _Messages(progress)
    with contextlib.ExitStack() as stack:
        if log_file is None:
            err = stack.enter_context(tempfile.TemporaryFile())
        else:
            log_file.parent.mkdir(parents=True, exist_ok=True)
            err = stack.enter_context(log_file.open("w+b"))
        result = run_process(
            [sys.executable, "-m", module, *args],
            what,
            on_line=messages.line,
            cancel=cancel,
            timeout=timeout,
            check=False,
            stderr=err,
            interrupt_grace=interrupt_grace,
            stdin=stdin,
        )
        err.seek(0)
        stderr = err.read().decode("utf-8", errors="replace")
    if stderr.strip():
        logger.debug("%s: the child's stderr:\n%s", what, stderr.rstrip())
    if messages.error is not None:
        raise _rebuild(messages.error, what, log_file, stderr)
    if result.returncode == 0 and messages.result is not None:
        return messages.result
    raise ChildCrashed(what, messages.step(), result.returncode, log_file, _tail(stderr))


class StartedChild:
    """A ``run_child`` child started ahead of its work: it gets its imports (TVM, NVIDIA's
    report reader) over with while the caller gets the work ready, then reads one request, a
    line of JSON, from its stdin. ``request`` hands it one and waits for its result;
    ``close`` stops one that got none (it may still be importing) and waits for it. One
    request each; both may be called from another thread than the one that started it."""

    def __init__(
        self,
        module: str,
        args: Sequence[str],
        what: str,
        *,
        cancel: Cancel | None = None,
        log_file: Path | None = None,
    ) -> None:
        self._dismissed = threading.Event()  # no work for it: stopped, not waited for
        self._handed = threading.Event()
        self._work: bytes | None = None
        self._progress: ProgressFn | None = None
        self._result: dict[str, Any] | None = None
        self._error: BaseException | None = None

        def run() -> None:
            try:
                self._result = run_child(
                    module,
                    args,
                    what,
                    progress=self._report,
                    cancel=_Either(cancel, self._dismissed),
                    log_file=log_file,
                    stdin=self._feed,
                )
            except BaseException as exc:  # raised again by ``request``
                self._error = exc

        self._thread = threading.Thread(target=run, name=what, daemon=True)
        self._thread.start()

    def _report(self, step: str, fraction: float | None, message: str) -> None:
        if self._progress is not None:
            self._progress(step, fraction, message)

    def _feed(self, pipe: BinaryIO) -> None:
        self._handed.wait()
        if self._work is not None:
            pipe.write(self._work)

    def request(self, work: dict[str, Any], progress: ProgressFn | None = None) -> dict[str, Any]:
        """Hand ``work`` over and wait: the child's result, or its error raised here (as
        ``run_child`` raises it). The child's progress from now on goes to ``progress``."""
        self._progress = progress
        self._work = (json.dumps(work) + "\n").encode()
        self._handed.set()
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._result is not None
        return self._result

    def close(self) -> bool:
        """Stop the child if it got no request, and wait for it; whether it got none."""
        if self._handed.is_set():
            return False
        self._dismissed.set()
        self._handed.set()
        self._thread.join()
        return True


class _Either:
    """A ``Cancel`` set when either of two is."""

    def __init__(self, first: Cancel | None, second: threading.Event) -> None:
        self.first, self.second = first, second

    def is_set(self) -> bool:
        return self.second.is_set() or (self.first is not None and self.first.is_set())


def _tail(text: str) -> str:
    lines = text.rstrip().splitlines()
    if len(lines) <= _LOG_TAIL_LINES:
        return "\n".join(lines)
    return "\n".join([f"... (last {_LOG_TAIL_LINES} lines)", *lines[-_LOG_TAIL_LINES:]])


def _rebuild(
    error: dict[str, Any], what: str, log_file: Path | None, stderr: str
) -> KernelscopeError:
    kind = error.get("type")
    if kind == "Cancelled":
        return Cancelled(what)
    if kind == "KernelscopeError":
        return KernelscopeError(
            error["message"],
            hint=error.get("hint", ""),
            details=error.get("details", ""),
            window_hint=error.get("window_hint", ""),
        )
    details = error.get("details", "") or _tail(stderr)
    return ChildFailed(what, error.get("step"), error["message"], log_file, details)


class _Messages:
    """The parent's side of what a child sends: progress, steps, its result or error."""

    def __init__(self, progress: ProgressFn | None) -> None:
        self.progress = progress
        self.active: list[tuple[str, bool]] = []  # steps begun and not ended: (name, tool)
        self.result: dict[str, Any] | None = None
        self.error: dict[str, Any] | None = None

    def line(self, line: str) -> None:
        if not line.startswith(_MESSAGE):
            if line.strip():
                logger.debug("child: %s", line)
            return
        message = json.loads(line[len(_MESSAGE) :])
        kind = message["kind"]
        if kind == "progress":
            if self.progress is not None:
                self.progress(message["step"], message["fraction"], message["message"])
        elif kind == "begin":
            self.active.append((message["step"], message["tool"]))
        elif kind == "end":
            with contextlib.suppress(ValueError):
                self.active.remove((message["step"], message["tool"]))
        elif kind == "result":
            self.result = message["value"]
        elif kind == "error":
            self.error = message["error"]

    def step(self) -> str | None:
        """The step a crash happened in: the latest one running in the child's own process
        (a step that waits for a tool cannot crash it), else the latest."""
        own = [name for name, tool in self.active if not tool]
        if own:
            return own[-1]
        return self.active[-1][0] if self.active else None


class ChildChannel:
    """The child's side: what ``child_main`` hands the work it runs."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream
        self._lock = threading.Lock()
        self.failed_step: str | None = None  # the innermost step an exception left

    def send(self, kind: str, **fields: Any) -> None:
        text = _MESSAGE + json.dumps({"kind": kind, **fields}) + "\n"
        with self._lock:
            self._stream.write(text)
            self._stream.flush()

    def progress(self, step: str, fraction: float | None, message: str) -> None:
        """A ``ProgressFn``: the parent's progress callback gets the same call."""
        self.send("progress", step=step, fraction=fraction, message=message)

    @contextlib.contextmanager
    def step(self, name: str, tool: bool = False) -> Iterator[None]:
        """Mark a step, so that a crash inside it is reported by its name. ``tool``: the
        step only waits for another program (a crash there is not this process's)."""
        self.send("begin", step=name, tool=tool)
        try:
            yield
        except BaseException:
            self.failed_step = self.failed_step or name
            raise
        finally:
            self.send("end", step=name, tool=tool)


def child_main(work: Callable[[ChildChannel], dict[str, Any] | None]) -> NoReturn:
    """Run ``work`` as the body of a child started by ``run_child``, then exit.

    Messages go to the parent over the original stdout; everything else the process
    writes to stdout or stderr (prints, TVM's warnings, a crash's stack dump from
    ``faulthandler``) goes to the log. The process ends with ``os._exit``, so that no
    library's teardown can crash it after the result is sent.
    """
    channel = ChildChannel(os.fdopen(os.dup(1), "w", encoding="utf-8"))
    sys.stdout.flush()
    os.dup2(2, 1)
    faulthandler.enable(all_threads=True)
    logging.basicConfig(
        level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(name)s: %(message)s"
    )
    code = 0
    try:
        channel.send("result", value=work(channel) or {})
    except Cancelled:
        channel.send("error", error={"type": "Cancelled", "message": "cancelled"})
        code = 130
    except KeyboardInterrupt:
        channel.send("error", error={"type": "Cancelled", "message": "interrupted"})
        code = 130
    except KernelscopeError as exc:
        error = {
            "message": exc.message,
            "hint": exc.hint,
            "details": exc.details,
            "window_hint": exc.window_hint,
        }
        channel.send("error", error={"type": "KernelscopeError", **error})
        code = 1
    except BaseException as exc:
        text = traceback.format_exc()
        sys.stderr.write(text)
        error = {"message": f"{type(exc).__name__}: {exc}", "details": text}
        channel.send("error", error={"type": "internal", "step": channel.failed_step, **error})
        code = 2
    finally:
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
            sys.stderr.flush()
    os._exit(code)
