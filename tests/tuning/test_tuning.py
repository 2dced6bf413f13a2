"""``kernelscope tune``: choosing tasks, the tuning child on this machine's CPU (the same
code measures on a GPU), continuing a database, Cancel keeping what was measured, and the
RPC path end to end through TVM's own RPC server behind the private sshd."""

from __future__ import annotations

import json
import shutil
import socket
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from paths_support import DATA
from ssh_support import fixture_ssh_server  # noqa: F401

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.tuning import Measure, choose_tasks, plan_tuning, tune_in_child
from kernelscope.core.tuning.plan import count_records
from kernelscope.core.workspace import Workspace

MODEL = DATA / "models" / "tiny_mlp.py"
TASK = "fused_matmul_add_relu"
# few, small rounds: a round of the CPU search costs seconds on two shared cores
SMALL = {"model": MODEL, "kernel": TASK, "trials": 2, "per_round": 2, "population": 16}


def _wait_for(ready: Callable[[], bool], what: str, timeout_s: float = 120.0) -> None:
    """Poll ``ready`` until it holds (a process started beside the test is up)."""
    end = time.monotonic() + timeout_s
    while not ready():
        if time.monotonic() > end:
            pytest.fail(f"{what} did not come up in {timeout_s:.0f} s")
        time.sleep(0.2)


def _listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True


def _registered(port: int, key: str) -> bool:
    """The tracker on ``port`` has a server of ``key`` (what the product checks first)."""
    from kernelscope.core.tuning.session import check_reachable

    try:
        check_reachable(Measure(kind="tracker", address=f"127.0.0.1:{port}", key=key))
    except KernelscopeError:
        return False
    return True


def test_tasks_are_chosen_by_regex_or_by_savings_most_first() -> None:
    ws = Workspace.open(DATA / "ws_mlp")
    prims = [k.primfunc for k in ws.manifest.kernels if k.launched]
    assert choose_tasks(ws) == list(dict.fromkeys(prims))
    first = ws.manifest.kernels[-1]
    assert choose_tasks(ws, top=1, savings_us={first.name: 50.0}) == [first.primfunc]
    assert choose_tasks(ws, kernel="^transpose1") == ["transpose1"]
    with pytest.raises(KernelscopeError, match="no launched kernel .* matches"):
        choose_tasks(ws, kernel="nothing_like_this")
    with pytest.raises(KernelscopeError, match="not a regular expression"):
        choose_tasks(ws, kernel="(")


def test_bad_requests_are_refused_before_tvm_runs(tmp_path: Path) -> None:
    ws = DATA / "ws_mlp"
    with pytest.raises(KernelscopeError, match="the model .* was built from is not there"):
        plan_tuning(ws)
    with pytest.raises(KernelscopeError, match="--tracker needs --key"):
        plan_tuning(ws, model=MODEL, measure=Measure(kind="tracker", address="h:9190"))
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(KernelscopeError, match="not a tuning database"):
        plan_tuning(ws, model=MODEL, database=tmp_path)


@pytest.fixture(scope="module")
def mlp_ws(build_once: Callable[..., object]) -> Path:
    return build_once("tiny_mlp.py").path  # type: ignore[attr-defined]


@pytest.mark.slow
def test_tuning_measures_against_the_default_and_a_second_run_continues(
    mlp_ws: Path, tmp_path: Path
) -> None:
    db = tmp_path / "db"
    plan = plan_tuning(mlp_ws, database=db, target_kind="llvm", **SMALL)  # type: ignore[arg-type]
    messages: list[str] = []
    first = tune_in_child(plan, progress=lambda s, f, m: messages.append(m))
    (task,) = first.tasks
    assert task["name"] == TASK and task["trials"] == 2 and task["trials_total"] == 2
    assert task["best_us"] > 0 and task["default_us"] > 0
    assert any(m.startswith(f"{TASK}: 2 trials") and "default" in m for m in messages)
    meta = json.loads((db / "kernelscope_tuning.json").read_text())
    assert meta["arch"] == "cpu" and task["workload"] in meta["defaults"]
    second = tune_in_child(plan)
    assert second.tasks[0]["trials"] == 2
    assert second.tasks[0]["trials_total"] == 4  # the same database, continued
    assert second.tasks[0]["best_us"] <= task["best_us"]
    assert sum(count_records(db).values()) == 4


@pytest.mark.slow
def test_cancel_mid_run_keeps_what_was_measured(mlp_ws: Path, tmp_path: Path) -> None:
    db = tmp_path / "db"
    options = {**SMALL, "trials": 6}
    plan = plan_tuning(mlp_ws, database=db, target_kind="llvm", **options)  # type: ignore[arg-type]
    cancel = threading.Event()

    def progress(step: str, fraction: float | None, message: str) -> None:
        if step == "tune":  # the first round is in the database: stop during the second
            cancel.set()

    result = tune_in_child(plan, progress=progress, cancel=cancel)
    assert result.cancelled
    assert 2 <= result.records < 6
    assert sum(count_records(db).values()) == result.records
    # the database is whole: the next run continues it
    again = tune_in_child(plan_tuning(mlp_ws, database=db, target_kind="llvm", **SMALL))  # type: ignore[arg-type]
    assert again.tasks[0]["trials_total"] == result.records + 2


