"""Batch mode, for GPU machines that only run submitted jobs: tuning in rounds through a
folder instead of a connection (in the tuning child, like ``session``).

``export_round`` proposes the next candidates of every task (the search and its cost model
start from the database, as a continued run does), builds each here into a shared library
the runtime-only TVM loads, and writes them with ``round.json`` (per candidate: its task, its
record without times, its arguments) into the round folder; the default schedule of a task
not measured yet goes along. ``batch_measure.py`` times them on the GPU into
``results.json``; ``import_round`` commits those times as records, teaches the cost model,
and writes the next round into the same folder until every task has its trials.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from ..build.cuda_source import cuda_source
from ..build.records import default_schedule, measured_on, read_meta, write_meta
from ..errors import KernelscopeError
from ..tasks import ProgressFn
from .batch_measure import RESULTS, ROUND
from .plan import TuningPlan
from .session import (
    _FAILED_S,
    Prepared,
    commit,
    finish,
    keep_default,
    note_busy,
    prepare,
)

logger = logging.getLogger(__name__)
MAX_ROUND_BYTES = 64 << 20  # what one round may weigh (a job's upload limit)


ARCH_ENV = "KERNELSCOPE_TUNE_ARCH"  # the builder's workers read the CUDA arch from here


def export_so(mod: Any) -> str:
    """LocalBuilder's export: a shared library (linked here), which a runtime without a
    compiler loads, where TVM's default (a .tar) needs one at the GPU; with a CUDA module, its
    cubin beside it (``.cubin``): TVM compiles CUDA source when a module loads, which a
    runtime-only TVM cannot, so the GPU side hands it this one (``batch_measure``). Module
    level: the builder's worker processes unpickle it."""
    path = Path(tempfile.mkdtemp()) / "candidate.so"
    mod.export_library(str(path))
    arch = os.environ.get(ARCH_ENV)
    if arch:
        from ..toolchain import find_tool, nvcc

        (path.parent / "candidate.cu").write_text(
            cuda_source(mod, missing="a CUDA candidate holds no CUDA module"), encoding="utf-8"
        )
        nvcc.compile_unit(
            find_tool("nvcc").require(), path.parent / "candidate.cu", path.with_suffix(".cubin"),
            nvcc.tvm_flags(arch),
        )  # fmt: skip
    return str(path)


def export_round(plan: TuningPlan, folder: Path, progress: ProgressFn) -> dict[str, Any]:
    _set_arch(plan)
    run = prepare(plan, progress, runner=None, export=export_so)
    return _write_round(run, folder, progress, number=1)


def _set_arch(plan: TuningPlan) -> None:
    if plan.target_kind == "cuda":
        os.environ[ARCH_ENV] = plan.arch  # before the builder starts its workers


def _move(artifact: str, folder: Path, name: str) -> dict[str, str]:
    """Move a built candidate (and its cubin) into the round as ``name``."""
    shutil.move(artifact, folder / name)
    cubin = Path(artifact).with_suffix(".cubin")
    files = {"file": name}
    if cubin.is_file():
        shutil.move(cubin, folder / Path(name).with_suffix(".cubin"))
        files["cubin"] = Path(name).with_suffix(".cubin").name
    shutil.rmtree(Path(artifact).parent, ignore_errors=True)  # export_so's temporary folder
    return files


def _write_round(run: Prepared, folder: Path, progress: ProgressFn, number: int) -> dict[str, Any]:
    from tvm.s_tir.meta_schedule.builder import BuilderInput
    from tvm.s_tir.meta_schedule.database import TuningRecord, Workload

    for stale in [*folder.glob("*.so"), *folder.glob("*.cubin")]:
        stale.unlink()
    (folder / RESULTS).unlink(missing_ok=True)
    folder.mkdir(parents=True, exist_ok=True)
    items: list[dict[str, Any]] = []
    for t, (task, context, told) in enumerate(run.states):
        if told.default_us is None:
            items += _defaults(run, task, told.workload, t, folder)
        workload = Workload(task.dispatched[0])
        candidates = context.generate_measure_candidates() or []
        progress("build", None, f"building {len(candidates)} candidates of {task.task_name}")
        built = run.builder.build([BuilderInput(c.sch.mod, run.target) for c in candidates])
        for i, (candidate, result) in enumerate(zip(candidates, built, strict=True)):
            if result.error_msg is not None:
                logger.warning(
                    "a candidate of %s did not build: %s", task.task_name, result.error_msg
                )
                continue
            files = _move(result.artifact_path, folder, f"t{t}_c{i}.so")
            record = TuningRecord(
                candidate.sch.trace, workload, [_FAILED_S], run.target, candidate.args_info
            ).as_json()
            items.append(
                {
                    **files,
                    "task": task.task_name,
                    "workload": told.workload,  # import_round checks it is this task's
                    "kind": "candidate",
                    "record": _plain(record),
                    "args_info": _plain([a.as_json() for a in candidate.args_info]),
                }
            )
    size = sum(p.stat().st_size for p in [*folder.glob("*.so"), *folder.glob("*.cubin")])
    spec = {
        "round": number,
        "device": "cuda" if run.target.kind.name == "cuda" else "cpu",
        "arch": run.plan.arch,
        # the GPU the database's earlier rounds were measured on: measure-batch refuses another
        "gpu": measured_on(run.meta).split(", ")[0],
        "plan": json.loads(run.plan.to_json()),
        "candidates": items,
        "bytes": size,
    }
    (folder / ROUND).write_text(json.dumps(spec, indent=1), encoding="utf-8")
    if size > MAX_ROUND_BYTES:
        raise KernelscopeError(
            f"round {number} weighs {size >> 20} MiB, more than the {MAX_ROUND_BYTES >> 20} MiB "
            "a round may",
            hint="tune fewer kernels at once (--kernel, --top) or fewer candidates (--round)",
        )
    progress("done", 1.0, f"round {number}: {len(items)} candidates in {folder} ({size >> 10} KiB)")
    return {"round": number, "candidates": len(items), "folder": str(folder), "tasks": []}


