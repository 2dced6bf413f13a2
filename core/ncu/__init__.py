"""Nsight Compute data: ``.ncu-rep`` reports and CSV exports read into one ``Profile`` with
per-launch, per-instruction, per-line and per-kernel metrics, the one hot-line ranking and the
one source-file lookup."""

from .build_match import check_against_workspace
from .descriptions import metric_description
from .detail_metrics import DURATION, LaunchMetrics, MetricRecord, SourceMarker
from .details import (
    DetailMetric,
    DetailView,
    KernelDetails,
    OccupancyCurve,
    format_value,
    kernel_details,
)
from .hot_lines import rank_lines
from .metrics import INST_EXECUTED, SAMPLES, label_of, resolve_metric_name
from .profile import REPORT_SUFFIX, Profile, is_report
from .records import (
    KERNEL_METRICS,
    HotLine,
    InstructionTable,
    KernelSummary,
    Launch,
    LineMetrics,
    RuleResult,
)
from .sources import SourceFile, SourceResolver
from .stalls import StallBreakdown, StallShare, first_and_hottest, stall_breakdown

__all__ = [
    "DURATION",
    "INST_EXECUTED",
    "KERNEL_METRICS",
    "REPORT_SUFFIX",
    "SAMPLES",
    "DetailMetric",
    "DetailView",
    "HotLine",
    "InstructionTable",
    "KernelDetails",
    "KernelSummary",
    "Launch",
    "LaunchMetrics",
    "LineMetrics",
    "MetricRecord",
    "OccupancyCurve",
    "Profile",
    "RuleResult",
    "SourceFile",
    "SourceResolver",
    "SourceMarker",
    "StallBreakdown",
    "StallShare",
    "check_against_workspace",
    "first_and_hottest",
    "format_value",
    "is_report",
    "kernel_details",
    "label_of",
    "metric_description",
    "rank_lines",
    "resolve_metric_name",
    "stall_breakdown",
]
