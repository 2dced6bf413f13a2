"""Every stall reason of a source line or of one SASS instruction, from the sampled warp
states of each instruction (``smsp__pcsamp_warps_issue_stalled_<reason>``).

The Source and SASS panes keep per-instruction metrics as dicts keyed by metric name or by
Source-page label (``KernelView.instruction_metrics``, ``InstructionTable.row``); these
functions accept either, so the Details pane can chart the selection's reasons without knowing
where the numbers came from::

    rows = [view.instruction_metrics[i] for i in view.instructions_at(file, line)]
    breakdown = stall_breakdown(rows)           # all reasons with samples, largest first
    breakdown.reasons[0].label, .samples, .share
    first, hottest = first_and_hottest(view.instructions_at(file, line), rows)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .metrics import SAMPLES, STALL_REASONS, label_of, stall_key

_DESCRIPTIONS = {
    "barrier": "waiting for sibling warps at a block barrier",
    "branch_resolving": "waiting for a branch target to be computed",
    "dispatch_stall": "the dispatcher could not issue the selected instruction",
    "drain": "waiting after EXIT for memory stores to drain",
    "imc_miss": "waiting for an immediate constant cache miss",
    "lg_throttle": "waiting for the local/global memory instruction queue",
    "long_scoreboard": "waiting for a global/local memory (L1TEX) result",
    "math_pipe_throttle": "waiting for a busy math pipe",
    "membar": "waiting on a memory barrier",
    "mio_throttle": "waiting for the memory input/output queue (shared memory, special math)",
    "misc": "a miscellaneous hardware reason",
    "no_instructions": "waiting for instructions (instruction cache miss, after a branch)",
    "not_selected": "eligible, but another warp was selected",
    "selected": "issuing an instruction",
    "short_scoreboard": "waiting for a shared memory or special-function result",
    "sleeping": "all threads of the warp sleep (nanosleep, yield)",
    "tex_throttle": "waiting for the texture queue",
    "wait": "waiting on a fixed-latency dependency",
    "warpgroup_arrive": "waiting for a warpgroup arrive (Hopper GMMA)",
}


@dataclass
class StallShare:
    reason: str  # as in the metric name: "long_scoreboard"
    label: str  # Source-page column label: "stall_long_sb"
    samples: float
    share: float  # of the selection's stall samples (0..1)
    description: str = ""


@dataclass
class StallBreakdown:
    total: float  # stall samples over the selection (every reason)
    reasons: list[StallShare] = field(default_factory=list)  # largest first, zeros left out
    instructions: int = 0  # how many instructions were summed
    not_issued: bool = False

    @property
    def top(self) -> StallShare | None:
        return self.reasons[0] if self.reasons else None


def _value(row: Mapping[str, float | str], reason: str, not_issued: bool) -> float:
    key = stall_key(reason, not_issued)
    for k in (key, label_of(key)):
        v = row.get(k)
        if isinstance(v, int | float) and v == v:  # NaN never counts
            return float(v)
    return 0.0


def stall_breakdown(
    rows: Sequence[Mapping[str, float | str]], not_issued: bool = False
) -> StallBreakdown:
    """All stall reasons summed over the instructions' metrics (one instruction or a line)."""
    sums = {r: sum(_value(row, r, not_issued) for row in rows) for r in STALL_REASONS}
    total = sum(sums.values())
    reasons = [
        StallShare(
            reason=r,
            label=label_of(stall_key(r, not_issued)),
            samples=v,
            share=v / total if total else 0.0,
            description=_DESCRIPTIONS.get(r, ""),
        )
        for r, v in sorted(sums.items(), key=lambda kv: (-kv[1], kv[0]))
        if v > 0
    ]
    return StallBreakdown(total, reasons, len(rows), not_issued)


def samples_of(row: Mapping[str, float | str]) -> float:
    """One instruction's warp-stall samples (the column the hot-line ranking uses)."""
    for k in (SAMPLES, label_of(SAMPLES)):
        v = row.get(k)
        if isinstance(v, int | float) and v == v:
            return float(v)
    return sum(_value(row, r, False) for r in STALL_REASONS)


def first_and_hottest(
    indices: Sequence[int], rows: Sequence[Mapping[str, float | str]]
) -> tuple[int | None, int | None]:
    """Where to scroll the SASS pane for a selected line: its first instruction (lowest
    index) and its hottest (most samples; the first of equals). ``rows`` are parallel to
    ``indices``."""
    if not indices:
        return None, None
    first = min(indices)
    best = max(range(len(indices)), key=lambda i: (samples_of(rows[i]), -indices[i]))
    hottest = indices[best] if samples_of(rows[best]) > 0 else first
    return first, hottest
