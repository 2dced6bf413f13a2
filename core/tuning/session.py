"""The tuning run itself (in the tuning child: it imports TVM, which can crash).

MetaSchedule's own parts do the work: ``extract_tasks`` on the module ``compile_relax``
prepares (``build.records.fused_module``, so the records apply to the build), a TuneContext
per task with its post-order-apply space and evolutionary search, the XGBoost cost model,
``LocalBuilder``, a ``LocalRunner`` or ``RPCRunner`` and the JSON database. What kernelscope
adds is the order: rounds over the chosen tasks (each round: the search proposes
``per_round`` candidates, they are built here, measured where the plan says, committed to
the database at once and fed to the cost model), so that progress is told per task and a
Cancel, which stops this process, loses nothing that was measured. Before the first round
the default schedule of each task (DLight's, as a build without records uses) is measured
through the same builder and runner, so each task's best time is told against it.

A second run on the same database continues it: the search starts from the database's best
records, and the cost model is saved beside the records between runs.
"""

from __future__ import annotations

import importlib.metadata
import logging
import socket
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..build import relax_pipelines
from ..build.model_loader import load_model
from ..build.records import (
    commit_default_record,
    cuda_target,
    default_schedule,
    fused_module,
    kept_defaults,
    open_database,
    summarise,
    write_meta,
)
from ..build.records import workload_hash as records_workload_hash
from ..errors import KernelscopeError
from ..formatting import format_us
from ..tasks import ProgressFn
from .plan import Measure, TuningPlan, check_database

logger = logging.getLogger(__name__)

COST_MODEL = "kernelscope_cost_model"  # XGBModel.save's file name, beside the records
_FAILED_S = 1e10  # MetaSchedule's time for a candidate that did not build or run


@dataclass
class TaskProgress:
    """One task's state, told after each of its rounds and returned at the end."""

    name: str
    workload: str  # structural hash, as the database files it
    trials: int  # measured in this run
    trials_total: int  # in the database (this and earlier runs)
    best_us: float | None  # of the candidates
    default_us: float | None
    default_kept: bool = False  # the default schedule's record beats every candidate

    def sentence(self) -> str:
        best = format_us(self.best_us * 1e3) + " µs" if self.best_us is not None else "-"
        default = (
            format_us(self.default_us * 1e3) + " µs"
            if self.default_us is not None
            else "not measured"
        )
        gain = (
            f", {self.default_us / self.best_us:.2f}x" if self.best_us and self.default_us else ""
        )
        kept = "; default schedule kept (no candidate beat it)" if self.default_kept else ""
        return (
            f"{self.name}: {self.trials} trials ({self.trials_total} in the database), "
            f"best {best}, default {default}{gain}{kept}"
        )


def target_of(plan: TuningPlan) -> Any:
    import tvm

    if plan.target_kind == "llvm":
        return tvm.target.Target({"kind": "llvm", "num-cores": 1})
    return cuda_target(plan.arch)


@dataclass
class Prepared:
    """A run's TVM side, set up: the target, the database and kernelscope's notes beside it,
    the builder, the cost model, and per task its TuneContext and what to tell."""

    plan: TuningPlan
    target: Any
    database: Any
    meta: dict[str, Any]
    builder: Any
    cost_model: Any
    states: list[tuple[Any, Any, TaskProgress]]


