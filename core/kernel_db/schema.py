"""The kernel DB file: NNFusion's ``KernelCache`` table plus kernelscope's own tables.

``KernelCache`` is created with NNFusion's own statement (``engine/cache/manager.cpp``), so
NNFusion's ``CREATE TABLE IF NOT EXISTS`` finds it as it would have made it. kernelscope's
tables are prefixed ``ks_`` and keyed by ``KernelCache.Key``; NNFusion never reads them.

Opening is careful: a file that is not SQLite, an older NNFusion layout (the osdi20
artifact's ``KernelCache(identifier, platform, function, tags, profile, resource)``), an
unknown ``KernelCache``, or a newer kernelscope schema is reported and left exactly as it
was -- detection only reads, and nothing is created before it passes.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import sqlite_utils

from ..errors import KernelscopeError

SCHEMA_VERSION = 1
KERNEL_CACHE_COLUMNS = [
    "Key",
    "Identifier",
    "OpType",
    "Attributes",
    "Source",
    "DeviceType",
    "Function",
    "Tags",
    "Miscs",
]
OSDI20_COLUMNS = {"identifier", "platform", "function", "tags", "profile", "resource"}

KERNEL_CACHE_DDL = """
CREATE TABLE IF NOT EXISTS KernelCache(
   Key        TEXT NOT NULL,
   Identifier TEXT NOT NULL,
   OpType     TEXT NOT NULL,
   Attributes TEXT DEFAULT "",
   Source     TEXT DEFAULT "External",
   DeviceType TEXT NOT NULL,
   Function   TEXT NOT NULL,
   Tags       TEXT DEFAULT "",
   Miscs      TEXT DEFAULT "",
   PRIMARY KEY(Key)
   );
