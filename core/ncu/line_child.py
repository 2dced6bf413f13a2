"""The line table of many PCs of a report, from NVIDIA's reader in a child process that warms
up while the caller decodes the per-instruction numbers.

``ncu_report`` costs ~0.1 s before it answers anything (its first parsed launch) and holds
the GIL while it works, so a process that needs the line table of a whole report (the hot
lines of the model, every launch's table) starts this child first: it imports and loads the
report and parses a launch, then reads one request from its stdin (the PCs of each lookup
launch: a launch of each module, ``report.ReportReader._lookup``), answers with their
(file, line) and exits. The caller meanwhile decodes what it needs from the file.

This is the caller's side; the child is ``line_child_main``
(``python -m kernelscope.core.ncu.line_child_main REPORT``). One request, one line of JSON on
the child's stdin: ``{"lookups": [[launch, [pc, ...]], ...]}``; the answer, the child's result:
``{"locations": [[[file, line] or null, ...], ...]}``, in the same order.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any, BinaryIO

from ..process import run_child
from ..tasks import Cancel
from .records import Location


class LineChild:
    """One child answering one request; ``lines`` hands it over and waits."""

    def __init__(self, report: str | os.PathLike[str], cancel: Cancel | None = None) -> None:
        self.report = Path(report)
        self._cancel = cancel
        self._handed = threading.Event()
        self._request: bytes | None = None
        self._result: dict[str, Any] | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="line child", daemon=True)
        self._thread.start()

    def _feed(self, pipe: BinaryIO) -> None:
        self._handed.wait()
        if self._request is not None:
            pipe.write(self._request)

    def _run(self) -> None:
        try:
            self._result = run_child(
                "kernelscope.core.ncu.line_child_main",
                [str(self.report)],
                f"reading the line table of {self.report.name}",
                cancel=self._cancel,
                stdin=self._feed,
            )
        except BaseException as exc:  # raised again by ``lines``
            self._error = exc

    def lines(self, lookups: list[tuple[int, list[int]]]) -> list[list[Location | None]]:
        """For each (lookup launch, PCs): the PCs' recorded (file, line), or None."""
        self._request = (json.dumps({"lookups": lookups}) + "\n").encode()
        self._handed.set()
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._result is not None
        return [
            [(loc[0], loc[1]) if loc is not None else None for loc in found]
            for found in self._result["locations"]
        ]

    def close(self) -> None:
        """Let a child that got no request exit."""
        if not self._handed.is_set():
            self._handed.set()
            self._thread.join()
