"""What a comparison produces: finished values (frozen, no I/O behind any property), so a
worker thread can make them and the window only reads them.

* ``Side``: one profile of the pair as the header shows it (file, model, GPU, passes).
* ``KernelMatch``: which kernel of the base is which kernel of the new profile, and how that
  was decided; ``KernelDelta``: the pair's times and whether the change is within noise.
* ``LaunchDelta``: one launch of a matched kernel against its counterpart (model order).
* ``ProfileDiff``: the per-kernel table, the launches, the model total and notes.
* ``LineRow``/``InstructionRow``/``OpcodeDelta``/``KernelComparison``: one matched kernel's
  sources aligned line by line, its SASS by opcode and, where it aligns, by instruction.
* ``LineChange``: one entry of "biggest regressions" / "biggest improvements".

Times are in ns. A kernel's time is the sum over its launches; ``*_per_pass`` divides that by
the number of passes (model iterations) the report profiled; deltas are of per-pass values,
which is the same as of sums when both reports profiled one pass.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .noise import NoiseModel

# How a match was made (KernelMatch.method), strongest evidence first.
STRUCTURE = "structure"  # same fused operators, attributes, shapes and dtypes (manifests)
SIMILAR_STRUCTURE = "similar structure"  # same operators and attributes, other shapes
NAME = "name"  # same name, and nothing says otherwise
SOURCE = "source"  # other names, near-identical normalised sources
UNMATCHED = "unmatched"
DIFFERENT_CODE = "different code"  # KernelMatch.how of a match whose sources hardly correspond

# KernelDelta.status
SLOWER = "slower"
FASTER = "faster"
WITHIN_NOISE = "within noise"
ONLY_BASE = "only in base"
ONLY_NEW = "only in new"
NO_TIME = "no time"  # one side has no duration for it

# A line's metric besides Nsight Compute's: how many SASS instructions it compiled to (static,
# exact; every line with per-instruction data has it).
INSTRUCTIONS = "instructions"

# LineRow.kind / InstructionRow.kind
SAME = "same"
CHANGED = "changed"
BASE_ONLY = "base only"
NEW_ONLY = "new only"


@dataclass(frozen=True)
class Side:
    role: str  # "base" or "new"
    name: str  # the profile's display name (file name)
    paths: tuple[str, ...]
    kind: str  # "report" or "CSV export"
    workspace: str | None  # the build workspace used for structure and sources
    model: str | None  # the model file the workspace was built from
    model_sha256: str | None
    devices: tuple[str, ...]  # GPU names, in order of appearance
    compute_capability: str
    launches: int
    kernels: int
    passes: int  # how often the launch sequence repeats (model iterations profiled)
    total_ns: float  # all launches
    has_source_metrics: bool  # per-instruction metrics (SourceCounters) in the profile
    warnings: tuple[str, ...] = ()

    @property
    def total_per_pass_ns(self) -> float:
        return self.total_ns / self.passes

    @property
    def device(self) -> str:
        return ", ".join(self.devices)


@dataclass(frozen=True)
class KernelMatch:
    base: str | None  # kernel name in the base profile; None: only in new
    new: str | None
    method: str  # STRUCTURE, SIMILAR_STRUCTURE, NAME, SOURCE or UNMATCHED
    evidence: str  # for people: what agreed, or why nothing matched
    score: float = 0.0  # 0..1 within its method (shape or source similarity)
    # The same operator, scheduled differently (a GEMV at batch 1, a GEMM at batch 8): the
    # sources hardly correspond, so lines are compared only where they do.
    different_code: bool = False

    @property
    def how(self) -> str:
        """The method, and "different code" where that applies: what a table shows."""
        return f"{self.method}, {DIFFERENT_CODE}" if self.different_code else self.method

    @property
    def renamed(self) -> bool:
        return self.base is not None and self.new is not None and self.base != self.new

    @property
    def label(self) -> str:
        if self.base is None or self.new is None or not self.renamed:
            return self.base or self.new or ""
        return f"{self.base} -> {self.new}"


@dataclass(frozen=True)
class TimeDelta:
    """Two times, per pass, and whether their difference is within noise."""

    base_ns: float | None  # sum over the launches (of a kernel, or of the whole model)
    new_ns: float | None
    base_per_pass_ns: float | None
    new_per_pass_ns: float | None
    delta_ns: float | None  # new - base, per pass
    noise_ns: float | None  # half-width of the noise band around delta_ns
    status: str  # SLOWER, FASTER, WITHIN_NOISE, ONLY_BASE, ONLY_NEW, NO_TIME

    @property
    def ratio(self) -> float | None:
        """new / base per pass."""
        if self.base_per_pass_ns and self.new_per_pass_ns is not None:
            return self.new_per_pass_ns / self.base_per_pass_ns
        return None

    @property
    def pct(self) -> float | None:
        """The change in percent of the base time."""
        r = self.ratio
        return None if r is None else (r - 1) * 100

    @property
    def within_noise(self) -> bool:
        return self.status == WITHIN_NOISE


@dataclass(frozen=True)
class KernelDelta(TimeDelta):
    match: KernelMatch = field(default_factory=lambda: KernelMatch(None, None, UNMATCHED, ""))
    base_launches: int = 0
    new_launches: int = 0
    base_share: float = 0.0  # of the base profile's total time
    new_share: float = 0.0

    @property
    def name(self) -> str:
        return self.match.new or self.match.base or ""


@dataclass(frozen=True)
class LaunchDelta:
    base_kernel: str | None
    new_kernel: str | None
    occurrence: int  # 0 for a kernel's first launch, 1 for its second...
    base_id: int | None  # Nsight Compute result ID
    new_id: int | None
    base_ns: float | None
    new_ns: float | None

    @property
    def delta_ns(self) -> float | None:
        if self.base_ns is None or self.new_ns is None:
            return None
        return self.new_ns - self.base_ns


@dataclass(frozen=True)
class ProfileDiff:
    base: Side
    new: Side
    kernels: tuple[KernelDelta, ...]  # model order (new's, base-only kernels where they were)
    launches: tuple[LaunchDelta, ...]
    total: TimeDelta  # the whole model: the sum over kernels
    notes: tuple[str, ...]  # what a reader must know: other models, other GPUs, missing data
    noise: NoiseModel = field(default_factory=NoiseModel)

    @property
    def matched(self) -> tuple[KernelDelta, ...]:
        return tuple(k for k in self.kernels if k.match.base and k.match.new)

    @property
    def only_base(self) -> tuple[KernelDelta, ...]:
        return tuple(k for k in self.kernels if k.match.new is None)

    @property
    def only_new(self) -> tuple[KernelDelta, ...]:
        return tuple(k for k in self.kernels if k.match.base is None)

    def kernel(self, name: str, side: str | None = None) -> KernelDelta:
        """The row of a kernel by its name on ``side`` ("base" or "new"); without a side, by
        its new name, else its base name (after renumbering, one name can be a kernel of
        each profile, in two rows)."""
        sides = [side] if side else ["new", "base"]
        for role in sides:
            for k in self.kernels:
                if (k.match.new if role == "new" else k.match.base) == name:
                    return k
        raise KeyError(name)


@dataclass(frozen=True)
class LineRow:
    """One row of two sources aligned: a line on both sides, or on one side only."""

    kind: str  # SAME, CHANGED, BASE_ONLY, NEW_ONLY
    base_line: int | None  # 1-based
    new_line: int | None
    base_text: str | None
    new_text: str | None
    base: Mapping[str, float] = field(default_factory=dict)  # the base line's metrics
    new: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class InstructionRow:
    kind: str  # SAME (same opcode and operands), CHANGED (same opcode), BASE_ONLY, NEW_ONLY
    base_offset: int | None
    new_offset: int | None
    base_text: str | None
    new_text: str | None
    base: Mapping[str, float] = field(default_factory=dict)
    new: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class OpcodeDelta:
    opcode: str  # with modifiers, as nvdisasm prints it: LDG.E.128
    base_count: int  # static: instructions in the kernel
    new_count: int
    base_executed: float | None  # dynamic: warp-level executions (inst_executed), if measured
    new_executed: float | None

    @property
    def count_delta(self) -> int:
        return self.new_count - self.base_count

    @property
    def executed_delta(self) -> float | None:
        if self.base_executed is None or self.new_executed is None:
            return None
        return self.new_executed - self.base_executed


@dataclass(frozen=True)
class KernelComparison:
    """One matched kernel, source and SASS, both sides. Line metrics are per profiled launch
    sums; ``delta`` divides by each side's passes."""

    kernel: KernelDelta
    base_passes: int
    new_passes: int
    base_file: str | None  # the kernel's own source file as each profile recorded it
    new_file: str | None
    rows: tuple[LineRow, ...]
    sources_identical: bool  # equal up to TVM's numbering of names
    base_has_lines: bool  # per-line metrics on that side
    new_has_lines: bool
    opcodes: tuple[OpcodeDelta, ...]
    instructions: tuple[InstructionRow, ...]  # empty when the streams do not align
    instructions_aligned: float  # share of instructions in aligned (same/changed) rows
    base_totals: dict[str, float] = field(default_factory=dict)  # kernel totals per metric
    new_totals: dict[str, float] = field(default_factory=dict)
    notes: tuple[str, ...] = ()  # why something is missing (no source counters...)
    noise: NoiseModel = field(default_factory=NoiseModel)

    def value(self, row: LineRow | InstructionRow, metric: str, side: str) -> float | None:
        """A row's per-pass value on one side; None when that side has no per-line data or
        no such line. An absent metric on a present line is 0."""
        has = self.base_has_lines if side == "base" else self.new_has_lines
        line = row.base_line if isinstance(row, LineRow) else row.base_offset
        if side == "new":
            line = row.new_line if isinstance(row, LineRow) else row.new_offset
        if not has or line is None:
            return None
        values = row.base if side == "base" else row.new
        passes = self.base_passes if side == "base" else self.new_passes
        return values.get(metric, 0.0) / passes

    def corresponds(self, row: LineRow | InstructionRow) -> bool:
        """Whether a row's two sides can be compared: a line on one side only counts as 0 on
        the other, except in different code, where it has no counterpart to be compared with."""
        return not self.kernel.match.different_code or row.kind in (SAME, CHANGED)

    def delta(self, row: LineRow | InstructionRow, metric: str) -> float | None:
        """new - base per pass; a line on one side only counts as 0 on the other (None in
        different code: see ``corresponds``)."""
        if not (self.base_has_lines and self.new_has_lines and self.corresponds(row)):
            return None
        a = self.value(row, metric, "base") or 0.0
        b = self.value(row, metric, "new") or 0.0
        return b - a

    def noise_band(self, row: LineRow | InstructionRow, metric: str) -> float:
        a = (self.value(row, metric, "base") or 0.0) * self.base_passes
        b = (self.value(row, metric, "new") or 0.0) * self.new_passes
        return self.noise.count_band(metric, a, b, self.base_passes, self.new_passes)

    def status(self, row: LineRow | InstructionRow, metric: str) -> str | None:
        """How a row's ``metric`` changed, as a kernel's time does: SLOWER (it grew: more
        samples, more instructions), FASTER (it shrank) or WITHIN_NOISE (no change beyond
        the noise band, which for exactly counted metrics is no change at all); None
        without per-line data on both sides."""
        return self.change(row, metric)[3]

    def change(
        self, row: LineRow | InstructionRow, metric: str
    ) -> tuple[float | None, float | None, float | None, str | None]:
        """(base value, new value, delta, status) of a row at once, as ``value``, ``delta``
        and ``status`` give them: what a table of a kernel's rows shows."""
        a, b = self.value(row, metric, "base"), self.value(row, metric, "new")
        if not (self.base_has_lines and self.new_has_lines and self.corresponds(row)):
            return a, b, None, None
        d = (b or 0.0) - (a or 0.0)
        band = self.noise.count_band(
            metric,
            (a or 0.0) * self.base_passes,
            (b or 0.0) * self.new_passes,
            self.base_passes,
            self.new_passes,
        )
        return a, b, d, WITHIN_NOISE if abs(d) <= band else SLOWER if d > 0 else FASTER


@dataclass(frozen=True)
class LineChange:
    """A line whose metric changed most between the profiles (see ``line_changes``)."""

    rank: int
    kernel: str  # the new name (base name for a kernel only in base)
    base_kernel: str | None
    new_kernel: str | None
    row: LineRow
    metric: str
    base_value: float | None  # per pass
    new_value: float | None
    delta: float
    noise: float  # half-width of the noise band

    @property
    def within_noise(self) -> bool:
        return abs(self.delta) <= self.noise
