"""The kernel DB: an NNFusion ``KernelCache`` (SQLite) that is also a browsable library of
kernels with their sources, SASS, launch facts and measured times."""

from .export import (
    ExportReport,
    KernelTimes,
    describe_line_summary,
    export_workspace,
    profile_line_summaries,
    profile_times,
)
from .schema import default_db_path
from .store import DbEntry, EntryChange, EntryDetail, EntrySummary, KernelDB

__all__ = [
    "DbEntry",
    "EntryChange",
    "EntryDetail",
    "EntrySummary",
    "ExportReport",
    "KernelTimes",
    "KernelDB",
    "default_db_path",
    "describe_line_summary",
    "export_workspace",
    "profile_line_summaries",
    "profile_times",
]
