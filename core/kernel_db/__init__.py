"""The kernel DB: an NNFusion ``KernelCache`` (SQLite) that is also a browsable library of
kernels with their sources, SASS, launch facts and measured times."""

from .export import ExportReport, KernelTimes, export_workspace
from .schema import default_db_path
from .store import DbEntry, EntryChange, EntryDetail, EntrySummary, KernelDB
from .summaries import (
    ProfileFacts,
    describe_line_summary,
    profile_facts,
    profile_line_summaries,
    profile_times,
)

__all__ = [
    "DbEntry",
    "EntryChange",
    "EntryDetail",
    "EntrySummary",
    "ExportReport",
    "KernelTimes",
    "KernelDB",
    "ProfileFacts",
    "default_db_path",
    "describe_line_summary",
    "export_workspace",
    "profile_facts",
    "profile_line_summaries",
    "profile_times",
]
