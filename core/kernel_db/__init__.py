"""The kernel DB: an NNFusion ``KernelCache`` (SQLite) that is also a browsable library of
kernels with their sources, SASS, launch facts and measured times, and what NNFusion makes of
it for a model (coverage, the command line, building what is missing).

What the DB panel calls (all Qt-free; the long ones take ``progress``/``cancel``)::

    with KernelDB.open(path) as db:                     # browsing: see store.KernelDB
        page = db.list_entries(**filters, limit=200)    # filters: EntryFilters
        rows = db.cache_rows()
    entry.schedule, describe_tuning(entry.tuning)   # "tuned 64 trials"; the provenance
    settings = nnfusion_settings(rows, product_name=None)  # NoTimesFor: no times of that GPU
    settings.command(path, model)        # argv; settings.for_model(model) for one model
    settings.explain(model)              # [(flag, why each flag is there)]; .describe: CLI
    settings.warnings                    # several GPUs' times, mixed Conv+Add+Relu kinds
    row_verdict(row) -> RowVerdict       # usable / ambiguous / kept (why) / unusable
    export_workspace(ws, path, allow_ambiguous=False, nnfusion_model=None, hold_back=None)
                                         # rows (ambiguous ones kept back) and the model
                                         # NNFusion should compile (report.nnfusion_model);
                                         # hold_back=load_operator_times(TIMES.json): rows
                                         # slower than NNFusion's own kernel held back
    model_coverage(model, path) -> Coverage    # .items (status, lookup, row, why);
                                               # WeightsAsInputs: offer the initializer copy
    build_missing(model, path, default_missing_workspace(model, path), progress=, cancel=)
    compile_with_db(model, path, out_dir, cancel=) -> CompileReport   # the real NNFusion
    coverage.check(report.run.log) -> LookupCheck  # predicted lookups against NNFusion's
"""

from .compile import CompileReport, compile_with_db
from .coverage import (
    BuildMissingReport,
    Coverage,
    CoverageItem,
    LookupCheck,
    WeightsAsInputs,
    build_missing,
    default_missing_workspace,
    model_coverage,
)
from .export import ExportReport, KernelTimes, export_workspace
from .filters import EntryFilters
from .holdback import is_held_back, load_operator_times
from .records import describe_tuning
from .schema import default_db_path
from .settings import (
    MODEL_PLACEHOLDER,
    NNFusionSettings,
    NoTimesFor,
    RowVerdict,
    nnfusion_settings,
    row_verdict,
)
from .store import CacheRow, DbEntry, EntryDetail, EntrySummary, KernelDB
from .summaries import ProfileFacts, describe_line_summary, profile_facts

__all__ = [
    "MODEL_PLACEHOLDER",
    "BuildMissingReport",
    "CacheRow",
    "CompileReport",
    "Coverage",
    "CoverageItem",
    "DbEntry",
    "EntryDetail",
    "EntryFilters",
    "EntrySummary",
    "ExportReport",
    "KernelDB",
    "KernelTimes",
    "LookupCheck",
    "NNFusionSettings",
    "ProfileFacts",
    "RowVerdict",
    "WeightsAsInputs",
    "build_missing",
    "compile_with_db",
    "default_db_path",
    "default_missing_workspace",
    "describe_line_summary",
    "describe_tuning",
    "export_workspace",
    "is_held_back",
    "load_operator_times",
    "model_coverage",
    "NoTimesFor",
    "nnfusion_settings",
    "profile_facts",
    "row_verdict",
]
