"""Nsight Compute data: ``.ncu-rep`` reports and CSV exports read into one ``Profile`` with
per-launch, per-instruction, per-line and per-kernel metrics, the one hot-line ranking and the
one source-file lookup."""

from .build_match import check_against_workspace
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

__all__ = [
    "INST_EXECUTED",
    "KERNEL_METRICS",
    "REPORT_SUFFIX",
    "SAMPLES",
    "HotLine",
    "InstructionTable",
    "KernelSummary",
    "Launch",
    "LineMetrics",
    "Profile",
    "RuleResult",
    "SourceFile",
    "SourceResolver",
    "check_against_workspace",
    "is_report",
    "label_of",
    "rank_lines",
    "resolve_metric_name",
]
