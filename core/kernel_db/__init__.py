"""The kernel DB: an NNFusion ``KernelCache`` (SQLite) that is also a browsable library of
kernels with their sources, SASS, launch facts and measured times, and what NNFusion makes of
it for a model (coverage, the command line, building what is missing)."""

from .command import NNFusionSettings, nnfusion_settings
from .compile import CompileReport, RowUse, compile_with_db
from .coverage import (
    STATUSES,
    BuildMissingReport,
    Coverage,
    CoverageItem,
    build_missing,
    model_coverage,
)
from .export import (
    ExportReport,
    KernelTimes,
    describe_line_summary,
    export_workspace,
    profile_line_summaries,
    profile_times,
)
from .schema import default_db_path
from .store import CacheRow, DbEntry, EntryChange, EntryDetail, EntrySummary, KernelDB

__all__ = [
    "STATUSES",
    "BuildMissingReport",
    "CacheRow",
    "CompileReport",
    "Coverage",
    "CoverageItem",
    "DbEntry",
    "EntryChange",
    "EntryDetail",
    "EntrySummary",
    "ExportReport",
    "KernelDB",
    "KernelTimes",
    "NNFusionSettings",
    "RowUse",
    "build_missing",
    "compile_with_db",
    "default_db_path",
    "describe_line_summary",
    "export_workspace",
    "model_coverage",
    "nnfusion_settings",
    "profile_line_summaries",
    "profile_times",
]
