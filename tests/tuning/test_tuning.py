"""``kernelscope tune``: choosing tasks, the tuning child on this machine's CPU (the same
code measures on a GPU), continuing a database and Cancel keeping what was measured
(measuring elsewhere: test_tuning_measure.py)."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from paths_support import DATA
from tuning_support import MODEL, SMALL, TASK, fixture_mlp_ws  # noqa: F401

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.tuning import Measure, choose_tasks, plan_tuning, tune_in_child
from kernelscope.core.tuning.plan import count_records
from kernelscope.core.workspace import Workspace


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
