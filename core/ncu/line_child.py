"""The line table of many PCs of a report, from NVIDIA's reader in a child process that warms
up while the caller decodes the per-instruction numbers.

``ncu_report`` costs ~0.1 s before it answers anything (its first parsed launch) and holds
the GIL while it works, so a process that needs the line table of a whole report (the hot
lines of the model, every launch's table) starts this child first: it imports and loads the
report and parses a launch, then reads one request from its stdin (the PCs of each lookup
launch: a launch of each module, ``report.ReportReader._lookup``), answers with their
(file, line) and exits. The caller meanwhile decodes what it needs from the file.

Run as ``python -m kernelscope.core.ncu.line_child REPORT`` by ``LineChild``.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path
from typing import Any, BinaryIO

from ..process import ChildChannel, child_main, run_child
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
                "kernelscope.core.ncu.line_child",
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


def _child(channel: ChildChannel, report: str) -> dict[str, Any]:
    from .report import ReportReader

    with channel.step("ncu_report"):
        reader = ReportReader(report, decode=False)  # loads the report
        reader._ncu_action(0)  # NVIDIA's first parsed launch pays for its set-up
    line = sys.stdin.readline()
    if not line.strip():
        return {"locations": []}
    out = []
    with channel.step("ncu_report"):
        for launch_id, pcs in json.loads(line)["lookups"]:
            a = reader._ncu_action(launch_id)
            found = []
            for pc in pcs:
                si = a.source_info(pc) if a is not None else None
                found.append([si.file_name(), si.line()] if si is not None else None)
            out.append(found)
    return {"locations": out}


if __name__ == "__main__":
    from .report import load_reader_first

    load_reader_first()  # before numpy: see there
    child_main(lambda channel: _child(channel, sys.argv[1]))
