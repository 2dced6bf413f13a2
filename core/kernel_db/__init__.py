"""The kernel DB: an NNFusion ``KernelCache`` (SQLite) that is also a browsable library of
kernels with their sources, SASS, launch facts and measured times, and what NNFusion makes of
it for a model (coverage, the command line, building what is missing).

What the DB panel calls (all Qt-free; the long ones take ``progress``/``cancel``)::

    with KernelDB.open(path) as db:                     # browsing: see store.KernelDB
        settings = nnfusion_settings(db.cache_rows(), product_name=None)
    settings.describe(path, model=None)  # the NNFusion command line and why each flag is there
    settings.command(path, model)        # argv; settings.for_model(model) for one model
    settings.warnings                    # several GPUs' times, mixed Conv+Add+Relu kinds
    export_workspace(ws, path, allow_ambiguous=False)    # rows; ambiguous ones kept back
    nnfusion.write_initializer_model(ws, "out.onnx")     # the model NNFusion should compile
    model_coverage(model, path) -> Coverage              # .items (status, lookup, row, why)
    build_missing(model, path, workspace, progress=, cancel=) -> BuildMissingReport
    compile_with_db(model, path, out_dir, cancel=) -> CompileReport   # the real NNFusion
"""


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
from .export import ExportReport, KernelTimes, export_workspace
from .schema import default_db_path
from .store import CacheRow, DbEntry, EntryChange, EntryDetail, EntrySummary, KernelDB
from .summaries import (
    ProfileFacts,
    describe_line_summary,
    profile_facts,
    profile_line_summaries,
    profile_times,
)

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
    "ProfileFacts",
    "RowUse",
    "build_missing",
    "compile_with_db",
    "default_db_path",
    "describe_line_summary",
    "export_workspace",
    "model_coverage",
    "nnfusion_settings",
    "profile_facts",
    "profile_line_summaries",
    "profile_times",
]
