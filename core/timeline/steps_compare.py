"""Two timelines of one LLM's steps side by side (``kernelscope timeline A --against B``):
a CUDA graph build's decode step against a plain build's, step by step.

Each step's time is the runner's ``gpu_us`` (CUDA events around the whole step, the stream
held ahead by a spinning kernel: what the GPU spent, launch gaps included) and its host wall
time (``wall_ms``, from passes with no events: what replaying graphs saves the CPU shows
here). A graph replay is one VM call (``GRAPH_REPLAY``): the timeline times it whole and does
not split its kernel nodes; per-node times come from Nsight Compute (``kernelscope steps``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import KernelscopeError
from .model import GRAPH_REPLAY, Timeline


@dataclass(frozen=True)
class StepTime:
    """One step of one timeline."""

    gpu_us: float
    wall_us: float
    calls: int  # VM calls timed in the step (a graph replay is one)
    graph_replays: int
    cuda_graph: str | None  # the runner's "capture" / "replay"; None: no graphs


@dataclass(frozen=True)
class StepComparison:
    label: str  # "decode 3"
    this: StepTime
    other: StepTime

    @property
    def gpu_change(self) -> float:
        """This step's GPU time against the other's (-0.07: 7 % less)."""
        return self.this.gpu_us / self.other.gpu_us - 1 if self.other.gpu_us else 0.0

    @property
    def wall_change(self) -> float:
        return self.this.wall_us / self.other.wall_us - 1 if self.other.wall_us else 0.0


def step_times(timeline: Timeline) -> dict[str, StepTime]:
    """Each step of a timeline of an LLM's steps, by label, in order."""
    steps = timeline.meta.get("steps") or []
    if not steps:
        raise KernelscopeError(
            f"{timeline.origin}: not a timeline of an LLM's steps",
            hint="measure one with kernelscope timeline WS --steps prefill=128,decode=8",
        )
    replays: dict[str, int] = {}
    for c in timeline.calls:
        if c.primfunc == GRAPH_REPLAY:
            replays[c.step] = replays.get(c.step, 0) + 1
    out = {}
    for s in steps:
        label = f"{s['name']} {s['index']}"
        out[label] = StepTime(
            gpu_us=float(s["gpu_us"]),
            wall_us=1000 * float(s["wall_ms"]),
            calls=int(s.get("calls") or 0),
            graph_replays=replays.get(label, 0),
            cuda_graph=s.get("cuda_graph"),
        )
    return out


def compare_steps(this: Timeline, other: Timeline) -> list[StepComparison]:
    """The steps both timelines ran, in this one's order; none in common is an error."""
    mine, theirs = step_times(this), step_times(other)
    both = [StepComparison(label, t, theirs[label]) for label, t in mine.items() if label in theirs]
    if not both:
        raise KernelscopeError(
            "the two timelines ran no step in common "
            f"({', '.join(mine)} against {', '.join(theirs)})",
            hint="measure both with the same --steps",
        )
    return both
