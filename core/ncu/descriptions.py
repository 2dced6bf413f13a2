"""What each metric the viewer shows means: the text of its tooltip.

NVIDIA's report reader carries a description for the launch-level metrics
(``IMetric.description()``, kept by ``Profile.metric_descriptions``): the kernel list's
SM %, Memory %, Occupancy % and time are those metrics, so their tooltips give NVIDIA's text.
The per-instruction (Source page) metrics come with none (``description()`` is empty for
``inst_executed``, the PC-sampling counters and the memory ones in ncu 2025.3 reports), and CSV
exports carry no descriptions at all: for those the text below is kernelscope's, written from
the Nsight Compute Profiling Guide's description of the Source page and of the stall reasons.
"""

from __future__ import annotations

from collections.abc import Mapping

from .metrics import (
    INST_EXECUTED,
    NOT_ISSUED_SUFFIX,
    SAMPLES,
    STALL_PREFIX,
    STALLS_ALL,
    STALLS_NOT_ISSUED,
    resolve_metric_name,
)
from .records import LAUNCHES, MEAN_US, TIME_SHARE, TIME_US
from .stalls import _DESCRIPTIONS as _STALL_REASONS

# The kernel list's columns: (the Nsight Compute metric behind it, what kernelscope does with
# it). The metric's own description comes from the report when it has one.
_KERNEL_COLUMNS: dict[str, tuple[str, str]] = {
    TIME_US: ("gpu__time_duration.sum", "summed over the kernel's launches"),
    TIME_SHARE: ("gpu__time_duration.sum", "the kernel's share of all profiled kernels' time"),
    LAUNCHES: ("", "how many launches of this kernel the profile holds"),
    MEAN_US: ("gpu__time_duration.sum", "per launch: the time divided by the launches"),
    "SM %": (
        "sm__throughput.avg.pct_of_peak_sustained_elapsed",
        "the busiest SM unit's throughput, % of its peak; launches weighted by time",
    ),
    "Memory %": (
        "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
        "the busiest memory unit's throughput (DRAM, L2, L1), % of its peak; launches "
        "weighted by time",
    ),
    "Occupancy %": (
        "sm__warps_active.avg.pct_of_peak_sustained_active",
        "achieved occupancy: warps active per cycle, % of the most an SM can hold; launches "
        "weighted by time",
    ),
    "Est. speedup %": (
        "",
        "the largest speedup Nsight Compute's rules estimate for this kernel (see Details)",
    ),
}

# Source-page metrics, by Nsight Compute metric name.
_SOURCE: dict[str, str] = {
    STALLS_ALL: "Warp states sampled at this code, every reason counted (issued or stalled): "
    "where the warps spent their time.",
    STALLS_NOT_ISSUED: "Warp states sampled at this code in cycles where the warp issued "
    "nothing: time lost waiting here.",
    SAMPLES: "How often the PC sampler found a warp at this code: its share of the kernel's "
    "time, whatever the warp was doing.",
    INST_EXECUTED: "Warp instructions executed: once per warp, however many of its threads "
    "were active.",
    "thread_inst_executed": "Thread instructions executed: each warp instruction counts its "
    "active threads.",
    "thread_inst_executed_true": "Thread instructions executed with their predicate true: the "
    "threads that did the work (fewer than 32 per warp instruction: divergence or "
    "predication).",
    "derived__avg_thread_executed": "Active threads per executed warp instruction, on average "
    "(32 is a full warp).",
    "derived__avg_thread_executed_true": "Threads with a true predicate per executed warp "
    "instruction, on average (32 is a full warp).",
    "derived__avg_thread_unexecuted_true": "Threads whose predicate was false per executed "
    "warp instruction, on average.",
    "smsp__branch_targets_threads_divergent": "Branch targets where the threads of a warp went "
    "different ways: the paths run one after the other.",
    "memory_type": "The address space the instruction accesses (global, shared, local).",
    "memory_access_type": "What the memory instruction does: load, store or atomic.",
    "memory_access_size_type": "The size of each thread's access, in bits.",
    "memory_l1_tag_requests_global": "L1 tag requests of this code's global memory accesses.",
    "derived__memory_l1_conflicts_shared_nway": "Shared-memory bank conflicts: how many passes "
    "each request needs on average (1: no conflict, N: N-way).",
    "derived__memory_l1_wavefronts_shared_excessive": "Shared-memory wavefronts beyond the "
    "fewest the accessed bytes need: cycles lost to bank conflicts.",
    "memory_l1_wavefronts_shared": "Shared-memory wavefronts (passes through L1) this code's "
    "accesses took.",
    "memory_l1_wavefronts_shared_ideal": "The fewest shared-memory wavefronts this code's "
    "accesses could take.",
    "derived__memory_l2_theoretical_sectors_global_excessive": "32-byte sectors the global "
    "accesses touch beyond the fewest their bytes need: uncoalesced access, wasted bandwidth.",
    "memory_l2_theoretical_sectors_global": "32-byte L2 sectors this code's global accesses "
    "touch (worked out from the addresses).",
    "memory_l2_theoretical_sectors_global_ideal": "The fewest 32-byte sectors this code's "
    "global accesses could touch.",
    "memory_l2_theoretical_sectors_local": "32-byte L2 sectors of local memory (register "
    "spills, stack arrays) this code touches.",
}
_POLICY = "smsp__sass_inst_executed_memdesc_explicit_"


def _own(key: str) -> str:
    """kernelscope's text for a Source-page metric (empty when it has none)."""
    if key in _SOURCE:
        return _SOURCE[key]
    if key.startswith(STALL_PREFIX):
        reason = key.removeprefix(STALL_PREFIX)
        not_issued = reason.endswith(NOT_ISSUED_SUFFIX)
        reason = reason.removesuffix(NOT_ISSUED_SUFFIX)
        why = _STALL_REASONS.get(reason)
        if why is None:
            return ""
        when = " in cycles where the warp issued nothing" if not_issued else ""
        return f"Warps sampled here{when} while {why} ({reason} stall)."
    if key.startswith(_POLICY):
        policy = key.removeprefix(_POLICY).replace("_", " ")
        return f"Instructions executed with an explicit L2 cache policy: {policy}."
    return ""


def metric_description(name: str, nvidia: Mapping[str, str] | None = None) -> str:
    """What the metric the viewer shows as ``name`` means, for its tooltip: a kernel-list
    column (``KERNEL_METRICS``), a Source-page metric (its label or Nsight Compute name), or
    any Nsight Compute metric. ``nvidia``: NVIDIA's descriptions by metric name
    (``Profile.metric_descriptions``). Empty when nothing is known about it."""
    nvidia = nvidia or {}
    if name in _KERNEL_COLUMNS:
        metric, what = _KERNEL_COLUMNS[name]
        parts = [what[0].upper() + what[1:] + "."]
        if metric:
            text = nvidia.get(metric, "")
            parts.append(f"{metric}{': ' + text if text else ''}")
        return "\n\n".join(parts)
    key = resolve_metric_name(name) or name
    text = nvidia.get(key) or _own(key)
    if not text:
        return ""
    return text if key == name else f"{text}\n\n{key}"
