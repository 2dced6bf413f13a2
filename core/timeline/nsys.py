"""Timelines from Nsight Systems: its SQLite export (``nsys export --type sqlite``), whose
``CUPTI_ACTIVITY_KIND_KERNEL`` table has one row per kernel launch (start and end in ns,
device, stream, launch sizes) with the names in ``StringIds``. A ``.nsys-rep`` is exported
first with the nsys found here, into the cache; the report itself is never written to.

CUDA graphs (an LLM's decode step as MLC-LLM or vLLM run it): traced per node
(``nsys profile --cuda-graph-trace=node``), each kernel of a replayed graph is a kernel row
with a ``graphNodeId``, counted here; traced whole (``--cuda-graph-trace=graph``, the
default), a replay is one ``CUPTI_ACTIVITY_KIND_GRAPH_TRACE`` row and its kernels are in no
table, so each replay becomes one call named by its graph ("CUDA graph 7"), its time kept,
and the timeline says how to see the kernels.
"""

from __future__ import annotations

import bisect
import contextlib
import gc
import hashlib
import json
import re
import sqlite3
from collections.abc import Iterable, Iterator
from itertools import repeat
from operator import itemgetter
from pathlib import Path
from typing import NamedTuple

from ..errors import KernelscopeError
from ..tasks import Cancel, ProgressFn, no_progress
from ..toolchain import find_tool
from .model import GRAPH_REPLAY, Timeline, TimelineCall

_SQLITE_MAGIC = b"SQLite format 3\x00"
_KERNELS = "CUPTI_ACTIVITY_KIND_KERNEL"
_RUNTIME = "CUPTI_ACTIVITY_KIND_RUNTIME"
_GRAPHS = "CUPTI_ACTIVITY_KIND_GRAPH_TRACE"  # graph replays traced whole
_NO_DIMS = -1  # the packed grid and block of a graph replay's call: none
MARKER = "kernelscope_step_marker"  # the kernel kernelscope's runner launches to open a step
# NVTX ranges that are steps: "step 3", "decode_step", "prefill 0", "Decode"...
STEP_RANGE = re.compile(r"(?i)(?<![a-z])(step|prefill|decode)(?![a-z])")
_NESTED = 8  # step ranges looked back at for one that encloses a launch
_Ranges = tuple[list[int], list[int], list[str]]
_Row = tuple[float | int | None, ...]  # a kernel row as _kernels fetches it


def read_nsys_sqlite(path: Path) -> Timeline:
    """Every kernel launch of an Nsight Systems SQLite export, in start order, each with the
    step it was launched in (``_calls``)."""
    if not path.is_file():
        raise KernelscopeError(f"{path}: no such file")
    with path.open("rb") as f:
        header = f.read(100)
    if header[:16] != _SQLITE_MAGIC:
        raise KernelscopeError(
            f"{path} is not an SQLite file",
            hint="export the report with: nsys export --type sqlite REPORT.nsys-rep",
        )
    _check_whole(path, header)
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


def _check_whole(path: Path, header: bytes) -> None:
    """Refuse an export cut short (a copy or an ``nsys export`` that stopped): SQLite's
    header says how many pages the database has (bytes 28-31, valid where the change
    counter at 24 equals the one at 92) and how large each is (16-17, 1 meaning 65536)."""
    if len(header) < 100:
        raise _cut_short(path, len(header), 100)
    page = int.from_bytes(header[16:18], "big")
    page = 65536 if page == 1 else page
    pages = int.from_bytes(header[28:32], "big")
    if pages and header[24:28] == header[92:96]:
        size = path.stat().st_size
        if size < page * pages:
            raise _cut_short(path, size, page * pages)