def prepare(
    plan: TuningPlan, progress: ProgressFn, runner: Any | None, export: Any = None
) -> Prepared:
    """Load the model, extract its tasks, open the database and start a search per task;
    with a ``runner``, measure the default schedule of each task not measured before."""
    from tvm.s_tir import meta_schedule as ms

    from .tensor_intrinsics import register_tensor_intrinsics

    progress("load", 0.0, f"loading {plan.model.name}")
    register_tensor_intrinsics()  # what a TuneContext imports first, quicker
    model = load_model(plan.model, plan.shapes, plan.params, plan.seed)
    target = target_of(plan)
    progress("tasks", 0.01, "extracting the tuning tasks")
    mod = relax_pipelines.prepare(model.mod, plan.pipeline)  # as the build compiled it
    tasks = ms.relax_integration.extract_tasks(fused_module(mod, target), target)
    extracted = {t.task_name: t for t in tasks}
    missing = [name for name in plan.tasks if name not in extracted]
    if missing:
        raise KernelscopeError(
            f"{plan.model.name} has no tuning task for {', '.join(missing)}",
            hint="its tasks: " + ", ".join(extracted) + "; rebuild the workspace if the model "
            "changed since",
        )
    database = open_database(plan.database, create=True)
    meta = _start_meta(plan, target)
    # a batch export also compiles each candidate's cubin with nvcc: more than TVM's 30 s
    extra = {"f_export": export, "timeout_sec": 300} if export else {}
    builder = ms.builder.LocalBuilder(max_workers=1, **extra)
    # each build starts a worker that imports the intrinsics first: the quicker import, and
    # outside the build's timeout (an initializer), else a loaded machine times builds out.
    # Set after the builder's own start-up check, whose worker builds nothing.
    builder.initializer = register_tensor_intrinsics
    cost_model = _cost_model(plan.database)
    states = []
    for i, name in enumerate(plan.tasks):
        task = extracted[name]
        shash = records_workload_hash(task.dispatched[0]["main"])
        default = meta["defaults"].get(shash)
        if default is None and runner is not None:
            progress("default", 0.02, f"measuring the default schedule of {task.task_name}")
            secs = _measure_default(task, target, builder, runner)
            if secs is not None:
                default = keep_default(database, meta, task, target, secs, progress)
                write_meta(plan.database, meta)
        elif default is not None and shash not in meta.get("default_records", []):
            # measured by a run from before defaults were kept as records: keep it now
            default = keep_default(database, meta, task, target, [default * 1e-6], progress)
            write_meta(plan.database, meta)
        context = ms.TuneContext(
            mod=task.dispatched[0],
            target=target,
            space_generator="post-order-apply",
            search_strategy=ms.search_strategy.EvolutionarySearch(
                population_size=plan.population,
                init_min_unmeasured=min(50, plan.population),
            ),
            task_name=task.task_name,
            num_threads=1,
            rand_state=plan.seed + i,
        )
        context.pre_tuning(
            max_trials=plan.trials,
            num_trials_per_iter=plan.per_round,
            database=database,
            cost_model=cost_model,
        )
        states.append((task, context, TaskProgress(task.task_name, shash, 0, 0, None, default)))
    _refresh(states, database, meta)
    return Prepared(plan, target, database, meta, builder, cost_model, states)


def commit(
    run: Prepared, state: tuple[Any, Any, TaskProgress], candidates: list[Any], results: list[Any]
) -> None:
    """Put measured candidates into the database (failures as MetaSchedule files them)
    and teach the cost model and the search what they measured."""
    from tvm.s_tir import meta_schedule as ms

    task, context, told = state
    workload = run.database.commit_workload(task.dispatched[0])
    for candidate, result in zip(candidates, results, strict=True):
        secs = list(result.run_secs) if result.run_secs else [_FAILED_S]
        run.database.commit_tuning_record(
            ms.database.TuningRecord(
                candidate.sch.trace, workload, secs, run.target, candidate.args_info
            )
        )
    run.cost_model.update(context, candidates, results)
    context.notify_runner_results(candidates, results)
    told.trials += len(candidates)
    _refresh([state], run.database, run.meta)


def finish(run: Prepared, progress: ProgressFn, how: str) -> dict[str, Any]:
    """Save the cost model and the run's summary beside the records."""
    for _task, context, _told in run.states:
        context.post_tuning()
    run.cost_model.save(str(run.plan.database / COST_MODEL))
    summary = [asdict(s[2]) for s in run.states]
    run.meta["runs"].append(
        {"time": time.strftime("%Y-%m-%dT%H:%M:%S"), "measure": how, "tasks": summary}
    )
    write_meta(run.plan.database, run.meta)
    progress("done", 1.0, f"{sum(s[2].trials for s in run.states)} candidates measured")
    return {"tasks": summary, "database": str(run.plan.database)}


