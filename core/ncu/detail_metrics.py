"""The launch-level metrics behind the Details view and the roofline: which ones kernelscope
reads, under which label and section Nsight Compute shows them, and how launches combine.

Every metric is keyed by its Nsight Compute name. The section table below is the header of
each section as ncu 2025.3's section files define it (read from an H200 report with
``IAction.sections()``); CSV exports name the same metrics by label on the details page and
by name on the raw page, so the table also maps labels back to names. Body metrics (stall
reasons, pipe utilisation, roofline inputs, memory sectors) are listed per view.

``LaunchMetrics`` is what one launch yields, from a report (``report.ReportReader.metrics``)
or from CSV exports (``csv_pages.read_raw_metrics`` / ``read_details_metrics``); it is
cached with the rest of the profile.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum

from .metrics import STALL_REASONS

Value = float | str | None


@dataclass
class MetricRecord:
    """One metric of one launch. ``unit`` is the base unit (``ns``, ``byte``, ``hz``, ``%``)."""

    value: Value
    unit: str = ""
    # (correlation id, value) of an instanced metric with several instances: occupancy
    # curves (x = register count, block size...), opcode histograms (x = opcode).
    instances: list[tuple[Value, Value]] | None = None


@dataclass
class SourceMarker:
    """A rule's pointer into the source (``file``/``line``) or the SASS (``offset``)."""

    rule: str
    section: str
    message: str
    kind: str  # "INF", "OPT", "WRN", "ERR"
    file: str | None = None
    line: int | None = None
    offset: int | None = None  # from the function start, for SASS markers


@dataclass
class LaunchMetrics:
    """The Details metrics of one launch, with what is known about its sections."""

    values: dict[str, MetricRecord]
    # Section identifiers the launch was profiled with; None when the data does not say
    # (ncu_report before 2026.1 has no sections(); a raw CSV page alone has no sections).
    sections: list[str] | None = None
    markers: list[SourceMarker] = field(default_factory=list)
    descriptions: dict[str, str] = field(default_factory=dict)  # NVIDIA's text, reports only
    source: str = "report"  # "report", "raw" (raw CSV page), "details" (details page only)


class Combine(Enum):
    """How one metric combines over several launches of a kernel."""

    SUM = "sum"  # counts: instructions, bytes, cycles, duration
    MEAN = "mean"  # rates, percentages, ratios: weighted by each launch's duration
    SAME = "same"  # launch configuration and device facts: the first launch's, flagged if not


_RATE_RE = re.compile(r"\.(per_second|per_cycle_\w+|pct_of_\w+|pct|ratio)$|_pct$|_x[24]$")
_COUNTER_RE = re.compile(r"\.(sum|avg|max|min)$")
_PEAK_RE = re.compile(r"(?<!pct_of_)peak_sustained")
_DERIVED_COUNTS = frozenset({"derived__local_spilling_requests"})


def combine_rule(name: str) -> Combine:
    """Nsight Compute metric names say what they are: ``counter.rollup[.submetric]``."""
    if name.startswith(("launch__", "device__", "profiler__", "sm__maximum_warps")):
        return Combine.SAME
    if _PEAK_RE.search(name) or name.startswith("breakdown:"):
        return Combine.SAME  # a device peak, not a percentage of it
    if name.startswith("derived__") and name.endswith(("_x2", "_x4")):
        return Combine.MEAN  # per-cycle FLOP rates of the roofline charts
    if _RATE_RE.search(name):
        return Combine.MEAN
    if _COUNTER_RE.search(name) or not name.startswith("derived__") or name in _DERIVED_COUNTS:
        return Combine.SUM
    return Combine.MEAN


@dataclass(frozen=True)
class Row:
    label: str
    metric: str


def _rows(*pairs: tuple[str, str]) -> tuple[Row, ...]:
    return tuple(Row(label, metric) for label, metric in pairs)


@dataclass(frozen=True)
class SectionSpec:
    identifier: str
    name: str  # display name, as the details CSV prints it
    header: tuple[Row, ...] = ()

    @property
    def flag(self) -> str:
        return f"--section {self.identifier}"


