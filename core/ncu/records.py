"""Plain data types of an imported Nsight Compute profile (no Qt, no ncu_report objects).

* ``Launch``: one profiled kernel launch (a "result" in Nsight Compute): names, grid, block,
  device, the headline numbers of the kernel list, rule results.
* ``InstructionTable``: the per-instruction metrics of one launch (or of several launches of
  one kernel, combined), one row per SASS instruction, keyed by the byte **offset from the
  function start** (absolute PCs change from run to run; offsets match the static SASS of a
  kernelscope workspace). Numeric metrics are float64 numpy arrays with NaN where Nsight Compute
  has no value; enum/string metrics are lists.
* ``LineMetrics``: the same metrics aggregated over the instructions of one source line (or one
  file, one kernel, the whole model), with the right rule per metric (``metrics.Kind``).
* ``RuleResult``: an optimisation hint of Nsight Compute's rules, with its estimated speedup.
* ``KernelSummary``: one row of the kernel list, what a build and/or a profile know of a kernel.
* ``HotLine``: one entry of the hot-line ranking (``hot_lines.rank_lines``).

``profile.Profile`` ties these together; see its docstring for how to use them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from ..workspace import Location, TunedFrom
from .metrics import STALL_REASONS, stall_key

if TYPE_CHECKING:  # numpy loads with the first table, not with the kernel list
    import numpy as np

Dim3 = tuple[int, int, int]

# Kernel-level numbers by the name the kernel list shows them under (``KernelSummary.metrics``).
TIME_US = "Time (µs)"
TIME_SHARE = "Time %"
LAUNCHES = "Launches"
MEAN_US = "Mean (µs)"
KERNEL_METRICS = (
    TIME_US,
    TIME_SHARE,
    LAUNCHES,
    MEAN_US,
    "SM %",
    "Memory %",
    "Occupancy %",
    "Est. speedup %",
)


@dataclass
class RuleResult:
    rule: str  # rule identifier, e.g. "UncoalescedGlobalAccess"
    section: str  # section identifier, e.g. "SourceCounters"
    kind: str  # "OPT" (optimisation opportunity), "INF", "WRN", "ERR"
    message: str
    title: str = ""
    speedup_type: str = ""  # "global" (whole kernel) or "local" (its part of the kernel)
    speedup_pct: float | None = None  # estimated speedup, percent


@dataclass
class Launch:
    """One profiled launch. ``id`` is Nsight Compute's result ID (0-based, report order)."""

    id: int
    name: str  # function name, what TVM wrote ("softmax_kernel")
    demangled: str = ""
    mangled: str = ""
    grid: Dim3 | None = None
    block: Dim3 | None = None
    device: int | None = None
    device_name: str = ""
    cc: str = ""  # "9.0"
    duration_ns: float | None = None
    sm_throughput_pct: float | None = None
    memory_throughput_pct: float | None = None
    achieved_occupancy_pct: float | None = None
    theoretical_occupancy_pct: float | None = None
    registers: int | None = None
    shared_static_bytes: int | None = None
    shared_dynamic_bytes: int | None = None
    function_start: int | None = None  # absolute PC of the first instruction
    rules: list[RuleResult] = field(default_factory=list)
    has_source_metrics: bool = False  # per-instruction metrics exist for this launch


@dataclass
class InstructionTable:
    offsets: np.ndarray  # int64, sorted ascending
    locations: list[Location | None]  # line in the kernel's own file (call site if inlined)
    numbers: dict[str, np.ndarray]  # metric key -> float64, NaN = no value
    categories: dict[str, list[str | None]] = field(default_factory=dict)
    sass: list[str] | None = None  # SASS text per row; None when not loaded
    # Header line an instruction was inlined from (crt/math_functions.hpp:1133), when known:
    # ncu_report only gives the call site in the kernel's file; the cuda,sass CSV view and a
    # workspace's nvdisasm line table also give the inlined frame.
    inlined: list[Location | None] | None = None

    def __len__(self) -> int:
        return len(self.offsets)

    def index_of(self, offset: int) -> int | None:
        import numpy as np

        i = int(np.searchsorted(self.offsets, offset))
        if i < len(self.offsets) and int(self.offsets[i]) == offset:
            return i
        return None

    def row(self, offset: int) -> dict[str, float | str]:
        """All metrics of the instruction at ``offset`` (empty if there is none)."""
        i = self.index_of(offset)
        if i is None:
            return {}
        out: dict[str, float | str] = {
            k: float(v[i]) for k, v in self.numbers.items() if not math.isnan(v[i])
        }
        for k, values in self.categories.items():
            value = values[i]
            if value is not None:
                out[k] = value
        return out

    def metric(self, key: str) -> np.ndarray:
        """One numeric metric for every row (NaN where absent or unknown)."""
        import numpy as np

        col = self.numbers.get(key)
        return col if col is not None else np.full(len(self.offsets), np.nan)

    def total(self, key: str) -> float:
        import numpy as np

        col = self.numbers.get(key)
        return float(np.nansum(col)) if col is not None else 0.0

    @property
    def has_lines(self) -> bool:
        return any(loc is not None for loc in self.locations)


