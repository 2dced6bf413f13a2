"""TVM's RPC server on a GPU host, reached through the SSH connection profiling uses: a
port of this machine forwarded (``ssh -L``) to the server's port on the host's loopback,
so nothing is opened in a firewall. The server runs in one of ``RemoteFolder``'s temporary
folders under its supervisor, so closing the connection (done, Cancel, a crash here) ends
it and the folder goes. The host needs a Python that imports TVM (the runtime is enough).
A host whose GPU other processes compute on, or is in use, is refused first (its nvidia-smi
asked as ``batch_measure`` asks this machine's), unless ``busy_ok``; then ``busy`` says why.
"""

from __future__ import annotations

import random
import re
import shlex
import socket
import threading
import time
from types import TracebackType

from ..errors import KernelscopeError
from ..profiling.remote import (
    CommandResult,
    RemoteFolder,
    SshTarget,
    explain_ssh_failure,
    run_command,
)
from .batch_measure import busy_reason

_STARTED = "bind to"  # tvm.exec.rpc_server logs "bind to 127.0.0.1:PORT" once listening
_START_TIMEOUT_S = 60.0


def free_local_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ForwardedServer:
    """``with ForwardedServer(target) as server:`` an RPC server on the host, reachable at
    ``server.address`` (``127.0.0.1:PORT`` here) while the block runs."""

    def __init__(self, target: SshTarget, busy_ok: bool = False) -> None:
        self.target = target
        self.busy_ok = busy_ok
        self.busy = ""  # why the host's GPU is busy (measured anyway: busy_ok)
        self.local_port = free_local_port()
        self.remote_port = random.randint(20000, 60000)
        self._stop = threading.Event()
        self._started = threading.Event()
        self._lines: list[str] = []
        self._result: CommandResult | KernelscopeError | None = None
        self._folder = RemoteFolder(target)
        self._thread = threading.Thread(target=self._run, name="rpc server", daemon=True)

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.local_port}"

    def __enter__(self) -> ForwardedServer:
        self.busy = busy_reason(self._host_smi, which="0")  # the server measures on cuda(0)
        if self.busy and not self.busy_ok:
            raise KernelscopeError(
                f"{self.target.host}: {self.busy}; timings taken now would not be the kernels' own",
                hint="wait until it is free, or measure anyway with --busy-ok (the database's "
                "notes then say the timings were taken on a busy GPU)",
                window_hint="wait until it is free, or measure on another host",
            )
        self._folder.__enter__()
        try:
            self._folder.upload([])
            self._thread.start()
            deadline = time.monotonic() + _START_TIMEOUT_S
            while not self._started.wait(0.1):
                if not self._thread.is_alive() or time.monotonic() > deadline:
                    raise self._failure()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(30)
        self._folder.remove()

    def _host_smi(self, args: list[str]) -> str | None:
        """The host's ``nvidia-smi ARGS``; None without one (or when ssh fails: starting
        the server says why)."""
        cmd = shlex.join(["nvidia-smi", *args, "--format=csv,noheader,nounits"])
        result = run_command([*self.target.ssh(), cmd], "nvidia-smi", stdin=b"", timeout=60)
        return result.output if result.code == 0 else None

    def _command(self) -> list[str]:
        argv = [
            self.target.python,
            "-m",
            "tvm.exec.rpc_server",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.remote_port),
            "--port-end",
            str(self.remote_port + 1),
        ]
        cmd = self._folder.supervised(argv)
        forward = f"{self.local_port}:127.0.0.1:{self.remote_port}"
        return [cmd[0], "-o", "ExitOnForwardFailure=yes", "-L", forward, *cmd[1:]]

    def _on_line(self, line: str) -> None:
        self._lines.append(line)
        if _STARTED in line:
            self._started.set()

    def _run(self) -> None:
        try:
            self._result = run_command(
                self._command(), "the RPC server", self._stop, on_line=self._on_line
            )
        except KernelscopeError as exc:  # Cancelled when closed: expected
            self._result = exc

    def _failure(self) -> KernelscopeError:
        output = "\n".join(self._lines)
        self._stop.set()
        missing = re.findall(r"No module named '([\w.]+)'", output)
        if missing and missing[-1].split(".")[0] != "tvm":
            return KernelscopeError(
                f"{self.target.host}: {self.target.python} has TVM but not {missing[-1]}, "
                "which TVM's RPC server needs (TVM's rpc extra)",
                hint=f"install it there ({self.target.python} -m pip install "
                f"{missing[-1].split('.')[0]}) or name a Python that has it (--remote-python)",
                details=output,
            )
        if missing:
            return KernelscopeError(
                f"{self.target.host}: {self.target.python} cannot import TVM, which TVM's RPC "
                "server needs",
                hint="install TVM's runtime there (kernelscope remote-install HOST) or name a "
                "Python that has it (--remote-python)",
                details=output,
            )
        result = self._result
        if isinstance(result, CommandResult) and result.code == 255:
            return explain_ssh_failure(self.target, result, "starting the RPC server")
        return KernelscopeError(
            f"TVM's RPC server did not start on {self.target.host}",
            hint="check the host with: kernelscope remote-check " + shlex.quote(self.target.host),
            details=output,
        )
