"""How far a timeline and Nsight Compute agree, call by call: each call's time beside ncu's
``gpu__time_duration`` of the same launches, from a report of the workspace that profiled a
whole forward pass (``kernelscope profile WS --warmup 1 --launch-skip N --launch-count N
--clock-control none --cache-control none``: clocks and caches as the timeline has them).

The report's launches are matched to the pass by their full kernel names in order (decoded
from the file, without NVIDIA's reader): the last run of launches in the report that is
exactly the timeline's launch sequence. Reports that hold no such run (one call, another
model, a rebuilt workspace) give nothing.
"""

from __future__ import annotations

import statistics
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..workspace import Workspace
from .model import Timeline

DURATION = "gpu__time_duration.sum"  # ns
NEWEST_REPORTS = 20  # looked at, newest first


@dataclass
class CallAgreement:
    index: int
    timeline_us: float
    ncu_us: float | None = None  # the call's launches in the report (None: not there)
    diff_us: float | None = None  # timeline - ncu


@dataclass
class Agreement:
    report: str | None  # the report's file name, None when no report has the pass
    calls: list[CallAgreement] = field(default_factory=list)

    @property
    def diffs(self) -> list[float]:
        return [c.diff_us for c in self.calls if c.diff_us is not None]

    def summary(self) -> dict[str, Any]:
        """Median difference and |difference|, and how many calls lie within 0.5 and 1 µs."""
        d = self.diffs
        if not d:
            return {"report": self.report, "calls": 0}
        return {
            "report": self.report,
            "calls": len(d),
            "median_diff_us": statistics.median(d),
            "median_abs_diff_us": statistics.median(abs(x) for x in d),
            "within_0_5_us": sum(abs(x) <= 0.5 for x in d),
            "within_1_us": sum(abs(x) <= 1.0 for x in d),
        }

    def describe(self) -> str:
        """One line for people: against which report, how close."""
        s = self.summary()
        if not s["calls"]:
            return "no ncu report of this workspace has a whole pass to compare with"
        return (
            f"against ncu ({self.report}): median difference {s['median_diff_us']:+.2f} µs, "
            f"median |difference| {s['median_abs_diff_us']:.2f} µs, {s['within_0_5_us']} of "
            f"{s['calls']} calls within 0.5 µs, {s['within_1_us']} within 1 µs"
        )

    def to_dict(self) -> dict[str, Any]:
        return {**self.summary(), "rows": [asdict(c) for c in self.calls]}


def ncu_agreement(timeline: Timeline, workspace: Workspace | Path) -> Agreement:
    """The timeline's calls against the newest report of ``workspace`` that profiled one of
    its passes whole (every call's ``ncu_us`` None when there is none)."""
    ws = workspace if isinstance(workspace, Workspace) else Workspace.open(workspace)
    sequence = [k for c in timeline.calls for k in c.kernels]
    for report in ws.profiles()[::-1][:NEWEST_REPORTS]:
        launches = _launches(report)
        start = _last_run(launches, sequence) if launches is not None else None
        if launches is None or start is None:
            continue
        rows, at = [], start
        for call in timeline.calls:
            ncu_us = sum(launches[at + k][1] for k in range(len(call.kernels))) / 1000
            at += len(call.kernels)
            diff = call.duration_us - ncu_us
            rows.append(CallAgreement(call.index, call.duration_us, ncu_us, diff))
        return Agreement(report.name, rows)
    return Agreement(None, [CallAgreement(c.index, c.duration_us) for c in timeline.calls])


def _launches(report: Path) -> list[tuple[str, float]] | None:
    """(function name, gpu__time_duration in ns) of each launch, or None when the report
    cannot be decoded or a launch lacks either."""
    from ..ncu.rep.decoded import read_launches
    from ..ncu.rep.wire import Unsupported

    try:
        found = []
        for launch in read_launches(report):
            name = launch.name() if launch is not None else None
            value = launch.scalar(DURATION) if launch is not None else None
            if name is None or not isinstance(value, int | float):
                return None
            found.append((name, float(value)))
        return found
    except (Unsupported, OSError, ValueError):
        return None


def _last_run(launches: list[tuple[str, float]], sequence: list[str]) -> int | None:
    """Where the last run of ``sequence`` starts among the launches' names."""
    n = len(sequence)
    names = [name for name, _ in launches]
    for start in range(len(names) - n, -1, -1):
        if names[start : start + n] == sequence:
            return start
    return None
