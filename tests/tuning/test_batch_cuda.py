"""Tuning a model for the GPU (sm_90) on a machine without one. Batch rounds: building
candidates and exporting a round need no GPU, so this runs here; every exported round must
import, the first one (which carries each task's default schedule) included. A direct run
(LocalRunner, RPC) must tune the task's own function, whatever measuring its default did.

Only the measuring needs the GPU. The results file is written as ``measure-batch`` writes it
(``batch_measure.measure``: ``round``, ``gpu``, ``times`` in seconds per file, ``errors``
per file), with nothing made up: the default schedule's time is the one the H200 measured
for that very kernel (``H200_REPORT`` profiled a build of small_cnn, whose conv kernel is
DLight's default schedule, as ``make_dlight_db.py`` uses it), and the candidates, which no
GPU ever ran, are filed as not measured (an error, as a candidate that fails on the GPU is).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from paths_support import DATA, H200_REPORT

from kernelscope.core.tuning import plan_tuning, tune_in_child
from kernelscope.core.tuning.plan import count_records

pytestmark = pytest.mark.heavy  # minutes of TVM: scheduled first (conftest)

TASK = "fused_conv2d_add_relu"
NOT_MEASURED = "not measured: no GPU ran this candidate (the test's machine has none)"


def _h200_results(folder: Path) -> dict[str, object]:
    """``results.json`` for the round in ``folder``: the default schedule timed as the H200
    timed it, every candidate not measured."""
    from kernelscope.core.ncu import Profile

    kernel = next(k for k in Profile.open(H200_REPORT).kernels() if k.name == f"{TASK}_kernel")
    secs = kernel.duration_ns / len(kernel.launches) * 1e-9
    spec = json.loads((folder / "round.json").read_text(encoding="utf-8"))
    items = spec["candidates"]
    return {
        "round": spec["round"],
        "gpu": kernel.device_name,
        "times": {c["file"]: [secs] for c in items if c["kind"] == "default"},
        "errors": {c["file"]: NOT_MEASURED for c in items if c["kind"] == "candidate"},
        "measured_at": "2026-12-06T05:00:00",
    }


def test_default_schedule_leaves_the_tasks_module_as_it_was() -> None:
    """DLight's pass replaces the functions of the module it is given: a task's module,
    scheduled in place, no longer hashed to the workload its records are filed under."""
    from tvm.s_tir import meta_schedule as ms

    from kernelscope.core.build.model_loader import load_model
    from kernelscope.core.build.records import (
        cuda_target,
        default_schedule,
        fused_module,
        workload_hash,
    )

    target = cuda_target("sm_90")
    mod = load_model(DATA / "models" / "small_cnn.onnx", {}, "random", 0).mod
    (task,) = [
        t
        for t in ms.relax_integration.extract_tasks(fused_module(mod, target), target)
        if t.task_name == TASK
    ]
    before = workload_hash(task.dispatched[0]["main"])
    scheduled = default_schedule(task.dispatched[0], target)
    assert workload_hash(task.dispatched[0]["main"]) == before
    assert workload_hash(scheduled["main"]) != before  # DLight did schedule the copy


def test_every_batch_round_of_a_cuda_model_imports(
    build_once: Callable[..., object], tmp_path: Path
) -> None:
    ws = build_once("small_cnn.onnx").path  # type: ignore[attr-defined]
    db, folder = tmp_path / "db", tmp_path / "round"

    def plan(batch: str) -> object:
        return plan_tuning(
            ws, kernel=f"^{TASK}", trials=2, per_round=1, population=16, database=db,
            batch=batch, batch_dir=folder,
        )  # fmt: skip

    first = tune_in_child(plan("export"))  # type: ignore[arg-type]
    assert first.round["round"] == 1
    spec = json.loads((folder / "round.json").read_text(encoding="utf-8"))
    assert spec["device"] == "cuda" and spec["arch"] == "sm_90"
    kinds = {c["kind"]: c for c in spec["candidates"]}
    assert sorted(kinds) == ["candidate", "default"]
    assert kinds["default"]["workload"] == kinds["candidate"]["workload"]  # one task
    assert (folder / kinds["default"]["cubin"]).is_file()  # what a runtime-only TVM loads

    results = _h200_results(folder)
    (folder / "results.json").write_text(json.dumps(results), encoding="utf-8")
    imported = tune_in_child(plan("import"))  # type: ignore[arg-type]
    (task,) = imported.tasks
    default_s = results["times"][kinds["default"]["file"]][0]  # type: ignore[index]
    assert task["workload"] == kinds["default"]["workload"]
    assert task["default_us"] == pytest.approx(default_s * 1e6)
    assert task["default_kept"] and task["trials_total"] == 1  # the candidate, not measured
    meta = json.loads((db / "kernelscope_tuning.json").read_text(encoding="utf-8"))
    assert meta["default_records"] == [task["workload"]]
    assert sum(count_records(db).values()) == 2  # the default's record and the candidate's

    assert imported.round["round"] == 2  # the next round, into the same folder
    second = json.loads((folder / "round.json").read_text(encoding="utf-8"))
    assert second["gpu"] == "NVIDIA H200"
    assert [c["kind"] for c in second["candidates"]] == ["candidate"]  # default measured
    assert second["candidates"][0]["workload"] == task["workload"]
    (folder / "results.json").write_text(json.dumps(_h200_results(folder)), encoding="utf-8")
    last = tune_in_child(plan("import"))  # type: ignore[arg-type]
    assert last.tasks[0]["trials_total"] == 2 and not last.round  # every trial done
    assert sum(count_records(db).values()) == 3


def test_a_direct_run_tunes_the_tasks_own_function(
    build_once: Callable[..., object], tmp_path: Path
) -> None:
    """Measuring the default schedule (built, then run where there is a GPU; here the runner
    cannot) left the task's function DLight-scheduled, so the search started from the scheduled
    function and its records were filed under a workload no build looks up."""
    from kernelscope.core.build.records import workload_hash
    from kernelscope.core.tuning.session import make_runner, prepare, target_of

    ws = build_once("small_cnn.onnx").path  # type: ignore[attr-defined]
    plan = plan_tuning(
        ws, kernel=f"^{TASK}", trials=2, per_round=1, population=16, database=tmp_path / "db"
    )
    said: list[str] = []
    runner = make_runner(plan.measure, target_of(plan))
    run = prepare(plan, lambda _s, _f, m: said.append(m), runner)
    ((task, context, told),) = run.states
    assert f"measuring the default schedule of {TASK}" in said
    assert workload_hash(task.dispatched[0]["main"]) == told.workload
    assert workload_hash(context.mod["main"]) == told.workload  # what the search schedules
