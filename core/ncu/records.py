"""Plain data types of an imported Nsight Compute profile (no Qt, no ncu_report objects).

* ``Launch``: one profiled kernel launch (a "result" in Nsight Compute): names, grid, block,
  device, the headline numbers of the kernel list, rule results.
* ``InstructionTable``: the per-instruction metrics of one launch (or of several launches of
  one kernel, combined), one row per SASS instruction, keyed by the byte **offset from the
  function start** (absolute PCs change from run to run; offsets match the static SASS of a
  kernelscope workspace). Numeric metrics are float64 numpy arrays with NaN where Nsight Compute
  has no value; enum/string metrics are lists.
* ``LineMetrics``: the same metrics aggregated over the instructions of one source line (or one
  file, one kernel, the whole model), with the right rule per metric (``ncu_metrics.Kind``).
* ``RuleResult``: an optimisation hint of Nsight Compute's rules, with its estimated speedup.
* ``HotLine``: one entry of a hot-line ranking.

``profile.Profile`` ties these together; see its docstring for how to use them.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from .metrics import STALL_PREFIX, STALL_REASONS, stall_key

Location = tuple[str, int]  # (file path as recorded in the report, 1-based line)
Dim3 = tuple[int, int, int]


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

    @property
    def display_name(self) -> str:
        return self.name or self.demangled or self.mangled


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
        out.update({k: v[i] for k, v in self.categories.items() if v[i] is not None})
        return out

    def metric(self, key: str) -> np.ndarray:
        """One numeric metric for every row (NaN where absent or unknown)."""
        col = self.numbers.get(key)
        return col if col is not None else np.full(len(self.offsets), np.nan)

    def total(self, key: str) -> float:
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

    def stalls(self, top: int = 3, not_issued: bool = False) -> list[tuple[str, float, float]]:
        """The dominant stall reasons: (reason, samples, share of this line's samples)."""
        pairs = [(r, self.values.get(stall_key(r, not_issued), 0.0)) for r in STALL_REASONS]
        total = sum(v for _, v in pairs)
        pairs = sorted((p for p in pairs if p[1] > 0), key=lambda p: (-p[1], p[0]))
        return [(r, v, v / total if total else 0.0) for r, v in pairs[:top]]

    def stall_values(self) -> Iterator[tuple[str, float]]:
        for key, v in self.values.items():
            if key.startswith(STALL_PREFIX):
                yield key, v


@dataclass
class HotLine:
    rank: int
    kernel: str
    file: str
    line: int
    value: float  # the ranking metric on this line
    share: float  # of that metric's total over the ranked scope (0..1)
    metrics: LineMetrics
    stalls: list[tuple[str, float, float]]  # dominant stall reasons (see LineMetrics.stalls)
    source: str | None = None  # the line's text, when the file could be resolved
