"""``kernelscope tune``: choosing tasks, the tuning child on this machine's CPU (the same
code measures on a GPU), continuing a database, Cancel keeping what was measured, and the
RPC path end to end through TVM's own RPC server behind the private sshd."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from paths_support import DATA, DLIGHT_DB, data_path
from ssh_support import fixture_ssh_server  # noqa: F401

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.tuning import Measure, plan_tuning, tune_in_child
from kernelscope.core.tuning.plan import choose_tasks, count_records
from kernelscope.core.workspace import Workspace

pytestmark = pytest.mark.heavy  # minutes of tuning: scheduled first (conftest)

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


def test_top_without_a_profile_ranks_by_the_operator_bound_estimate_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A real build's manifest (fixture_mlp, sm_90) with no profile: --top took the first
    kernels by name; now the longest operator-bound times (the transposes move twice the
    weights' bytes), and the plan and the CLI say what the ranking is."""
    from cli_support import run_cli

    ws = tmp_path / "mlp"
    shutil.copytree(DATA / "ws_ops" / "mlp", ws)
    model = DATA / "models" / "fixture_mlp.py"
    plan = plan_tuning(ws, model=model, top=2, database=tmp_path / "db")
    assert plan.tasks == ["transpose", "transpose1"]
    assert plan.ranking.startswith("no profile is attached: ranked by each kernel's operator-")
    assert "datasheet peaks of the H100 SXM5 (the sm_90 reference)" in plan.ranking
    rc, out, err = run_cli(
        ["tune", ws, "--model", model, "--top", "2", "--db", tmp_path / "db",
         "--import-batch", tmp_path / "no-round"], capsys,
    )  # fmt: skip
    assert f"tuning transpose, transpose1: the top 2, {plan.ranking}\n" in out
    assert rc == 1 and "not a tuning round" in err  # the child started, nothing tuned

    # with a profile attached (the H200's of this build): the savings it measured
    Workspace.open(ws).attach_profile(data_path("ncu/mlp/mlp.ncu-rep"))
    plan = plan_tuning(ws, model=model, top=1, database=tmp_path / "db")
    assert plan.tasks == ["fused_matmul1_add1"]  # 249 µs measured
    assert plan.ranking == (
        "ranked by the microseconds each could save, measured (the Headroom list of mlp.ncu-rep)"
    )


def test_bad_requests_are_refused_before_tvm_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from cli_support import run_cli

    ws = DATA / "ws_mlp"
    rc, out, err = run_cli(["tune", ws, "--busy-ok", "--tracker", "h:9190", "--key", "k"], capsys)
    assert rc == 1 and "--busy-ok goes with --host" in err
    with pytest.raises(KernelscopeError, match="the model .* was built from is not there"):
        plan_tuning(ws)
    with pytest.raises(KernelscopeError, match="--tracker needs --key"):
        plan_tuning(ws, model=MODEL, measure=Measure(kind="tracker", address="h:9190"))
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(KernelscopeError, match="not a tuning database"):
        plan_tuning(ws, model=MODEL, database=tmp_path)
    # a database of another TVM version or another target: which, and nothing written
    db = tmp_path / "db"
    db.mkdir()
    (db / "database_workload.json").write_text("")
    notes = db / "kernelscope_tuning.json"
    notes.write_text(json.dumps({"tvm": "0.19.0", "arch": "sm_90"}))
    with pytest.raises(KernelscopeError, match=r"tuned with TVM 0.19.0; this is TVM 0\.27"):
        plan_tuning(ws, model=MODEL, database=db)
    notes.write_text(json.dumps({"arch": "sm_80"}))
    with pytest.raises(KernelscopeError, match="tuned for sm_80; this run is for sm_90"):
        plan_tuning(ws, model=MODEL, database=db)
    with pytest.raises(KernelscopeError, match="tuned for sm_80; this run is for cpu"):
        plan_tuning(ws, model=MODEL, database=db, target_kind="llvm")
    assert json.loads(notes.read_text()) == {"arch": "sm_80"}


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
    assert sum(count_records(db).values()) == 5  # and the default schedule's record


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
    # records: the trials and the default schedule's record, which is no trial
    assert again.tasks[0]["trials_total"] == result.records - 1 + 2


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


