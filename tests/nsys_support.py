"""A synthetic Nsight Systems SQLite export of any number of kernel launches, in the schema
nsys writes: the kernel table, string table, export metadata and GPU table copied from the
real export in ``tests/data/nsys`` (``power_iteration_small.sqlite``), with the CUDA runtime
calls and NVTX events of ``nsys export --type sqlite`` (schema 3.20) beside them.

The launches are a serving run's decode steps: ``kernels`` kernels launched in turn, one
runtime call each on one thread; optionally a ``kernelscope_step_marker`` launch opening each
step (the runner's markers) or one NVTX push/pop range ``decode N`` around each step's
launches. Filled by SQL alone (a recursive CTE), so a million launches take seconds.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "nsys"
REAL = DATA / "power_iteration_small.sqlite"
MARKER = "kernelscope_step_marker"
TID = 281641842900993  # the real export's process, its first thread

RUNTIME = """CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (
    start                       INTEGER   NOT NULL,
    end                         INTEGER   NOT NULL,
    eventClass                  INTEGER   NOT NULL,
    globalTid                   INTEGER,
    correlationId               INTEGER,
    nameId                      INTEGER   NOT NULL,
    returnValue                 INTEGER   NOT NULL,
    callchainId                 INTEGER
)"""
NVTX = """CREATE TABLE NVTX_EVENTS (
    start                       INTEGER   NOT NULL,
    end                         INTEGER,
    eventType                   INTEGER   NOT NULL,
    rangeId                     INTEGER,
    category                    INTEGER,
    color                       INTEGER,
    text                        TEXT,
    globalTid                   INTEGER,
    endGlobalTid                INTEGER,
    textId                      INTEGER,
    domainId                    INTEGER,
    uint64Value                 INTEGER,
    int64Value                  INTEGER,
    doubleValue                 REAL,
    uint32Value                 INTEGER,
    int32Value                  INTEGER,
    floatValue                  REAL,
    jsonTextId                  INTEGER,
    jsonText                    TEXT,
    binaryData                  TEXT
)"""
PUSH_POP = 59  # ENUM_NSYS_EVENT_TYPE: NvtxPushPopRange


def kernel_name(k: int) -> str:
    return f"fused_decode_op{k:03d}_kernel"


def make_export(
    path: Path,
    launches: int,
    *,
    kernels: int = 200,
    markers: bool = False,
    nvtx: bool = False,
    period_ns: int = 5_000,
) -> Path:
    """Write an export of ``launches`` kernel launches (markers included) to ``path``: each
    step is ``kernels`` launches (one of each kernel, ``period_ns`` apart, each lasting
    ``1000 + 10 * k`` ns for kernel k), opened by a marker launch when ``markers``, inside an
    NVTX range ``decode N`` when ``nvtx``."""
    path.unlink(missing_ok=True)
    src = sqlite3.connect(f"file:{REAL}?mode=ro", uri=True)
    db = sqlite3.connect(path)
    for (sql,) in src.execute("SELECT sql FROM sqlite_master WHERE type='table'"):
        db.execute(sql)
    for table in ("META_DATA_EXPORT", "TARGET_INFO_GPU"):
        rows = src.execute(f"SELECT * FROM {table}").fetchall()
        db.executemany(f"INSERT INTO {table} VALUES ({','.join('?' * len(rows[0]))})", rows)
    template = src.execute("SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL LIMIT 1").fetchone()
    columns = [r[1] for r in src.execute("PRAGMA table_info(CUPTI_ACTIVITY_KIND_KERNEL)")]
    src.close()
    db.execute(RUNTIME)
    db.execute(NVTX)
    per_step = kernels + (1 if markers else 0)
    names = [MARKER] if markers else []
    names += [kernel_name(k) for k in range(kernels)]
    db.executemany(
        "INSERT INTO StringIds VALUES (?, ?)", [(1000 + i, n) for i, n in enumerate(names)]
    )
    db.execute("INSERT INTO StringIds VALUES (999, 'cudaLaunchKernel_v7000')")
    # each launch i: its kernel j = i % per_step (string 1000 + j), start i * period
    values = dict(zip(columns, template, strict=True))
    values.update(
        start="i * :period + 100000",
        end="i * :period + 100000 + 1000 + 10 * (i % :per_step)",
        correlationId="i + 1",
        demangledName="1000 + i % :per_step",
        shortName="1000 + i % :per_step",
        mangledName="1000 + i % :per_step",
        gridId="i + 1",
        graphNodeId="NULL",
    )
    select = ", ".join(str(values[c]) for c in columns)
    params = {"n": launches, "period": period_ns, "per_step": per_step}
    rows = "WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i + 1 < :n)"
    db.execute(f"{rows} INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT {select} FROM c", params)
    db.execute(
        f"{rows} INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME SELECT i * :period, "
        f"i * :period + 3000, 1, {TID}, i + 1, 999, 0, NULL FROM c",
        params,
    )
    if nvtx:
        steps = -(-launches // per_step)
        step_ns = per_step * period_ns
        db.execute(
            "WITH RECURSIVE s(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM s WHERE n + 1 < :steps) "
            "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, endGlobalTid) "
            f"SELECT n * :len - 100, n * :len + :len - 200, {PUSH_POP}, 'decode ' || n, {TID}, "
            f"{TID} FROM s",
            {"steps": steps, "len": step_ns},
        )
    db.commit()
    db.close()
    return path


# A graph replay traced whole (``nsys profile --cuda-graph-trace=graph``, the default): the
# columns the CUPTI graph-trace record has (``CUpti_ActivityGraphTrace2``) with nsys's usual
# process and time columns.
GRAPH_TRACE = """CREATE TABLE CUPTI_ACTIVITY_KIND_GRAPH_TRACE (
    start                       INTEGER   NOT NULL,
    end                         INTEGER   NOT NULL,
    deviceId                    INTEGER   NOT NULL,
    contextId                   INTEGER   NOT NULL,
    greenContextId              INTEGER,
    streamId                    INTEGER   NOT NULL,
    correlationId               INTEGER,
    globalPid                   INTEGER,
    graphId                     INTEGER   NOT NULL,
    graphExecId                 INTEGER
)"""
