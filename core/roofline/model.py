"""Roofline points from a profile's counters, and the device's ceilings.

The formulas are Nsight Compute's own (its SpeedOfLight roofline chart sections):

* achieved work, FLOP/s: FP32 ``(fadd + fmul + 2·ffma per cycle) × smsp__cycles_elapsed.avg
  .per_second`` (the ``derived__..._ffma_pred_on_x2`` metric is already 2·ffma); FP64 the same
  with dadd/dmul/dfma; FP16 ``(2·hadd + 2·hmul + 4·hfma)``; tensor ``Σ sm__ops_path_tensor_src_*
  per cycle × sm__cycles_elapsed.avg.per_second``;
* achieved traffic, B/s: DRAM ``dram__bytes.sum.per_second``, L2
  ``derived__lts__lts2xbar_bytes.sum.per_second``, L1
  ``derived__l1tex__lsu_writeback_bytes_mem_lgds.sum.per_second``;
* peaks: the ``peak_sustained`` per-cycle metrics times the unit's measured clock.

Totals are exact counts: FLOPs are the per-cycle rates × ``smsp__cycles_elapsed.avg`` (the
cycles they are a rate over), bytes the per-second rates × ``gpu__time_duration.sum``. Achieved
FLOP/s is FLOPs over the SM's elapsed time (cycles / clock), as Nsight computes it; launches of
a kernel add up, so its point is total work over total time. A kernel's *roofline time* is
the time the roofline allows for the work it did:
``max(Σ_precision FLOPs / peak, max_level bytes / bandwidth)``.

Reports made without the roofline sections (kernelscope's quick profiles, ncu's default set)
still have the device attributes; ``Ceilings.from_device`` derives DRAM bandwidth and the FP32
peak from them, so operator times can be computed, but no achieved point.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field

from ..ncu import DURATION, LaunchMetrics, Profile

PRECISIONS = ("fp32", "fp64", "fp16", "tensor")
LEVELS = ("dram", "l2", "l1")
LEVEL_LABEL = {"dram": "DRAM", "l2": "L2", "l1": "L1"}
PRECISION_LABEL = {"fp32": "FP32", "fp64": "FP64", "fp16": "FP16", "tensor": "Tensor"}
ROOFLINE_SECTIONS = ("SpeedOfLight_RooflineChart", "SpeedOfLight_HierarchicalSingleRooflineChart")
ROOFLINE_FLAGS = " ".join(f"--section {s}" for s in ROOFLINE_SECTIONS)

SM_CLOCK = "smsp__cycles_elapsed.avg.per_second"
SM_CYCLES = "smsp__cycles_elapsed.avg"
SM_PEAK_CLOCK = "sm__cycles_elapsed.avg.per_second"
SM_PEAK_CYCLES = "sm__cycles_elapsed.avg"

# achieved operations per cycle, by precision (each entry: metric, operations per count)
_WORK: dict[str, tuple[tuple[str, float], ...]] = {
    "fp32": (
        ("smsp__sass_thread_inst_executed_op_fadd_pred_on.sum.per_cycle_elapsed", 1.0),
        ("smsp__sass_thread_inst_executed_op_fmul_pred_on.sum.per_cycle_elapsed", 1.0),
        ("derived__smsp__sass_thread_inst_executed_op_ffma_pred_on_x2", 1.0),
    ),
    "fp64": (
        ("smsp__sass_thread_inst_executed_op_dadd_pred_on.sum.per_cycle_elapsed", 1.0),
        ("smsp__sass_thread_inst_executed_op_dmul_pred_on.sum.per_cycle_elapsed", 1.0),
        ("derived__smsp__sass_thread_inst_executed_op_dfma_pred_on_x2", 1.0),
    ),
    "fp16": (
        ("derived__smsp__sass_thread_inst_executed_op_hadd_pred_on_x2", 1.0),
        ("derived__smsp__sass_thread_inst_executed_op_hmul_pred_on_x2", 1.0),
        ("derived__smsp__sass_thread_inst_executed_op_hfma_pred_on_x4", 1.0),
    ),
}
TENSOR_PATHS = ("fp16", "bf16_dst_fp32", "tf32_dst_fp32", "fp8_sparsity_off", "int8", "fp64")
_PEAK_WORK = {
    "fp32": "derived__sm__sass_thread_inst_executed_op_ffma_pred_on_x2",
    "fp64": "derived__sm__sass_thread_inst_executed_op_dfma_pred_on_x2",
    "fp16": "derived__sm__sass_thread_inst_executed_op_hfma_pred_on_x4",
}
# (achieved bytes/s, peak bytes/cycle, clock of that unit)
_TRAFFIC = {
    "dram": (
        "dram__bytes.sum.per_second",
        "dram__bytes.sum.peak_sustained",
        "dram__cycles_elapsed.avg.per_second",
    ),
    "l2": (
        "derived__lts__lts2xbar_bytes.sum.per_second",
        "derived__lts__lts2xbar_bytes.sum.peak_sustained",
        "lts__cycles_elapsed.avg.per_second",
    ),
    "l1": (
        "derived__l1tex__lsu_writeback_bytes_mem_lgds.sum.per_second",
        "derived__l1tex__lsu_writeback_bytes_mem_lgds.sum.peak_sustained",
        "l1tex__cycles_elapsed.avg.per_second",
    ),
}
# FP32 lanes per SM by compute capability, for ceilings from device attributes alone.
_FP32_LANES = {"7.0": 64, "7.2": 64, "7.5": 64, "8.0": 64, "8.6": 128, "8.7": 128, "8.9": 128}
_FP32_LANES_DEFAULT = 128  # sm_90 and later


def _tensor_metric(path: str, what: str) -> str:
    return f"sm__ops_path_tensor_src_{path}.sum.{what}"


def numbers(lm: LaunchMetrics) -> dict[str, float]:
    """The numeric values of one launch's metrics."""
    return {k: float(r.value) for k, r in lm.values.items() if isinstance(r.value, int | float)}


