"""One kernel's Details: the launch-level numbers Nsight Compute's Details page shows, as one
Qt-free value the Details pane, ``kernelscope details`` and the roofline read.

    details = kernel_details(profile, "softmax_kernel")          # launches combined
    details = kernel_details(profile, "softmax_kernel", launch=4)  # one launch
    for view in details.views:             # launch, sol, compute, memory, scheduler,
        view.title, view.rows, view.groups  # warp_state, instructions, occupancy, source
        view.available, view.note          # why empty, and the ncu flag that fills it
    details.metric("gpu__time_duration.sum").text()   # "63.84 us", tooltip: .description
    details.rules, details.markers          # Nsight Compute's rule results, source markers

Launches of one kernel combine the way the kernel list does (``detail_metrics.Combine``):
counts add, rates and percentages are means weighted by each launch's duration, launch
configuration and device facts are the first launch's (``DetailMetric.varies`` says when the
launches disagree), occupancy curves and opcode histograms are the longest launch's.
Rules and source markers are the longest launch's too: their messages quote that launch's
numbers, so merging them would mix launches.

Metric descriptions are NVIDIA's (``IMetric.description()``), so only a ``.ncu-rep`` has them;
CSV exports carry none.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field

from ..errors import KernelscopeError
from .detail_metrics import (
    BREAKDOWN_PARTS,
    BREAKDOWNS,
    DURATION,
    MEMORY,
    OCCUPANCY_CURVES,
    OPCODES,
    PIPES,
    SECTION_BY_ID,
    SECTOR_BYTES,
    WARP_STATES,
    Combine,
    LaunchMetrics,
    MetricRecord,
    Row,
    SourceMarker,
    Value,
    combine_rule,
)
from .profile import Profile
from .records import Launch, RuleResult

DERIVED_PREFIX = "kernelscope__"  # numbers kernelscope computes from Nsight Compute's
FULL_SET = "--set full"
RAW_PAGE_HINT = "export the raw page: ncu -i REPORT.ncu-rep --csv --page raw > raw.csv"


@dataclass
class DetailMetric:
    name: str  # Nsight Compute metric name (``kernelscope__...`` when computed here)
    label: str
    value: Value
    unit: str = ""  # base unit: ns, byte, hz, byte/s, %, cycle, inst...
    description: str = ""  # NVIDIA's text (tooltip); empty for CSV exports
    varies: bool = False  # launches of the kernel disagree (configuration metrics)

    def text(self) -> str:
        return format_value(self.value, self.unit)


@dataclass
class OccupancyCurve:
    """Warps per SM against one launch parameter, as the Occupancy section plots it."""

    label: str
    metric: str
    points: list[tuple[float, float]]  # (registers / block size / shared bytes, warps)
    current: float | None = None  # this kernel's value of the parameter


@dataclass
class DetailView:
    key: str
    title: str
    sections: list[str]  # the section identifiers that hold its numbers
    rows: list[DetailMetric] = field(default_factory=list)
    groups: dict[str, list[DetailMetric]] = field(default_factory=dict)  # bar charts
    curves: list[OccupancyCurve] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # sections it needs and lacks
    note: str = ""  # why it is empty or partial, with the flag that fills it

    @property
    def available(self) -> bool:
        return bool(self.rows or any(self.groups.values()) or self.curves)

    @property
    def flags(self) -> list[str]:
        return [SECTION_BY_ID[s].flag if s in SECTION_BY_ID else s for s in self.missing]


@dataclass
class KernelDetails:
    kernel: str
    launch_ids: list[int]
    source: str  # "report", "raw" (raw CSV page), "details" (details page only), "none"
    device: str
    duration_ns: float | None
    views: list[DetailView]
    rules: list[RuleResult]
    markers: list[SourceMarker]
    rules_launch: int | None  # the launch the rules and markers are from
    sections: list[str] | None  # sections of the report, when it says
    metrics: dict[str, DetailMetric] = field(default_factory=dict)

    def view(self, key: str) -> DetailView:
        for v in self.views:
            if v.key == key:
                return v
        raise KeyError(key)

    def metric(self, name: str) -> DetailMetric | None:
        return self.metrics.get(name)

    def value(self, name: str) -> float | None:
        m = self.metrics.get(name)
        return float(m.value) if m is not None and isinstance(m.value, int | float) else None

    @property
    def missing_sections(self) -> list[str]:
        out: list[str] = []
        for v in self.views:
            out.extend(s for s in v.missing if s not in out)
        return out

    def to_json(self) -> dict:
        d = asdict(self)
        d.pop("metrics")
        return d


# ---- building --------------------------------------------------------------------------------
def kernel_details(profile: Profile, kernel: str, launch: int | None = None) -> KernelDetails:
    """The Details of a kernel (its launches combined) or of one of its launches."""
    summary = profile.kernel(kernel)
    launches = [profile.launch(launch)] if launch is not None else list(summary.launches)
    if launch is not None and launches[0].name != summary.name:
        raise KernelscopeError(f"launch {launch} is of {launches[0].name}, not {summary.name}")
    if not launches:
        raise KernelscopeError(f"{summary.name} has no launches in {profile.name}")
    per_launch = [profile.launch_metrics(x.id) for x in launches]
    descriptions = profile.metric_descriptions()
    return build_details(summary.name, launches, per_launch, descriptions)


def build_details(
    kernel: str,
    launches: Sequence[Launch],
    per_launch: Sequence[LaunchMetrics],
    descriptions: dict[str, str] | None = None,
) -> KernelDetails:
    descriptions = descriptions or {}
    weights = [x.duration_ns or 0.0 for x in launches]
    longest = max(range(len(launches)), key=lambda i: weights[i])
    names = list(dict.fromkeys(n for lm in per_launch for n in lm.values))
    metrics: dict[str, DetailMetric] = {}
    for name in names:
        records = [lm.values.get(name) for lm in per_launch]
        value, unit, varies = combine_records(records, weights, combine_rule(name))
        metrics[name] = DetailMetric(name, name, value, unit, descriptions.get(name, ""), varies)
    source = per_launch[longest].source
    sections = _sections(per_launch)
    ctx = _Context(metrics, per_launch[longest], sections, source)
    views = [
        _launch_view(ctx),
        _sol_view(ctx),
        _compute_view(ctx),
        _memory_view(ctx),
        _scheduler_view(ctx),
        _warp_state_view(ctx),
        _instructions_view(ctx),
        _occupancy_view(ctx),
        _source_view(ctx),
    ]
    device = next((x.device_name for x in launches if x.device_name), "")
    durations = [x.duration_ns for x in launches if x.duration_ns is not None]
    return KernelDetails(
        kernel=kernel,
        launch_ids=[x.id for x in launches],
        source=source,
        device=device,
        duration_ns=sum(durations) if durations else None,
        views=views,
        rules=list(launches[longest].rules),
        markers=list(per_launch[longest].markers),
        rules_launch=launches[longest].id,
        sections=sections,
        metrics=metrics,
    )


def combine_records(
    records: Sequence[MetricRecord | None], weights: Sequence[float], rule: Combine
) -> tuple[Value, str, bool]:
    """One value for a metric over launches; (value, unit, launches disagree)."""
    present = [(r, w) for r, w in zip(records, weights, strict=True) if r is not None]
    if not present:
        return None, "", False
    unit = present[0][0].unit
    if len(present) == 1:
        return present[0][0].value, unit, False
    numbers = [(float(r.value), w) for r, w in present if isinstance(r.value, int | float)]
    if rule is Combine.SAME or len(numbers) < len(present):
        first = present[0][0].value
        return first, unit, any(r.value != first for r, _ in present[1:])
    if rule is Combine.SUM:
        return sum(v for v, _ in numbers), unit, False
    total = sum(w for _, w in numbers)
    if total <= 0:
        return sum(v for v, _ in numbers) / len(numbers), unit, False
    return sum(v * w for v, w in numbers) / total, unit, False


def _sections(per_launch: Sequence[LaunchMetrics]) -> list[str] | None:
    known = [lm.sections for lm in per_launch if lm.sections is not None]
    if not known:
        return None
    return list(dict.fromkeys(s for sections in known for s in sections))


@dataclass
class _Context:
    metrics: dict[str, DetailMetric]
    longest: LaunchMetrics  # for instanced metrics (curves, histograms)
    sections: list[str] | None
    source: str

    def rows(self, rows: Iterable[Row]) -> list[DetailMetric]:
        out = []
        for r in rows:
            m = self.metrics.get(r.metric)
            if m is not None and m.value is not None:
                out.append(_labelled(m, r.label))
        return out

    def header(self, section: str) -> list[DetailMetric]:
        return self.rows(SECTION_BY_ID[section].header)

    def finish(self, view: DetailView, body_only: bool = False) -> DetailView:
        """Say which sections a view lacks (also when other sections lent it a few numbers),
        and the flag that collects them. ``body_only``: its charts are empty."""
        empty = not view.available or body_only
        if self.source == "report" and self.sections is not None:
            view.missing = [s for s in view.sections if s not in self.sections]
        elif empty:  # a CSV's details page lists only sections with header metrics or rules
            view.missing = list(view.sections)
        if self.source == "details" and empty:
            view.note = f"these numbers are on the raw page only; {RAW_PAGE_HINT}"
            return view
        if self.source == "none":
            view.note = (
                "the profile holds no launch-level metrics for this kernel (CSV exports of the "
                f"Source page only, or a damaged launch); {RAW_PAGE_HINT}"
            )
            return view
        if view.missing:
            flags = " ".join(SECTION_BY_ID[s].flag for s in view.missing if s in SECTION_BY_ID)
            lent = "; the numbers shown come from other sections" if view.available else ""
            view.note = (
                f"the profile has no {', '.join(view.missing)} section{lent}; collect it with "
                f"{flags} (or {FULL_SET})"
            )
        elif not view.available:
            view.note = "the profile holds none of these metrics"
        return view


def _labelled(m: DetailMetric, label: str) -> DetailMetric:
    return DetailMetric(m.name, label, m.value, m.unit, m.description, m.varies)


def _derived(name: str, label: str, value: Value, unit: str, description: str) -> DetailMetric:
    return DetailMetric(DERIVED_PREFIX + name, label, value, unit, description)


def _launch_view(ctx: _Context) -> DetailView:
    view = DetailView("launch", "Launch Statistics", ["LaunchStats"])
    view.rows = ctx.header("LaunchStats")
    duration = ctx.metrics.get(DURATION)
    if duration is not None and duration.value is not None:
        view.rows.insert(0, _labelled(duration, "Duration"))
    return ctx.finish(view)


def _sol_view(ctx: _Context) -> DetailView:
    view = DetailView("sol", "GPU Speed Of Light Throughput", ["SpeedOfLight"])
    view.rows = ctx.header("SpeedOfLight")
    for key, name in BREAKDOWNS.items():
        listed = ctx.metrics.get(name)
        parts = (
            listed.value.split(",")
            if listed is not None and isinstance(listed.value, str)
            else list(BREAKDOWN_PARTS[key])
        )
        bars = [_labelled(m, _unit_label(m.name)) for p in parts if (m := ctx.metrics.get(p))]
        view.groups[key] = sorted(
            (b for b in bars if isinstance(b.value, int | float)),
            key=lambda b: -float(b.value or 0),
        )
    return ctx.finish(view)


def _unit_label(metric: str) -> str:
    """``lts__t_sectors.avg.pct_of_peak_sustained_elapsed`` -> ``L2: T Sectors`` (ncu style)."""
    unit, _, rest = metric.partition("__")
    unit_names = {"lts": "L2", "l1tex": "L1", "dram": "DRAM", "fbpa": "DRAM", "sm": "SM"}
    what = rest.split(".", 1)[0].replace("_", " ").strip().title()
    return f"{unit_names.get(unit, unit.upper())}: {what}"


def _compute_view(ctx: _Context) -> DetailView:
    view = DetailView("compute", "Compute Workload Analysis", ["ComputeWorkloadAnalysis"])
    view.rows = ctx.header("ComputeWorkloadAnalysis")
    view.groups["pipes"] = sorted(ctx.rows(PIPES), key=lambda m: -_num(m.value))
    return ctx.finish(view, body_only=not view.groups["pipes"])


def _memory_view(ctx: _Context) -> DetailView:
    view = DetailView(
        "memory",
        "Memory Workload Analysis",
        ["MemoryWorkloadAnalysis", "MemoryWorkloadAnalysis_Tables"],
    )
    view.rows = ctx.header("MemoryWorkloadAnalysis")
    table = ctx.rows(MEMORY)
    m = ctx.metrics
    sectors = m.get("lts__t_sectors.sum")
    if sectors is not None and isinstance(sectors.value, int | float):
        table.insert(
            2,
            _derived(
                "l2_bytes",
                "L2 Bytes",
                float(sectors.value) * SECTOR_BYTES,
                "byte",
                "L2 sectors × 32 bytes (computed by kernelscope)",
            ),
        )
    for op, label in (("ld", "Load"), ("st", "Store")):
        req = _num_or_none(m.get(f"l1tex__t_requests_pipe_lsu_mem_global_op_{op}.sum"))
        sec = _num_or_none(m.get(f"l1tex__t_sectors_pipe_lsu_mem_global_op_{op}.sum"))
        if req and sec is not None:
            table.append(
                _derived(
                    f"l1_sectors_per_request_{op}",
                    f"L1 Global {label} Sectors Per Request",
                    sec / req,
                    "sector/request",
                    "L1 global sectors / requests (computed by kernelscope; 4 is ideal "
                    "for 32-bit accesses of a full warp)",
                )
            )
    view.groups["memory"] = table
    return ctx.finish(view, body_only=not table)


def _scheduler_view(ctx: _Context) -> DetailView:
    view = DetailView("scheduler", "Scheduler Statistics", ["SchedulerStats"])
    view.rows = ctx.header("SchedulerStats")
    return ctx.finish(view)


def _warp_state_view(ctx: _Context) -> DetailView:
    view = DetailView("warp_state", "Warp State Statistics", ["WarpStateStats"])
    view.rows = ctx.header("WarpStateStats")
    stalls = [s for s in ctx.rows(WARP_STATES) if _num(s.value) > 0]
    view.groups["stalls"] = sorted(stalls, key=lambda m: -_num(m.value))
    return ctx.finish(view, body_only=not stalls)


def _instructions_view(ctx: _Context) -> DetailView:
    view = DetailView("instructions", "Instruction Statistics", ["InstructionStats"])
    view.rows = ctx.header("InstructionStats")
    opcodes = ctx.longest.values.get(OPCODES)
    description = ctx.metrics[OPCODES].description if OPCODES in ctx.metrics else ""
    if opcodes is not None and opcodes.instances:
        bars = [
            DetailMetric(f"{OPCODES}:{op}", str(op), v, "inst", description)
            for op, v in opcodes.instances
            if isinstance(v, int | float) and v > 0
        ]
        view.groups["opcodes"] = sorted(bars, key=lambda m: -_num(m.value))
    return ctx.finish(view)


_CURVE_PARAMETER = {
    "launch__occupancy_per_register_count": "launch__registers_per_thread",
    "launch__occupancy_per_block_size": "launch__block_size",
}
_LIMITS = (
    ("Registers", "launch__occupancy_limit_registers"),
    ("Shared Memory", "launch__occupancy_limit_shared_mem"),
    ("Warps (block size)", "launch__occupancy_limit_warps"),
    ("Blocks per SM", "launch__occupancy_limit_blocks"),
    ("Barriers", "launch__occupancy_limit_barriers"),
)


def _occupancy_view(ctx: _Context) -> DetailView:
    view = DetailView("occupancy", "Occupancy", ["Occupancy"])
    view.rows = ctx.header("Occupancy")
    given = [(label, _num_or_none(ctx.metrics.get(name))) for label, name in _LIMITS]
    limits = [(label, v) for label, v in given if v is not None]
    if limits:
        fewest = min(v for _, v in limits)
        limiter = ", ".join(label for label, v in limits if v == fewest)
        view.rows.insert(
            2,
            _derived(
                "occupancy_limiter",
                "Occupancy Limiter",
                limiter,
                "",
                f"the block limit that allows the fewest blocks per SM ({fewest:g}); "
                "computed by kernelscope from the Block Limit metrics",
            ),
        )
    for row in OCCUPANCY_CURVES:
        record = ctx.longest.values.get(row.metric)
        if record is None or not record.instances:
            continue
        points = [
            (float(x), float(y))
            for x, y in record.instances
            if isinstance(x, int | float) and isinstance(y, int | float)
        ]
        param = _CURVE_PARAMETER.get(row.metric, "")
        current = _num_or_none(ctx.metrics.get(param))
        if row.metric.endswith("shared_mem_size"):
            static = _num_or_none(ctx.metrics.get("launch__shared_mem_per_block_static")) or 0.0
            dynamic = _num_or_none(ctx.metrics.get("launch__shared_mem_per_block_dynamic"))
            current = static + (dynamic or 0.0)
        view.curves.append(OccupancyCurve(row.label, row.metric, sorted(points), current))
    if not view.curves and view.rows and ctx.source != "report":
        view.note = "occupancy curves are in .ncu-rep reports only (CSV pages hold their sums)"
    return ctx.finish(view)


def _source_view(ctx: _Context) -> DetailView:
    view = DetailView("source", "Source Counters", ["SourceCounters"])
    view.rows = ctx.header("SourceCounters")
    return ctx.finish(view)


def _num(value: Value) -> float:
    return float(value) if isinstance(value, int | float) else 0.0


def _num_or_none(m: DetailMetric | None) -> float | None:
    if m is None or not isinstance(m.value, int | float) or math.isnan(float(m.value)):
        return None
    return float(m.value)


# ---- formatting --------------------------------------------------------------------------------
_SI = ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "K"))


def format_value(value: Value, unit: str) -> str:
    """A number the way Nsight Compute prints it: ``63.84 us``, ``16.93 MB``, ``1.98 GHz``."""
    if value is None:
        return "-"
    if isinstance(value, str):
        return value
    v = float(value)
    if unit == "ns":
        for scale, name in ((1e9, "s"), (1e6, "ms"), (1e3, "us")):
            if abs(v) >= scale:
                return f"{v / scale:.2f} {name}"
        return f"{v:.0f} ns"
    if unit in ("byte", "byte/s", "hz", "byte/block"):
        short = {"byte": "B", "byte/s": "B/s", "hz": "Hz", "byte/block": "B/block"}[unit]
        for scale, prefix in _SI:
            if abs(v) >= scale:
                return f"{v / scale:.2f} {prefix}{short}"
        return f"{v:g} {short}"
    if unit == "%":
        return f"{v:.2f} %"
    text = f"{v:,.0f}" if v.is_integer() and abs(v) >= 1000 else f"{v:.4g}"
    return f"{text} {unit}".rstrip()
