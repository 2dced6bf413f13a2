"""Timelines from Nsight Systems: its SQLite export (``nsys export --type sqlite``), whose
``CUPTI_ACTIVITY_KIND_KERNEL`` table has one row per kernel launch (start and end in ns,
device, stream, launch sizes) with the names in ``StringIds``. A ``.nsys-rep`` is exported
first with the nsys found here, into the cache; the report itself is never written to.
"""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

from ..errors import KernelscopeError
from ..tasks import Cancel, ProgressFn, no_progress
from ..toolchain import find_tool
from .model import Timeline, TimelineCall

_SQLITE_MAGIC = b"SQLite format 3\x00"
_KERNELS = "CUPTI_ACTIVITY_KIND_KERNEL"


def read_nsys_sqlite(path: Path) -> Timeline:
    """Every kernel launch of an Nsight Systems SQLite export, in start order."""
    if not path.is_file():
        raise KernelscopeError(f"{path}: no such file")
    with path.open("rb") as f:
        if f.read(16) != _SQLITE_MAGIC:
            raise KernelscopeError(
                f"{path} is not an SQLite file",
                hint="export the report with: nsys export --type sqlite REPORT.nsys-rep",
            )
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise KernelscopeError(f"{path}: cannot open it as SQLite ({exc})") from exc
    try:
        return _read(db, path)
    except sqlite3.DatabaseError as exc:
        raise KernelscopeError(f"{path}: unreadable SQLite file ({exc})") from exc
    finally:
        db.close()


def _read(db: sqlite3.Connection, path: Path) -> Timeline:
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    meta: dict[str, str] = {}
    if "META_DATA_EXPORT" in tables:
        meta = dict(db.execute("SELECT name, value FROM META_DATA_EXPORT"))
    from_nsys = "StringIds" in tables and (
        "Nsight Systems" in meta.get("EXPORT_PRODUCT_NAME", "") or "TARGET_INFO_GPU" in tables
    )
    if not from_nsys:
        raise KernelscopeError(
            f"{path} is an SQLite file but not an Nsight Systems export "
            "(it has no StringIds and export metadata)",
            hint="open the SQLite file that nsys export --type sqlite wrote",
        )
    if _KERNELS not in tables:
        raise KernelscopeError(
            f"{path}: this Nsight Systems report has no CUDA kernel launches",
            hint="record the run with CUDA tracing: nsys profile --trace cuda ...",
        )
    devices = {}
    if "TARGET_INFO_GPU" in tables:
        devices = {r[0]: r[1] for r in db.execute("SELECT id, name FROM TARGET_INFO_GPU")}
    rows = db.execute(
        f"""SELECT k.start, k.end, k.deviceId, k.streamId, k.globalPid, s.value, d.value,
                   k.gridX, k.gridY, k.gridZ, k.blockX, k.blockY, k.blockZ
            FROM {_KERNELS} AS k
            JOIN StringIds AS s ON s.id = k.shortName
            LEFT JOIN StringIds AS d ON d.id = k.demangledName
            ORDER BY k.start, k.correlationId"""
    ).fetchall()
    first = rows[0][0] if rows else 0
    calls = [
        TimelineCall(
            index=i,
            kernels=[short],
            start_us=(start - first) / 1000,
            duration_us=(end - start) / 1000,
            grid=[gx, gy, gz],
            block=[bx, by, bz],
            device=device,
            stream=stream,
            pid=(gpid >> 24) & 0xFFFFFF if gpid is not None else None,
        )
        for i, (start, end, device, stream, gpid, short, _demangled, gx, gy, gz, bx, by, bz) in (
            enumerate(rows)
        )
    ]
    used = sorted({c.device for c in calls if c.device is not None})
    names = sorted({devices.get(d, f"GPU {d}") for d in used})
    return Timeline(
        source="nsys",
        origin=str(path),
        device=", ".join(names) or "?",
        calls=calls,
        meta={
            "clock": "CUPTI kernel activity (Nsight Systems)",
            "nsys_version": meta.get("EXPORT_PRODUCT_VERSION", ""),
            "processes": len({c.pid for c in calls}),
            "streams": len({(c.device, c.stream) for c in calls}),
        },
    )


def export_nsys_report(
    report: Path, progress: ProgressFn = no_progress, cancel: Cancel | None = None
) -> Path:
    """``nsys export --type sqlite`` of a ``.nsys-rep`` into the cache (reused while the
    report is unchanged)."""
    from ..profiling import run_command

    if not report.is_file():
        raise KernelscopeError(f"{report}: no such file")
    nsys = find_tool("nsys")
    if not nsys.found:
        raise KernelscopeError(
            f"opening {report.name} needs Nsight Systems' nsys, which is not installed here",
            hint="install Nsight Systems, or export where the report was made: nsys export "
            f"--type sqlite --output report.sqlite {report.name}, and open the .sqlite file",
        )
    stat = report.stat()
    key = hashlib.sha256(f"{report.resolve()}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    from ..paths import cache_root  # platformdirs: not on every GPU host

    out = cache_root() / "nsys" / f"{report.stem}-{key.hexdigest()[:16]}.sqlite"
    if out.is_file():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(f".partial-{out.name}")
    partial.unlink(missing_ok=True)
    progress("nsys", None, f"nsys export --type sqlite {report.name}")
    cmd = [str(nsys.path), "export", "--type", "sqlite", "--force-overwrite", "true"]
    result = run_command(
        [*cmd, "--output", str(partial), str(report)], "nsys export", cancel, stdin=b""
    )
    if result.code != 0 or not partial.is_file():
        partial.unlink(missing_ok=True)
        raise KernelscopeError(
            f"nsys could not export {report.name} (exit code {result.code})",
            details=result.output,
        )
    partial.replace(out)
    return out


def read_nsys(
    path: Path, progress: ProgressFn = no_progress, cancel: Cancel | None = None
) -> Timeline:
    """A timeline from an Nsight Systems ``.sqlite`` export or ``.nsys-rep`` report."""
    if path.suffix == ".nsys-rep":
        timeline = read_nsys_sqlite(export_nsys_report(path, progress, cancel))
        timeline.origin = str(path)
        return timeline
    return read_nsys_sqlite(path)