"""

# kernelscope's record of each row it wrote; text columns hold JSON where noted.
ENTRY_COLUMNS: dict[str, type] = {
    "key": str,
    "kernel_name": str,
    "identifier": str,  # copies of KernelCache columns, for the FTS index
    "op_type": str,
    "device_type": str,
    "usable": int,  # NNFusion can take it (Source External, BlockCudaEmitter)
    "reasons": str,  # JSON list: why NNFusion cannot use it
    "notes": str,  # JSON list: caveats
    "nnfusion_identifier": str,  # what NNFusion would compute, even for flagged rows
    "relax_ops": str,  # space separated
    "model": str,
    "model_sha256": str,
    "workspace": str,
    "arch": str,
    "tvm_version": str,
    "nvcc_version": str,
    "ncu_version": str,
    "device_name": str,
    "time_us": float,
    "grid": str,  # JSON [x, y, z]
    "block": str,
    "dynamic_smem_bytes": int,
    "static_smem_bytes": int,
    "registers": int,
    "sass_instructions": int,
    "metrics": str,  # JSON summary from the profile
    "twin_of": str,  # key of the CUDA_GPU row this DeviceType="CUDA" row duplicates
    "exported_at": str,
    "updated_at": str,
}
# Where each row's schedule came from (added after schema 1 without a version change: a
# kernelscope that does not know it ignores it; reading a file without it makes an empty one
# in TEMP). "schedule" is "default" or "tuned"; the rest describe a tuned one: candidates
# measured, the best and the default schedule's time in µs as the tuning measured them, the
# tuner, the database the build applied, the GPUs it named and the architecture.
TUNING_COLUMNS: dict[str, type] = {
    "key": str,
    "schedule": str,
    "trials": int,
    "best_us": float,
    "default_us": float,
    "tuner": str,
    "tuning_db": str,
    "measured_on": str,
    "arch": str,
}
FTS_COLUMNS = ["kernel_name", "identifier", "op_type", "relax_ops", "model"]


def default_db_path() -> Path:
    """Where NNFusion looks when ``-fkernel_cache_path`` is not given."""
    return Path.home() / ".cache" / "nnfusion" / "kernel_cache.db"


def connect(path: Path, *, write: bool, timeout: float) -> sqlite3.Connection:
    """Open ``path``; reading never creates the file, writing creates it and its folder."""
    if not write and not path.is_file():
        raise KernelscopeError(
            f"{path} does not exist",
            hint="export kernels into it first: kernelscope export-db",
            window_hint="export kernels into it first (Export to Kernel DB, Ctrl+E)",
        )
    if write:
        if path.exists() and not os.access(path, os.W_OK):
            raise _read_only(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        if not os.access(path.parent, os.W_OK):
            raise _read_only(path, folder=True)
        uri = f"{path.resolve().as_uri()}?mode=rwc"
    else:
        uri = f"{path.resolve().as_uri()}?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None)
        conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
    except sqlite3.Error as exc:
        raise KernelscopeError(f"cannot open {path}: {exc}") from exc
    return conn


def _read_only(path: Path, folder: bool = False) -> KernelscopeError:
    where = f"its folder {path.parent}" if folder else "the file"
    return KernelscopeError(
        f"{path} is read-only ({where} is not writable); nothing was exported",
        hint="choose another --db, or make it writable",
        window_hint="open another DB (Open DB… in the Kernel DB panel), or make it writable",
    )


def inspect(conn: sqlite3.Connection, path: Path) -> str:
    """What the file holds: "empty", "nnfusion" (KernelCache only) or "kernelscope".

    Raises KernelscopeError for anything kernelscope must not touch.
    """
    try:
        tables = {
            r[0]: r[1]
            for r in conn.execute("SELECT name, type FROM sqlite_master WHERE type = 'table'")
        }
    except sqlite3.DatabaseError as exc:
        raise KernelscopeError(
            f"{path} is not an SQLite database ({exc}); it was left untouched",
            hint="point --db at an NNFusion kernel cache, or at a new file",
            window_hint="open another DB (Open DB… in the Kernel DB panel), or a new file",
        ) from exc
    if "KernelCache" not in tables:
        if tables:
            raise KernelscopeError(
                f"{path} is an SQLite file without a KernelCache table (it holds "
                f"{', '.join(sorted(tables))}); it was left untouched",
                hint="point --db at an NNFusion kernel cache, or at a new file",
                window_hint="open another DB (Open DB… in the Kernel DB panel), or a new file",
            )
        return "empty"
    columns = [r[1] for r in conn.execute("PRAGMA table_info(KernelCache)")]
    if {c.lower() for c in columns} == OSDI20_COLUMNS:
        raise KernelscopeError(
            f"{path} is a kernel DB in the older osdi20_artifact layout "
            "(KernelCache(identifier, platform, function, tags, profile, resource), no Key); "
            "current NNFusion cannot read it and kernelscope will not rewrite it in place",
            hint="export into a new file (--db new.db); that NNFusion build must use the new one",
            window_hint="export into a new file (Open DB… in the Kernel DB panel); that "
            "NNFusion build must use the new one",
            details="columns: " + ", ".join(columns),
        )
    if columns != KERNEL_CACHE_COLUMNS:
        raise KernelscopeError(
            f"{path} has a KernelCache table with unexpected columns; it was left untouched",
            hint="expected " + ", ".join(KERNEL_CACHE_COLUMNS),
            details="columns: " + ", ".join(columns),
        )
    if "ks_meta" not in tables:
        return "nnfusion"
    row = conn.execute("SELECT value FROM ks_meta WHERE name = 'schema_version'").fetchone()
    version = int(row[0]) if row else 0
    if version > SCHEMA_VERSION:
        raise KernelscopeError(
            f"{path} was written by a newer kernelscope (schema {version}, this one knows "
            f"{SCHEMA_VERSION}); it was left untouched",
            hint="update kernelscope",
        )
    return "kernelscope"


def create_tables(conn: sqlite3.Connection) -> None:
    """Create whatever is missing; call inside the write transaction."""
    conn.execute(KERNEL_CACHE_DDL)
    # NNFusion looks rows up by (Identifier, DeviceType) with a table scan; an index
    # changes nothing for it except speed.
    conn.execute(
        "CREATE INDEX IF NOT EXISTS ks_kernelcache_lookup ON KernelCache(Identifier, DeviceType)"
    )
    db = sqlite_utils.Database(conn)
    if not db["ks_meta"].exists():
        db["ks_meta"].create({"name": str, "value": str}, pk="name")
        db["ks_meta"].insert({"name": "schema_version", "value": str(SCHEMA_VERSION)})
    if not db["ks_entries"].exists():
        db["ks_entries"].create(ENTRY_COLUMNS, pk="key", not_null={"key"})
        db["ks_entries"].create_index(["op_type"])
        db["ks_entries"].create_index(["device_name"])
        db["ks_entries"].create_index(["identifier", "device_type"])
        db["ks_entries"].enable_fts(FTS_COLUMNS, create_triggers=True, tokenize="trigram")
    # Listings page through rows newest first among main rows (twin_of IS NULL): this index
    # hands them over in that order, so a page stops after its rows instead of sorting all.
    conn.execute(
        "CREATE INDEX IF NOT EXISTS ks_entries_listing ON ks_entries(twin_of, exported_at)"
    )
    if not db["ks_sources"].exists():
        db["ks_sources"].create({"key": str, "path": str, "text": str}, pk=("key", "path"))
    if not db["ks_sass"].exists():
        db["ks_sass"].create({"key": str, "text": str}, pk="key")
    if not db["ks_shapes"].exists():
        db["ks_shapes"].create({"key": str, "shape": str}, pk=("key", "shape"))
        db["ks_shapes"].create_index(["shape"])
    if not db["ks_tuning"].exists():
        db["ks_tuning"].create(TUNING_COLUMNS, pk="key", not_null={"key"})


def create_temp_tables(conn: sqlite3.Connection) -> None:
    """Empty stand-ins for kernelscope's tables when reading a DB NNFusion wrote.

    They live in the connection's TEMP schema, so the file is not touched, and the
    queries stay the same for every kind of file.
    """
    conn.execute(f"CREATE TEMP TABLE ks_entries ({_columns(ENTRY_COLUMNS)}, PRIMARY KEY(key))")
    conn.execute(
        "CREATE VIRTUAL TABLE temp.ks_entries_fts USING fts5("
        + ", ".join(FTS_COLUMNS)
        + ", content=ks_entries, tokenize='trigram')"
    )
    conn.execute("CREATE TEMP TABLE ks_sources (key TEXT, path TEXT, text TEXT)")
    conn.execute("CREATE TEMP TABLE ks_sass (key TEXT PRIMARY KEY, text TEXT)")
    conn.execute("CREATE TEMP TABLE ks_shapes (key TEXT, shape TEXT)")
    create_temp_tuning(conn)


def has_tuning_table(conn: sqlite3.Connection) -> bool:
    found = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'ks_tuning'"
    ).fetchone()
    return found is not None


def create_temp_tuning(conn: sqlite3.Connection) -> None:
    """An empty ``ks_tuning`` in TEMP, for reading a file written before it existed."""
    conn.execute(f"CREATE TEMP TABLE ks_tuning ({_columns(TUNING_COLUMNS)}, PRIMARY KEY(key))")


def _columns(columns: dict[str, type]) -> str:
    return ", ".join(
        f"{c} {'TEXT' if t is str else 'INTEGER' if t is int else 'REAL'}"
        for c, t in columns.items()
    )
