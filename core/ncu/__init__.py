"""Nsight Compute data: ``.ncu-rep`` reports and CSV exports read into one ``Profile`` with
per-launch, per-instruction, per-line and per-kernel metrics, the one hot-line ranking and the
one source-file lookup."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_getattr

if TYPE_CHECKING:
    from .build_match import ReportImport, check_against_workspace, import_report
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
    from .ledger import (
        GROUPS,
        BindingRow,
        KernelLedger,
        Ledger,
        StepLedger,
        group_shares,
        ledger_input,
        step_ledger,
        stepped_reports,
    )
    from .loaders import REPORT_SUFFIX, is_report
    from .metrics import INST_EXECUTED, SAMPLES, label_of, resolve_metric_name
    from .profile import Profile
    from .records import (
        KERNEL_METRICS,
        TIME_US,
        HotLine,
        InstructionTable,
        KernelSummary,
        Launch,
        LineMetrics,
        RuleResult,
    )
    from .report import load_reader_first
    from .sources import SourceFile, SourceResolver
    from .stalls import StallBreakdown, StallShare, first_and_hottest, stall_breakdown
    from .steps import (
        STEPS_SUFFIX,
        StepLaunches,
        assign_steps,
        choose_step,
        read_steps,
        report_steps,
        steps_path,
    )

# Each name is imported from its module on first use (PEP 562): listing a report's kernels
# loads the profile and its records, not numpy's aggregation, the Details model or the hot
# lines. Add a name here and under TYPE_CHECKING above.
_EXPORTS = {
    "check_against_workspace": ".build_match",
    "import_report": ".build_match",
    "ReportImport": ".build_match",
    "metric_description": ".descriptions",
    "DURATION": ".detail_metrics",
    "LaunchMetrics": ".detail_metrics",
    "MetricRecord": ".detail_metrics",
    "SourceMarker": ".detail_metrics",
    "DetailMetric": ".details",
    "DetailView": ".details",
    "KernelDetails": ".details",
    "OccupancyCurve": ".details",
    "format_value": ".details",
    "kernel_details": ".details",
    "rank_lines": ".hot_lines",
    "load_reader_first": ".report",
    "GROUPS": ".ledger",
    "BindingRow": ".ledger",
    "KernelLedger": ".ledger",
    "Ledger": ".ledger",
    "StepLedger": ".ledger",
    "group_shares": ".ledger",
    "ledger_input": ".ledger",
    "step_ledger": ".ledger",
    "stepped_reports": ".ledger",
    "INST_EXECUTED": ".metrics",
    "SAMPLES": ".metrics",
    "label_of": ".metrics",
    "resolve_metric_name": ".metrics",
    "Profile": ".profile",
    "REPORT_SUFFIX": ".loaders",
    "is_report": ".loaders",
    "HotLine": ".records",
    "InstructionTable": ".records",
    "KERNEL_METRICS": ".records",
    "TIME_US": ".records",
    "KernelSummary": ".records",
    "Launch": ".records",
    "LineMetrics": ".records",
    "RuleResult": ".records",
    "SourceFile": ".sources",
    "SourceResolver": ".sources",
    "StallBreakdown": ".stalls",
    "StallShare": ".stalls",
    "first_and_hottest": ".stalls",
    "stall_breakdown": ".stalls",
    "STEPS_SUFFIX": ".steps",
    "StepLaunches": ".steps",
    "assign_steps": ".steps",
    "choose_step": ".steps",
    "read_steps": ".steps",
    "report_steps": ".steps",
    "steps_path": ".steps",
}

__all__ = [
    "DURATION",
    "GROUPS",
    "BindingRow",
    "KernelLedger",
    "Ledger",
    "StepLedger",
    "group_shares",
    "ledger_input",
    "step_ledger",
    "stepped_reports",
    "INST_EXECUTED",
    "KERNEL_METRICS",
    "REPORT_SUFFIX",
    "SAMPLES",
    "STEPS_SUFFIX",
    "TIME_US",
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
    "ReportImport",
    "RuleResult",
    "SourceFile",
    "SourceResolver",
    "SourceMarker",
    "StallBreakdown",
    "StallShare",
    "StepLaunches",
    "assign_steps",
    "check_against_workspace",
    "choose_step",
    "import_report",
    "first_and_hottest",
    "format_value",
    "is_report",
    "kernel_details",
    "label_of",
    "metric_description",
    "rank_lines",
    "read_steps",
    "report_steps",
    "load_reader_first",
    "resolve_metric_name",
    "stall_breakdown",
    "steps_path",
]


__getattr__ = lazy_getattr(__name__, _EXPORTS, globals())