@pytest.mark.slow
def test_measuring_through_tvms_rpc_server_over_ssh(
    mlp_ws: Path, tmp_path: Path, ssh_server: object
) -> None:
    from kernelscope.core.profiling import SshTarget
    from kernelscope.core.tuning.rpc_host import ForwardedServer

    target = SshTarget(
        ssh_server.target,  # type: ignore[attr-defined]
        list(ssh_server.options),  # type: ignore[attr-defined]
        python=sys.executable,
    )
    db = tmp_path / "db"
    with ForwardedServer(target) as server:
        plan = plan_tuning(
            mlp_ws,
            database=db,
            target_kind="llvm",
            measure=Measure(kind="host", address=server.address),
            **SMALL,  # type: ignore[arg-type]
        )
        result = tune_in_child(plan)
    (task,) = result.tasks
    assert task["trials"] == 2 and task["best_us"] is not None and task["default_us"] is not None
    meta = json.loads((db / "kernelscope_tuning.json").read_text())
    assert meta["runs"][-1]["measure"] == "host"
    assert ssh_server.leftovers() == []  # type: ignore[attr-defined]  # its folder went


def test_a_server_that_cannot_start_says_why(ssh_server: object) -> None:
    from kernelscope.core.profiling import SshTarget
    from kernelscope.core.tuning.rpc_host import ForwardedServer

    target = SshTarget(
        ssh_server.target,  # type: ignore[attr-defined]
        list(ssh_server.options),  # type: ignore[attr-defined]
        python=shutil.which("python3") or "python3",  # the system's: no TVM
    )
    with pytest.raises(KernelscopeError, match="cannot import TVM"), ForwardedServer(target):
        pass


@pytest.mark.slow
def test_measuring_through_an_rpc_tracker_by_key(mlp_ws: Path, tmp_path: Path) -> None:
    """TVM's own tracker and a server registered with it under a key (tornado: the rpc
    extra); kernelscope asks the tracker for a server of that key."""
    import subprocess

    from ssh_support import free_port

    port = free_port()
    started = []
    try:
        tracker = subprocess.Popen(
            [sys.executable, "-m", "tvm.exec.rpc_tracker", "--host", "127.0.0.1", "--port",
             str(port), "--port-end", str(port + 1)],
        )  # fmt: skip
        started.append(tracker)
        _wait_for(lambda: _listening(port), "the RPC tracker")
        server = subprocess.Popen(
            [sys.executable, "-m", "tvm.exec.rpc_server", "--tracker", f"127.0.0.1:{port}",
             "--key", "cpu-test", "--host", "127.0.0.1"],
        )  # fmt: skip
        started.append(server)
        _wait_for(lambda: _registered(port, "cpu-test"), "the RPC server")
        plan = plan_tuning(
            mlp_ws,
            database=tmp_path / "db",
            target_kind="llvm",
            measure=Measure(kind="tracker", address=f"127.0.0.1:{port}", key="cpu-test"),
            **SMALL,  # type: ignore[arg-type]
        )
        (task,) = tune_in_child(plan).tasks
        assert task["trials"] == 2 and task["best_us"] is not None
    finally:
        for proc in reversed(started):
            proc.terminate()
            proc.wait(timeout=20)


@pytest.mark.slow
def test_a_batch_round_trip_and_the_rounds_that_are_refused(mlp_ws: Path, tmp_path: Path) -> None:
    """export a round, measure it as the GPU job would (here: the CPU), import it and get
    the next round; a round without results, or with one missing, imports nothing."""
    from kernelscope.core.tuning import measure_batch

    db, folder = tmp_path / "db", tmp_path / "round"
    options = {**SMALL, "trials": 4}

    def plan(batch: str) -> object:
        return plan_tuning(
            mlp_ws, database=db, target_kind="llvm", batch=batch, batch_dir=folder, **options
        )  # type: ignore[arg-type]

    exported = tune_in_child(plan("export"))  # type: ignore[arg-type]
    assert exported.round["round"] == 1 and exported.records == 0
    spec = json.loads((folder / "round.json").read_text())
    kinds = sorted(c["kind"] for c in spec["candidates"])
    assert kinds == ["candidate", "candidate", "default"]
    assert spec["bytes"] < 64 << 20
    with pytest.raises(KernelscopeError, match="has not been measured"):
        tune_in_child(plan("import"))  # type: ignore[arg-type]

    results = measure_batch(folder)
    assert len(results["times"]) == 3 and not results["errors"]
    partial = dict(results, times=dict(list(results["times"].items())[:1]))
    (folder / "results.json").write_text(json.dumps(partial))
    with pytest.raises(KernelscopeError, match="have no result"):
        tune_in_child(plan("import"))  # type: ignore[arg-type]
    assert sum(count_records(db).values()) == 0  # nothing imported

    (folder / "results.json").write_text(json.dumps(results))
    imported = tune_in_child(plan("import"))  # type: ignore[arg-type]
    (task,) = imported.tasks
    assert task["trials_total"] == 2 and task["default_us"] > 0 and task["best_us"] > 0
    assert imported.round["round"] == 2  # the next round, in the same folder
    assert json.loads((folder / "round.json").read_text())["round"] == 2
    assert not (folder / "results.json").exists()


def test_a_tracker_without_the_key_or_a_closed_port_is_told_before_building() -> None:
    import subprocess

    from ssh_support import free_port

    from kernelscope.core.tuning.session import check_reachable

    port = free_port()
    tracker = subprocess.Popen(
        [sys.executable, "-m", "tvm.exec.rpc_tracker", "--host", "127.0.0.1", "--port",
         str(port), "--port-end", str(port + 1)],
    )  # fmt: skip
    try:
        _wait_for(lambda: _listening(port), "the RPC tracker")
        with pytest.raises(KernelscopeError, match="has no server with the key 'h200'"):
            check_reachable(Measure(kind="tracker", address=f"127.0.0.1:{port}", key="h200"))
    finally:
        tracker.terminate()
        tracker.wait(timeout=20)
    closed = free_port()
    with pytest.raises(KernelscopeError, match="RPC server at .* does not answer"):
        check_reachable(Measure(kind="host", address=f"127.0.0.1:{closed}"))
