"""Writing the kernel DB: upserting rows with their sources, SASS and index, and deleting
rows with their twins. Every function here runs inside the caller's write transaction
(``KernelDB`` owns the connection and the transaction)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from .indexer import insert_index
from .records import LAUNCH, PROVENANCE, DbEntry, EntryChange, json_or, rows_by_key, shape_texts
from .schema import TUNING_COLUMNS


def write_entries(
    conn: sqlite3.Connection, entries: Iterable[DbEntry], *, replace_identifier: bool
) -> list[EntryChange]:
    """Upsert ``entries`` and say what changed for each (see ``KernelDB.write``)."""
    entries = list(entries)
    now = datetime.now(UTC).isoformat(timespec="seconds")
    changes: list[EntryChange] = []
    old = _cache_rows(conn, [e.key for e in entries])
    for e in entries:
        new_row = e.cache_row()
        prev = old.get(e.key)
        changed = _diff(prev, new_row) if prev else []
        status = "added" if prev is None else "updated" if changed else "unchanged"
        replaced: list[str] = []
        if replace_identifier and e.usable:
            replaced = _delete_same_identifier(conn, e)
        if status != "unchanged":
            conn.execute("DELETE FROM KernelCache WHERE Key = ?", (e.key,))
            conn.execute(
                "INSERT INTO KernelCache (Key, Identifier, OpType, Attributes, Source, "
                "DeviceType, Function, Tags, Miscs) VALUES (?,?,?,?,?,?,?,?,?)",
                list(new_row.values()),
            )
        exported = _exported_at(conn, e.key) or now
        _delete_side_rows(conn, [e.key])
        insert_index(conn, _index_row(e, exported, now), shape_texts(e.shapes))
        conn.executemany(
            "INSERT INTO ks_sources (key, path, text) VALUES (?, ?, ?)",
            [(e.key, p, t) for p, t in e.sources.items()],
        )
        if e.sass is not None:
            conn.execute("INSERT INTO ks_sass (key, text) VALUES (?, ?)", (e.key, e.sass))
        if e.tuning:
            row = {"key": e.key, **{k: e.tuning.get(k) for k in TUNING_COLUMNS if k != "key"}}
            conn.execute(
                f"INSERT INTO ks_tuning ({', '.join(row)}) VALUES ({','.join('?' * len(row))})",
                list(row.values()),
            )
        others = 0
        if e.usable and e.twin_of is None:
            others = conn.execute(
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
    return changes


def delete_entries(conn: sqlite3.Connection, keys: Iterable[str]) -> int:
    """Delete rows and their DeviceType="CUDA" twins; returns how many rows went."""
    keys = list(keys)
    twins = [
        r[0]
        for k in keys
        for r in conn.execute("SELECT key FROM ks_entries WHERE twin_of = ?", (k,))
    ]
    everything = list(dict.fromkeys(keys + twins))
    before = conn.total_changes
    conn.executemany("DELETE FROM KernelCache WHERE Key = ?", [(k,) for k in everything])
    removed = conn.total_changes - before
    _delete_side_rows(conn, everything)
    return removed


def _exported_at(conn: sqlite3.Connection, key: str) -> str | None:
    row = conn.execute("SELECT exported_at FROM ks_entries WHERE key = ?", (key,))
    found = row.fetchone()
    return found[0] if found else None


def _cache_rows(conn: sqlite3.Connection, keys: list[str]) -> dict[str, dict[str, str]]:
    return rows_by_key(conn, "KernelCache", "Key", keys)


def _delete_same_identifier(conn: sqlite3.Connection, e: DbEntry) -> list[str]:
    keys = [
        r[0]
        for r in conn.execute(
            "SELECT Key FROM KernelCache WHERE Identifier = ? AND DeviceType = ? AND Key != ?",
            (e.identifier, e.device_type, e.key),
        )
    ]
    if keys:
        conn.executemany("DELETE FROM KernelCache WHERE Key = ?", [(k,) for k in keys])
        _delete_side_rows(conn, keys)
    return keys


def _delete_side_rows(conn: sqlite3.Connection, keys: list[str]) -> None:
    for table in ("ks_entries", "ks_sources", "ks_sass", "ks_shapes", "ks_tuning"):
        conn.executemany(f"DELETE FROM {table} WHERE key = ?", [(k,) for k in keys])


def _diff(old: dict[str, str], new: dict[str, str]) -> list[str]:
    """Names of what differs, one level into the JSON columns (``Function.grid_dim``)."""
    changed: list[str] = []
    for col, value in new.items():
        if old.get(col) == value:
            continue
        before, after = json_or(old.get(col), None), json_or(value, None)
        if isinstance(before, dict) and isinstance(after, dict):
            subs = [k for k in {**before, **after} if before.get(k) != after.get(k)]
            changed += [f"{col}.{k}" for k in subs] or [col]
        else:
            changed.append(col)
    return changed


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
    for k in PROVENANCE:
        if k != "exported_at":
            row[k] = e.provenance.get(k)
    for k in LAUNCH:
        row[k] = e.launch.get(k)
    return row