SECTIONS: tuple[SectionSpec, ...] = (
    SectionSpec(
        "SpeedOfLight",
        "GPU Speed Of Light Throughput",
        _rows(
            ("Compute (SM) Throughput", "sm__throughput.avg.pct_of_peak_sustained_elapsed"),
            ("Duration", "gpu__time_duration.sum"),
            (
                "Memory Throughput",
                "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
            ),
            ("Elapsed Cycles", "gpc__cycles_elapsed.max"),
            ("L1/TEX Cache Throughput", "l1tex__throughput.avg.pct_of_peak_sustained_active"),
            ("SM Active Cycles", "sm__cycles_active.avg"),
            ("L2 Cache Throughput", "lts__throughput.avg.pct_of_peak_sustained_elapsed"),
            ("SM Frequency", "gpc__cycles_elapsed.avg.per_second"),
            ("DRAM Throughput", "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"),
            ("DRAM Frequency", "dram__cycles_elapsed.avg.per_second"),
        ),
    ),
    SectionSpec("SpeedOfLight_RooflineChart", "GPU Speed Of Light Roofline Chart"),
    SectionSpec(
        "SpeedOfLight_HierarchicalSingleRooflineChart",
        "GPU Speed Of Light Hierarchical Roofline Chart (Single Precision)",
    ),
    SectionSpec(
        "SpeedOfLight_HierarchicalDoubleRooflineChart",
        "GPU Speed Of Light Hierarchical Roofline Chart (Double Precision)",
    ),
    SectionSpec(
        "SpeedOfLight_HierarchicalHalfRooflineChart",
        "GPU Speed Of Light Hierarchical Roofline Chart (Half Precision)",
    ),
    SectionSpec(
        "SpeedOfLight_HierarchicalTensorRooflineChart",
        "GPU Speed Of Light Hierarchical Roofline Chart (Tensor Core)",
    ),
    SectionSpec(
        "ComputeWorkloadAnalysis",
        "Compute Workload Analysis",
        _rows(
            ("Executed Ipc Elapsed", "sm__inst_executed.avg.per_cycle_elapsed"),
            ("SM Busy", "sm__instruction_throughput.avg.pct_of_peak_sustained_elapsed"),
            ("Executed Ipc Active", "sm__inst_executed.avg.per_cycle_active"),
            ("Issue Slots Busy", "sm__inst_issued.avg.pct_of_peak_sustained_elapsed"),
            ("Issued Ipc Active", "sm__inst_issued.avg.per_cycle_active"),
        ),
    ),
    SectionSpec(
        "MemoryWorkloadAnalysis",
        "Memory Workload Analysis",
        _rows(
            ("Memory Throughput", "dram__bytes.sum.per_second"),
            (
                "Mem Busy",
                "gpu__compute_memory_access_throughput.avg.pct_of_peak_sustained_elapsed",
            ),
            ("L1/TEX Hit Rate", "l1tex__t_sector_hit_rate.pct"),
            (
                "Max Bandwidth",
                "gpu__compute_memory_request_throughput.avg.pct_of_peak_sustained_elapsed",
            ),
            ("L2 Hit Rate", "lts__t_sector_hit_rate.pct"),
            ("Mem Pipes Busy", "sm__memory_throughput.avg.pct_of_peak_sustained_elapsed"),
            ("Local Memory Spilling Requests", "derived__local_spilling_requests"),
            (
                "L2 Compression Ratio",
                "lts__average_gcomp_output_sector_compression_achieved_rate.ratio",
            ),
            ("Local Memory Spilling Request Overhead", "derived__local_spilling_requests_pct"),
            ("L2 Compression Success Rate", "lts__average_gcomp_input_sector_success_rate.pct"),
            ("L2 Persisting Size", "launch__persisting_l2_cache_size"),
        ),
    ),
    SectionSpec("MemoryWorkloadAnalysis_Chart", "Memory Workload Analysis Chart"),
    SectionSpec("MemoryWorkloadAnalysis_Tables", "Memory Workload Analysis Tables"),
    SectionSpec(
        "SchedulerStats",
        "Scheduler Statistics",
        _rows(
            ("Active Warps Per Scheduler", "smsp__warps_active.avg.per_cycle_active"),
            ("No Eligible", "smsp__issue_inst0.avg.pct_of_peak_sustained_active"),
            ("Eligible Warps Per Scheduler", "smsp__warps_eligible.avg.per_cycle_active"),
            ("One or More Eligible", "smsp__issue_active.avg.pct_of_peak_sustained_active"),
            ("Issued Warp Per Scheduler", "smsp__issue_active.avg.per_cycle_active"),
        ),
    ),
    SectionSpec(
        "WarpStateStats",
        "Warp State Statistics",
        _rows(
            (
                "Warp Cycles Per Issued Instruction",
                "smsp__average_warp_latency_per_inst_issued.ratio",
            ),
            ("Avg. Active Threads Per Warp", "smsp__thread_inst_executed_per_inst_executed.ratio"),
            (
                "Warp Cycles Per Executed Instruction",
                "smsp__average_warps_active_per_inst_executed.ratio",
            ),
            (
                "Avg. Not Predicated Off Threads Per Warp",
                "smsp__thread_inst_executed_pred_on_per_inst_executed.ratio",
            ),
        ),
    ),
    SectionSpec(
        "InstructionStats",
        "Instruction Statistics",
        _rows(
            ("Executed Instructions", "smsp__inst_executed.sum"),
            ("Avg. Executed Instructions Per Scheduler", "smsp__inst_executed.avg"),
            ("Issued Instructions", "smsp__inst_issued.sum"),
            ("Avg. Issued Instructions Per Scheduler", "smsp__inst_issued.avg"),
        ),
    ),
    SectionSpec(
        "LaunchStats",
        "Launch Statistics",
        _rows(
            ("Grid Size", "launch__grid_size"),
            ("Block Size", "launch__block_size"),
            ("Threads", "launch__thread_count"),
            ("Registers Per Thread", "launch__registers_per_thread"),
            ("Static Shared Memory Per Block", "launch__shared_mem_per_block_static"),
            ("Dynamic Shared Memory Per Block", "launch__shared_mem_per_block_dynamic"),
            ("Driver Shared Memory Per Block", "launch__shared_mem_per_block_driver"),
            ("Shared Memory Configuration Size", "launch__shared_mem_config_size"),
            ("Waves Per SM", "launch__waves_per_multiprocessor"),
            ("# SMs", "launch__sm_count"),
            ("Function Cache Configuration", "launch__func_cache_config"),
            ("Cluster Size", "launch__cluster_size"),
            ("Stack Size", "launch__stack_size"),
        ),
    ),
    SectionSpec(
        "Occupancy",
        "Occupancy",
        _rows(
            ("Theoretical Occupancy", "sm__maximum_warps_per_active_cycle_pct"),
            ("Achieved Occupancy", "sm__warps_active.avg.pct_of_peak_sustained_active"),
            ("Theoretical Active Warps per SM", "sm__maximum_warps_avg_per_active_cycle"),
            ("Achieved Active Warps Per SM", "sm__warps_active.avg.per_cycle_active"),
            ("Block Limit Registers", "launch__occupancy_limit_registers"),
            ("Block Limit Shared Mem", "launch__occupancy_limit_shared_mem"),
            ("Block Limit Warps", "launch__occupancy_limit_warps"),
            ("Block Limit SM", "launch__occupancy_limit_blocks"),
            ("Block Limit Barriers", "launch__occupancy_limit_barriers"),
        ),
    ),
    SectionSpec(
        "SourceCounters",
        "Source Counters",
        _rows(
            ("Branch Instructions", "smsp__inst_executed_op_branch.sum"),
            ("Branch Efficiency", "smsp__sass_average_branch_targets_threads_uniform.pct"),
            ("Branch Instructions Ratio", "derived__smsp__inst_executed_op_branch_pct"),
            ("Avg. Divergent Branches", "smsp__sass_branch_targets_threads_divergent.avg"),
        ),
    ),
    SectionSpec(
        "WorkloadDistribution",
        "GPU and Memory Workload Distribution",
        _rows(
            ("Average SM Active Cycles", "sm__cycles_active.avg"),
            ("Average L1 Active Cycles", "l1tex__cycles_active.avg"),
            ("Average L2 Active Cycles", "lts__cycles_active.avg"),
            ("Average DRAM Active Cycles", "dram__cycles_active.avg"),
            ("Total SM Elapsed Cycles", "sm__cycles_elapsed.sum"),
            ("Total DRAM Elapsed Cycles", "dram__cycles_elapsed.sum"),
        ),
    ),
)
SECTION_BY_ID: dict[str, SectionSpec] = {s.identifier: s for s in SECTIONS}
SECTION_BY_NAME: dict[str, SectionSpec] = {s.name: s for s in SECTIONS}
# (section display name, label) -> metric name, for details CSV pages without a raw page
LABELS: dict[tuple[str, str], str] = {
    (s.name, r.label): r.metric for s in SECTIONS for r in s.header
}