def test_a_host_without_tvms_rpc_extra_is_named_so(ssh_server: object, tmp_path: Path) -> None:
    """A Python with TVM but without cloudpickle (the rpc extra), as on a host where only
    TVM's runtime was installed: the module it lacks is named, not TVM."""
    from ssh_support import stand_in

    from kernelscope.core.profiling import SshTarget
    from kernelscope.core.tuning.rpc_host import ForwardedServer

    hidden = tmp_path / "without-extra"
    hidden.mkdir()  # what Python raises for a module that is not installed
    (hidden / "cloudpickle.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'cloudpickle'\", name='cloudpickle')\n"
    )
    python = stand_in(
        ssh_server.bin,  # type: ignore[attr-defined]
        "python-without-extra",
        f'PYTHONPATH={hidden} exec {sys.executable} "$@"\n',
    )
    target = SshTarget(
        ssh_server.target,  # type: ignore[attr-defined]
        list(ssh_server.options),  # type: ignore[attr-defined]
        python=python.name,
    )
    try:
        with pytest.raises(KernelscopeError) as refused, ForwardedServer(target):
            pass
    finally:
        python.unlink()
    assert "has TVM but not cloudpickle, which TVM's RPC server needs" in str(refused.value)
    assert "python-without-extra -m pip install cloudpickle" in refused.value.hint
    assert ssh_server.leftovers() == []  # type: ignore[attr-defined]


