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

Filters combine with AND. ``op`` matches an OpType or one part of a fused one
(``Convolution`` finds ``Fused_Convolution_Add_Relu``); ``device`` matches the DeviceType or
the GPU the time was measured on; ``shape`` any input or output shape; ``search`` is
substring text search over kernel name, identifier, op type, Relax operators and model
(an FTS5 trigram index; queries shorter than 3 characters fall back to a scan).

Writers take SQLite's write lock for the whole export (``BEGIN IMMEDIATE``), waiting up to
``timeout`` seconds for another exporter; WAL mode lets readers carry on meanwhile. A DB
that stays locked, is read-only or has a foreign layout raises ``KernelscopeError`` and is
left as it was.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..errors import KernelscopeError
from . import schema

_CHUNK = 500  # bound parameters per IN (...) query, below SQLite's limit


@dataclass
class DbEntry:
    """One row to write: the KernelCache columns and kernelscope's record of the kernel."""

    key: str
    identifier: str
    op_type: str
    attributes: dict[str, Any]
    source: str
    device_type: str
    function: dict[str, Any]
    tags: list[str]
    miscs: dict[str, Any]
    kernel_name: str
    usable: bool
    reasons: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    nnfusion_identifier: str = ""
    relax_ops: list[str] = field(default_factory=list)
    shapes: list[list[int | str]] = field(default_factory=list)
    provenance: dict[str, str] = field(default_factory=dict)  # model, tvm_version, arch...
    launch: dict[str, Any] = field(default_factory=dict)  # registers, static_smem_bytes...
    time_us: float | None = None
    device_name: str | None = None
    metrics: dict[str, Any] | None = None
    sources: dict[str, str] = field(default_factory=dict)  # path -> text
    sass: str | None = None
    twin_of: str | None = None

    def cache_row(self) -> dict[str, str]:
        return {
            "Key": self.key,
            "Identifier": self.identifier,
            "OpType": self.op_type,
            "Attributes": json.dumps(self.attributes),
            "Source": self.source,
            "DeviceType": self.device_type,
            "Function": json.dumps(self.function),
            "Tags": ",".join(self.tags),
            "Miscs": json.dumps(self.miscs),
        }


@dataclass
class EntrySummary:
    key: str
    identifier: str
    op_type: str
    device_type: str
    source: str
    tags: list[str]
    kernel_name: str
    usable: bool
    time_us: float | None
    device_name: str | None
    model: str
    grid: list[int] | None
    block: list[int] | None
    exported_at: str
    reasons: list[str]


@dataclass
class EntryDetail(EntrySummary):
    attributes: dict[str, Any] = field(default_factory=dict)
    function: dict[str, Any] = field(default_factory=dict)
    miscs: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    nnfusion_identifier: str = ""
    relax_ops: list[str] = field(default_factory=list)
    shapes: list[str] = field(default_factory=list)
    provenance: dict[str, Any] = field(default_factory=dict)
    metrics: dict[str, Any] | None = None
    sources: dict[str, str] = field(default_factory=dict)
    sass: str | None = None
    twins: list[str] = field(default_factory=list)  # keys of DeviceType="CUDA" copies


@dataclass
class CacheRow:
    """A KernelCache row as NNFusion reads it, with kernelscope's notes on it (if any)."""

    key: str
    identifier: str
    op_type: str
    source: str
    device_type: str
    tags: list[str]
    times: dict[str, float]  # Miscs.external_profile.time: GPU name -> µs
    resource: int | None
    attributes: dict[str, Any]
    kernel_name: str = ""
    usable: bool = True  # kernelscope's verdict (rows of other tools: External + emitter tag)
    reasons: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    nnfusion_identifier: str = ""  # what NNFusion computes for it, also for flagged rows
    twin_of: str | None = None


@dataclass
class EntryChange:
    key: str
    kernel_name: str
    identifier: str
    status: str  # "added" | "updated" | "unchanged"
    changed: list[str]  # fields that differ from the stored row
    usable: bool
    reasons: list[str]
    replaced: list[str] = field(default_factory=list)  # keys removed (replace_identifier)
    others_for_identifier: int = 0  # other usable rows NNFusion may pick instead


_PROVENANCE = ("model", "model_sha256", "workspace", "arch", "tvm_version", "nvcc_version",
               "ncu_version", "exported_at")  # fmt: skip