@dataclass
class Ceilings:
    """Peak FLOP/s per precision and bandwidth (B/s) per memory level of one device."""

    compute: dict[str, float] = field(default_factory=dict)  # precision -> FLOP/s
    bandwidth: dict[str, float] = field(default_factory=dict)  # level -> B/s
    tensor: dict[str, float] = field(default_factory=dict)  # tensor path -> op/s
    source: str = ""  # "measured peaks" (roofline sections) or "device attributes"
    device: str = ""

    @classmethod
    def from_launch(cls, v: Mapping[str, float], device: str = "") -> Ceilings:
        """A launch's peaks: ``peak_sustained`` per cycle × the measured clock."""
        out = cls(source="measured peaks", device=device)
        sm = v.get(SM_PEAK_CLOCK)
        if sm:
            for p, name in _PEAK_WORK.items():
                if v.get(name):
                    out.compute[p] = v[name] * sm
            for path in TENSOR_PATHS:
                peak = v.get(_tensor_metric(path, "peak_sustained"))
                if peak:
                    out.tensor[path] = peak * sm
            if out.tensor:
                out.compute["tensor"] = out.tensor.get("fp16", max(out.tensor.values()))
        for level, (_, peak_name, clock_name) in _TRAFFIC.items():
            if v.get(peak_name) and v.get(clock_name):
                out.bandwidth[level] = v[peak_name] * v[clock_name]
        return out

    @classmethod
    def from_device(cls, v: Mapping[str, float], device: str = "") -> Ceilings:
        """DRAM bandwidth and the FP32/FP64 peaks from device attributes (no roofline sections):
        DDR bus ``2 × memory clock × bus width``, FP32 ``2 × SMs × lanes × clock``."""
        out = cls(source="device attributes", device=device)
        mem = v.get("device__attribute_max_mem_frequency_khz")
        bus = v.get("device__attribute_global_memory_bus_width")
        if mem and bus:
            out.bandwidth["dram"] = 2 * mem * 1e3 * bus / 8
        sms = v.get("device__attribute_multiprocessor_count")
        clock = v.get("device__attribute_clock_rate")  # kHz
        major = v.get("device__attribute_compute_capability_major")
        minor = v.get("device__attribute_compute_capability_minor")
        if sms and clock:
            cc = f"{int(major or 0)}.{int(minor or 0)}"
            lanes = _FP32_LANES.get(cc, _FP32_LANES_DEFAULT)
            out.compute["fp32"] = 2 * sms * lanes * clock * 1e3
        return out

    @property
    def complete(self) -> bool:
        return "fp32" in self.compute and "dram" in self.bandwidth

    def peak_for(self, precision: str) -> float | None:
        return self.compute.get(precision) or self.compute.get("fp32")

    def to_json(self) -> dict:
        return asdict(self)


def combine_ceilings(parts: Sequence[tuple[Ceilings, float]]) -> Ceilings:
    """Duration-weighted mean of launches' ceilings (they differ only by measured clocks)."""
    parts = [(c, w) for c, w in parts if c.compute or c.bandwidth]
    if not parts:
        return Ceilings()
    out = Ceilings(source=parts[0][0].source, device=parts[0][0].device)
    for attr in ("compute", "bandwidth", "tensor"):
        keys = {k for c, _ in parts for k in getattr(c, attr)}
        for k in keys:
            pairs = [(getattr(c, attr)[k], w) for c, w in parts if k in getattr(c, attr)]
            total = sum(w for _, w in pairs)
            value = (
                sum(x * w for x, w in pairs) / total
                if total > 0
                else sum(x for x, _ in pairs) / len(pairs)
            )
            getattr(out, attr)[k] = value
    return out


