"""Progress lines on a terminal for long steps (build, compile, import)."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class TerminalProgress:
    """A ``progress(step, fraction, message)`` callable that prints one line per step.

    On a TTY each line shows the elapsed time; nothing is printed when stderr is not a
    terminal and ``quiet_when_piped`` is set.
    """

    def __init__(self, stream: TextIO | None = None, quiet_when_piped: bool = False) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() or not quiet_when_piped
        self.start = time.perf_counter()

    def __enter__(self) -> TerminalProgress:
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stream.flush()

    def __call__(self, step: str, fraction: float | None, message: str) -> None:
        if not self.enabled:
            return
        pct = f"{fraction * 100:3.0f}%" if fraction is not None else "    "
        elapsed = time.perf_counter() - self.start
        print(f"[{pct} {elapsed:6.1f}s] {message}", file=self.stream, flush=True)