_LAUNCH = ("dynamic_smem_bytes", "static_smem_bytes", "registers", "sass_instructions")


class KernelDB:
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
                    db._index_foreign_rows()
                db.kind = "kernelscope"
            elif kind != "kernelscope":
                schema.create_temp_tables(conn)
                db._index_foreign_rows()
                conn.execute("INSERT INTO ks_entries_fts(ks_entries_fts) VALUES ('rebuild')")
            elif db._missing_keys():
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
            self.unindexed = len(self._missing_keys())
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

    # --- indexing rows other tools wrote --------------------------------------------------

    def _missing_keys(self) -> list[str]:
        return [
            r[0]
            for r in self.conn.execute(
                "SELECT Key FROM KernelCache WHERE Key NOT IN (SELECT key FROM ks_entries)"
            )
        ]

    def _index_foreign_rows(self) -> None:
        missing = self._missing_keys()
        for start in range(0, len(missing), _CHUNK):
            chunk = missing[start : start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            rows = self.conn.execute(
                f"SELECT Key, Identifier, OpType, Attributes, Source, DeviceType, Function, "
                f"Tags, Miscs FROM KernelCache WHERE Key IN ({marks})",
                chunk,
            ).fetchall()
            for row in rows:
                self._insert_index(*_foreign_index(row))

    def _insert_index(self, entry: dict[str, Any], shapes: list[str]) -> None:
        cols = ", ".join(entry)
        marks = ", ".join("?" * len(entry))
        self.conn.execute(f"INSERT INTO ks_entries ({cols}) VALUES ({marks})", list(entry.values()))
        self.conn.executemany(
            "INSERT OR IGNORE INTO ks_shapes (key, shape) VALUES (?, ?)",
            [(entry["key"], s) for s in shapes],
        )

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
        entries = list(entries)
        now = datetime.now(UTC).isoformat(timespec="seconds")
        changes: list[EntryChange] = []
        with self._transaction():
            old = self._cache_rows([e.key for e in entries])
            for e in entries:
                new_row = e.cache_row()
                prev = old.get(e.key)
                changed = _diff(prev, new_row) if prev else []
                status = "added" if prev is None else "updated" if changed else "unchanged"
                replaced: list[str] = []
                if replace_identifier and e.usable:
                    replaced = self._delete_same_identifier(e)
                if status != "unchanged":
                    self.conn.execute("DELETE FROM KernelCache WHERE Key = ?", (e.key,))
                    self.conn.execute(
                        "INSERT INTO KernelCache (Key, Identifier, OpType, Attributes, Source, "
                        "DeviceType, Function, Tags, Miscs) VALUES (?,?,?,?,?,?,?,?,?)",
                        list(new_row.values()),
                    )
                exported = self._exported_at(e.key) or now
                self._delete_side_rows([e.key])
                self._insert_index(_index_row(e, exported, now), _shape_texts(e.shapes))
                self.conn.executemany(
                    "INSERT INTO ks_sources (key, path, text) VALUES (?, ?, ?)",
                    [(e.key, p, t) for p, t in e.sources.items()],
                )
                if e.sass is not None:
                    self.conn.execute(
                        "INSERT INTO ks_sass (key, text) VALUES (?, ?)", (e.key, e.sass)
                    )
                others = 0
                if e.usable and e.twin_of is None:
                    others = self.conn.execute(
                        "SELECT count(*) FROM ks_entries WHERE identifier = ? AND "
                        "device_type = ? AND usable = 1 AND key != ?",
                        (e.identifier, e.device_type, e.key),
                    ).fetchone()[0]
                changes.append(
                    EntryChange(
                        e.key,
                        e.kernel_name,
                        e.identifier,
                        status,
                        changed,
                        e.usable,
                        e.reasons,
                        replaced,
                        others,
                    )  # fmt: skip
                )
        # Keep the planner's statistics current (bounded: ~25 ms on 100,000 rows); without
        # them a shape filter is planned as a scan of every entry.
        self.conn.execute("PRAGMA analysis_limit = 400")
        self.conn.execute("ANALYZE")
        return changes

    def _exported_at(self, key: str) -> str | None:
        row = self.conn.execute("SELECT exported_at FROM ks_entries WHERE key = ?", (key,))
        found = row.fetchone()
        return found[0] if found else None

    def _cache_rows(self, keys: list[str]) -> dict[str, dict[str, str]]:
        found: dict[str, dict[str, str]] = {}
        for start in range(0, len(keys), _CHUNK):
            chunk = keys[start : start + _CHUNK]
            cur = self.conn.execute(
                f"SELECT * FROM KernelCache WHERE Key IN ({','.join('?' * len(chunk))})", chunk
            )
            names = [d[0] for d in cur.description]
            for row in cur:
                found[row[0]] = dict(zip(names, row, strict=True))
        return found

    def _delete_same_identifier(self, e: DbEntry) -> list[str]:
        keys = [
            r[0]
            for r in self.conn.execute(
                "SELECT Key FROM KernelCache WHERE Identifier = ? AND DeviceType = ? AND Key != ?",
                (e.identifier, e.device_type, e.key),
            )
        ]
        if keys:
            self._delete_keys(keys)
        return keys

    def _delete_side_rows(self, keys: list[str]) -> None:
        for table in ("ks_entries", "ks_sources", "ks_sass", "ks_shapes"):
            self.conn.executemany(f"DELETE FROM {table} WHERE key = ?", [(k,) for k in keys])

    def _delete_keys(self, keys: list[str]) -> None:
        self.conn.executemany("DELETE FROM KernelCache WHERE Key = ?", [(k,) for k in keys])
        self._delete_side_rows(keys)

    def delete(self, keys: Iterable[str]) -> int:
        """Delete rows (and their DeviceType="CUDA" twins); returns how many rows went."""
        self._require_write()
        keys = list(keys)
        with self._transaction():
            twins = [
                r[0]
                for k in keys
                for r in self.conn.execute("SELECT key FROM ks_entries WHERE twin_of = ?", (k,))
            ]
            everything = list(dict.fromkeys(keys + twins))
            before = self.conn.total_changes
            self.conn.executemany(
                "DELETE FROM KernelCache WHERE Key = ?", [(k,) for k in everything]
            )
            removed = self.conn.total_changes - before
            self._delete_side_rows(everything)
        return removed

    # --- reading ----------------------------------------------------------------------

    def _where(
        self,
        op: str | None,
        device: str | None,
        shape: str | list[int] | tuple[int, ...] | None,
        search: str | None,
        usable: bool | None,
        include_twins: bool,
    ) -> tuple[str, list[Any]]:
        clauses: list[str] = []
        args: list[Any] = []
        if not include_twins:
            clauses.append("e.twin_of IS NULL")
        if op:
            clauses.append(
                "(e.op_type = ? OR (e.op_type LIKE 'Fused%' AND "
                "instr('_' || e.op_type || '_', ?) > 0))"
            )
            args += [op, f"_{op}_"]
        if device:
            clauses.append("(e.device_type = ? OR e.device_name = ?)")
            args += [device, device]
        if shape:
            text = shape if isinstance(shape, str) else ",".join(str(d) for d in shape)
            clauses.append("e.key IN (SELECT key FROM ks_shapes WHERE shape = ?)")
            args.append(text.replace(" ", ""))
        if search:
            if len(search) >= 3:
                # The unary + keeps SQLite walking the listing index in page order and
                # probing the FTS matches, instead of sorting every match first.
                clauses.append(
                    "+e.rowid IN (SELECT rowid FROM ks_entries_fts WHERE ks_entries_fts MATCH ?)"
                )
                args.append('"' + search.replace('"', '""') + '"')
            else:
                clauses.append(
                    "(instr(lower(e.kernel_name), ?) OR instr(lower(e.identifier), ?) "
                    "OR instr(lower(e.op_type), ?))"
                )
                args += [search.lower()] * 3
        if usable is not None:
            clauses.append("e.usable = ?")
            args.append(int(usable))
        return (" WHERE " + " AND ".join(clauses)) if clauses else "", args

    def list_entries(
        self,
        op: str | None = None,
        device: str | None = None,
        shape: str | list[int] | tuple[int, ...] | None = None,
        search: str | None = None,
        usable: bool | None = None,
        *,
        include_twins: bool = False,
        limit: int = 200,
        offset: int = 0,
    ) -> list[EntrySummary]:
        """One page of entries, newest export first."""
        where, args = self._where(op, device, shape, search, usable, include_twins)
        rows = self.conn.execute(
            "SELECT e.key, e.identifier, e.op_type, e.device_type, e.kernel_name, e.usable, "
            "e.time_us, e.device_name, e.model, e.grid, e.block, e.exported_at, e.reasons "
            f"FROM ks_entries e{where} ORDER BY e.exported_at DESC, e.rowid DESC "
            "LIMIT ? OFFSET ?",
            [*args, limit, offset],
        ).fetchall()
        extra = self._source_and_tags([r[0] for r in rows])
        return [
            EntrySummary(
                key=r[0],
                identifier=r[1],
                op_type=r[2],
                device_type=r[3],
                source=extra.get(r[0], ("", []))[0],
                tags=extra.get(r[0], ("", []))[1],
                kernel_name=r[4] or "",
                usable=bool(r[5]),
                time_us=r[6],
                device_name=r[7],
                model=r[8] or "",
                grid=json.loads(r[9]) if r[9] else None,
                block=json.loads(r[10]) if r[10] else None,
                exported_at=r[11] or "",
                reasons=json.loads(r[12]) if r[12] else [],
            )
            for r in rows
        ]

    def _source_and_tags(self, keys: list[str]) -> dict[str, tuple[str, list[str]]]:
        if not keys:
            return {}
        marks = ",".join("?" * len(keys))
        return {
            k: (src, [t for t in (tags or "").split(",") if t])
            for k, src, tags in self.conn.execute(
                f"SELECT Key, Source, Tags FROM KernelCache WHERE Key IN ({marks})", keys
            )
        }

    def count_entries(
        self,
        op: str | None = None,
        device: str | None = None,
        shape: str | list[int] | tuple[int, ...] | None = None,
        search: str | None = None,
        usable: bool | None = None,
        *,
        include_twins: bool = False,
    ) -> int:
        where, args = self._where(op, device, shape, search, usable, include_twins)
        return self.conn.execute(f"SELECT count(*) FROM ks_entries e{where}", args).fetchone()[0]

    def op_types(self) -> list[tuple[str, int]]:
        return list(
            self.conn.execute(
                "SELECT op_type, count(*) FROM ks_entries WHERE twin_of IS NULL "
                "GROUP BY op_type ORDER BY op_type"
            )
        )

    def devices(self) -> list[str]:
        names = {
            r[0]
            for r in self.conn.execute(
                "SELECT DISTINCT device_type FROM ks_entries WHERE twin_of IS NULL UNION "
                "SELECT DISTINCT device_name FROM ks_entries WHERE device_name IS NOT NULL"
            )
        }
        return sorted(n for n in names if n)

    def cache_rows(
        self, identifiers: Iterable[str] | None = None, *, flagged: bool = False
    ) -> list[CacheRow]:
        """KernelCache rows in the order NNFusion's lookup returns them (rowid order).

        With ``identifiers``, only rows with one of them as Identifier or, with ``flagged``,
        also the rows kernelscope kept from NNFusion whose real identifier it is.
        """
        query = (
            "SELECT c.Key, c.Identifier, c.OpType, c.Source, c.DeviceType, c.Tags, c.Miscs, "
            "c.Attributes, e.kernel_name, e.usable, e.reasons, e.notes, e.nnfusion_identifier, "
            "e.twin_of FROM KernelCache c LEFT JOIN ks_entries e ON e.key = c.Key"
        )
        if identifiers is None:
            rows = self.conn.execute(query + " ORDER BY c.rowid").fetchall()
        else:
            wanted = list(dict.fromkeys(identifiers))
            rows = []
            for start in range(0, len(wanted), _CHUNK):
                chunk = wanted[start : start + _CHUNK]
                marks = ",".join("?" * len(chunk))
                where = f"c.Identifier IN ({marks})"
                if flagged:
                    where += f" OR e.nnfusion_identifier IN ({marks})"
                rows += self.conn.execute(
                    f"{query} WHERE {where} ORDER BY c.rowid", chunk * (2 if flagged else 1)
                ).fetchall()
        out = []
        for (
            key,
            ident,
            op,
            src,
            dev,
            tags,
            miscs,
            attrs,
            name,
            usable,
            why,
            notes,
            real,
            twin,
        ) in rows:
            misc = _json(miscs, {})
            profile = misc.get("external_profile", {}) if isinstance(misc, dict) else {}
            profile = profile if isinstance(profile, dict) else {}
            tag_list = [t for t in (tags or "").split(",") if t]
            resource = profile.get("resource")
            out.append(
                CacheRow(
                    key=key,
                    identifier=ident,
                    op_type=op,
                    source=src or "",
                    device_type=dev,
                    tags=tag_list,
                    times=parse_profile_time(str(profile.get("time", ""))),
                    resource=resource if isinstance(resource, int) else None,
                    attributes=_json(attrs, {}),
                    kernel_name=name or "",
                    usable=bool(usable) if usable is not None else (
                        src != "External" or "BlockCudaEmitter" in tag_list
                    ),
                    reasons=_json(why, []),
                    notes=_json(notes, []),
                    nnfusion_identifier=real or ident,
                    twin_of=twin,
                )
            )  # fmt: skip
        return out

    def functions(self, keys: Iterable[str]) -> dict[str, dict[str, Any]]:
        """The parsed ``Function`` JSON of rows by key."""
        keys = list(keys)
        found: dict[str, dict[str, Any]] = {}
        for start in range(0, len(keys), _CHUNK):
            chunk = keys[start : start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            for key, text in self.conn.execute(
                f"SELECT Key, Function FROM KernelCache WHERE Key IN ({marks})", chunk
            ):
                value = _json(text, {})
                found[key] = value if isinstance(value, dict) else {}
        return found

    def find(self, key_or_identifier: str) -> list[EntryDetail]:
        """Entries whose Key, unique Key prefix or Identifier is ``key_or_identifier``."""
        text = key_or_identifier.strip()
        keys = [
            r[0] for r in self.conn.execute("SELECT Key FROM KernelCache WHERE Key = ?", (text,))
        ]
        if not keys:
            keys = [
                r[0]
                for r in self.conn.execute(
                    "SELECT key FROM ks_entries WHERE identifier = ? AND twin_of IS NULL", (text,)
                )
            ]
        if not keys and len(text) >= 6 and re.fullmatch(r"[0-9a-f]+", text):
            keys = [
                r[0]
                for r in self.conn.execute(
                    "SELECT Key FROM KernelCache WHERE Key >= ? AND Key < ? LIMIT 2",
                    (text, text + "\U0010ffff"),
                )
            ]
        return [self._detail(k) for k in keys]

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

    def _detail(self, key: str) -> EntryDetail:
        cur = self.conn.execute("SELECT * FROM KernelCache WHERE Key = ?", (key,))
        names = [d[0] for d in cur.description]
        row = dict(zip(names, cur.fetchone(), strict=True))
        cur = self.conn.execute("SELECT * FROM ks_entries WHERE key = ?", (key,))
        enames = [d[0] for d in cur.description]
        found = cur.fetchone()
        e: dict[str, Any] = dict(zip(enames, found, strict=True)) if found else {}
        sources = dict(
            self.conn.execute(
                "SELECT path, text FROM ks_sources WHERE key = ? ORDER BY path", (key,)
            )
        )
        sass = self.conn.execute("SELECT text FROM ks_sass WHERE key = ?", (key,)).fetchone()
        shapes = [
            r[0] for r in self.conn.execute("SELECT shape FROM ks_shapes WHERE key = ?", (key,))
        ]
        twins = [
            r[0] for r in self.conn.execute("SELECT key FROM ks_entries WHERE twin_of = ?", (key,))
        ]
        return EntryDetail(
            key=key,
            identifier=row["Identifier"],
            op_type=row["OpType"],
            device_type=row["DeviceType"],
            source=row["Source"] or "",
            tags=[t for t in (row["Tags"] or "").split(",") if t],
            kernel_name=e.get("kernel_name") or "",
            usable=bool(e.get("usable")),
            time_us=e.get("time_us"),
            device_name=e.get("device_name"),
            model=e.get("model") or "",
            grid=_json(e.get("grid"), None),
            block=_json(e.get("block"), None),
            exported_at=e.get("exported_at") or "",
            reasons=_json(e.get("reasons"), []),
            attributes=_json(row["Attributes"], {}),
            function=_json(row["Function"], {}),
            miscs=_json(row["Miscs"], {}),
            notes=_json(e.get("notes"), []),
            nnfusion_identifier=e.get("nnfusion_identifier") or "",
            relax_ops=(e.get("relax_ops") or "").split(),
            shapes=shapes,
            provenance={k: e.get(k) for k in (*_PROVENANCE, *_LAUNCH) if e.get(k) is not None},
            metrics=_json(e.get("metrics"), None),
            sources=sources,
            sass=sass[0] if sass else None,
            twins=twins,
        )


def _json(text: str | None, default: Any) -> Any:
    if not text:
        return default
    try:
        return json.loads(text)
    except ValueError:
        return default


def _diff(old: dict[str, str], new: dict[str, str]) -> list[str]:
    """Names of what differs, one level into the JSON columns (``Function.grid_dim``)."""
    changed: list[str] = []
    for col, value in new.items():
        if old.get(col) == value:
            continue
        before, after = _json(old.get(col), None), _json(value, None)
        if isinstance(before, dict) and isinstance(after, dict):
            subs = [k for k in {**before, **after} if before.get(k) != after.get(k)]
            changed += [f"{col}.{k}" for k in subs] or [col]
        else:
            changed.append(col)
    return changed


def _shape_texts(shapes: list[list[int | str]]) -> list[str]:
    return list(dict.fromkeys(",".join(str(d) for d in s) for s in shapes))


def _index_row(e: DbEntry, exported: str, now: str) -> dict[str, Any]:
    row: dict[str, Any] = {
        "key": e.key,
        "kernel_name": e.kernel_name,
        "identifier": e.identifier,
        "op_type": e.op_type,
        "device_type": e.device_type,
        "usable": int(e.usable),
        "reasons": json.dumps(e.reasons),
        "notes": json.dumps(e.notes),
        "nnfusion_identifier": e.nnfusion_identifier,
        "relax_ops": " ".join(e.relax_ops),
        "device_name": e.device_name,
        "time_us": e.time_us,
        "grid": json.dumps(e.function.get("grid_dim")),
        "block": json.dumps(e.function.get("block_dim")),
        "metrics": json.dumps(e.metrics) if e.metrics is not None else None,
        "twin_of": e.twin_of,
        "exported_at": exported,
        "updated_at": now,
    }
    for k in _PROVENANCE:
        if k != "exported_at":
            row[k] = e.provenance.get(k)
    for k in _LAUNCH:
        row[k] = e.launch.get(k)
    return row


def parse_profile_time(text: str) -> dict[str, float]:
    """``"NVIDIA H200:12.5;Tesla V100:20;"`` -> {device: µs}, as NNFusion splits it."""
    times: dict[str, float] = {}
    for part in text.split(";"):
        name, sep, value = part.rpartition(":")
        if sep:
            try:
                times[name] = float(value)
            except ValueError:
                continue
    return times


def _foreign_index(row: tuple[Any, ...]) -> tuple[dict[str, Any], list[str]]:
    """Index a KernelCache row another tool wrote (convert_external.py, NNFusion itself)."""
    key, ident, op_type, attributes, source, device_type, function, tags, miscs = row
    attrs = _json(attributes, {})
    func = _json(function, {})
    misc = _json(miscs, {})
    profile = misc.get("external_profile", {}) if isinstance(misc, dict) else {}
    times = parse_profile_time(profile.get("time", "")) if isinstance(profile, dict) else {}
    device_name, time_us = next(iter(times.items()), (None, None))
    tag_set = set((tags or "").split(","))
    usable = source != "External" or "BlockCudaEmitter" in tag_set
    shapes: list[list[int | str]] = []
    if isinstance(attrs, dict):
        for k in ("input_shape", "output_shape"):
            value = attrs.get(k) or []
            shapes += [s for s in value if isinstance(s, list)]
    entry = {
        "key": key,
        "kernel_name": "",
        "identifier": ident,
        "op_type": op_type,
        "device_type": device_type,
        "usable": int(usable),
        "reasons": json.dumps([] if usable else ["External row without BlockCudaEmitter tag"]),
        "notes": json.dumps(["written by another tool; indexed by kernelscope"]),
        "nnfusion_identifier": ident,
        "relax_ops": "",
        "device_name": device_name,
        "time_us": time_us,
        "grid": json.dumps(func.get("grid_dim")) if isinstance(func, dict) else None,
        "block": json.dumps(func.get("block_dim")) if isinstance(func, dict) else None,
        "exported_at": "",
        "updated_at": "",
    }
    return entry, _shape_texts(shapes)