@dataclass
class RooflinePoint:
    """One kernel (its launches combined) or one launch on the roofline."""

    kernel: str
    launch_ids: list[int]
    duration_ns: float
    share: float  # of the profile's total duration
    flops: dict[str, float]  # precision -> floating-point operations done
    bytes: dict[str, float]  # level -> bytes moved
    ceilings: Ceilings
    missing: list[str] = field(default_factory=list)  # metrics the point lacks
    elapsed_ns: float = 0.0  # SM elapsed time (cycles / clock); the duration when unknown

    @property
    def total_flops(self) -> float:
        return sum(self.flops.values())

    @property
    def flops_per_s(self) -> float:
        """Achieved work, Nsight's way: FLOPs over the SMs' elapsed time."""
        t = self.elapsed_ns or self.duration_ns
        return self.total_flops / (t * 1e-9) if t else 0.0

    def intensity(self, level: str = "dram") -> float | None:
        """Arithmetic intensity, FLOP per byte at that level (None without traffic)."""
        b = self.bytes.get(level)
        return self.total_flops / b if b else None

    @property
    def dominant(self) -> str:
        """The precision with the most work (fp32 when there is none)."""
        return max(self.flops, key=lambda p: self.flops[p]) if self.total_flops else "fp32"

    @property
    def compute_time_ns(self) -> float | None:
        terms = []
        for p, f in self.flops.items():
            if not f:
                continue
            peak = self.ceilings.compute.get(p)
            if not peak:
                return None
            terms.append(f / peak)
        return sum(terms) * 1e9

    def memory_time_ns(self, level: str) -> float | None:
        b, bw = self.bytes.get(level), self.ceilings.bandwidth.get(level)
        return b / bw * 1e9 if b is not None and bw else None

    @property
    def roofline_time_ns(self) -> float | None:
        """The least time the roofline allows for this work and traffic."""
        if self.missing:
            return None
        times = [self.compute_time_ns, *(self.memory_time_ns(lv) for lv in LEVELS)]
        known = [t for t in times if t is not None]
        return max(known) if known else None

    @property
    def bound(self) -> str:
        """What limits the kernel on the roofline: "compute" or a memory level."""
        times = {"compute": self.compute_time_ns or 0.0}
        times.update({lv: self.memory_time_ns(lv) or 0.0 for lv in LEVELS})
        return max(times, key=lambda k: times[k])

    @property
    def plottable(self) -> bool:
        return not self.missing and self.total_flops > 0 and bool(self.bytes.get("dram"))

    def to_json(self) -> dict:
        return {
            "kernel": self.kernel,
            "launch_ids": self.launch_ids,
            "duration_ns": self.duration_ns,
            "elapsed_ns": self.elapsed_ns,
            "share": self.share,
            "flops": self.flops,
            "bytes": self.bytes,
            "flops_per_s": self.flops_per_s,
            "intensity": {lv: self.intensity(lv) for lv in LEVELS},
            "roofline_time_ns": self.roofline_time_ns,
            "bound": self.bound if not self.missing else None,
            "missing": self.missing,
        }


def launch_point(
    kernel: str, launch_id: int, v: Mapping[str, float], device: str = ""
) -> RooflinePoint:
    """One launch's work, traffic and ceilings from its metrics."""
    duration = v.get(DURATION, 0.0)
    seconds = duration * 1e-9
    missing: list[str] = []
    flops: dict[str, float] = {}
    clock = v.get(SM_CLOCK)
    cycles = v.get(SM_CYCLES)
    if cycles is None and clock is not None:
        cycles = clock * seconds
    for p, terms in _WORK.items():
        given = [v.get(name) for name, _ in terms]
        rates = [r for r in given if r is not None]
        if len(rates) < len(given) or cycles is None:
            if p == "fp32":
                missing.extend(name for (name, _), r in zip(terms, given, strict=True) if r is None)
                if cycles is None:
                    missing.append(SM_CYCLES)
            continue
        flops[p] = sum(r * k for r, (_, k) in zip(rates, terms, strict=True)) * cycles
    sm_cycles = v.get(SM_PEAK_CYCLES) or cycles
    tensor = [v.get(_tensor_metric(path, "per_cycle_elapsed")) for path in TENSOR_PATHS]
    if sm_cycles and any(t is not None for t in tensor):
        flops["tensor"] = sum(t or 0.0 for t in tensor) * sm_cycles
    moved: dict[str, float] = {}
    for level, (rate, _, _) in _TRAFFIC.items():
        if rate in v:
            moved[level] = v[rate] * seconds
        elif level == "dram":
            missing.append(rate)
    return RooflinePoint(
        kernel=kernel,
        launch_ids=[launch_id],
        duration_ns=duration,
        share=0.0,
        flops=flops,
        bytes=moved,
        ceilings=Ceilings.from_launch(v, device),
        missing=missing,
        elapsed_ns=cycles / clock * 1e9 if cycles and clock else duration,
    )


