"""Nsight Compute data: ``.ncu-rep`` reports and CSV exports read into one ``Profile`` with
per-launch, per-instruction, per-line and per-kernel metrics, the one hot-line ranking and the
one source-file lookup."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_getattr

if TYPE_CHECKING:
    from .build_match import ReportImport, import_report
    from .descriptions import metric_description
    from .detail_metrics import DURATION, LaunchMetrics, SourceMarker
    from .details import DetailMetric, KernelDetails, OccupancyCurve, format_value, kernel_details
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
        RuleResult,
    )
    from .report import load_reader_first
    from .sources import SourceFile, SourceResolver
    from .stalls import StallBreakdown, first_and_hottest, stall_breakdown
    from .steps import StepLaunches, choose_step, report_steps, steps_path

# Each name is imported from its module on first use (PEP 562): listing a report's kernels
# loads the profile and its records, not numpy's aggregation, the Details model or the hot
# lines. Add a name here and under TYPE_CHECKING above.
_EXPORTS = {
    "import_report": ".build_match",
    "ReportImport": ".build_match",
    "metric_description": ".descriptions",
    "DURATION": ".detail_metrics",
    "LaunchMetrics": ".detail_metrics",
    "SourceMarker": ".detail_metrics",
    "DetailMetric": ".details",
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
    "RuleResult": ".records",
    "SourceFile": ".sources",
    "SourceResolver": ".sources",
    "StallBreakdown": ".stalls",
    "first_and_hottest": ".stalls",
    "stall_breakdown": ".stalls",
    "StepLaunches": ".steps",
    "choose_step": ".steps",
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
    "INST_EXECUTED",
    "KERNEL_METRICS",
    "REPORT_SUFFIX",
    "SAMPLES",
    "TIME_US",
    "DetailMetric",
    "HotLine",
    "InstructionTable",
    "KernelDetails",
    "KernelSummary",
    "Launch",
    "LaunchMetrics",
    "OccupancyCurve",
    "Profile",
    "ReportImport",
    "RuleResult",
    "SourceFile",
    "SourceResolver",
    "SourceMarker",
    "StallBreakdown",
    "choose_step",
    "import_report",
    "first_and_hottest",
    "format_value",
    "is_report",
    "kernel_details",
    "label_of",
    "metric_description",
    "rank_lines",
    "report_steps",
    "StepLaunches",
    "load_reader_first",
    "resolve_metric_name",
    "stall_breakdown",
    "steps_path",
]


__getattr__ = lazy_getattr(__name__, _EXPORTS, globals())
