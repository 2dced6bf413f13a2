"""Runs one command on a GPU host for kernelscope and ends it with the SSH connection.

Usage: ``python3 remote_supervisor.py FOLDER -- COMMAND [ARG...]``

Standard library only; kernelscope copies it into its temporary FOLDER on the host. The
command (ncu, which starts the model) runs in a session and process group of its own; its
output is passed on line by line. kernelscope keeps this program's stdin open for as long
as it wants the command to run: when stdin ends (Cancel, the ssh client killed, the
connection lost) or the supervisor gets SIGTERM/SIGHUP, the command's whole process tree
gets SIGINT (ncu then stops its target), SIGKILL after a grace period, and when nobody is
left to collect its results the FOLDER is removed. ``FOLDER/pgid`` and
``FOLDER/supervisor.pid`` let a later cleanup wait for both.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import threading
import time

GRACE_SECONDS = 5.0
EXIT_STOPPED = 130


def _children() -> dict[int, list[int]]:
    """Parent pid -> child pids, from /proc (Linux)."""
    found: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read().decode(errors="replace")
        except OSError:
            continue
        # "pid (comm) state ppid ...": comm may hold spaces and parentheses
        fields = stat[stat.rfind(")") + 2 :].split()
        if len(fields) > 1:
            found.setdefault(int(fields[1]), []).append(int(entry))
    return found


def descendants(pid: int) -> list[int]:
    tree, todo, seen = _children(), [pid], []
    while todo:
        p = todo.pop()
        for c in tree.get(p, []):
            if c not in seen:
                seen.append(c)
                todo.append(c)
    return seen


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().split(b")")[-1].split()[0] != b"Z"
    except OSError:
        return False


def _signal_all(pgid: int, pids: list[int], sig: int) -> None:
    with contextlib.suppress(OSError):
        os.killpg(pgid, sig)
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, sig)


def stop_tree(child: subprocess.Popen, grace: float = GRACE_SECONDS) -> None:
    """SIGINT to the child's process group and every descendant, SIGKILL to what remains."""
    pids = [child.pid, *descendants(child.pid)]
    _signal_all(child.pid, pids, signal.SIGINT)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        child.poll()
        pids += [p for p in descendants(child.pid) if p not in pids]
        if not any(_alive(p) for p in pids):
            return
        time.sleep(0.05)
    pids += [p for p in descendants(child.pid) if p not in pids]
    _signal_all(child.pid, pids, signal.SIGKILL)
    child.wait()


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] != "--":
        print("usage: remote_supervisor.py FOLDER -- COMMAND [ARG...]", file=sys.stderr)
        return 2
    folder, command = argv[0], argv[2:]
    try:
        child = subprocess.Popen(
            command,
            cwd=folder,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    except OSError as exc:
        print(f"==ERROR== cannot run {command[0]}: {exc}", flush=True)
        return 127
    for name, value in (("pgid", child.pid), ("supervisor.pid", os.getpid())):
        with open(os.path.join(folder, name), "w") as f:
            f.write(f"{value}\n")
    gone = threading.Event()
    stopping = threading.Lock()

    def stop() -> None:
        with stopping:
            gone.set()
            stop_tree(child)

    def stop_soon(*_: object) -> None:
        threading.Thread(target=stop, daemon=True).start()

    def watch_stdin() -> None:
        try:
            while os.read(0, 65536):  # the raw fd: a buffered reader would block shutdown
                pass
        except OSError:
            pass
        stop()

    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, stop_soon)
    threading.Thread(target=watch_stdin, daemon=True).start()
    assert child.stdout is not None
    reader_gone = False
    for line in child.stdout:
        if reader_gone:
            continue
        try:
            sys.stdout.buffer.write(line)
            sys.stdout.buffer.flush()
        except OSError:  # the reader has gone
            reader_gone = True
            stop_soon()
    code = child.wait()
    with stopping:  # a stop in progress finishes off the descendants first
        stopped = gone.is_set()
    if stopped:
        shutil.rmtree(folder, ignore_errors=True)
        return EXIT_STOPPED
    return code if code >= 0 else 128 - code  # killed by a signal: as a shell reports it


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
