"""An NNFusion kernel cache that is also a browsable kernel library (no Qt here).

One SQLite file holds NNFusion's ``KernelCache`` table, exactly as NNFusion reads it, and
kernelscope's ``ks_*`` tables beside it (sources, SASS, provenance, an FTS index); see
``schema``. Rows are made from a build workspace by ``export``.

API for the GUI panel and the CLI::

    db = KernelDB.open(path)                       # read; KernelDB.open(path, write=True)
    db.kind                                        # "kernelscope" | "nnfusion" | "empty"
    db.list_entries(op="Convolution", device="NVIDIA H200", shape=[1, 64, 56, 56],
                    search="conv2d", usable=None, limit=200, offset=0) -> list[EntrySummary]
    db.count_entries(...same filters...)           -> int
    db.op_types() -> list[tuple[str, int]];  db.devices() -> list[str]
    db.get(key_or_identifier) -> EntryDetail       # a key, a unique key prefix (>= 6
                                                   # chars) or an Identifier
    db.find(key_or_identifier) -> list[EntryDetail]
    db.delete(keys) -> int                         # write mode; also removes twin rows
    db.write(entries, replace_identifier=False) -> list[EntryChange]   # one transaction
    db.close()  (or use ``with``)

Filters are ``filters.EntryFilters``. Records are in ``records``, the writer in
``writer``, the indexer of rows other tools wrote in ``indexer``, the reads in ``queries``;
``KernelDB`` owns the connection and its transactions.

Writers take SQLite's write lock for the whole export (``BEGIN IMMEDIATE``), waiting up to
``timeout`` seconds for another exporter; WAL mode lets readers carry on meanwhile. A DB
that stays locked, is read-only or has a foreign layout raises ``KernelscopeError`` and is
left as it was.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Unpack

from ..errors import KernelscopeError
from . import indexer, queries, schema, writer
from .filters import EntryFilters
from .records import CacheRow, DbEntry, EntryChange, EntryDetail, EntrySummary

__all__ = ["CacheRow", "DbEntry", "EntryChange", "EntryDetail", "EntrySummary", "KernelDB"]


class KernelDB:
    """One open kernel DB file: its connection, and whether kernelscope may write it."""

    def __init__(self, conn: sqlite3.Connection, path: Path, kind: str, write: bool) -> None:
        self.conn = conn
        self.path = path
        self.kind = kind
        self.writable = write
        self.unindexed = 0  # KernelCache rows kernelscope could not index (read-only file)

    # --- opening ----------------------------------------------------------------------

    @classmethod
    def open(
        cls, path: str | os.PathLike[str], *, write: bool = False, timeout: float = 10.0
    ) -> KernelDB:
        path = Path(path).expanduser()
        conn = schema.connect(path, write=write, timeout=timeout)
        try:
            kind = schema.inspect(conn, path)
            db = cls(conn, path, kind, write)
            if write:
                try:
                    conn.execute("PRAGMA journal_mode = WAL")
                except sqlite3.OperationalError as exc:
                    raise db._explain(exc) from exc
                with db._transaction():
                    schema.create_tables(conn)
                    indexer.index_foreign_rows(conn)
                db.kind = "kernelscope"
            elif kind != "kernelscope":
                schema.create_temp_tables(conn)
                indexer.index_foreign_rows(conn)
                conn.execute("INSERT INTO ks_entries_fts(ks_entries_fts) VALUES ('rebuild')")
            else:
                if not schema.has_tuning_table(conn):
                    schema.create_temp_tuning(conn)  # written before ks_tuning existed
                if indexer.missing_keys(conn):
                    db._index_missing_read_mode(timeout)
        except BaseException:
            conn.close()
            raise
        return db

    def _index_missing_read_mode(self, timeout: float) -> None:
        """Index rows another tool added since kernelscope last wrote the file, if allowed."""
        try:
            other = KernelDB.open(self.path, write=True, timeout=min(timeout, 1.0))
        except KernelscopeError:
            self.unindexed = len(indexer.missing_keys(self.conn))
            return
        other.close()

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> KernelDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """BEGIN IMMEDIATE ... COMMIT; errors roll back and become KernelscopeErrors."""
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise self._explain(exc) from exc
        try:
            yield
            self.conn.execute("COMMIT")
        except BaseException as exc:
            self.conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.OperationalError):
                raise self._explain(exc) from exc
            raise

    def _explain(self, exc: sqlite3.OperationalError) -> KernelscopeError:
        text = str(exc)
        if "locked" in text or "busy" in text:
            return KernelscopeError(
                f"{self.path} is locked by another program (waited for it); nothing was written",
                hint="close the other exporter or NNFusion run and try again",
            )
        if "readonly" in text or "read-only" in text:
            return KernelscopeError(
                f"{self.path} is read-only; nothing was written",
                hint="choose another --db, or make it writable",
                window_hint="open another DB (Open DB… in the Kernel DB panel), or make it "
                "writable",
            )
        return KernelscopeError(f"writing {self.path} failed: {text}; nothing was written")

    def _require_write(self) -> None:
        if not self.writable:
            raise KernelscopeError("the kernel DB was opened read-only")

    # --- writing ----------------------------------------------------------------------

    def write(
        self, entries: Iterable[DbEntry], *, replace_identifier: bool = False
    ) -> list[EntryChange]:
        """Upsert ``entries`` in one transaction and say what changed for each.

        With ``replace_identifier``, other rows with the same (Identifier, DeviceType) are
        deleted first: NNFusion takes the *first* External row of an identifier, not the
        fastest, so keeping an older kernel beside a new one leaves the choice to SQLite.
        """
        self._require_write()
        with self._transaction():
            changes = writer.write_entries(
                self.conn, entries, replace_identifier=replace_identifier
            )
        # Keep the planner's statistics current (bounded: ~25 ms on 100,000 rows); without
        # them a shape filter is planned as a scan of every entry.
        self.conn.execute("PRAGMA analysis_limit = 400")
        self.conn.execute("ANALYZE")
        return changes

    def delete(self, keys: Iterable[str]) -> int:
        """Delete rows (and their DeviceType="CUDA" twins); returns how many rows went."""
        self._require_write()
        with self._transaction():
            return writer.delete_entries(self.conn, keys)

    # --- reading ----------------------------------------------------------------------

    def list_entries(
        self, *, limit: int = 200, offset: int = 0, **filters: Unpack[EntryFilters]
    ) -> list[EntrySummary]:
        """One page of entries, newest export first."""
        return queries.list_entries(self.conn, filters, limit=limit, offset=offset)

    def count_entries(self, **filters: Unpack[EntryFilters]) -> int:
        return queries.count_entries(self.conn, filters)

    def op_types(self) -> list[tuple[str, int]]:
        return queries.op_types(self.conn)

    def devices(self) -> list[str]:
        return queries.devices(self.conn)

    def cache_rows(
        self, identifiers: Iterable[str] | None = None, *, flagged: bool = False
    ) -> list[CacheRow]:
        """KernelCache rows in NNFusion's lookup order (see ``queries.cache_rows``)."""
        return queries.cache_rows(self.conn, identifiers, flagged=flagged)

    def functions(self, keys: Iterable[str]) -> dict[str, dict[str, Any]]:
        """The parsed ``Function`` JSON of rows by key."""
        return queries.functions(self.conn, keys)

    def find(self, key_or_identifier: str) -> list[EntryDetail]:
        """Entries whose Key, unique Key prefix or Identifier is ``key_or_identifier``."""
        return queries.find(self.conn, key_or_identifier)

    def get(self, key_or_identifier: str) -> EntryDetail:
        found = self.find(key_or_identifier)
        if not found:
            raise KernelscopeError(
                f"no entry with key or identifier {key_or_identifier!r} in {self.path}",
                hint="list the entries with: kernelscope db list --db " + str(self.path),
            )
        if len(found) > 1:
            raise KernelscopeError(
                f"{len(found)} entries match {key_or_identifier!r}",
                hint="give the full key: " + ", ".join(d.key[:16] for d in found),
            )
        return found[0]
