"""What the Kernel DB panel runs on worker lanes: its listing queries, entry reads and the
NNFusion command line of the DB (the ``db`` lane, which owns the connection), deletes, and
the open profile's mean times (the ``document`` lane). ``core.kernel_db`` (sqlite-utils:
0.3 s to import) is imported here, by the first job that needs it, not at start-up."""

from __future__ import annotations

import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.view import ViewDocument

if TYPE_CHECKING:
    from kernelscope.core.kernel_db import (
        CacheRow,
        Coverage,
        EntryDetail,
        EntryFilters,
        EntrySummary,
        KernelDB,
        LookupCheck,
        NNFusionSettings,
        RowVerdict,
    )
    from kernelscope.core.nnfusion import InitializerModel

PAGE = 1000  # rows listed at most; the filters narrow the rest down


@dataclass
class Listing:
    """One query's answer: a page of entries and, when the DB was (re)read, its choices."""

    path: Path
    entries: list[EntrySummary] = field(default_factory=list)
    total: int = 0
    choices: tuple[list[tuple[str, int]], list[str]] | None = None  # op types, devices
    readable: bool = False
    error: KernelscopeError | None = None  # why the file could not be opened
    verdicts: dict[str, RowVerdict] | None = None  # key -> what NNFusion makes of the row


class DbSession:
    """The panel's read-only connection. Every method runs on the ``db`` lane (one thread)
    and nowhere else: a sqlite3 connection belongs to the thread that opened it."""

    def __init__(self) -> None:
        self._db: KernelDB | None = None
        self._path: Path | None = None
        self._rows: list[CacheRow] = []  # as NNFusion reads them, when the file was read

    def list(self, path: Path, filters: EntryFilters, reread: bool) -> Listing:
        """Entries matching ``filters``; ``reread`` (re)opens the file and its choices."""
        from kernelscope.core.kernel_db import KernelDB, row_verdict

        listing = Listing(path)
        if reread or path != self._path:
            self.close()
            self._path = path
            if path.is_file():
                try:
                    self._db = KernelDB.open(path)
                except KernelscopeError as exc:
                    listing.error = exc
            if self._db is not None:
                listing.choices = (self._db.op_types(), self._db.devices())
                self._rows = self._db.cache_rows()
            else:
                listing.choices = ([], [])
            listing.verdicts = {r.key: row_verdict(r) for r in self._rows}
        if self._db is not None:
            listing.readable = True
            listing.entries = self._db.list_entries(**filters, limit=PAGE)
            listing.total = self._db.count_entries(**filters)
        return listing

    def detail(self, key: str) -> EntryDetail | None:
        return self._db.get(key) if self._db is not None else None

    def command(self, path: Path, product_name: str | None) -> CommandInfo:
        """The NNFusion command line for the DB as last read (``list`` with ``reread``)."""
        from kernelscope.core.kernel_db import nnfusion_settings

        rows = self._rows if path == self._path else []
        info = CommandInfo(path, product_name, db_exists=path.exists())
        try:
            info.settings = nnfusion_settings(rows, product_name)
        except KernelscopeError as exc:
            info.error = exc
            info.settings = nnfusion_settings(rows)  # what the DB's own times give
        return info

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
        self._path = None
        self._rows = []


@dataclass
class CommandInfo:
    """The DB's NNFusion settings (with ``product_name`` asked for), or why that GPU cannot
    be used (``error``: no row has its times; ``settings`` are then the DB's own choice)."""

    db: Path
    product_name: str | None
    settings: NNFusionSettings | None = None
    error: KernelscopeError | None = None
    model: str | None = None  # the settings are for this model (a coverage's)
    db_exists: bool = True


def delete_entries(path: Path, keys: list[str]) -> int:
    from kernelscope.core.kernel_db import KernelDB

    with KernelDB.open(path, write=True, timeout=2.0) as db:
        return db.delete(keys)


def mean_times_us(document: ViewDocument) -> tuple[dict[str, float], set[str]]:
    """Mean time per kernel of the open document's profile, in µs, and the GPUs it ran on
    (no I/O)."""
    times = document.kernel_times()
    return {name: ns / 1000 for name, (_, ns) in times.items()}, {d for d, _ in times.values()}


def function_body(entry: EntryDetail) -> str:
    return str(entry.function.get("function_body") or entry.source or "")


# ---- NNFusion coverage (the Coverage tab) ------------------------------------------------
@dataclass
class CoverageResult:
    coverage: Coverage
    note: str = ""  # the GPU asked for has no times: the DB's own choice was used


def coverage_of(model: Path, db: Path, product_name: str | None) -> CoverageResult:
    """What NNFusion looks up for ``model`` and which rows serve it (``db`` lane: it reads
    the DB and the ONNX). A GPU without times falls back to the DB's own, with a note."""
    from kernelscope.core.kernel_db import NoTimesFor, model_coverage

    try:
        return CoverageResult(model_coverage(model, db, product_name))
    except NoTimesFor as exc:  # what falls back; any other failure is said as it is
        return CoverageResult(model_coverage(model, db, None), note=exc.message)


def workspace_model(workspace: Path) -> Path:
    """The model to compile for an open workspace: its NNFusion copy when one was written,
    else the ONNX it was built from (checked by digest)."""
    from kernelscope.core.nnfusion import find_model, nnfusion_copy_path
    from kernelscope.core.workspace import Workspace

    ws = Workspace.open(workspace)
    copy = nnfusion_copy_path(ws)
    return copy if copy.is_file() else find_model(ws)


def write_nnfusion_copy(workspace: Path, model: Path | None) -> InitializerModel:
    """Write the model NNFusion should compile for ``workspace`` (weights as initializers,
    biases broadcast) next to it; ``model`` is the ONNX it was built from, if known."""
    from kernelscope.core.nnfusion import nnfusion_copy_path, write_initializer_model
    from kernelscope.core.workspace import Workspace

    ws = Workspace.open(workspace)
    return write_initializer_model(ws, nnfusion_copy_path(ws), model)


@dataclass
class CheckResult:
    """What the real NNFusion did with the model and the DB."""

    command: list[str]
    used: int
    usable: int
    missed: int  # identifiers it found no row for
    check: LookupCheck


def check_with_nnfusion(
    coverage: Coverage, product_name: str | None, cancel: threading.Event
) -> CheckResult:
    """Compile the coverage's model with the real NNFusion (in a scratch folder) and compare
    its lookups with the predicted ones."""
    from kernelscope.core.kernel_db import compile_with_db

    with tempfile.TemporaryDirectory(prefix="kernelscope-nnfusion-check-") as scratch:
        report = compile_with_db(
            coverage.model, coverage.db_path, scratch, product_name=product_name, cancel=cancel
        )
    return CheckResult(
        command=report.run.command,
        used=len(report.used),
        usable=len(report.usable),
        missed=len(report.missed),
        check=coverage.check(report.run.log),
    )