def _cut_short(path: Path, size: int, whole: int) -> KernelscopeError:
    return KernelscopeError(
        f"{path} is cut short: {size:,} bytes of an SQLite file of {whole:,}",
        hint="copy the export again, or export the report again: "
        "nsys export --type sqlite REPORT.nsys-rep",
    )


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
    ranges = _step_ranges(db, tables)
    graphs = _GRAPHS in tables
    with _no_gc():  # a million rows and calls: no collections while they are made
        found = _kernels(db, ranges, graphs=graphs)
    device_names = sorted({devices.get(d, f"GPU {d}") for d in found.devices})
    graph_note = _graph_note(db, len(found.calls), found.replays)
    return Timeline(
        source="nsys",
        origin=str(path),
        device=", ".join(device_names) or "?",
        calls=found.calls,
        meta={
            "clock": "CUPTI kernel activity (Nsight Systems)",
            "nsys_version": meta.get("EXPORT_PRODUCT_VERSION", ""),
            "processes": found.processes,
            "streams": found.streams,
            "step_source": "NVTX ranges" if ranges else "step markers" if found.markers else "",
            # where each marker launch was: before the call of that index (``selection``)
            "step_markers": found.markers,
            **({"cuda_graphs": graph_note} if graph_note else {}),
        },
    )


def _graph_note(db: sqlite3.Connection, calls: int, replays: int) -> str:
    """What the export says of CUDA graphs: how many launches were graph nodes (traced per
    node), or how many replays were traced whole; "" where there were none."""
    columns = {r[1] for r in db.execute(f"PRAGMA table_info({_KERNELS})")}
    nodes = 0
    if "graphNodeId" in columns:
        (nodes,) = db.execute(f"SELECT COUNT(graphNodeId) FROM {_KERNELS}").fetchone()
    notes = []
    if nodes:
        notes.append(
            f"{nodes:,} of the {calls - replays:,} kernel launches ran as CUDA graph nodes"
        )
    if replays:
        notes.append(
            f"{replays:,} CUDA graph replays were traced whole (nsys --cuda-graph-trace=graph): "
            "each is one call here and its kernels are not in the export; record with nsys "
            "profile --cuda-graph-trace=node to see them"
        )
    return "; ".join(notes)