def _defaults(
    run: Prepared, task: Any, workload: str, t: int, folder: Path
) -> list[dict[str, Any]]:
    """The task's default schedule as a candidate of the round (measured like the others),
    filed under the task's ``workload`` hash, as its candidates are."""
    from tvm.s_tir.meta_schedule.arg_info import ArgInfo
    from tvm.s_tir.meta_schedule.builder import BuilderInput

    mod = default_schedule(task.dispatched[0], run.target)
    built = run.builder.build([BuilderInput(mod, run.target)])[0]
    if built.error_msg is not None:
        return []
    files = _move(built.artifact_path, folder, f"t{t}_default.so")
    return [
        {
            **files,
            "task": task.task_name,
            "workload": workload,
            "kind": "default",
            "args_info": _plain([a.as_json() for a in ArgInfo.from_prim_func(mod["main"])]),
        }
    ]


def _plain(value: Any) -> Any:
    """TVM's JSON objects (ffi arrays, strings, numbers) as plain Python."""
    return json.loads(json.dumps(value, default=_ffi))


def _ffi(value: Any) -> Any:
    if hasattr(value, "__iter__") and not isinstance(value, str | bytes):
        return list(value)
    if isinstance(value, int | float | str):
        return value
    try:
        return int(value)
    except (TypeError, ValueError):
        return str(value)


# Left in a round's folder once it is committed: the round and the database it went into, so
# a second import of the same round (its records counted twice) is refused.
IMPORTED = "imported.json"


def import_round(plan: TuningPlan, folder: Path, progress: ProgressFn) -> dict[str, Any]:
    """Commit a measured round, then write the next one while trials are left."""
    from tvm.s_tir.meta_schedule.database import TuningRecord, Workload
    from tvm.s_tir.meta_schedule.runner import RunnerResult

    spec, results = read_round(folder, plan)
    _refuse_a_second_import(folder, spec, plan)
    _set_arch(plan)
    run = prepare(plan, progress, runner=None, export=export_so)
    by_task = {s[2].name: s for s in run.states}
    _check_tasks(folder, spec, by_task)
    grouped: dict[str, tuple[list[Any], list[Any]]] = {}
    for item in spec["candidates"]:
        state = by_task[item["task"]]
        times = results["times"].get(item["file"])
        if item["kind"] == "default":
            if times:
                state[2].default_us = keep_default(
                    run.database, run.meta, state[0], run.target, times, progress
                )
            continue
        workload = Workload(state[0].dispatched[0])
        record = TuningRecord.from_json(item["record"], workload)  # times: the results
        candidates, measured = grouped.setdefault(item["task"], ([], []))
        candidates.append(record.as_measure_candidate())
        error = results["errors"].get(item["file"], "not measured")
        measured.append(RunnerResult(times, None) if times else RunnerResult(None, error))
    write_meta(plan.database, run.meta)
    for name, (candidates, measured) in grouped.items():
        commit(run, by_task[name], candidates, measured)
        progress("tune", None, by_task[name][2].sentence())
    number = int(spec["round"])
    imported = {"round": number, "database": str(Path(plan.database).resolve())}
    (folder / IMPORTED).write_text(json.dumps(imported), encoding="utf-8")
    summary = finish(run, progress, f"batch round {number} on {results.get('gpu') or 'cpu'}")
    note_busy(run, summary, str(results.get("busy") or ""), f"the timings of round {number}")
    if number * plan.per_round < plan.trials:
        again = prepare(plan, progress, runner=None, export=export_so)
        summary["next"] = _write_round(again, folder, progress, number + 1)
    return summary