def test_a_host_whose_gpu_is_busy_is_refused_unless_told_to_go_on(ssh_server: object) -> None:
    """The host's nvidia-smi (a stand-in) lists another process on GPU 0: no RPC server is
    started and nothing is left there; with busy_ok it starts and says why it is busy."""
    from ssh_support import stand_in

    from kernelscope.core.profiling import SshTarget
    from kernelscope.core.tuning.rpc_host import ForwardedServer

    target = SshTarget(
        ssh_server.target,  # type: ignore[attr-defined]
        list(ssh_server.options),  # type: ignore[attr-defined]
        python=sys.executable,
    )
    smi = stand_in(ssh_server.bin, "nvidia-smi", SMI_BUSY)  # type: ignore[attr-defined]
    try:
        with pytest.raises(KernelscopeError) as refused, ForwardedServer(target):
            pass
        assert refused.value.message.endswith(
            "GPU 0 (NVIDIA H200) is busy: 1 other process (pid 4242 python3, 70000 MiB), "
            "97 % utilised; timings taken now would not be the kernels' own"
        )
        assert "--busy-ok" in refused.value.hint
        assert ssh_server.leftovers() == []  # type: ignore[attr-defined]
        with ForwardedServer(target, busy_ok=True) as server:
            assert server.busy.startswith("GPU 0 (NVIDIA H200) is busy")
            assert _listening(int(server.address.rpartition(":")[2]))
    finally:
        smi.unlink()


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
    whole = (folder / "results.json").read_text()
    (folder / "results.json").write_text(whole[: len(whole) // 2])  # cut short on its way back
    with pytest.raises(KernelscopeError, match="results.json of round 1 is unreadable"):
        tune_in_child(plan("import"))  # type: ignore[arg-type]
    partial = dict(results, times=dict(list(results["times"].items())[:1]))
    (folder / "results.json").write_text(json.dumps(partial))
    with pytest.raises(KernelscopeError, match="have no result"):
        tune_in_child(plan("import"))  # type: ignore[arg-type]
    assert sum(count_records(db).values()) == 0  # nothing imported

    # a round of another model's kernel of the same name (its workload differs): refused
    exported = (folder / "round.json").read_text()
    other = json.loads(exported)
    for item in other["candidates"]:
        item["workload"] = "12345"
    (folder / "round.json").write_text(json.dumps(other))
    (folder / "results.json").write_text(json.dumps(results))
    with pytest.raises(KernelscopeError, match=f"holds candidates of {TASK}, which this run does"):
        tune_in_child(plan("import"))  # type: ignore[arg-type]
    assert sum(count_records(db).values()) == 0 and (folder / "results.json").is_file()
    assert (folder / "t0_c0.so").is_file()  # what was measured is all still there
    (folder / "round.json").write_text(exported)

    # as a GPU's measure-batch names its GPU (here: the CPU measured, the name is written)
    (folder / "results.json").write_text(json.dumps(dict(results, gpu="NVIDIA H200")))
    imported = tune_in_child(plan("import"))  # type: ignore[arg-type]
    (task,) = imported.tasks
    assert task["trials_total"] == 2 and task["default_us"] > 0 and task["best_us"] > 0
    assert imported.round["round"] == 2  # the next round, in the same folder
    second = json.loads((folder / "round.json").read_text())
    assert second["round"] == 2 and second["gpu"] == "NVIDIA H200"  # the GPU it must be measured on
    assert not (folder / "results.json").exists()

    # round 2 measured on another GPU than the database's: refused, both named, nothing lost
    results = measure_batch(folder)
    (folder / "results.json").write_text(json.dumps(dict(results, gpu="NVIDIA A100-SXM4-80GB")))
    meta_before = (db / "kernelscope_tuning.json").read_text()
    with pytest.raises(KernelscopeError) as refused:
        tune_in_child(plan("import"))  # type: ignore[arg-type]
    said = str(refused.value)
    assert "measured on NVIDIA A100-SXM4-80GB" in said and "measured on NVIDIA H200" in said
    assert "nothing was imported" in said
    assert sum(count_records(db).values()) == 3  # round 1: two candidates and the default
    assert (db / "kernelscope_tuning.json").read_text() == meta_before
    assert (folder / "results.json").is_file() and (folder / "t0_c0.so").is_file()

    # measured anyway on a busy GPU (measure-batch --busy-ok): imported, and said
    busy = "GPU 0 (NVIDIA H200) is busy: 87 % utilised"
    (folder / "results.json").write_text(json.dumps(dict(results, gpu="NVIDIA H200", busy=busy)))
    last = tune_in_child(plan("import"))  # type: ignore[arg-type]
    assert last.tasks[0]["trials_total"] == 4 and not last.round
    assert last.notes == [f"the timings of round 2 were taken on a busy GPU ({busy})"]
    assert json.loads((db / "kernelscope_tuning.json").read_text())["runs"][-1]["busy"] == busy

    # the last round imported again: refused, its measurements not counted twice
    records = count_records(db)
    with pytest.raises(KernelscopeError, match="round 2 was imported into .* already"):
        tune_in_child(plan("import"))  # type: ignore[arg-type]
    assert count_records(db) == records


SMI_BUSY = """# nvidia-smi of an H200 another process computes on
case "$*" in
  *--query-gpu=*) echo "GPU-1234, ${SMI_UTIL:-97}, NVIDIA H200" ;;
  *--query-compute-apps=*) [ -n "$SMI_NO_APPS" ] || \
      echo "GPU-1234, 4242, /usr/bin/python3, 70000" ;;
esac
"""


def test_a_busy_gpu_is_refused_before_a_round_is_measured(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """nvidia-smi (a stand-in) lists another process on the GPU, or the GPU is in use:
    measure-batch measures nothing and says what to do; nothing else in the round changes."""
    from cli_support import run_cli
    from ssh_support import NVIDIA_SMI, stand_in

    from kernelscope.core.tuning import measure_batch
    from kernelscope.core.tuning.batch_measure import busy_reason

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    stand_in(bin_dir, "nvidia-smi", SMI_BUSY)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    folder = tmp_path / "round"
    folder.mkdir()
    spec = {"round": 1, "device": "cuda", "arch": "sm_90", "gpu": "", "candidates": []}
    (folder / "round.json").write_text(json.dumps(spec))
    with pytest.raises(KernelscopeError) as refused:
        measure_batch(folder)
    assert refused.value.message == (
        f"{folder}: GPU 0 (NVIDIA H200) is busy: 1 other process (pid 4242 python3, 70000 MiB),"
        " 97 % utilised; timings taken now would not be the kernels' own"
    )
    assert "--busy-ok" in refused.value.hint and "CUDA_VISIBLE_DEVICES" in refused.value.hint
    assert sorted(p.name for p in folder.iterdir()) == ["round.json"]
    rc, out, err = run_cli(["measure-batch", folder], capsys)
    assert rc != 0 and "is busy" in err and "Traceback" not in err + out
    monkeypatch.setenv("SMI_NO_APPS", "1")
    monkeypatch.setenv("SMI_UTIL", "3")
    assert busy_reason() == ""  # free
    monkeypatch.setenv("SMI_UTIL", "55")
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "2,3")
    assert busy_reason() == "GPU 2 (NVIDIA H200) is busy: 55 % utilised"
    stand_in(bin_dir, "nvidia-smi", NVIDIA_SMI)  # one that answers every query alike
    assert busy_reason() == ""


def test_a_cuda_round_on_a_machine_without_a_gpu_says_so_and_where_to_measure_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Here (no GPU, no driver) measure-batch said "Device API cuda is not enabled" in a
    traceback; now it says there is no GPU and where to run it, and writes nothing."""
    import tvm
    from cli_support import run_cli

    if tvm.cuda(0).exist:
        pytest.skip("this machine has a GPU: the round would be measured")
    folder = tmp_path / "round"
    folder.mkdir()
    spec = {"round": 1, "device": "cuda", "arch": "sm_90", "gpu": "", "candidates": []}
    (folder / "round.json").write_text(json.dumps(spec))
    rc, out, err = run_cli(["measure-batch", folder], capsys)
    assert rc == 1 and "Traceback" not in out + err and "Device API" not in out + err
    assert f"{folder}: this machine has no GPU to measure the round on" in err
    assert "kernelscope measure-batch DIR` there" in err and "--import-batch DIR" in err
    assert sorted(p.name for p in folder.iterdir()) == ["round.json"]


@pytest.mark.slow
def test_where_no_candidate_beats_the_default_a_build_from_the_records_keeps_it(
    mlp_ws: Path, tmp_path: Path
) -> None:
    """What the H200 saw on ResNet-50: a round whose candidates all ran slower than the
    default schedule measured beside them. The default schedule is a record of the task too,
    so the database's best record is the default: compile_relax with the database and
    kernelscope's build pipeline both build the default's code, and say it was kept."""
    import runpy

    import tvm
    from tvm import relax
    from tvm.s_tir import meta_schedule as ms

    from kernelscope.core.build import records
    from kernelscope.core.tuning import measure_batch

    db, folder = tmp_path / "db", tmp_path / "round"

    def plan(batch: str) -> object:
        return plan_tuning(
            mlp_ws, database=db, target_kind="llvm", batch=batch, batch_dir=folder, **SMALL
        )  # type: ignore[arg-type]

    tune_in_child(plan("export"))  # type: ignore[arg-type]
    results = measure_batch(folder)
    spec = json.loads((folder / "round.json").read_text())
    default = next(c["file"] for c in spec["candidates"] if c["kind"] == "default")
    for c in spec["candidates"]:  # as the GPU timed them: every candidate slower
        if c["kind"] == "candidate":
            results["times"][c["file"]] = [t * 10 for t in results["times"][default]]
    (folder / "results.json").write_text(json.dumps(results))
    (task,) = tune_in_child(plan("import")).tasks  # type: ignore[arg-type]
    assert task["default_kept"] and task["trials_total"] == 2
    assert task["best_us"] == pytest.approx(10 * task["default_us"])
    meta = json.loads((db / "kernelscope_tuning.json").read_text())
    assert meta["default_records"] == [task["workload"]]
    assert sum(count_records(db).values()) == 3  # two candidates and the default

    mod = runpy.run_path(str(MODEL))["mod"]
    target = tvm.target.Target({"kind": "llvm", "num-cores": 1})  # the tuning's
    database = records.open_database(db)
    stock = ms.relax_integration.compile_relax(database, mod, target, None)
    applied = records.Applied()
    with target, database, tvm.transform.PassContext(opt_level=3):
        ours = relax.build(mod, target, relax_pipeline=records.database_pipeline(target, applied))
    untuned = ms.relax_integration.compile_relax(ms.database.MemoryDatabase(), mod, target, None)

    def code(executable: object) -> str:  # LLVM's IR, less the objects' addresses in it
        source = executable.mod.imports[0].inspect_source("ll")  # type: ignore[attr-defined]
        return re.sub(r"0x[0-9a-f]+", "0x", str(source))

    assert code(stock) == code(ours) == code(untuned)
    assert TASK in applied.from_record  # applied from the default's record
    summary = records.summarise(database, records.kept_defaults(meta))[task["workload"]]
    assert summary.default_kept and summary.trials == 2

    # a continued run starts from these records (the default's among them) and goes on
    again = tune_in_child(plan_tuning(mlp_ws, database=db, target_kind="llvm", **SMALL))  # type: ignore[arg-type]
    assert again.tasks[0]["trials_total"] == 4
    assert sum(count_records(db).values()) == 5  # the default committed once


@pytest.mark.slow
def test_a_database_from_before_defaults_were_records_gets_its_default_on_the_next_run(
    mlp_ws: Path, tmp_path: Path
) -> None:
    db = tmp_path / "db"
    plan = plan_tuning(mlp_ws, database=db, target_kind="llvm", **SMALL)  # type: ignore[arg-type]
    tune_in_child(plan)
    # as such a database is: the default's time in the notes, no record of it (the run
    # commits the default's record first)
    lines = (db / "database_tuning_record.json").read_text().splitlines(keepends=True)
    (insts, _decisions), *_ = json.loads(lines[0])[1]
    assert [i[0] for i in insts] == ["GetSBlock"]  # the CPU's default: a step that changes nothing
    (db / "database_tuning_record.json").write_text("".join(lines[1:]))
    meta = json.loads((db / "kernelscope_tuning.json").read_text())
    del meta["default_records"]
    (db / "kernelscope_tuning.json").write_text(json.dumps(meta))
    (task,) = tune_in_child(plan).tasks
    meta = json.loads((db / "kernelscope_tuning.json").read_text())
    assert meta["default_records"] == [task["workload"]] and task["trials_total"] == 4
    assert sum(count_records(db).values()) == 5


def test_a_tracker_without_the_key_or_a_closed_port_is_told_before_building() -> None:
    import subprocess

    from ssh_support import free_port

    from kernelscope.core.tuning.session import check_reachable

    port = free_port()
    tracker = [sys.executable, "-m", "tvm.exec.rpc_tracker", "--host", "127.0.0.1", "--port",
               str(port), "--port-end", str(port + 1)]  # fmt: skip
    started = [subprocess.Popen(tracker)]
    try:
        _wait_for(lambda: _listening(port), "the RPC tracker")
        with pytest.raises(KernelscopeError, match="has no server with the key 'h200'"):
            check_reachable(Measure(kind="tracker", address=f"127.0.0.1:{port}", key="h200"))
        # its one server of the key in use by someone else: said, not waited for
        server = [sys.executable, "-m", "tvm.exec.rpc_server", "--tracker", f"127.0.0.1:{port}",
                  "--key", "h200", "--host", "127.0.0.1"]  # fmt: skip
        started.append(subprocess.Popen(server))
        _wait_for(lambda: _registered(port, "h200"), "the RPC server")
        from tvm import rpc

        held = rpc.connect_tracker("127.0.0.1", port).request("h200", session_timeout=60)
        with pytest.raises(KernelscopeError, match="has no free server with the key 'h200'"):
            check_reachable(Measure(kind="tracker", address=f"127.0.0.1:{port}", key="h200"))
        del held
    finally:
        for proc in reversed(started):
            proc.terminate()
            proc.wait(timeout=20)
    closed = free_port()
    with pytest.raises(KernelscopeError, match="RPC server at .* does not answer"):
        check_reachable(Measure(kind="host", address=f"127.0.0.1:{closed}"))


# ---- seeing the gain: build with the records, profile, compare (issue 21, point 5) -----------

CONV = "fused_conv2d_add_relu_kernel"


def _settings_of_earlier(ws: Path, **settings: object) -> None:
    """What ``profile_workspace`` records beside a report, as if the earlier one was made so."""
    record = ws / "profiles" / "earlier.ncu-rep.settings.json"
    record.write_text(json.dumps({"set": None, "sections": [], "iterations": 1, **settings}))


@pytest.mark.slow
def test_the_gain_is_built_profiled_as_before_and_compared(
    ws_with_profile: Path, gpu_here: Path
) -> None:
    from kernelscope.core.tuning.gain import see_gain, tuned_workspace

    _settings_of_earlier(ws_with_profile, sections=["SourceCounters"], warmup=2)
    steps: list[tuple[str, float | None]] = []
    gain = see_gain(ws_with_profile, DLIGHT_DB, progress=lambda s, f, m: steps.append((s, f)))
    assert (
        gain.tuned
        == tuned_workspace(ws_with_profile)
        == ws_with_profile.parent / ("small_cnn-tuned.kscope")
    )
    built = Workspace.open(gain.tuned)
    assert built.manifest.tuning_db == str(DLIGHT_DB.resolve())
    assert [k.name for k in built.manifest.kernels if k.tuned] == [CONV]
    # profiled as the untuned report was made (its recorded settings), and kept beside it
    call = gpu_here.read_text().splitlines()[-1]
    assert "--section SourceCounters" in call and "--set" not in call and "--warmup 2" in call
    assert gain.tuned_report is not None and gain.tuned_report.parent == built.profiles_dir
    assert built.profiles() == [gain.tuned_report]
    # per kernel: the record and both profiled times, matched to its untuned self
    rows = {k.kernel: k for k in gain.kernels}
    assert set(rows) == {k.name for k in built.manifest.kernels if k.launched}
    conv = rows[CONV]
    assert conv.base_kernel == CONV and conv.trials == 1
    assert conv.record_us == pytest.approx(6.144) and conv.default_us == pytest.approx(6.144)
    assert conv.base_us == pytest.approx(6.144) and conv.speedup == pytest.approx(1.0)
    assert not rows["max_pool2d_kernel"].tuned
    assert gain.base_total_us == pytest.approx(40.736) and gain.speedup == pytest.approx(1.0)
    # the headroom list recomputed on the tuned run, with the tuned build's operators
    assert gain.headroom_after_us is not None and gain.headroom_after_us > 0
    assert conv.headroom_after_us is not None and gain.notes == ()
    fractions = [f for _, f in steps if f is not None]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert [s for s, _ in steps].index("profile") > [s for s, _ in steps].index("build")


@pytest.mark.slow
def test_tune_gain_prints_each_kernels_gain_and_diff_names_the_records(
    ws_with_profile: Path, gpu_here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from cli_support import run_cli

    tuned = ws_with_profile.parent / "mine.kscope"
    rc, out, err = run_cli(
        ["tune-gain", ws_with_profile, "--db", DLIGHT_DB, "-o", tuned, "--section", "Occupancy"],
        capsys,
    )
    assert rc == 0, err
    row = next(line for line in out.splitlines() if line.startswith(CONV)).split()
    assert row[1:4] == ["record,", "1", "trials"] and row[-4] == "1.00x"
    assert "model: 40.74 -> 40.74 µs per pass, 1.00x" in out
    assert "untuned/tuned µs: profiled; tuning times are MetaSchedule's own (the kernel " in out
    assert "--section Occupancy" in gpu_here.read_text()  # given here: it wins
    rc, out, err = run_cli(["diff", ws_with_profile, tuned], capsys)
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[3].split()[-1] == "schedule"
    conv = next(x for x in lines if x.startswith(CONV))
    assert conv.endswith("record: 1 trials, 6.14 µs (default 6.14)")
    assert next(x for x in lines if x.startswith("max_pool2d_kernel")).endswith("default")
    assert "schedule µs: tuning times are MetaSchedule's own (the kernel alone, the GPU at " in out
    rc, out, err = run_cli(["diff", ws_with_profile, tuned, "--json"], capsys)
    schedules = {k["match"]["new"]: k["schedule"] for k in json.loads(out)["kernels"]}
    assert schedules[CONV]["base"] == "default" and schedules[CONV]["new"]["trials"] == 1
    assert schedules["max_pool2d_kernel"] == {"base": "default", "new": "default"}
    # tune --then-gain goes on to the same step, for records measured on the GPU only
    rc, out, err = run_cli(["tune", ws_with_profile, "--then-gain", "--target", "cpu"], capsys)
    assert rc == 1 and "--then-gain builds for the GPU" in err and "tune-gain WS" in err


@pytest.mark.slow
def test_without_a_gpu_the_tuned_build_stays_and_the_command_to_profile_it_is_said(
    ws_with_profile: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from cli_support import run_cli

    monkeypatch.setenv("KERNELSCOPE_NCU", str(tmp_path / "no-ncu-here"))
    rc, out, err = run_cli(["tune-gain", ws_with_profile, "--db", DLIGHT_DB], capsys)
    assert rc == 1
    tuned = ws_with_profile.parent / "small_cnn-tuned.kscope"
    assert "Nsight Compute (ncu) is not installed here" in err
    assert f"kernelscope profile {tuned} --set full" in err
    assert f"then compare: kernelscope diff {ws_with_profile} {tuned}" in err
    assert Workspace.open(tuned).manifest.kernel(CONV).tuned is not None
    assert not (tuned / "profiles").exists()
    assert next(x for x in out.splitlines() if x.startswith(CONV)).split()[1] == "record,"


@pytest.mark.slow
def test_records_of_another_model_and_a_cancel_leave_nothing_half_written(
    ws_with_profile: Path, gpu_here: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kernelscope.core.errors import Cancelled
    from kernelscope.core.tuning.gain import see_gain

    tuned = ws_with_profile.parent / "small_cnn-tuned.kscope"
    with pytest.raises(KernelscopeError, match="none of the records .* for a kernel of small_cnn"):
        see_gain(ws_with_profile, DATA / "tuning" / "stock_tiny_mlp")
    assert not tuned.exists()
    with pytest.raises(KernelscopeError, match="tuned build needs a folder of its own"):
        see_gain(ws_with_profile, DLIGHT_DB, output=ws_with_profile)
    # Cancel while ncu runs: the tuned build is whole, no report is left as if complete
    monkeypatch.setenv("NCU_SLEEP", "60")
    cancel = threading.Event()

    def progress(step: str, fraction: float | None, message: str) -> None:
        if step == "profile":
            cancel.set()

    with pytest.raises(Cancelled):
        see_gain(ws_with_profile, DLIGHT_DB, progress=progress, cancel=cancel)
    assert Workspace.open(tuned).manifest.kernel(CONV).tuned is not None
    assert sorted(p.name for p in (tuned / "profiles").iterdir()) == []
    assert sorted(p.name for p in (ws_with_profile / "profiles").iterdir()) == ["earlier.ncu-rep"]
