"""Indexing ``KernelCache`` rows another tool wrote (convert_external.py, NNFusion itself).

kernelscope keeps a ``ks_entries`` row for every ``KernelCache`` row so that the listing,
the filters and the text search see them all; a row kernelscope did not write gets one made
from its own columns, marked as written by another tool.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from .records import CHUNK, json_or, parse_profile_time, shape_texts


def missing_keys(conn: sqlite3.Connection) -> list[str]:
    """Keys of the ``KernelCache`` rows that have no ``ks_entries`` row yet."""
    return [
        r[0]
        for r in conn.execute(
            "SELECT Key FROM KernelCache WHERE Key NOT IN (SELECT key FROM ks_entries)"
        )
    ]


def index_foreign_rows(conn: sqlite3.Connection) -> None:
    """Give every row without one its ``ks_entries`` and ``ks_shapes`` rows."""
    missing = missing_keys(conn)
    for start in range(0, len(missing), CHUNK):
        chunk = missing[start : start + CHUNK]
        marks = ",".join("?" * len(chunk))
        rows = conn.execute(
            f"SELECT Key, Identifier, OpType, Attributes, Source, DeviceType, Function, "
            f"Tags, Miscs FROM KernelCache WHERE Key IN ({marks})",
            chunk,
        ).fetchall()
        for row in rows:
            insert_index(conn, *foreign_index(row))


def insert_index(conn: sqlite3.Connection, entry: dict[str, Any], shapes: list[str]) -> None:
    """Insert one ``ks_entries`` row (column -> value) and its shapes."""
    cols = ", ".join(entry)
    marks = ", ".join("?" * len(entry))
    conn.execute(f"INSERT INTO ks_entries ({cols}) VALUES ({marks})", list(entry.values()))
    conn.executemany(
        "INSERT OR IGNORE INTO ks_shapes (key, shape) VALUES (?, ?)",
        [(entry["key"], s) for s in shapes],
    )


def foreign_index(row: tuple[Any, ...]) -> tuple[dict[str, Any], list[str]]:
    """The ``ks_entries`` row and shapes of a ``KernelCache`` row another tool wrote."""
    key, ident, op_type, attributes, source, device_type, function, tags, miscs = row
    attrs = json_or(attributes, {})
    func = json_or(function, {})
    misc = json_or(miscs, {})
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
    return entry, shape_texts(shapes)