def combine_points(points: Sequence[RooflinePoint], kernel: str) -> RooflinePoint:
    """Launches of one kernel: work, traffic and time add; ceilings are duration-weighted."""
    if len(points) == 1:
        return points[0]
    flops: dict[str, float] = {}
    moved: dict[str, float] = {}
    for p in points:
        for k, f in p.flops.items():
            flops[k] = flops.get(k, 0.0) + f
        for k, b in p.bytes.items():
            moved[k] = moved.get(k, 0.0) + b
    return RooflinePoint(
        kernel=kernel,
        launch_ids=[i for p in points for i in p.launch_ids],
        duration_ns=sum(p.duration_ns for p in points),
        share=sum(p.share for p in points),
        flops=flops,
        bytes=moved,
        ceilings=combine_ceilings([(p.ceilings, p.duration_ns) for p in points]),
        missing=list(dict.fromkeys(m for p in points for m in p.missing)),
        elapsed_ns=sum(p.elapsed_ns for p in points),
    )


def relevant_precisions(points: list[RooflinePoint]) -> list[str]:
    """FP32 always; FP16, FP64 and tensor when they hold 1% or more of all the work (ptxas
    sets registers to constants with HFMA2, which Nsight counts as a little FP16 work)."""
    total = sum(q.total_flops for q in points)
    out = ["fp32"]
    for p in ("fp16", "fp64", "tensor"):
        if total and sum(q.flops.get(p, 0.0) for q in points) >= 0.01 * total:
            out.append(p)
    return out


@dataclass
class Roofline:
    """The whole profile on the roofline: one point per kernel, the device's ceilings."""

    points: list[RooflinePoint]  # kernels, in the profile's kernel order
    ceilings: Ceilings
    launches: list[RooflinePoint] = field(default_factory=list)  # one per launch
    note: str = ""  # why points are missing, and the flag that collects them

    def point(self, kernel: str) -> RooflinePoint:
        for p in self.points:
            if p.kernel == kernel:
                return p
        raise KeyError(kernel)

    @property
    def available(self) -> bool:
        return any(p.plottable for p in self.points)

    def to_json(self) -> dict:
        return {
            "ceilings": self.ceilings.to_json(),
            "kernels": [p.to_json() for p in self.points],
            "launches": [p.to_json() for p in self.launches],
            "note": self.note,
        }


def roofline(profile: Profile, kernel: str | None = None) -> Roofline:
    """Every kernel's point (or one kernel's, with its launches), from the profile's counters."""
    kernels = [profile.kernel(kernel)] if kernel is not None else profile.kernels()
    total = sum(x.duration_ns or 0.0 for x in profile.launches)
    launch_points: list[RooflinePoint] = []
    points: list[RooflinePoint] = []
    device_values: dict[str, float] = {}
    sources = set()
    for k in kernels:
        own = []
        for launch in k.launches:
            lm = profile.launch_metrics(launch.id)
            sources.add(lm.source)
            v = numbers(lm)
            if not device_values:
                device_values = v
            p = launch_point(k.name, launch.id, v, launch.device_name)
            p.share = p.duration_ns / total if total else 0.0
            own.append(p)
        launch_points.extend(own)
        if own:
            points.append(combine_points(own, k.name))
    ceilings = combine_ceilings([(p.ceilings, p.duration_ns) for p in launch_points])
    note = ""
    if not ceilings.complete:
        fallback = Ceilings.from_device(device_values, ceilings.device)
        for attr in ("compute", "bandwidth"):
            for key, value in getattr(fallback, attr).items():
                getattr(ceilings, attr).setdefault(key, value)
        ceilings.source = ceilings.source or fallback.source
    if any(p.missing for p in points) and sources <= {"details", "none"}:
        note = (
            "the roofline counters are on the raw page, which these CSV exports lack; export "
            "it: ncu -i REPORT.ncu-rep --csv --page raw > raw.csv"
        )
    elif any(p.missing for p in points):
        note = (
            "the profile has no roofline counters (FLOP and byte rates) for "
            f"{sum(1 for p in points if p.missing)} of {len(points)} kernels; collect them with "
            f"{ROOFLINE_FLAGS} (or --set full)"
        )
    return Roofline(points=points, ceilings=ceilings, launches=launch_points, note=note)
