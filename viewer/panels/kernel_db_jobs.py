"""What the Kernel DB panel runs on worker lanes: its listing queries and entry reads (the
``db`` lane, which owns the connection), deletes, and the open profile's mean times (the
``document`` lane). ``core.kernel_db`` (sqlite-utils: 0.3 s to import) is imported here, by
the first job that needs it, not at start-up."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.view import ViewDocument

if TYPE_CHECKING:
    from kernelscope.core.kernel_db import EntryDetail, EntrySummary, KernelDB

PAGE = 1000  # rows listed at most; the filters narrow the rest down
Filters = dict[str, str | None]


@dataclass
class Listing:
    """One query's answer: a page of entries and, when the DB was (re)read, its choices."""

    path: Path
    entries: list[EntrySummary] = field(default_factory=list)
    total: int = 0
    choices: tuple[list[tuple[str, int]], list[str]] | None = None  # op types, devices
    readable: bool = False
    error: KernelscopeError | None = None  # why the file could not be opened


class DbSession:
    """The panel's read-only connection. Every method runs on the ``db`` lane (one thread)
    and nowhere else: a sqlite3 connection belongs to the thread that opened it."""

    def __init__(self) -> None:
        self._db: KernelDB | None = None
        self._path: Path | None = None

    def list(self, path: Path, filters: Filters, reread: bool) -> Listing:
        """Entries matching ``filters``; ``reread`` (re)opens the file and its choices."""
        from kernelscope.core.kernel_db import KernelDB

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
            else:
                listing.choices = ([], [])
        if self._db is not None:
            listing.readable = True
            listing.entries = self._db.list_entries(**filters, limit=PAGE)
            listing.total = self._db.count_entries(**filters)
        return listing

    def detail(self, key: str) -> EntryDetail | None:
        return self._db.get(key) if self._db is not None else None

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
        self._path = None


def delete_entries(path: Path, keys: list[str]) -> int:
    from kernelscope.core.kernel_db import KernelDB

    with KernelDB.open(path, write=True, timeout=2.0) as db:
        return db.delete(keys)


def mean_times_us(document: ViewDocument) -> dict[str, float]:
    """Mean time per kernel of the open document's profile, in µs (no I/O)."""
    return {name: ns / 1000 for name, (_, ns) in document.kernel_times().items()}


def function_body(entry: EntryDetail) -> str:
    return str(entry.function.get("function_body") or entry.source or "")