@contextlib.contextmanager
def _no_gc() -> Iterator[None]:
    """Python's cyclic garbage collector paused: it would walk every row and call made so
    far each time a generation fills (13 of 16 s of a million-launch export); none of them
    is in a cycle."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _step_ranges(db: sqlite3.Connection, tables: set[str]) -> dict[int, _Ranges]:
    """The NVTX ranges that are steps (push/pop or start/end ranges whose text matches
    ``STEP_RANGE``), by the thread that opened them: their starts, ends and names, in start
    order. Empty where the export has none (or no runtime calls to place launches on
    threads)."""
    if "NVTX_EVENTS" not in tables or _RUNTIME not in tables:
        return {}
    found = db.execute(
        """SELECT n.globalTid, n.start, n.end, COALESCE(n.text, s.value)
           FROM NVTX_EVENTS AS n LEFT JOIN StringIds AS s ON s.id = n.textId
           WHERE n.eventType IN (59, 60) AND n.end IS NOT NULL"""
    ).fetchall()
    out: dict[int, _Ranges] = {}
    for tid, start, end, text in sorted(found, key=lambda r: (r[0] or 0, r[1])):
        if text and STEP_RANGE.search(text):
            starts, ends, labels = out.setdefault(tid or 0, ([], [], []))
            starts.append(start)
            ends.append(end)
            labels.append(text)
    return out


class _Kernels(NamedTuple):
    calls: list[TimelineCall]
    replays: int  # of the calls, CUDA graph replays traced whole
    markers: list[int]  # where each marker launch was: before the call of that index
    devices: list[int]  # the devices that ran them
    streams: int  # how many (device, stream) pairs
    processes: int


def _kernels(db: sqlite3.Connection, ranges: dict[int, _Ranges], *, graphs: bool) -> _Kernels:
    """The calls of an export's kernel rows, in start order.

    SQLite computes each launch's values (times in µs from the first start, grid and block
    packed in one integer each, device and stream in one, the process of ``globalPid``);
    Python sorts the rows, takes out the marker launches and turns the columns into calls
    with C-level ``map``: no Python statement per launch. No ORDER BY and no join on the
    names: an export's rows are in start order already, which Python's sort checks in one
    pass (SQLite would sort a million rows anew), and the names of the distinct kernels are
    looked up once. The runtime call that made each launch (its thread and start) is joined
    only to place launches in NVTX step ranges. ``graphs``: the export has graph replays
    traced whole, each made one call (its name string id: -1 - its graph id)."""
    first_query = f"SELECT MIN(start) AS m FROM {_KERNELS}"
    if graphs:
        first_query = (
            f"SELECT MIN(m) FROM ({first_query} UNION ALL SELECT MIN(start) FROM {_GRAPHS})"
        )
    (first,) = db.execute(first_query).fetchone()
    thread, join, graph_join = "", "", ""
    if ranges:
        thread = ", COALESCE(r.globalTid, 0), COALESCE(r.start, -1)"
        join = f"LEFT JOIN {_RUNTIME} AS r ON r.correlationId = k.correlationId"
        graph_join = f"LEFT JOIN {_RUNTIME} AS r ON r.correlationId = g.correlationId"
    replays = ""
    if graphs:
        replays = f"""UNION ALL
            SELECT (g.start - :first) / 1000.0, COALESCE(g.correlationId, -1),
                   (g.end - g.start) / 1000.0, -1 - g.graphId, {_NO_DIMS}, {_NO_DIMS},
                   (g.deviceId << 32) + g.streamId,
                   CASE WHEN g.globalPid >= 0 THEN (g.globalPid >> 24) & 16777215 ELSE -1 END
                   {thread}
            FROM {_GRAPHS} AS g {graph_join}"""
    rows = db.execute(
        f"""SELECT (k.start - :first) / 1000.0, COALESCE(k.correlationId, -1),
                   (k.end - k.start) / 1000.0, k.shortName,
                   (k.gridX << 32) + (k.gridY << 16) + k.gridZ,
                   (k.blockX << 32) + (k.blockY << 16) + k.blockZ,
                   (k.deviceId << 32) + k.streamId,
                   CASE WHEN k.globalPid >= 0 THEN (k.globalPid >> 24) & 16777215 ELSE -1 END
                   {thread}
            FROM {_KERNELS} AS k {join} {replays}""",
        {"first": first or 0},
    ).fetchall()
    rows.sort()  # every column a number: compared in C, no key made per row
    names = _names(db, {*map(itemgetter(3), rows)})
    marker_ids = {k for k, v in names.items() if v == [MARKER]}
    at = _positions(list(map(itemgetter(3), rows)), marker_ids) if marker_ids else []
    markers = [p - i for i, p in enumerate(at)]
    if at:
        rows = _without(rows, at)
    columns = list(zip(*rows, strict=True)) or [()] * (10 if ranges else 8)
    del rows
    starts, _, durations, shorts, grids, blocks, places, pids = columns[:8]
    n = len(starts)
    steps = _nvtx_steps(columns[8], columns[9], ranges) if ranges else _marked_steps(markers, n)
    dims: dict[int | None, list[int] | None] = {p: _unpack(p) for p in {*grids, *blocks}}
    dims[_NO_DIMS] = None
    where = {p: (None, None) if p is None else (p >> 32, p & 0xFFFFFFFF) for p in set(places)}
    held = list(map(where.__getitem__, places))
    pid = {p: None if p < 0 else p for p in set(pids)}  # -1: no process (sorts, unlike None)
    # a graph replay traced whole is a call of the graph-running kind, as a runner's replay
    replayed = 0
    primfuncs: Iterable[str] = repeat("", n)
    if graphs:
        primfuncs = [GRAPH_REPLAY if s is not None and s < 0 else "" for s in shorts]
        replayed = primfuncs.count(GRAPH_REPLAY)
    calls = list(
        map(
            TimelineCall,
            range(n),
            map(names.__getitem__, shorts),
            starts,
            durations,
            primfuncs,  # then op_type, ops
            repeat("", n),
            repeat("", n),
            repeat(None, n),  # min_us, max_us, raw_us
            repeat(None, n),
            repeat(None, n),
            map(dims.__getitem__, grids),
            map(dims.__getitem__, blocks),
            map(itemgetter(0), held),
            map(itemgetter(1), held),
            map(pid.__getitem__, pids),
            steps,
        )
    )
    devices = sorted({d for d, _ in where.values() if d is not None})
    return _Kernels(calls, replayed, markers, devices, len(where), len(pid))


def _names(db: sqlite3.Connection, shorts: set[int]) -> dict[int, list[str]]:
    """Each kernel's name, in a list: its calls' ``kernels`` (one list for them all); a
    graph replay's (-1 - its graph id) names its graph."""
    graphs = {s: [f"CUDA graph {-1 - s}"] for s in shorts if s is not None and s < 0}
    found = db.execute(
        "SELECT id, value FROM StringIds WHERE id IN (SELECT value FROM json_each(?))",
        (json.dumps(sorted(shorts)),),
    )
    names = {k: [v] for k, v in found}
    return {s: graphs.get(s) or names.get(s) or [f"<string {s}>"] for s in shorts}


