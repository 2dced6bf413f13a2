"""Nsight Systems exports of a serving run (issue 33 item 6): a million launches read and
summarised by kernel and by step, steps from kernelscope's marker launches or from NVTX
ranges, and an export cut short refused with what to do. The exports are made by the test
in the schema nsys writes (``nsys_support``); ``benchmarks/bench_nsys.py`` times them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from cli_support import run_cli_process
from nsys_support import REAL, kernel_name, make_export

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.timeline import read_nsys_sqlite


def test_a_million_launches_summarised_by_kernel_and_by_marked_step(tmp_path: Path) -> None:
    n, kernels = 1_000_000, 200
    per_step = kernels + 1  # the marker, then one launch of each kernel
    t = read_nsys_sqlite(make_export(tmp_path / "serve.sqlite", n, kernels=kernels, markers=True))
    steps = -(-n // per_step)
    assert len(t.calls) == n - steps  # the markers are no calls
    assert t.meta["step_source"] == "step markers" and len(t.meta["step_markers"]) == steps
    shares = {s.name: s for s in t.kernel_shares()}
    assert len(shares) == kernels
    for k in (0, 23, 24, 199):  # the last step was cut after 24 kernels
        launched = n // per_step + (1 if k + 1 < n % per_step else 0)
        share = shares[kernel_name(k)]
        assert share.calls == launched
        assert share.total_us == pytest.approx(launched * (1000 + 10 * (k + 1)) / 1000)
    by_step = t.step_shares()
    assert [s.name for s in by_step[:2]] == ["step 0", "step 1"] and len(by_step) == steps
    assert by_step[0].calls == kernels and by_step[-1].calls == n % per_step - 1
    assert by_step[0].total_us == pytest.approx(sum(1 + 0.01 * (k + 1) for k in range(kernels)))
    # profiling one of its calls with ncu counts the markers among the launches before it
    selection = t.selection(kernels)
    assert selection.kernel == kernel_name(0) and selection.launch_skip == kernels + 2


def test_steps_from_nvtx_ranges_around_the_launching_calls(tmp_path: Path) -> None:
    import sqlite3

    path = make_export(tmp_path / "nvtx.sqlite", 1010, kernels=100, nvtx=True)
    with sqlite3.connect(path) as db:  # an outer step range: a launch is in the innermost
        db.execute(
            "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid) "
            "SELECT -5000, 100 * 5000 * 3, 59, 'Step 0 (prefill)', globalTid "
            "FROM NVTX_EVENTS LIMIT 1"
        )
        db.execute("DELETE FROM NVTX_EVENTS WHERE text = 'decode 1'")
    t = read_nsys_sqlite(path)
    assert t.meta["step_source"] == "NVTX ranges" and not t.meta["step_markers"]
    expected = [f"decode {i // 100}" for i in range(1010)]
    expected[100:200] = ["Step 0 (prefill)"] * 100  # decode 1 gone: the outer range holds it
    assert [c.step for c in t.calls] == expected
    by_step = t.step_shares()
    assert [(s.name, s.calls) for s in by_step[-2:]] == [("decode 9", 100), ("decode 10", 10)]
    assert by_step[1].name == "Step 0 (prefill)" and by_step[1].calls == 100


def test_nvtx_ranges_that_are_no_steps_give_none(tmp_path: Path) -> None:
    import sqlite3

    path = make_export(tmp_path / "other.sqlite", 300, kernels=100, nvtx=True)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE NVTX_EVENTS SET text = 'forward ' || start")
    t = read_nsys_sqlite(path)
    assert t.meta["step_source"] == "" and not any(c.step for c in t.calls)
    assert t.step_shares() == []


def test_an_export_cut_short_says_so(tmp_path: Path) -> None:
    cut = tmp_path / "cut.sqlite"
    shutil.copy(REAL, cut)
    whole = cut.stat().st_size
    with open(cut, "r+b") as f:
        f.truncate(whole // 2)
    with pytest.raises(KernelscopeError, match="cut short") as err:
        read_nsys_sqlite(cut)
    assert f"{whole:,}" in str(err.value) and "nsys export --type sqlite" in err.value.hint


def test_cli_prints_the_steps_of_an_nsys_export(tmp_path: Path) -> None:
    path = make_export(tmp_path / "serve.sqlite", 2 * 101, kernels=100, markers=True)
    out = run_cli_process("timeline", str(path), "--top", "3")
    assert out.returncode == 0, out.stderr
    assert "200 calls of 100 kernels" in out.stdout
    assert "step (step markers)" in out.stdout and "step 1" in out.stdout


def test_launches_out_of_table_order_on_two_devices_read_as_sorted_calls(tmp_path: Path) -> None:
    """The export's rows in any table order (ties in start broken by the launch order, the
    correlation id), on two devices and streams, a kernel whose name is missing: the calls
    are the rows sorted, with their own values."""
    import sqlite3

    path = make_export(tmp_path / "two.sqlite", 300, kernels=100)
    with sqlite3.connect(path) as db:
        db.execute(
            "CREATE TABLE k2 AS SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY start DESC"
        )
        db.execute("DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL")
        db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT * FROM k2")
        db.execute("DROP TABLE k2")
        db.execute(  # the second step on device 1, stream 9
            "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET deviceId = 1, streamId = 9, gridX = 77 "
            "WHERE correlationId > 100 AND correlationId <= 200"
        )
        db.execute(  # launch 11 starts with launch 10, but was launched after it
            "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = (SELECT start FROM "
            "CUPTI_ACTIVITY_KIND_KERNEL WHERE correlationId = 10) WHERE correlationId = 11"
        )
        db.execute("DELETE FROM StringIds WHERE value = ?", (kernel_name(5),))
        expected = db.execute(
            "SELECT start, end, deviceId, streamId, gridX, shortName "
            "FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY start, correlationId"
        ).fetchall()
    t = read_nsys_sqlite(path)
    first = expected[0][0]
    got = [(c.start_us, c.duration_us, c.device, c.stream, c.grid[0], c.name) for c in t.calls]
    assert got == [
        (
            (start - first) / 1000,
            (end - start) / 1000,
            device,
            stream,
            grid,
            kernel_name(short - 1000) if short != 1005 else "<string 1005>",
        )
        for start, end, device, stream, grid, short in expected
    ]
    assert [c.index for c in t.calls] == list(range(300))
    assert t.meta["streams"] == 2 and t.meta["processes"] == 1
    assert t.device == "GPU 1, Tesla T4"


def test_nvtx_steps_win_over_markers_in_one_export(tmp_path: Path) -> None:
    """An export with the runner's markers and NVTX step ranges: the markers are no calls,
    and every call is in the NVTX range that holds its launch, also where a marker opens a
    step inside that range (it opened a marker's step for the calls after it)."""
    import sqlite3

    path = make_export(tmp_path / "both.sqlite", 3 * 11, kernels=10, markers=True, nvtx=True)
    with sqlite3.connect(path) as db:  # decode 0 holds the first two marked steps
        db.execute(
            "UPDATE NVTX_EVENTS SET end = (SELECT end FROM NVTX_EVENTS WHERE text = 'decode 1') "
            "WHERE text = 'decode 0'"
        )
        db.execute("DELETE FROM NVTX_EVENTS WHERE text = 'decode 1'")
    t = read_nsys_sqlite(path)
    assert t.meta["step_source"] == "NVTX ranges" and len(t.calls) == 30
    assert [c.step for c in t.calls] == ["decode 0"] * 20 + ["decode 2"] * 10
    assert [(s.name, s.calls) for s in t.step_shares()] == [("decode 0", 20), ("decode 2", 10)]


def test_kernels_run_as_cuda_graph_nodes_are_counted(tmp_path: Path) -> None:
    """Traced per node (``--cuda-graph-trace=node``): a replayed graph's kernels are kernel
    rows with a graph node id; each is a call, and the timeline says how many were nodes."""
    import sqlite3

    path = make_export(tmp_path / "nodes.sqlite", 1000, kernels=100, nvtx=True)
    with sqlite3.connect(path) as db:  # kernels 10-89 of every step ran inside a graph
        db.execute(
            "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET graphNodeId = correlationId "
            "WHERE (correlationId - 1) % 100 BETWEEN 10 AND 89"
        )
    t = read_nsys_sqlite(path)
    assert len(t.calls) == 1000
    assert t.meta["cuda_graphs"] == "800 of the 1,000 kernel launches ran as CUDA graph nodes"
    assert [s.calls for s in t.step_shares()] == [100] * 10


def test_graph_replays_traced_whole_keep_their_time_and_say_how_to_see_the_kernels(
    tmp_path: Path,
) -> None:
    """Traced whole (``--cuda-graph-trace=graph``, nsys's default): a replay's kernels are in
    no table (mlc-ai/mlc-llm#653: "kernels inside CUDA graphs disappear"). Each replay is one
    call named by its graph, in its NVTX step, its time in the shares; the note says how to
    trace the kernels."""
    import sqlite3

    from nsys_support import GRAPH_TRACE, TID

    path = make_export(tmp_path / "graphs.sqlite", 200, kernels=100, nvtx=True)
    with sqlite3.connect(path) as db:  # each step: 20 kernel launches, then 2 graph replays
        db.execute("DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE (correlationId - 1) % 100 >= 20")
        db.execute(GRAPH_TRACE)
        for step in range(2):
            for g, (graph, correlation) in enumerate(((7, 30), (8, 60))):
                start = (step * 100 + correlation) * 5_000 + 100_000
                db.execute(
                    "INSERT INTO CUPTI_ACTIVITY_KIND_GRAPH_TRACE VALUES "
                    "(?, ?, 0, 1, NULL, 7, ?, ?, ?, ?)",
                    (start, start + 40_000 + g * 1000, step * 100 + correlation + 1,
                     TID & ~0xFFFFFF, graph, graph + 100),
                )  # fmt: skip
    t = read_nsys_sqlite(path)
    assert len(t.calls) == 2 * (20 + 2)
    replays = [c for c in t.calls if c.name.startswith("CUDA graph")]
    assert [(c.name, c.step, c.duration_us) for c in replays] == [
        ("CUDA graph 7", "decode 0", 40.0),
        ("CUDA graph 8", "decode 0", 41.0),
        ("CUDA graph 7", "decode 1", 40.0),
        ("CUDA graph 8", "decode 1", 41.0),
    ]
    assert replays[0].grid is None and replays[0].stream == 7
    shares = {s.name: s for s in t.kernel_shares()}
    assert shares["CUDA graph 8"].calls == 2 and shares["CUDA graph 8"].total_us == 82.0
    assert [s.calls for s in t.step_shares()] == [22, 22]
    note = t.meta["cuda_graphs"]
    assert note.startswith("4 CUDA graph replays were traced whole")
    assert "--cuda-graph-trace=node" in note
    shown = run_cli_process("timeline", str(path))
    assert shown.returncode == 0 and f"note: {note}" in shown.stdout
    # an ncu selection counts the launches before a call: unknown after a replay timed whole
    assert t.selection(5).launch_skip == 5
    with pytest.raises(KernelscopeError, match="CUDA graph replay") as refused:
        t.selection(t.calls.index(replays[0]) + 1)
    assert "--cuda-graph-trace=node" in (refused.value.hint or "")
