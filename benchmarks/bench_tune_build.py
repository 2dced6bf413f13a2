"""Tuning build benchmark (issue 21): candidates built per minute by kernelscope's round
against stock MetaSchedule's ``LocalBuilder``, for the same model, tasks and search.

    python benchmarks/bench_tune_build.py [--model PY_OR_ONNX] [--tasks N] [--per-round N]
                                          [--repeats N] [--targets cuda,llvm] [--arch sm_90]
                                          [--profile FILE]

kernelscope  ``core.tuning.batch._write_round``: what ``kernelscope tune --export-batch``
             runs for a round. The search proposes ``per-round`` candidates per task, its
             ``LocalBuilder`` (one worker, ``export_so``) builds each into a shared library
             a runtime-only TVM loads and, for CUDA, also compiles its cubin with nvcc; the
             round is written. Builds without measuring, so no GPU is needed.
stock        the same search (the same TuneContext, seed and database: ``session.prepare``)
             proposes as many candidates, built by ``LocalBuilder()`` with its defaults
             (a worker per logical core, TVM's ``.tar`` export, no cubin) but kernelscope's
             300 s timeout: with TVM's 30 s, a first try on a loaded 2-core machine built no
             CUDA candidate at all (see results/tuning_local.md).
Both are timed from the proposal to the last candidate built (the search is the same
work in both); the task's default schedule, which a first round also builds, is left out
so both count candidates only. Runs alternate (kernelscope, stock, ...) with a fresh
database each, and print candidates per minute and their ratio (kernelscope over stock:
>= 1.0 means no slower) with the load average: the machine may be shared, and a
busy neighbour slows both sides in a run alike but not every run alike.
``--profile FILE`` runs kernelscope's round once more under cProfile (with the builder's
worker processes, which cProfile does not see, timed by their wall time) and prints the top.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _quiet(_stage: str, _fraction: float | None, _message: str) -> None:
    """A ProgressFn that says nothing (the benchmark prints its own lines)."""


def _plan(model: Path, target_kind: str, arch: str, per_round: int, db: Path, ntasks: int) -> Any:
    """A tuning plan for the first ``ntasks`` tasks of ``model`` (no workspace needed)."""
    from tvm.s_tir import meta_schedule as ms

    from kernelscope.core.build.model_loader import load_model, model_format
    from kernelscope.core.build.records import fused_module
    from kernelscope.core.tuning.plan import TuningPlan
    from kernelscope.core.tuning.session import target_of

    probe = TuningPlan(
        model, model_format(model), {}, "random", 0, arch, target_kind, [], per_round,
        per_round, db, population=64,
    )  # fmt: skip
    target = target_of(probe)
    tasks = ms.relax_integration.extract_tasks(fused_module(load_model(model).mod, target), target)
    return TuningPlan(
        model, model_format(model), {}, "random", 0, arch, target_kind,
        [t.task_name for t in tasks][:ntasks], per_round, per_round, db, population=64,
    )  # fmt: skip


def _prepared(plan: Any) -> Any:
    """The search, builder and database as a round starts them, on a fresh database;
    the default schedules counted as measured, so only candidates are built."""
    from kernelscope.core.tuning.batch import _set_arch, export_so
    from kernelscope.core.tuning.session import prepare

    _set_arch(plan)
    run = prepare(plan, _quiet, runner=None, export=export_so)
    for _task, _context, told in run.states:
        told.default_us = 1.0
    return run


def kernelscope_round(plan: Any) -> tuple[int, float]:
    """kernelscope's round: candidates built and seconds."""
    from kernelscope.core.tuning.batch import _write_round

    run = _prepared(plan)
    with tempfile.TemporaryDirectory(prefix="ks-round-") as folder:
        t = time.perf_counter()
        spec = _write_round(run, Path(folder), _quiet, number=1)
        return int(spec["candidates"]), time.perf_counter() - t


def stock_round(plan: Any) -> tuple[int, float]:
    """The same search's candidates built by MetaSchedule's own LocalBuilder."""
    import shutil

    from tvm.s_tir.meta_schedule.builder import BuilderInput, LocalBuilder

    run = _prepared(plan)
    builder = LocalBuilder(timeout_sec=300)  # kernelscope's; see the docstring
    built = 0
    t = time.perf_counter()
    for _task, context, _told in run.states:
        candidates = context.generate_measure_candidates() or []
        results = builder.build([BuilderInput(c.sch.mod, run.target) for c in candidates])
        built += sum(r.error_msg is None for r in results)
        for r in results:
            if r.artifact_path:
                shutil.rmtree(Path(r.artifact_path).parent, ignore_errors=True)
    return built, time.perf_counter() - t


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path, default=ROOT / "tests/data/models/tiny_mlp.py")
    parser.add_argument("--per-round", type=int, default=4, help="candidates per task")
    parser.add_argument("--tasks", type=int, default=2, help="the model's first N tasks")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--targets", default="cuda", help="cuda, llvm or cuda,llvm")
    parser.add_argument("--arch", default="sm_90")
    parser.add_argument("--profile", type=Path, help="cProfile kernelscope's round into FILE")
    args = parser.parse_args()

    from kernelscope.core.toolchain import find_tool

    cpus = os.cpu_count()
    print(f"model {args.model.name}, {cpus} logical cores, load average {_load()} "
          "(1, 5, 15 min; the machine may be shared with other work)")  # fmt: skip
    for kind in args.targets.split(","):
        if kind == "cuda" and find_tool("nvcc").path is None:
            print("cuda: skipped, no nvcc here")
            continue
        with tempfile.TemporaryDirectory(prefix="ks-tunebench-") as tmp:
            plan = _plan(args.model, kind, args.arch, args.per_round, Path(tmp) / "db", args.tasks)
            target = f"{kind} {args.arch}" if kind == "cuda" else kind
            print(f"\n{target}: {len(plan.tasks)} tasks x {args.per_round} candidates")
            rates: dict[str, list[float]] = {"kernelscope": [], "stock": []}
            for i in range(args.repeats):
                row = []
                for name, fn in (("kernelscope", kernelscope_round), ("stock", stock_round)):
                    import shutil

                    shutil.rmtree(plan.database, ignore_errors=True)
                    n, secs = fn(plan)
                    rate = n / secs * 60
                    rates[name].append(rate)
                    row.append(f"{name} {n} in {secs:5.1f} s = {rate:5.1f}/min")
                ratio = rates["kernelscope"][-1] / max(rates["stock"][-1], 1e-9)
                print(f"  run {i + 1}: {', '.join(row)}; ratio {ratio:.2f}; load {_load()}")
            best_k, best_s = max(rates["kernelscope"]), max(rates["stock"])
            med_k, med_s = (
                statistics.median(rates["kernelscope"]),
                statistics.median(rates["stock"]),
            )
            print(f"  best: kernelscope {best_k:.1f}/min, stock {best_s:.1f}/min, "
                  f"ratio {best_k / best_s:.2f}")  # fmt: skip
            print(f"  median: kernelscope {med_k:.1f}/min, stock {med_s:.1f}/min, "
                  f"ratio {med_k / med_s:.2f}")  # fmt: skip
            if args.profile:
                import shutil

                shutil.rmtree(plan.database, ignore_errors=True)
                profiler = cProfile.Profile()
                profiler.runcall(kernelscope_round, plan)
                profiler.dump_stats(str(args.profile))
                pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()