def check_reachable(measure: Measure) -> None:
    """Before any candidate is built: the server answers, or the tracker has a server of the
    key (TVM's runner would otherwise fail every candidate, one timeout each)."""
    from tvm import rpc

    if measure.kind == "local":
        return
    host, _, port = measure.address.rpartition(":")
    try:
        # a plain connection first: TVM's own clients retry a closed port for a minute
        socket.create_connection((host, int(port)), timeout=10).close()
        if measure.kind == "host":
            rpc.connect(host, int(port), session_timeout=measure.timeout_s)
            return
        summary = rpc.connect_tracker(host, int(port)).summary()
    except Exception as exc:
        what = "TVM's RPC server" if measure.kind == "host" else "the RPC tracker"
        raise KernelscopeError(
            f"{what} at {measure.address} does not answer: {str(exc).strip().splitlines()[-1]}",
            hint="is it running, and is the address right?",
            details=str(exc),
        ) from exc
    queues = summary.get("queue_info", {})
    servers = [s.get("key", "").split(":")[-1] for s in summary.get("server_info", [])]
    if measure.key not in queues and measure.key not in servers:
        known = sorted(set(queues) | set(servers))
        raise KernelscopeError(
            f"the RPC tracker at {measure.address} has no server with the key {measure.key!r}",
            hint=("its keys: " + ", ".join(known))
            if known
            else "no server has registered with "
            "it: start one on the GPU host with python -m tvm.exec.rpc_server --tracker "
            f"{measure.address} --key {measure.key}",
        )
    queue = queues.get(measure.key) or {}
    if queue and not queue.get("free"):  # TVM's runner would wait in the queue, silently
        holders = servers.count(measure.key)
        raise KernelscopeError(
            f"the RPC tracker at {measure.address} has no free server with the key "
            f"{measure.key!r}: {holders or 'all'} in use, {queue.get('pending', 0)} requests "
            "waiting",
            hint="try again when one is free, or start another server with that key on a GPU "
            f"host (python -m tvm.exec.rpc_server --tracker {measure.address} --key "
            f"{measure.key})",
        )


def run_tuning(plan: TuningPlan, progress: ProgressFn) -> dict[str, Any]:
    """Tune ``plan.tasks``; return each task's ``TaskProgress`` as a dict (under "tasks")."""
    check_reachable(plan.measure)
    runner = make_runner(plan.measure, target_of(plan))
    run = prepare(plan, progress, runner)
    total = plan.trials * len(run.states)
    active = list(run.states)
    while active:
        for state in list(active):
            candidates = state[1].generate_measure_candidates()
            if not candidates:
                active.remove(state)
                continue
            results = _build_and_run(candidates, run.target, run.builder, runner)
            commit(run, state, candidates, results)
            done = sum(s[2].trials for s in run.states)
            progress("tune", min(0.02 + 0.97 * done / total, 0.99), state[2].sentence())
    summary = finish(run, progress, plan.measure.kind)
    note_busy(run, summary, plan.measure.busy, "the timings")
    return summary


def note_busy(run: Prepared, summary: dict[str, Any], busy: str, timings: str) -> None:
    """Say that ``timings`` were taken on a busy GPU (``busy``: why), in the run's summary
    (``notes``) and in its entry in the database's notes; nothing when ``busy`` is ""."""
    if not busy:
        return
    note = f"{timings} were taken on a busy GPU ({busy})"
    summary.setdefault("notes", []).append(note)
    run.meta["runs"][-1]["busy"] = busy
    write_meta(run.plan.database, run.meta)


def keep_default(
    database: Any,
    meta: dict[str, Any],
    task: Any,
    target: Any,
    secs: list[float],
    progress: ProgressFn,
) -> float:
    """File a task's measured default schedule: its time in kernelscope's notes, and the
    schedule itself as a record of the task, so that the database's best record (what
    ``build --tuning-db`` and compile_relax apply) is never slower than the default. Where
    the default cannot be a record, say so: a build then takes the best candidate, as before.
    The default's time in µs."""
    shash = records_workload_hash(task.dispatched[0]["main"])
    default_us = sum(secs) / len(secs) * 1e6
    meta["defaults"][shash] = default_us
    kept = meta.setdefault("default_records", [])
    if shash in kept:
        return default_us
    if shash in meta.setdefault("defaults_not_kept", []):
        return default_us  # said when first measured
    if commit_default_record(database, task.dispatched[0], target, secs):
        kept.append(shash)
    else:
        meta["defaults_not_kept"].append(shash)
        progress(
            "default", None,
            f"the default schedule of {task.task_name} cannot be kept as a tuning record "
            "(DLight does not schedule it, or its trace does not replay): a build with these "
            "records takes its best candidate even where that is slower",
        )  # fmt: skip
    return default_us


def _refresh(
    states: list[tuple[Any, Any, TaskProgress]], database: Any, meta: dict[str, Any]
) -> None:
    found = summarise(database, kept_defaults(meta))
    for _task, _context, told in states:
        summary = found.get(told.workload)
        if summary is not None:
            told.trials_total = summary.trials
            told.best_us = summary.best_us
            told.default_kept = summary.default_kept


