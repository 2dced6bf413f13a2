"""The per-instruction (Source page) metrics kernelscope knows, and how each one aggregates.

Every metric is keyed by its Nsight Compute metric name (``inst_executed``,
``smsp__pcsamp_warps_issue_stalled_long_scoreboard``...). CSV exports name the same metrics by
display label (``Instructions Executed``, ``stall_long_sb``), and labels changed between ncu
releases, so each entry lists the labels it is known by. A CSV column that is not in this table
is kept under its label and treated as a count when its values are numbers.

How a metric combines over several instructions (a source line, a file, a kernel) or several
launches of one kernel is fixed by its ``kind``:

* ``COUNT``: values add up (instructions, samples, sectors).
* ``AVERAGE``: a per-execution average; combined as the mean weighted by ``inst_executed``,
  never summed (``Avg. Threads Executed`` of a line is thread instructions / instructions).
  Nsight Compute's own Source view *sums* these over a line's instructions (a line of 15
  full-warp instructions shows 480 "Avg. Threads Executed"); kernelscope does not.
* ``CATEGORY``: an enum or string per instruction (``Global``, ``Load``); combined into a
  histogram printed the way Nsight Compute prints it, e.g. ``Global(3),Shared``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Kind(Enum):
    COUNT = "count"
    AVERAGE = "average"
    CATEGORY = "category"


@dataclass(frozen=True)
class SourceMetric:
    key: str  # Nsight Compute metric name
    label: str  # label in ncu 2025.3 CSV exports and GUI
    kind: Kind
    aliases: tuple[str, ...] = ()  # labels used by other ncu releases

    @property
    def labels(self) -> tuple[str, ...]:
        return (self.label, *self.aliases)


# The kernel-list numbers: metric name (raw CSV page, ncu_report) -> ``records.Launch`` field.
METRIC_FIELDS: dict[str, str] = {
    "gpu__time_duration.sum": "duration_ns",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed": "sm_throughput_pct",
    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed": "memory_throughput_pct",
    "sm__warps_active.avg.pct_of_peak_sustained_active": "achieved_occupancy_pct",
    "sm__maximum_warps_per_active_cycle_pct": "theoretical_occupancy_pct",
    "launch__registers_per_thread": "registers",
    "launch__shared_mem_per_block_static": "shared_static_bytes",
    "launch__shared_mem_per_block_dynamic": "shared_dynamic_bytes",
}
INT_FIELDS = frozenset({"registers", "shared_static_bytes", "shared_dynamic_bytes"})

SAMPLES = "smsp__pcsamp_sample_count"
INST_EXECUTED = "inst_executed"
STALLS_ALL = "group:smsp__pcsamp_warp_stall_reasons"
STALLS_NOT_ISSUED = "group:smsp__pcsamp_warp_stall_reasons_not_issued"
STALL_PREFIX = "smsp__pcsamp_warps_issue_stalled_"
NOT_ISSUED_SUFFIX = "_not_issued"

# (reason as in the metric name, CSV label, CSV label of the not-issued variant)
_STALLS: tuple[tuple[str, str, str], ...] = (
    ("barrier", "stall_barrier", "stall_barrier (Not Issued)"),
    ("branch_resolving", "stall_branch_resolving", "stall_branch_resolving (Not Issued)"),
    ("dispatch_stall", "stall_dispatch", "stall_dispatch (Not Issued)"),
    ("drain", "stall_drain", "stall_drain (Not Issued)"),
    ("imc_miss", "stall_imc", "stall_imc (Not Issued)"),
    ("lg_throttle", "stall_lg", "stall_lg (Not Issued)"),
    ("long_scoreboard", "stall_long_sb", "stall_long_sb (Not Issued)"),
    ("math_pipe_throttle", "stall_math", "stall_math (Not Issued)"),
    ("membar", "stall_membar", "stall_membar (Not Issued)"),
    ("mio_throttle", "stall_mio", "stall_mio (Not Issued)"),
    ("misc", "stall_misc", "stall_misc (Not Issued)"),
    ("no_instructions", "stall_no_inst", "stall_no_inst (Not Issued)"),
    ("not_selected", "stall_not_selected", "stall_not_selected (Not Issued)"),
    ("selected", "stall_selected", "stall_selected (Not Issued)"),
    ("short_scoreboard", "stall_short_sb", "stall_short_sb (Not Issued)"),
    ("sleeping", "stall_sleep", "stall_sleeping (Not Issued)"),
    ("tex_throttle", "stall_tex", "stall_tex (Not Issued)"),
    ("wait", "stall_wait", "stall_wait (Not Issued)"),
    # Hopper only; ncu 2025.3 has the metric but prints no CSV column for it.
    ("warpgroup_arrive", "stall_warpgroup_arrive", "stall_warpgroup_arrive (Not Issued)"),
)

STALL_REASONS: tuple[str, ...] = tuple(r for r, _, _ in _STALLS)


def stall_key(reason: str, not_issued: bool = False) -> str:
    return STALL_PREFIX + reason + (NOT_ISSUED_SUFFIX if not_issued else "")


def _m(key: str, label: str, kind: Kind = Kind.COUNT, *aliases: str) -> SourceMetric:
    return SourceMetric(key, label, kind, aliases)


_A = Kind.AVERAGE
_C = Kind.CATEGORY

SOURCE_METRICS: tuple[SourceMetric, ...] = (
    _m(
        STALLS_ALL,
        "Warp Stall Sampling (All Samples)",
        Kind.COUNT,
        "Warp Stall Sampling (All Cycles)",
        "Sampling Data (All)",
    ),
    _m(
        STALLS_NOT_ISSUED,
        "Warp Stall Sampling (Not-issued Samples)",
        Kind.COUNT,
        "Warp Stall Sampling (Not-issued Cycles)",
        "Sampling Data (Not Issued)",
    ),
    _m(SAMPLES, "# Samples"),
    _m(INST_EXECUTED, "Instructions Executed"),
    _m("thread_inst_executed", "Thread Instructions Executed"),
    _m("thread_inst_executed_true", "Predicated-On Thread Instructions Executed"),
    _m("derived__avg_thread_executed", "Avg. Threads Executed", _A),
    _m("derived__avg_thread_executed_true", "Avg. Predicated-On Threads Executed", _A),
    _m(
        "derived__derivative_avg_thread_executed_true",
        "Derivative Avg. Predicated-On Threads Executed",
        _A,
    ),
    _m("derived__avg_thread_unexecuted_true", "Avg. Predicated-On Threads Unexecuted", _A),
    _m("smsp__branch_targets_threads_divergent", "Divergent Branches"),
    _m("memory_type", "Address Space", _C),
    _m("memory_access_type", "Access Operation", _C),
    _m("memory_access_size_type", "Access Size", _C),
    _m("memory_l1_tag_requests_global", "L1 Tag Requests Global"),
    _m("derived__memory_l1_conflicts_shared_nway", "L1 Conflicts Shared N-Way", _A),
    _m("derived__memory_l1_wavefronts_shared_excessive", "L1 Wavefronts Shared Excessive"),
    _m("memory_l1_wavefronts_shared", "L1 Wavefronts Shared"),
    _m("memory_l1_wavefronts_shared_ideal", "L1 Wavefronts Shared Ideal"),
    _m(
        "derived__memory_l2_theoretical_sectors_global_excessive",
        "L2 Theoretical Sectors Global Excessive",
    ),
    _m("memory_l2_theoretical_sectors_global", "L2 Theoretical Sectors Global"),
    _m("memory_l2_theoretical_sectors_global_ideal", "L2 Theoretical Sectors Global Ideal"),
    _m("memory_l2_theoretical_sectors_local", "L2 Theoretical Sectors Local"),
    _m("smsp__sass_inst_executed_memdesc_explicit_evict_type", "L2 Explicit Evict Policies", _C),
    _m(
        "smsp__sass_inst_executed_memdesc_explicit_hitprop_evict_first",
        "L2 Explicit Hit Policy Evict First",
    ),
    _m(
        "smsp__sass_inst_executed_memdesc_explicit_hitprop_evict_last",
        "L2 Explicit Hit Policy Evict Last",
    ),
    _m(
        "smsp__sass_inst_executed_memdesc_explicit_hitprop_evict_normal",
        "L2 Explicit Hit Policy Evict Normal",
    ),
    _m(
        "smsp__sass_inst_executed_memdesc_explicit_hitprop_evict_normal_demote",
        "L2 Explicit Hit Policy Evict Normal Demote",
    ),
    _m(
        "smsp__sass_inst_executed_memdesc_explicit_missprop_evict_first",
        "L2 Explicit Miss Policy Evict First",
    ),
    _m(
        "smsp__sass_inst_executed_memdesc_explicit_missprop_evict_normal",
        "L2 Explicit Miss Policy Evict Normal",
    ),
    *(_m(stall_key(r), label) for r, label, _ in _STALLS),
    *(_m(stall_key(r, True), label) for r, _, label in _STALLS),
)

# Averages that CSV exports print as 0 on instructions they do not apply to (a shared-memory
# conflict factor is at least 1 on a shared access); a 0 there is no value, not a weight.
ZERO_IS_ABSENT = frozenset({"derived__memory_l1_conflicts_shared_nway"})

BY_KEY: dict[str, SourceMetric] = {m.key: m for m in SOURCE_METRICS}
_BY_LABEL: dict[str, SourceMetric] = {
    label.casefold(): m for m in SOURCE_METRICS for label in m.labels
}

# Enum codes of ncu_report's memory metrics, as the Source page prints them (observed on
# H200 reports; unknown codes are kept as their number).
ENUM_LABELS: dict[str, dict[int, str]] = {
    "memory_type": {4: "Global", 16: "Shared"},
    "memory_access_type": {2: "Load", 4: "Store"},
}


def by_label(label: str) -> SourceMetric | None:
    """The metric a CSV column label stands for, across ncu releases; None if unknown."""
    return _BY_LABEL.get(label.strip().casefold())


def kind_of(key: str) -> Kind:
    m = BY_KEY.get(key)
    return m.kind if m else Kind.COUNT


def label_of(key: str) -> str:
    m = BY_KEY.get(key)
    return m.label if m else key


def resolve_metric_name(text: str, available: set[str] | None = None) -> str | None:
    """Map what a user typed (metric name, label, CSV label, short stall name) to a key."""
    t = text.strip()
    if t in BY_KEY or (available is not None and t in available):
        return t
    m = by_label(t)
    if m:
        return m.key
    folded = t.casefold()
    for candidate in (STALL_PREFIX + folded, "stall_" + folded):
        if candidate in BY_KEY:
            return candidate
        m = by_label(candidate)
        if m:
            return m.key
    if available:
        for key in available:
            if key.casefold() == folded:
                return key
    return None
