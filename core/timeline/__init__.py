"""A model's timeline: every kernel call of one forward pass in order with its duration,
measured by the model runner with CUDA events (locally or over SSH) or read from an Nsight
Systems export; time shares per kernel and per Relax operator type; and the Nsight Compute
selection that profiles one chosen call."""

from .agreement import Agreement, CallAgreement, ncu_agreement
from .measure import (
    TimelineRequest,
    from_runner,
    measure_timeline,
    saved_timelines,
    timelines_dir,
)
from .model import KernelSelection, Share, Timeline, TimelineCall
from .nsys import read_nsys, read_nsys_sqlite
from .open import TIMELINE_SUFFIXES, open_timeline
from .profile_call import profile_call
from .steps_compare import StepComparison, StepTime, compare_steps
from .summary import TimelineSummary, summarise

__all__ = [
    "Agreement",
    "CallAgreement",
    "TIMELINE_SUFFIXES",
    "KernelSelection",
    "Share",
    "StepComparison",
    "StepTime",
    "Timeline",
    "TimelineCall",
    "TimelineSummary",
    "summarise",
    "compare_steps",
    "TimelineRequest",
    "from_runner",
    "measure_timeline",
    "ncu_agreement",
    "open_timeline",
    "profile_call",
    "read_nsys",
    "read_nsys_sqlite",
    "saved_timelines",
    "timelines_dir",
]
