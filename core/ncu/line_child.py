"""The line table of many PCs of a report, from NVIDIA's reader in a child process that warms
up while the caller decodes the per-instruction numbers.

``ncu_report`` costs ~0.1 s before it answers anything (its first parsed launch) and holds
the GIL while it works, so a process that needs the line table of a whole report (the hot
lines of the model, every launch's table) starts this child first: it imports and loads the
report and parses a launch, then reads one request from its stdin (the PCs of each lookup
launch: a launch of each module, ``report.ReportReader._lookup``), answers with their
(file, line) and exits. Told those launches when it starts, it loads a copy of the report
with only them (NVIDIA's reader reads every launch of what it loads). The caller meanwhile
decodes what it needs from the file.

This is the caller's side; the child is ``line_child_main``
(``python -m kernelscope.core.ncu.line_child_main REPORT``). One request, one line of JSON on
the child's stdin: ``{"lookups": [[launch, [pc, ...]], ...]}``; the answer, the child's result:
``{"locations": [[[file, line] or null, ...], ...]}``, in the same order.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from ..process import StartedChild
from ..tasks import Cancel
from .records import Location


class LineChild:
    """One child (``process.StartedChild``) answering one request; ``lines`` hands it over
    and waits."""

    def __init__(
        self,
        report: str | os.PathLike[str],
        cancel: Cancel | None = None,
        launches: Sequence[int] = (),
    ) -> None:
        """``launches``: those the request will name, when known (the child then loads a
        copy of the report with only these: much less for NVIDIA's reader to read)."""
        self.report = Path(report)
        self._child = StartedChild(
            "kernelscope.core.ncu.line_child_main",
            [str(self.report), *map(str, launches)],
            f"reading the line table of {self.report.name}",
            cancel=cancel,
        )

    def lines(self, lookups: list[tuple[int, list[int]]]) -> list[list[Location | None]]:
        """For each (lookup launch, PCs): the PCs' recorded (file, line), or None."""
        result = self._child.request({"lookups": lookups})
        return [
            [(loc[0], loc[1]) if loc is not None else None for loc in found]
            for found in result["locations"]
        ]

    def close(self) -> None:
        """Stop a child that got no request."""
        self._child.close()