@dataclass
class LineMetrics:
    """Metrics of a group of instructions: a source line, a file, a kernel or the model."""

    file: str | None
    line: int | None
    values: dict[str, float]
    categories: dict[str, str] = field(default_factory=dict)
    offsets: list[int] = field(default_factory=list)  # instructions of this line

    def get(self, key: str, default: float = 0.0) -> float:
        return self.values.get(key, default)

    def stalls(
        self, top: int | None = None, not_issued: bool = False
    ) -> list[tuple[str, float, float]]:
        """Stall reasons with samples on this group, most first (ties by name): (reason,
        samples, share of the group's samples over all reasons); ``top`` keeps the first few."""
        pairs = [(r, self.values.get(stall_key(r, not_issued), 0.0)) for r in STALL_REASONS]
        total = sum(v for _, v in pairs)
        pairs = sorted((p for p in pairs if p[1] > 0), key=lambda p: (-p[1], p[0]))
        return [(r, v, v / total if total else 0.0) for r, v in pairs[:top]]


@dataclass(frozen=True)
class KernelSummary:
    """One kernel of the kernel list: what its build and/or its profile say about it.

    A profile fills ``launches`` (report order) and the numbers combined over them: durations
    add, rates are weighted by duration. A build workspace fills the build facts (``ops``,
    ``sass_instructions``, ``source_lines``; ``grid``/``block`` and ``registers`` from the
    manifest rather than the first launch). A value, never changed once made: a document
    with both sources makes a new one with ``dataclasses.replace``.
    """

    name: str
    launches: tuple[Launch, ...] = ()
    duration_ns: float | None = None  # sum over the launches that have one
    share: float = 0.0  # of the whole profile's duration (0..1)
    sm_throughput_pct: float | None = None  # duration-weighted over launches
    memory_throughput_pct: float | None = None
    achieved_occupancy_pct: float | None = None
    registers: int | None = None
    grid: tuple[int, ...] = ()
    block: tuple[int, ...] = ()
    ops: tuple[str, ...] = ()  # fused Relax operators, program order
    # the build's counts; None when not known (a report opened without its workspace)
    sass_instructions: int | None = None
    source_lines: int | None = None
    top_stall: str = ""  # the stall reason with the most samples over the kernel
    tuned: TunedFrom | None = None  # built from a tuning record (the build's; None: default)
    about: tuple[str, ...] = ()  # the build's other lines about it (``KernelInfo.about``)
    # the lines of the user's model file its operators came from (``model_lines``)
    model_lines: tuple[str, ...] = ()

    @property
    def first(self) -> Launch | None:
        return self.launches[0] if self.launches else None

    @property
    def device_name(self) -> str:
        return self.launches[0].device_name if self.launches else ""

    # (mean_ns and speedup_pct go over every launch, each of its rules for the speedup: kept,
    # since the kernel list asks for them on every paint, 0.1 s a fit of its columns at 500
    # launches)
    @cached_property
    def mean_ns(self) -> float | None:
        """Mean duration: the sum of the measured durations over the number of measured
        launches (a launch without a duration is not a zero)."""
        measured = [x.duration_ns for x in self.launches if x.duration_ns is not None]
        return sum(measured) / len(measured) if measured else None

    @cached_property
    def speedup_pct(self) -> float | None:
        """The largest speedup Nsight Compute's rules estimate for any of the launches."""
        found = [r.speedup_pct for x in self.launches for r in x.rules if r.speedup_pct is not None]
        return max(found) if found else None

    @property
    def metrics(self) -> dict[str, float]:
        """The profile's kernel-level numbers by ``KERNEL_METRICS`` name (absent if unknown)."""
        if not self.launches:
            return {}
        mean = self.mean_ns
        values = {
            TIME_US: (self.duration_ns or 0.0) / 1000,
            TIME_SHARE: 100 * self.share,
            LAUNCHES: float(len(self.launches)),
            MEAN_US: mean / 1000 if mean is not None else None,
            "SM %": self.sm_throughput_pct,
            "Memory %": self.memory_throughput_pct,
            "Occupancy %": self.achieved_occupancy_pct,
            "Est. speedup %": self.speedup_pct,
        }
        return {key: v for key, v in values.items() if v is not None}


@dataclass(frozen=True)
class HotLine:
    """One line of the hot-line ranking, in the kernel's own file (inlined header code counts
    at its call site there)."""

    rank: int  # 1-based
    kernel: str
    file: str  # as recorded in the line table
    line: int
    value: float  # the ranking metric on this line
    share: float  # of that metric's total over the ranked scope (0..1)
    metrics: LineMetrics  # every metric of the line
    stalls: list[tuple[str, float, float]]  # (reason, samples, share): all with samples, most first
    source: str | None = None  # the line's text, when the file could be found

    @property
    def top_stall(self) -> str:
        """The stall reason with the most samples on this line ("" when none)."""
        return self.stalls[0][0] if self.stalls else ""
