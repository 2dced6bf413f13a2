"""The child of ``line_child.LineChild``: loads a report with NVIDIA's reader, parses its first
launch (what pays for the reader's set-up) while the caller decodes, then answers one request
from its stdin with the (file, line) of each PC asked (the request's format: ``line_child``).

Run as ``python -m kernelscope.core.ncu.line_child_main REPORT``.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from ..process import ChildChannel, child_main
from .rep.nvidia import NvidiaLaunch, NvidiaReport, load_reader_first


def _child(channel: ChildChannel, report: str) -> dict[str, Any]:
    with channel.step("ncu_report"):
        nvidia = NvidiaReport(report)
        parsed: dict[int, NvidiaLaunch | None] = {0: nvidia.launch(0)}
    line = sys.stdin.readline()
    if not line.strip():
        return {"locations": []}
    out = []
    with channel.step("ncu_report"):
        for launch_id, pcs in json.loads(line)["lookups"]:
            if launch_id not in parsed:
                parsed[launch_id] = nvidia.launch(launch_id)
            a = parsed[launch_id]
            found = [a.source_info(pc) if a is not None else None for pc in pcs]
            out.append([list(loc) if loc is not None else None for loc in found])
    return {"locations": out}


if __name__ == "__main__":
    load_reader_first()  # before numpy: see there
    child_main(lambda channel: _child(channel, sys.argv[1]))
