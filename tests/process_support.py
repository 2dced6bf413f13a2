"""Looking at real processes from a test (Linux /proc): which children a process has, and
whether a process is still there. Tests use it to check that Cancel or a crash leaves no
process behind."""

from __future__ import annotations

import os
import time
from pathlib import Path


def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()  # fields after "pid (comm)"


def descendants(pid: int | None = None) -> list[int]:
    """Every process below ``pid`` (default: this one), children first."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(int(entry))):
            parents[int(entry)] = int(fields[1])
    found, frontier = [], [os.getpid() if pid is None else pid]
    while frontier:
        children = [p for p, parent in parents.items() if parent in frontier]
        found.extend(children)
        frontier = children
    return found


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def alive(pid: int) -> bool:
    """Whether ``pid`` is a running process (a zombie, dead but not reaped, is not)."""
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"


def still_alive(pids: list[int], within: float = 10.0) -> list[int]:
    """The processes of ``pids`` still running after waiting up to ``within`` seconds for a
    signal already sent to take effect (on a busy machine a killed process needs a moment)."""
    end = time.monotonic() + within
    while True:
        left = [pid for pid in pids if alive(pid)]
        if not left or time.monotonic() > end:
            return left
        time.sleep(0.02)