def _marked_steps(markers: list[int], n: int) -> list[str]:
    """Each of ``n`` calls' step: ``step N`` from the Nth marker on (none before the
    first)."""
    if not markers:
        return [""] * n
    steps = [""] * markers[0]
    for i, (since, until) in enumerate(zip(markers, [*markers[1:], n], strict=True)):
        steps += [f"step {i}"] * (until - since)
    return steps


def _without(rows: list[_Row], at: list[int]) -> list[_Row]:
    """``rows`` without those at the sorted indexes ``at`` (slices: C copies)."""
    kept: list[_Row] = []
    since = 0
    for i in at:
        kept += rows[since:i]
        since = i + 1
    kept += rows[since:]
    return kept


def _positions(values: list[int], wanted: set[int]) -> list[int]:
    """The indexes of ``values`` that are in ``wanted`` (a few thousand markers among a
    million launches: found by ``list.index``, a C scan, not a Python loop)."""
    found: list[int] = []
    for value in wanted:
        i = -1
        with contextlib.suppress(ValueError):
            while True:
                i = values.index(value, i + 1)
                found.append(i)
    return sorted(found)


def _nvtx_steps(
    threads: tuple[int, ...], launched: tuple[int, ...], ranges: dict[int, _Ranges]
) -> list[str]:
    """Each launch's NVTX step: the latest-starting step range on the launching thread that
    holds the launching call's start (``_enclosing``), looked up once per run of launches
    in one step."""
    steps: list[str] = []
    step = ""
    held: tuple[int | None, int, int] = (None, 0, -1)  # (thread, from, to): ``step``'s times
    for tid, at in zip(threads, launched, strict=True):
        if not (tid == held[0] and held[1] <= at <= held[2]):
            step, since, until = _enclosing(ranges.get(tid), at)
            held = (tid, since, until)
        steps.append(step)
    return steps


def _enclosing(found: _Ranges | None, at: int) -> tuple[str, int, int]:
    """The name of the latest-starting range of ``found`` that holds time ``at``, and the
    times from and to which that answer holds as well (empty where it is not known), so
    that the next launches of a step need no search."""
    if found is None or at < 0:
        return "", 0, -1
    starts, ends, labels = found
    last = bisect.bisect_right(starts, at) - 1
    for k in range(last, max(last - _NESTED, -1), -1):
        if ends[k] >= at:
            if k != last:
                return labels[k], 0, -1
            until = starts[k + 1] - 1 if k + 1 < len(starts) else ends[k]
            return labels[k], starts[k], min(ends[k], until)
    return "", 0, -1


def _unpack(packed: int | None) -> list[int]:
    """A grid or block size from its packed form (x << 32 | y << 16 | z: CUDA's y and z
    are below 65536)."""
    if packed is None:
        return [0, 0, 0]
    return [packed >> 32, packed >> 16 & 0xFFFF, packed & 0xFFFF]


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
