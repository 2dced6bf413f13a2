"""The child of ``line_child.LineChild``: loads a report with NVIDIA's reader, parses its first
launch (what pays for the reader's set-up) while the caller decodes, then answers one request
from its stdin with the (file, line) of each PC asked (the request's format: ``line_child``).

Run as ``python -m kernelscope.core.ncu.line_child_main REPORT [LAUNCH ...]``. With LAUNCHes
(the launches the request will name), the reader loads a copy of the report that holds only
those (``ReportFile.write_launches``): it reads every launch of what it loads, ~6 ms each on
the H200 host, and the line tables need one launch of each module. Nor does it read the
launches' metric units and descriptions (``NvidiaReport.launch(texts=False)``).
"""

from __future__ import annotations

import json
import logging
import sys
import tempfile
from pathlib import Path
from typing import Any

from ..process import ChildChannel, child_main
from .rep.container import ReportFile
from .rep.nvidia import NvidiaLaunch, NvidiaReport, load_reader_first
from .rep.wire import Unsupported

_log = logging.getLogger(__name__)


def _child(channel: ChildChannel, report: str, keep: list[int]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="kernelscope-lines-") as folder:
        with channel.step("ncu_report"):
            numbered: dict[int, int] = {}  # launch -> its number in the copy
            path = report
            if keep:
                copy = str(Path(folder) / "launches.ncu-rep")
                try:
                    with ReportFile(report) as file:
                        numbered = {i: k for k, i in enumerate(file.write_launches(copy, keep))}
                    path = copy
                except (OSError, Unsupported) as exc:
                    _log.info("%s: the whole report is read: %s", report, exc)
            nvidia = NvidiaReport(path)
            whole = nvidia if path == report else None
            first = min(numbered, default=0)
            parsed: dict[int, NvidiaLaunch | None] = {}
            parsed[first] = nvidia.launch(numbered.get(first, 0), texts=False)
        line = sys.stdin.readline()
        if not line.strip():
            return {"locations": []}
        out = []
        with channel.step("ncu_report"):
            for launch_id, pcs in json.loads(line)["lookups"]:
                if launch_id not in parsed:
                    if launch_id in numbered:
                        parsed[launch_id] = nvidia.launch(numbered[launch_id], texts=False)
                    else:  # not in the copy: the whole report, once
                        whole = whole or NvidiaReport(report)
                        parsed[launch_id] = whole.launch(launch_id, texts=False)
                a = parsed[launch_id]
                found = [a.source_info(pc) if a is not None else None for pc in pcs]
                out.append([list(loc) if loc is not None else None for loc in found])
        return {"locations": out}


if __name__ == "__main__":
    load_reader_first()  # before numpy: see there
    child_main(lambda channel: _child(channel, sys.argv[1], [int(a) for a in sys.argv[2:]]))
