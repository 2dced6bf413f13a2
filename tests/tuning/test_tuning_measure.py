"""``kernelscope tune`` measuring elsewhere: through TVM's own RPC server behind the private
sshd, through a tracker by key, and in batch rounds (exported, measured as the GPU job would,
imported)."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from ssh_support import fixture_ssh_server  # noqa: F401
from tuning_support import MODEL, SMALL, TASK, fixture_mlp_ws  # noqa: F401

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.tuning import Measure, plan_tuning, tune_in_child
from kernelscope.core.tuning.plan import count_records


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
    import time

    from ssh_support import free_port

    port = free_port()
    started = []
    try:
        tracker = subprocess.Popen(
            [sys.executable, "-m", "tvm.exec.rpc_tracker", "--host", "127.0.0.1", "--port",
             str(port), "--port-end", str(port + 1)],
        )  # fmt: skip
        started.append(tracker)
        time.sleep(3)
        server = subprocess.Popen(
            [sys.executable, "-m", "tvm.exec.rpc_server", "--tracker", f"127.0.0.1:{port}",
             "--key", "cpu-test", "--host", "127.0.0.1"],
        )  # fmt: skip
        started.append(server)
        time.sleep(3)
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
    import time

    from ssh_support import free_port

    from kernelscope.core.tuning.session import check_reachable

    port = free_port()
    tracker = subprocess.Popen(
        [sys.executable, "-m", "tvm.exec.rpc_tracker", "--host", "127.0.0.1", "--port",
         str(port), "--port-end", str(port + 1)],
    )  # fmt: skip
    try:
        time.sleep(3)
        with pytest.raises(KernelscopeError, match="has no server with the key 'h200'"):
            check_reachable(Measure(kind="tracker", address=f"127.0.0.1:{port}", key="h200"))
    finally:
        tracker.terminate()
        tracker.wait(timeout=20)
    closed = free_port()
    with pytest.raises(KernelscopeError, match="RPC server at .* does not answer"):
        check_reachable(Measure(kind="host", address=f"127.0.0.1:{closed}"))