def _build_and_run(candidates: list[Any], target: Any, builder: Any, runner: Any) -> list[Any]:
    """Build ``candidates`` here and measure what built; a result per candidate."""
    from tvm.s_tir.meta_schedule.builder import BuilderInput
    from tvm.s_tir.meta_schedule.runner import RunnerInput, RunnerResult

    built = builder.build([BuilderInput(c.sch.mod, target) for c in candidates])
    device = "cuda" if target.kind.name == "cuda" else "cpu"
    inputs = [
        RunnerInput(b.artifact_path, device, c.args_info)
        for b, c in zip(built, candidates, strict=True)
        if b.error_msg is None
    ]
    futures = iter(runner.run(inputs))
    results = []
    for b in built:
        if b.error_msg is not None:
            results.append(RunnerResult(None, f"build failed: {b.error_msg}"))
        else:
            result = next(futures).result()
            if result.error_msg:
                logger.info("a candidate failed to run: %s", result.error_msg.splitlines()[0])
            results.append(result)
    for b in built:
        if b.artifact_path:
            Path(b.artifact_path).unlink(missing_ok=True)
    return results


def _measure_default(task: Any, target: Any, builder: Any, runner: Any) -> list[float] | None:
    """The task's times (s) with the schedule a build without records gives it (DLight's on
    a GPU, as compile_relax's fallback); None when it did not build or run."""
    from tvm.s_tir.meta_schedule.arg_info import ArgInfo
    from tvm.s_tir.meta_schedule.builder import BuilderInput
    from tvm.s_tir.meta_schedule.runner import RunnerInput

    mod = default_schedule(task.dispatched[0], target)
    built = builder.build([BuilderInput(mod, target)])[0]
    if built.error_msg is not None:
        logger.warning(
            "the default schedule of %s did not build: %s", task.task_name, built.error_msg
        )
        return None
    device = "cuda" if target.kind.name == "cuda" else "cpu"
    args = ArgInfo.from_prim_func(mod["main"])
    result = runner.run([RunnerInput(built.artifact_path, device, args)])[0].result()
    Path(built.artifact_path).unlink(missing_ok=True)
    if result.error_msg or not result.run_secs:
        logger.warning(
            "the default schedule of %s did not run: %s", task.task_name, result.error_msg
        )
        return None
    return [float(s) for s in result.run_secs]


def make_runner(measure: Measure, target: Any) -> Any:
    """TVM's runner for ``measure``: a LocalRunner, or an RPCRunner to one server (a
    forwarded port) or to a tracker's servers of one key."""
    from tvm.s_tir.meta_schedule.runner import EvaluatorConfig, LocalRunner, RPCConfig, RPCRunner

    evaluator = EvaluatorConfig(
        number=measure.number, repeat=measure.repeat, min_repeat_ms=0, enable_cpu_cache_flush=False
    )
    if measure.kind == "local":
        return LocalRunner(timeout_sec=measure.timeout_s, evaluator_config=evaluator)
    host, _, port = measure.address.rpartition(":")
    config = RPCConfig(
        tracker_host=host,
        tracker_port=int(port),
        tracker_key=measure.key or "server",
        session_timeout_sec=measure.timeout_s,
    )
    if measure.kind == "tracker":
        return RPCRunner(rpc_config=config, evaluator_config=evaluator)
    return RPCRunner(rpc_config=config, evaluator_config=evaluator, f_create_session=direct_session)


def direct_session(config: Any) -> Any:
    """An RPC session with one server (no tracker): ``RPCConfig``'s tracker address is the
    server's. Module level, so that the runner's worker processes can unpickle it."""
    from tvm import rpc

    return rpc.connect(
        config.tracker_host, int(config.tracker_port), session_timeout=config.session_timeout_sec
    )


def _cost_model(folder: Path) -> Any:
    from tvm.s_tir.meta_schedule.cost_model import XGBModel

    model = XGBModel(num_tuning_cores=1)
    saved = folder / COST_MODEL
    if saved.is_file():
        try:
            model.load(str(saved))
        except Exception as exc:  # a model of another xgboost: start afresh, records stay
            logger.warning("the saved cost model %s was not loaded: %s", saved, exc)
    return model


def _start_meta(plan: TuningPlan, target: Any) -> dict[str, Any]:
    """kernelscope's notes beside the records: what they were tuned for (checked by
    ``build --tuning-db``), the default schedules' times, which of them are records too
    ("default_records"; "defaults_not_kept": those that cannot be), and the runs."""
    arch = plan.arch if plan.target_kind == "cuda" else "cpu"
    meta = check_database(plan.database, arch)
    tvm_version = importlib.metadata.version("apache-tvm")
    meta.update(tvm=tvm_version, arch=arch, target=str(target))
    meta.setdefault("models", [])
    if plan.model.name not in meta["models"]:
        meta["models"].append(plan.model.name)
    meta.setdefault("defaults", {})
    meta.setdefault("runs", [])
    write_meta(plan.database, meta)
    return meta
