"""Nsight Compute data: ``.ncu-rep`` reports and CSV exports read into one ``Profile`` with
per-launch, per-instruction, per-line and per-kernel metrics."""

from .build_match import check_against_workspace
from .detail_metrics import DURATION, LaunchMetrics, MetricRecord, SourceMarker
from .details import (
    DetailMetric,
    DetailView,
    KernelDetails,
    OccupancyCurve,
    format_value,
    kernel_details,
)
from .metrics import INST_EXECUTED, SAMPLES, label_of, resolve_metric_name
from .profile import REPORT_SUFFIX, KernelSummary, Profile, is_report
from .records import HotLine, InstructionTable, Launch, LineMetrics, RuleResult
from .stalls import StallBreakdown, StallShare, first_and_hottest, stall_breakdown

__all__ = [
    "DURATION",
    "INST_EXECUTED",
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
    "SourceMarker",
    "StallBreakdown",
    "StallShare",
    "check_against_workspace",
    "first_and_hottest",
    "format_value",
    "is_report",
    "kernel_details",
    "label_of",
    "resolve_metric_name",
    "stall_breakdown",
]
