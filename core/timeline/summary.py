"""What a view shows of a timeline beside its calls (the shares per kernel, operator type and
step, the kernel time, the span, the longest call), worked out in one go.

Why its own value: an Nsight Systems export has a million calls, and each of these walks all
of them (about a second each there); a window works them out once, with the timeline, off its
GUI thread, and hands the finished summary to its panes (as KDAB Hotspot hands its views
finished data).
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter

from .model import Share, Timeline


@dataclass(frozen=True)
class TimelineSummary:
    kernel_shares: list[Share]
    op_shares: list[Share]
    step_shares: list[Share]
    kernel_time_us: float
    span_us: float
    kernels: int  # distinct kernels launched
    longest: int | None  # the index of the longest call (None: no calls)
    peak_us: float  # the longest call's time


def summarise(timeline: Timeline) -> TimelineSummary:
    calls = timeline.calls
    longest = max(calls, key=attrgetter("duration_us"), default=None)
    return TimelineSummary(
        kernel_shares=timeline.kernel_shares(),
        op_shares=timeline.op_shares(),
        step_shares=timeline.step_shares(),
        kernel_time_us=timeline.kernel_time_us,
        span_us=timeline.span_us,
        kernels=len({k for c in calls for k in c.kernels}),
        longest=longest.index if longest is not None else None,
        peak_us=longest.duration_us if longest is not None else 0.0,
    )