# ---- body metrics, by view ----------------------------------------------------------------
DURATION = "gpu__time_duration.sum"

# SOL per-unit breakdowns: the report names their parts in these string metrics.
BREAKDOWNS = {
    "compute": "breakdown:sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "memory": "breakdown:gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
}

# Pipe utilisation (Compute Workload Analysis body): instructions executed per pipe.
PIPES: tuple[Row, ...] = tuple(
    Row(label, f"sm__inst_executed_pipe_{pipe}.avg.pct_of_peak_sustained_active")
    for label, pipe in (
        ("ADU", "adu"),
        ("ALU", "alu"),
        ("CBU", "cbu"),
        ("FMA", "fma"),
        ("FP64", "fp64"),
        ("LSU", "lsu"),
        ("Tensor (DP)", "tensor_op_dmma"),
        ("Tensor (FP)", "tensor_op_hmma"),
        ("Tensor (INT)", "tensor_op_imma"),
        ("Tensor (Warp Group)", "tensor_op_gmma"),
        ("TEX", "tex"),
        ("TMA", "tma"),
        ("Uniform", "uniform"),
        ("XU", "xu"),
    )
)

# Warp State Statistics body: cycles per issued instruction spent in each stall reason.
# The metric names differ from the sampled reasons' (misc names kept as ncu spells them).
_WARP_STATE_NAMES = {
    "no_instructions": "no_instruction",
    "warpgroup_arrive": "gmma",
}
WARP_STATES: tuple[Row, ...] = tuple(
    Row(
        reason,
        "smsp__average_warps_issue_stalled_"
        f"{_WARP_STATE_NAMES.get(reason, reason)}_per_issue_active.ratio",
    )
    for reason in STALL_REASONS
)

