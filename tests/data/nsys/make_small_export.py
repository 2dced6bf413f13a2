"""Makes power_iteration_small.sqlite: the first kernel launches of a real Nsight Systems
export with its schema kept, so the import is tested on what nsys writes.

Source: brycelelbach/nsightful, tests/power_iteration__baseline.sqlite at commit 454dfa5
(Nsight Systems 2025.3.1, a Tesla T4, 3,689 kernel launches of a CuPy power iteration).
Run: python make_small_export.py SOURCE.sqlite
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

KEEP_KERNELS = 60
TABLES = ("CUPTI_ACTIVITY_KIND_KERNEL", "StringIds", "META_DATA_EXPORT", "TARGET_INFO_GPU")


def main(source: str) -> None:
    out = Path(__file__).with_name("power_iteration_small.sqlite")
    out.unlink(missing_ok=True)
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    dst = sqlite3.connect(out)
    for table in TABLES:
        (sql,) = src.execute("SELECT sql FROM sqlite_master WHERE name=?", (table,)).fetchone()
        dst.execute(sql)
    kernels = src.execute(
        "SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY start LIMIT ?", (KEEP_KERNELS,)
    ).fetchall()
    columns = len(kernels[0])
    dst.executemany(
        f"INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES ({','.join('?' * columns)})", kernels
    )
    cols = [r[1] for r in src.execute("PRAGMA table_info(CUPTI_ACTIVITY_KIND_KERNEL)")]
    ids = {
        row[cols.index(c)]
        for row in kernels
        for c in ("demangledName", "shortName", "mangledName")
        if row[cols.index(c)] is not None
    }
    strings = src.execute(
        f"SELECT * FROM StringIds WHERE id IN ({','.join('?' * len(ids))})", sorted(ids)
    ).fetchall()
    dst.executemany("INSERT INTO StringIds VALUES (?, ?)", strings)
    for table in ("META_DATA_EXPORT", "TARGET_INFO_GPU"):
        rows = src.execute(f"SELECT * FROM {table}").fetchall()
        dst.executemany(f"INSERT INTO {table} VALUES ({','.join('?' * len(rows[0]))})", rows)
    dst.commit()
    dst.execute("VACUUM")
    dst.close()


if __name__ == "__main__":
    main(sys.argv[1])