def _refuse_a_second_import(folder: Path, spec: dict[str, Any], plan: TuningPlan) -> None:
    try:
        done = json.loads((folder / IMPORTED).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return  # never imported (or the mark is unreadable: nothing to go by)
    same_db = done.get("database") == str(Path(plan.database).resolve())
    if same_db and done.get("round") == spec.get("round"):
        raise KernelscopeError(
            f"{folder}: round {spec['round']} was imported into {plan.database} already; "
            "importing it again would count its measurements twice",
            hint="nothing was imported; export and measure the next round "
            "(`kernelscope tune ... --export-batch`) to tune further",
        )


def _check_tasks(folder: Path, spec: dict[str, Any], by_task: dict[str, Any]) -> None:
    """Refuse a round whose candidates are not of this run's tasks (another model, other
    shapes, other --kernel): their times would go to no task, or to another kernel's records."""
    foreign = sorted(
        {
            item["task"]
            for item in spec["candidates"]
            if item["task"] not in by_task
            or item.get("workload", by_task[item["task"]][2].workload)
            != by_task[item["task"]][2].workload
        }
    )
    if foreign:
        exported = spec.get("plan", {})
        raise KernelscopeError(
            f"{folder}: round {spec['round']} holds candidates of {', '.join(foreign[:5])}, "
            f"which this run does not tune (the round was exported for "
            f"{Path(str(exported.get('model', '?'))).name}, tasks "
            f"{', '.join(exported.get('tasks', [])[:5]) or '?'})",
            hint="import it with the workspace, model and --kernel/--top it was exported with; "
            "nothing was imported",
        )


def read_round(folder: Path, plan: TuningPlan) -> tuple[dict[str, Any], dict[str, Any]]:
    """A measured round, checked: complete, and measured on the GPU the plan is for."""
    try:
        spec = json.loads((folder / ROUND).read_text(encoding="utf-8"))
        if not isinstance(spec.get("candidates"), list) or "round" not in spec:
            raise ValueError("no round number or candidates")
    except (OSError, ValueError, AttributeError) as exc:
        raise KernelscopeError(
            f"{folder}: not a tuning round ({ROUND}: {exc})",
            hint="give the folder `kernelscope tune --export-batch` wrote",
        ) from exc
    if not (folder / RESULTS).is_file():
        raise KernelscopeError(
            f"{folder}: round {spec.get('round')} has not been measured (no {RESULTS})",
            hint=f"run `kernelscope measure-batch {folder}` (or batch_measure.py) on the GPU first",
        )
    try:
        results = json.loads((folder / RESULTS).read_text(encoding="utf-8"))
        if not all(isinstance(results.get(k), dict) for k in ("times", "errors")):
            raise ValueError("no times or errors")
    except (OSError, ValueError, AttributeError) as exc:
        raise KernelscopeError(
            f"{folder}: {RESULTS} of round {spec['round']} is unreadable ({exc}), cut short "
            "on its way back perhaps",
            hint="copy it back from the GPU machine again, or measure the round again; nothing "
            "was imported",
        ) from exc
    if results.get("round") != spec.get("round"):
        raise KernelscopeError(
            f"{folder}: {RESULTS} is of round {results.get('round')}, the folder holds round "
            f"{spec.get('round')}",
            hint="measure this round again",
        )
    missing = [
        c["file"]
        for c in spec["candidates"]
        if c["file"] not in results.get("times", {}) and c["file"] not in results.get("errors", {})
    ]
    if missing:
        raise KernelscopeError(
            f"{folder}: {len(missing)} candidates of round {spec['round']} have no result "
            f"({', '.join(missing[:5])})",
            hint="measure the round again; nothing was imported",
        )
    if spec.get("arch") != plan.arch and spec.get("device") == "cuda":
        raise KernelscopeError(
            f"{folder}: a round for {spec.get('arch')}, this plan is for {plan.arch}"
        )
    gpu = str(results.get("gpu") or "")
    named = str(spec.get("gpu") or "") or measured_on(read_meta(plan.database))
    if gpu and named and gpu not in named.split(", "):
        raise KernelscopeError(
            f"{folder}: round {spec['round']} was measured on {gpu}, but the records of "
            f"{plan.database} were measured on {named}; timings of two GPUs do not mix",
            hint=f"measure the round on a {named} (kernelscope measure-batch), or tune for the "
            f"{gpu} into a new database (tune --db DIR); nothing was imported",
        )
    return spec, results