# Memory Workload Analysis tables: bytes and sectors at each level.
MEMORY: tuple[Row, ...] = _rows(
    ("DRAM Bytes Read", "dram__bytes_read.sum"),
    ("DRAM Bytes Written", "dram__bytes_write.sum"),
    ("L2 Sectors", "lts__t_sectors.sum"),
    ("L2 Sectors Read", "lts__t_sectors_srcunit_tex_op_read.sum"),
    ("L2 Sectors Written", "lts__t_sectors_srcunit_tex_op_write.sum"),
    ("L1 Global Load Requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
    ("L1 Global Load Sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
    ("L1 Global Store Requests", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
    ("L1 Global Store Sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
    ("L1 Global Load Hit Rate", "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct"),
    ("L2 Read Hit Rate", "lts__t_sector_op_read_hit_rate.pct"),
    ("L2 Write Hit Rate", "lts__t_sector_op_write_hit_rate.pct"),
)
SECTOR_BYTES = 32

OPCODES = "sass__inst_executed_per_opcode"
OCCUPANCY_CURVES: tuple[Row, ...] = _rows(
    ("Warps per register count", "launch__occupancy_per_register_count"),
    ("Warps per block size", "launch__occupancy_per_block_size"),
    ("Warps per shared memory size", "launch__occupancy_per_shared_mem_size"),
)

# Roofline inputs (the SpeedOfLight roofline chart sections): achieved work per cycle,
# traffic per second, peaks per cycle and the clocks that turn cycles into seconds.
SM_CLOCK = "smsp__cycles_elapsed.avg.per_second"
SM_PEAK_CLOCK = "sm__cycles_elapsed.avg.per_second"
SM_CYCLES = "smsp__cycles_elapsed.avg"
ROOFLINE: tuple[str, ...] = (
    SM_CLOCK,
    SM_PEAK_CLOCK,
    SM_CYCLES,
    "sm__cycles_elapsed.avg",
    "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum.per_cycle_elapsed",
    "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum.per_cycle_elapsed",
    "derived__smsp__sass_thread_inst_executed_op_ffma_pred_on_x2",
    "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum.per_cycle_elapsed",
    "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum.per_cycle_elapsed",
    "derived__smsp__sass_thread_inst_executed_op_dfma_pred_on_x2",
    "derived__smsp__sass_thread_inst_executed_op_hadd_pred_on_x2",
    "derived__smsp__sass_thread_inst_executed_op_hmul_pred_on_x2",
    "derived__smsp__sass_thread_inst_executed_op_hfma_pred_on_x4",
    "derived__sm__sass_thread_inst_executed_op_ffma_pred_on_x2",
    "derived__sm__sass_thread_inst_executed_op_dfma_pred_on_x2",
    "derived__sm__sass_thread_inst_executed_op_hfma_pred_on_x4",
    "sm__ops_path_tensor_src_fp16.sum.per_cycle_elapsed",
    "sm__ops_path_tensor_src_fp16.sum.peak_sustained",
    "sm__ops_path_tensor_src_bf16_dst_fp32.sum.per_cycle_elapsed",
    "sm__ops_path_tensor_src_bf16_dst_fp32.sum.peak_sustained",
    "sm__ops_path_tensor_src_tf32_dst_fp32.sum.per_cycle_elapsed",
    "sm__ops_path_tensor_src_tf32_dst_fp32.sum.peak_sustained",
    "sm__ops_path_tensor_src_fp8_sparsity_off.sum.per_cycle_elapsed",
    "sm__ops_path_tensor_src_fp8_sparsity_off.sum.peak_sustained",
    "sm__ops_path_tensor_src_int8.sum.per_cycle_elapsed",
    "sm__ops_path_tensor_src_int8.sum.peak_sustained",
    "sm__ops_path_tensor_src_fp64.sum.per_cycle_elapsed",
    "sm__ops_path_tensor_src_fp64.sum.peak_sustained",
    "dram__bytes.sum.per_second",
    "dram__bytes.sum.peak_sustained",
    "dram__cycles_elapsed.avg.per_second",
    "derived__lts__lts2xbar_bytes.sum.per_second",
    "derived__lts__lts2xbar_bytes.sum.peak_sustained",
    "lts__cycles_elapsed.avg.per_second",
    "derived__l1tex__lsu_writeback_bytes_mem_lgds.sum.per_second",
    "derived__l1tex__lsu_writeback_bytes_mem_lgds.sum.peak_sustained",
    "l1tex__cycles_elapsed.avg.per_second",
)

DEVICE: tuple[str, ...] = (
    "device__attribute_display_name",
    "device__attribute_multiprocessor_count",
    "device__attribute_clock_rate",
    "device__attribute_max_mem_frequency_khz",
    "device__attribute_global_memory_bus_width",
    "device__attribute_l2_cache_size",
    "device__attribute_compute_capability_major",
    "device__attribute_compute_capability_minor",
)

# The breakdowns' parts as an H200 report lists them; CSV exports have the parts as raw
# columns but not the lists, so these are used when the list itself is missing.
BREAKDOWN_PARTS: dict[str, tuple[str, ...]] = {
    "compute": tuple(
        f"{m}.avg.pct_of_peak_sustained_elapsed"
        for m in (
            "idc__request_cycles_active",
            "sm__inst_executed",
            "sm__inst_executed_pipe_adu",
            "sm__inst_executed_pipe_cbu_pred_on_any",
            "sm__inst_executed_pipe_ipa",
            "sm__inst_executed_pipe_lsu",
            "sm__inst_executed_pipe_tex",
            "sm__inst_executed_pipe_uniform",
            "sm__inst_executed_pipe_xu",
            "sm__instruction_throughput_internal_activity",
            "sm__issue_active",
            "sm__memory_throughput_internal_activity",
            "sm__mio2rf_writeback_active",
            "sm__mio_inst_issued",
            "sm__mio_pq_read_cycles_active",
            "sm__mio_pq_write_cycles_active",
            "sm__pipe_alu_cycles_active",
            "sm__pipe_fma_cycles_active",
            "sm__pipe_fmaheavy_cycles_active",
            "sm__pipe_fp64_cycles_active",
            "sm__pipe_shared_cycles_active",
            "sm__pipe_tensor_cycles_active",
            "sm__pipe_tma_cycles_active",
        )
    ),
    "memory": tuple(
        f"{m}.avg.pct_of_peak_sustained_elapsed"
        for m in (
            "dram__cycles_active",
            "fbpa__dram_sectors",
            "gpu__compute_memory_access_throughput_internal_activity",
            "l1tex__data_bank_reads",
            "l1tex__data_bank_writes",
            "l1tex__data_pipe_lsu_wavefronts",
            "l1tex__data_pipe_tex_wavefronts",
            "l1tex__f_wavefronts",
            "l1tex__lsu_writeback_active",
            "l1tex__lsuin_requests",
            "l1tex__m_l1tex2xbar_req_cycles_active",
            "l1tex__m_xbar2l1tex_read_sectors",
            "lts__d_sectors",
            "lts__d_sectors_fill_device",
            "lts__lts2xbar_cycles_active",
            "lts__t_sectors",
            "lts__t_tag_requests",
            "lts__xbar2lts_cycles_active",
        )
    ),
}

# Every metric kernelscope reads of a launch (breakdown parts are added from the report).
METRIC_NAMES: tuple[str, ...] = tuple(
    dict.fromkeys(
        [r.metric for s in SECTIONS for r in s.header]
        + [DURATION, *BREAKDOWNS.values(), OPCODES]
        + [r.metric for r in (*PIPES, *WARP_STATES, *MEMORY, *OCCUPANCY_CURVES)]
        + [*ROOFLINE, *DEVICE]
        + [p for parts in BREAKDOWN_PARTS.values() for p in parts]
    )
)
