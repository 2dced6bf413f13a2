"""Nsight Compute data: ``.ncu-rep`` reports and CSV exports read into one ``Profile`` with
per-launch, per-instruction, per-line and per-kernel metrics."""

from .build_match import check_against_workspace
from .metrics import INST_EXECUTED, SAMPLES, label_of, resolve_metric_name
from .profile import REPORT_SUFFIX, KernelSummary, Profile, is_report
from .records import HotLine, InstructionTable, Launch, LineMetrics, RuleResult

__all__ = [
    "INST_EXECUTED",
    "REPORT_SUFFIX",
    "SAMPLES",
    "HotLine",
    "InstructionTable",
    "KernelSummary",
    "Launch",
    "LineMetrics",
    "Profile",
    "RuleResult",
    "check_against_workspace",
    "is_report",
    "label_of",
    "resolve_metric_name",
]
