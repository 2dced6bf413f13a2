"""A report of an LLM's steps (``kernelscope profile WS --steps ... --profile-steps ...``): its
launches split into the steps the runner profiled.

The runner launches a marker kernel (``MARKER``) first in each profiled step, and
``kernelscope profile`` keeps the runner's list of the steps it ran beside the report
(``REPORT.ncu-rep.steps.json``); the n-th marker opens the n-th profiled step of that list.
The markers themselves are no kernels of the model: ``Profile`` leaves them out of its
launches and keeps their IDs (``Profile.step_markers``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import KernelscopeError
from .records import Launch

if TYPE_CHECKING:
    from .profile import Profile

STEPS_SUFFIX = ".steps.json"
# The runner's ``cuda.STEP_MARKER`` (the runner stands alone and imports nothing of core).
MARKER = "kernelscope_step_marker"
PROFILE_WITH_STEPS = (
    "profile with steps: kernelscope profile {ws} --steps prefill=128,decode=32 "
    "--profile-steps decode:0-3"
)


@dataclass
class StepLaunches:
    """One profiled step and the launches it made (marker left out)."""

    name: str
    index: int
    seq_len: int | None = None
    batch: int | None = None
    tokens: int | None = None  # the step's new tokens, all sequences
    total_len: int | None = None  # tokens in the KV cache after the step, all sequences
    wall_ms: float | None = None  # under ncu: serialised and replayed, not a real time
    # a CUDA graph build's step: "capture" (its first call at this shape captured the
    # graphs) or "replay"; None where the step function has no graphs
    cuda_graph: str | None = None
    launches: list[Launch] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"{self.name} {self.index}"

    @property
    def duration_ns(self) -> float:
        return sum(x.duration_ns or 0.0 for x in self.launches)


def steps_path(report: Path) -> Path:
    return report.with_name(report.name + STEPS_SUFFIX)


def assign_steps(names: Sequence[str]) -> list[int | None]:
    """For each launch in report order, the profiled step it belongs to (0 for the launches
    after the first marker, 1 after the second...); None for a marker itself and for a launch
    before the first marker."""
    out: list[int | None] = []
    step = -1
    for name in names:
        if name == MARKER:
            step += 1
            out.append(None)
        else:
            out.append(step if step >= 0 else None)
    return out


def read_steps(report: Path, workspace: Path | None = None, markers: int = 0) -> dict[str, Any]:
    """The runner's step list kept beside ``report``; a clear error when there is none."""
    path = steps_path(report)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        hint = PROFILE_WITH_STEPS.format(ws=workspace or "WORKSPACE")
        if markers:
            raise KernelscopeError(
                f"{report.name} holds {markers} step markers but its step list "
                f"({path.name}) is missing",
                hint=hint,
            ) from None
        raise KernelscopeError(
            f"{report.name} was not profiled step by step (no {path.name} beside it)", hint=hint
        ) from None
    except (OSError, ValueError) as exc:
        raise KernelscopeError(f"{path}: not a step list ({exc})") from exc
    if not isinstance(raw, dict) or not isinstance(raw.get("steps"), list):
        raise KernelscopeError(f"{path}: not a step list (no 'steps')")
    return raw


def report_steps(profile: Profile, workspace: Path | None = None) -> list[StepLaunches]:
    """The profiled steps of a report with their launches, in order."""
    report = profile.paths[0]
    raw = read_steps(report, workspace, len(profile.step_markers))
    profiled = [s for s in raw["steps"] if isinstance(s, dict) and s.get("profiled")]
    if len(profiled) != len(profile.step_markers):
        raise KernelscopeError(
            f"{report.name} holds {len(profile.step_markers)} step markers, its step list "
            f"{len(profiled)} profiled steps: they are not of the same run",
            hint="profile the steps again: " + PROFILE_WITH_STEPS.format(ws=workspace or "WS"),
        )
    steps = [
        StepLaunches(
            name=str(s.get("name", "?")),
            index=int(s.get("index", i)),
            seq_len=s.get("seq_len"),
            batch=s.get("batch"),
            tokens=s.get("tokens"),
            total_len=s.get("total_len"),
            wall_ms=s.get("wall_ms"),
            cuda_graph=s.get("cuda_graph"),
        )
        for i, s in enumerate(profiled)
    ]
    ordered = sorted(
        [(m, MARKER, None) for m in profile.step_markers]
        + [(x.id, x.name, x) for x in profile.launches]
    )
    for (_, _, launch), step in zip(
        ordered, assign_steps([name for _, name, _ in ordered]), strict=True
    ):
        if launch is not None and step is not None:
            steps[step].launches.append(launch)
    return steps


def choose_step(steps: list[StepLaunches], text: str) -> StepLaunches:
    """The step ``decode:2`` (or ``prefill``: its first) names among ``steps``."""
    name, _, index = text.partition(":")
    for s in steps:
        if s.name == name and (not index or (index.isdigit() and s.index == int(index))):
            return s
    profiled = ", ".join(f"{s.name}:{s.index}" for s in steps) or "none"
    raise KernelscopeError(
        f"--step {text}: the report has no such profiled step", hint=f"its steps: {profiled}"
    )
