"""Reading the kernel DB: listings (see ``filters``), the filter choices, rows as NNFusion
reads them, and one entry with everything kernelscope kept about it."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterable
from typing import Any

from .filters import EntryFilters, where
from .records import (
    CHUNK,
    LAUNCH,
    PROVENANCE,
    CacheRow,
    EntryDetail,
    EntrySummary,
    json_or,
    parse_profile_time,
    rows_by_key,
    split_tags,
)


def list_entries(
    conn: sqlite3.Connection, filters: EntryFilters, *, limit: int, offset: int
) -> list[EntrySummary]:
    """One page of entries, newest export first."""
    clause, args = where(filters)
    rows = conn.execute(
        "SELECT e.key, e.identifier, e.op_type, e.device_type, e.kernel_name, e.usable, "
        "e.time_us, e.device_name, e.model, e.grid, e.block, e.exported_at, e.reasons "
        f"FROM ks_entries e{clause} ORDER BY e.exported_at DESC, e.rowid DESC "
        "LIMIT ? OFFSET ?",
        [*args, limit, offset],
    ).fetchall()
    extra = _source_and_tags(conn, [r[0] for r in rows])
    tuning = _tuning(conn, [r[0] for r in rows])
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
            tuning=tuning.get(r[0], {}),
        )
        for r in rows
    ]


def _tuning(conn: sqlite3.Connection, keys: list[str]) -> dict[str, dict[str, Any]]:
    """``ks_tuning`` rows by key, without the key and without what is not recorded."""
    return {
        key: {k: v for k, v in values.items() if k != "key" and v is not None}
        for key, values in rows_by_key(conn, "ks_tuning", "key", keys).items()
    }


def _source_and_tags(conn: sqlite3.Connection, keys: list[str]) -> dict[str, tuple[str, list[str]]]:
    if not keys:
        return {}
    marks = ",".join("?" * len(keys))
    return {
        k: (src, split_tags(tags))
        for k, src, tags in conn.execute(
            f"SELECT Key, Source, Tags FROM KernelCache WHERE Key IN ({marks})", keys
        )
    }


def count_entries(conn: sqlite3.Connection, filters: EntryFilters) -> int:
    """How many entries match ``filters``."""
    clause, args = where(filters)
    count: int = conn.execute(f"SELECT count(*) FROM ks_entries e{clause}", args).fetchone()[0]
    return count


def op_types(conn: sqlite3.Connection) -> list[tuple[str, int]]:
    """(OpType, number of rows), by name; twins not counted."""
    return list(
        conn.execute(
            "SELECT op_type, count(*) FROM ks_entries WHERE twin_of IS NULL "
            "GROUP BY op_type ORDER BY op_type"
        )
    )


def devices(conn: sqlite3.Connection) -> list[str]:
    """Every DeviceType and measured-on GPU name, sorted."""
    names = {
        r[0]
        for r in conn.execute(
            "SELECT DISTINCT device_type FROM ks_entries WHERE twin_of IS NULL UNION "
            "SELECT DISTINCT device_name FROM ks_entries WHERE device_name IS NOT NULL"
        )
    }
    return sorted(n for n in names if n)


def cache_rows(
    conn: sqlite3.Connection, identifiers: Iterable[str] | None, *, flagged: bool
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
        rows = conn.execute(query + " ORDER BY c.rowid").fetchall()
    else:
        wanted = list(dict.fromkeys(identifiers))
        rows = []
        for start in range(0, len(wanted), CHUNK):
            chunk = wanted[start : start + CHUNK]
            marks = ",".join("?" * len(chunk))
            clause = f"c.Identifier IN ({marks})"
            if flagged:
                clause += f" OR e.nnfusion_identifier IN ({marks})"
            rows += conn.execute(
                f"{query} WHERE {clause} ORDER BY c.rowid", chunk * (2 if flagged else 1)
            ).fetchall()
    return [_cache_row(row) for row in rows]


def _cache_row(row: tuple[Any, ...]) -> CacheRow:
    key, ident, op, src, dev, tags, miscs, attrs, name, usable, why, notes, real, twin = row
    misc = json_or(miscs, {})
    profile = misc.get("external_profile", {}) if isinstance(misc, dict) else {}
    profile = profile if isinstance(profile, dict) else {}
    tag_list = split_tags(tags)
    resource = profile.get("resource")
    return CacheRow(
        key=key,
        identifier=ident,
        op_type=op,
        source=src or "",
        device_type=dev,
        tags=tag_list,
        times=parse_profile_time(str(profile.get("time", ""))),
        resource=resource if isinstance(resource, int) else None,
        attributes=json_or(attrs, {}),
        kernel_name=name or "",
        usable=bool(usable) if usable is not None else (
            src != "External" or "BlockCudaEmitter" in tag_list
        ),
        reasons=json_or(why, []),
        notes=json_or(notes, []),
        nnfusion_identifier=real or ident,
        twin_of=twin,
    )  # fmt: skip


def functions(conn: sqlite3.Connection, keys: Iterable[str]) -> dict[str, dict[str, Any]]:
    """The parsed ``Function`` JSON of rows by key."""
    keys = list(keys)
    found: dict[str, dict[str, Any]] = {}
    for start in range(0, len(keys), CHUNK):
        chunk = keys[start : start + CHUNK]
        marks = ",".join("?" * len(chunk))
        for key, text in conn.execute(
            f"SELECT Key, Function FROM KernelCache WHERE Key IN ({marks})", chunk
        ):
            value = json_or(text, {})
            found[key] = value if isinstance(value, dict) else {}
    return found


def find(conn: sqlite3.Connection, key_or_identifier: str) -> list[EntryDetail]:
    """Entries whose Key, unique Key prefix or Identifier is ``key_or_identifier``."""
    text = key_or_identifier.strip()
    keys = [r[0] for r in conn.execute("SELECT Key FROM KernelCache WHERE Key = ?", (text,))]
    if not keys:
        keys = [
            r[0]
            for r in conn.execute(
                "SELECT key FROM ks_entries WHERE identifier = ? AND twin_of IS NULL", (text,)
            )
        ]
    if not keys and len(text) >= 6 and re.fullmatch(r"[0-9a-f]+", text):
        keys = [
            r[0]
            for r in conn.execute(
                "SELECT Key FROM KernelCache WHERE Key >= ? AND Key < ? LIMIT 2",
                (text, text + "\U0010ffff"),
            )
        ]
    return [_detail(conn, k) for k in keys]


def _detail(conn: sqlite3.Connection, key: str) -> EntryDetail:
    cur = conn.execute("SELECT * FROM KernelCache WHERE Key = ?", (key,))
    names = [d[0] for d in cur.description]
    row = dict(zip(names, cur.fetchone(), strict=True))
    cur = conn.execute("SELECT * FROM ks_entries WHERE key = ?", (key,))
    enames = [d[0] for d in cur.description]
    found = cur.fetchone()
    e: dict[str, Any] = dict(zip(enames, found, strict=True)) if found else {}
    sources = dict(
        conn.execute("SELECT path, text FROM ks_sources WHERE key = ? ORDER BY path", (key,))
    )
    sass = conn.execute("SELECT text FROM ks_sass WHERE key = ?", (key,)).fetchone()
    shapes = [r[0] for r in conn.execute("SELECT shape FROM ks_shapes WHERE key = ?", (key,))]
    twins = [r[0] for r in conn.execute("SELECT key FROM ks_entries WHERE twin_of = ?", (key,))]
    return EntryDetail(
        key=key,
        identifier=row["Identifier"],
        op_type=row["OpType"],
        device_type=row["DeviceType"],
        source=row["Source"] or "",
        tags=split_tags(row["Tags"]),
        kernel_name=e.get("kernel_name") or "",
        usable=bool(e.get("usable")),
        time_us=e.get("time_us"),
        device_name=e.get("device_name"),
        model=e.get("model") or "",
        grid=json_or(e.get("grid"), None),
        block=json_or(e.get("block"), None),
        exported_at=e.get("exported_at") or "",
        reasons=json_or(e.get("reasons"), []),
        attributes=json_or(row["Attributes"], {}),
        function=json_or(row["Function"], {}),
        miscs=json_or(row["Miscs"], {}),
        notes=json_or(e.get("notes"), []),
        nnfusion_identifier=e.get("nnfusion_identifier") or "",
        relax_ops=(e.get("relax_ops") or "").split(),
        shapes=shapes,
        provenance={k: e.get(k) for k in (*PROVENANCE, *LAUNCH) if e.get(k) is not None},
        metrics=json_or(e.get("metrics"), None),
        sources=sources,
        sass=sass[0] if sass else None,
        twins=twins,
        tuning=_tuning(conn, [key]).get(key, {}),
    )
