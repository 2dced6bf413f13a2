"""Building from MetaSchedule tuning records, exactly as TVM's ``compile_relax`` does.

``compile_relax`` (``tvm.s_tir.meta_schedule.relax_integration``) lowers a Relax module with
its own pipeline: library dispatch, LegalizeOps, AnnotateTIROpPattern, FoldConstant, FuseOps
and FuseTIR (the preparation ``extract_tasks`` sees too, so that the database's keys match),
then ``MetaScheduleApplyDatabase``, then DLight for what no record covers (GPU targets), then
the usual lowering and finalising passes. ``database_pipeline`` is that pipeline as a pass
kernelscope hands ``relax.build`` inside its own PassContext (whose instruments read the
launch facts); a test keeps its kernels equal to ``compile_relax``'s. It also records which
fused PrimFuncs ``MetaScheduleApplyDatabase`` replaced: those came from a record.

``fused_module`` is the preparation alone: the module tuning extracts its tasks from.

TVM is imported inside the functions: the build child and the tuning child import this.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import KernelscopeError

WORKLOADS = "database_workload.json"
RECORDS = "database_tuning_record.json"
# What kernelscope adds beside TVM's two files: the target and TVM version it tuned for, the
# default schedule's time of each task, and the model (a stock TVM database has none).
META = "kernelscope_tuning.json"


def cuda_target(arch: str) -> Any:
    """The CUDA target of a build for ``arch``, with the limits MetaSchedule's rules read
    (without them it leaves out cross-thread reductions); the build and tuning use this one."""
    import tvm

    return tvm.target.Target(
        {
            "kind": "cuda",
            "arch": arch,
            "max_threads_per_block": 1024,
            "max_shared_memory_per_block": 49152,
            "thread_warp_size": 32,
        }
    )


def fuse_passes(target: Any) -> list[Any]:
    """``compile_relax``'s passes up to FuseTIR, in its order."""
    from tvm import relax
    from tvm.relax import pipeline as relax_pipeline

    try:
        dispatch = list(relax_pipeline.library_dispatch_passes(target))
    except (ValueError, AttributeError):
        dispatch = []
    return [
        *dispatch,
        relax.transform.LegalizeOps(),
        relax.transform.AnnotateTIROpPattern(),
        relax.transform.FoldConstant(),
        relax.transform.FuseOps(),
        relax.transform.FuseTIR(),
    ]


def fused_module(mod: Any, target: Any) -> Any:
    """The Relax module after ``compile_relax``'s preparation: the fused PrimFuncs that
    tuning tasks are made of and that records are looked up by."""
    import tvm

    with target, tvm.transform.PassContext(opt_level=3):
        return tvm.transform.Sequential(fuse_passes(target))(mod)


@dataclass
class Applied:
    """What ``MetaScheduleApplyDatabase`` did in a build: the fused PrimFuncs it replaced by
    a record's schedule (name -> its workload's structural hash), and all it saw."""

    from_record: dict[str, str] = field(default_factory=dict)
    primfuncs: list[str] = field(default_factory=list)


def database_pipeline(target: Any, applied: Applied) -> Any:
    """``compile_relax``'s pipeline as a module pass, filling ``applied`` when it runs.

    Run it inside ``with target, database`` (the database ``MetaScheduleApplyDatabase``
    reads is the current one) and a PassContext of opt_level 3, as ``compile_relax`` does.
    """
    import tvm
    from tvm import relax
    from tvm.relax import pipeline as relax_pipeline
    from tvm.relax.transform import MetaScheduleApplyDatabase

    try:
        lower = list(relax_pipeline.dataflow_lower_passes(target))
        finalize = list(relax_pipeline.finalize_passes(target))
    except (ValueError, AttributeError):
        # compile_relax's own fallback (TVM 0.27's CUDA backend has no such functions)
        lower = [
            relax.transform.RewriteDataflowReshape(),
            relax.transform.ToNonDataflow(),
            relax.transform.RemovePurityChecking(),
            relax.transform.CallTIRRewrite(),
        ]
        finalize = [
            relax.transform.StaticPlanBlockMemory(),
            relax.transform.LowerAllocTensor(),
            relax.transform.KillAfterLastUse(),
            relax.transform.LowerRuntimeBuiltin(),
            relax.transform.ComputePrimValue(),
            relax.transform.VMShapeLower(),
            relax.transform.AttachGlobalSymbol(),
        ]
    is_gpu = relax_pipeline.BackendDispatcher.is_gpu_target(target)

    @tvm.transform.module_pass(opt_level=3, name="kernelscope.DatabasePipeline")
    def pipeline(mod: Any, _ctx: Any) -> Any:
        mod = tvm.transform.Sequential(fuse_passes(target))(mod)
        before = {gv.name_hint: f for gv, f in mod.functions.items() if _is_primfunc(f)}
        mod = MetaScheduleApplyDatabase(enable_warning=False)(mod)
        applied.primfuncs = sorted(before)
        for gv, func in mod.functions.items():
            old = before.get(gv.name_hint)
            if old is not None and not func.same_as(old):
                applied.from_record[gv.name_hint] = workload_hash(old)
        if is_gpu:
            mod = default_schedule(mod, target)
        return tvm.transform.Sequential(lower + finalize)(mod)

    return pipeline


def _dlight_rules() -> list[Any]:
    """compile_relax's DLight rules, in its order (the first that takes a function wins)."""
    from tvm.s_tir import dlight as dl

    return [
        dl.gpu.Matmul(),
        dl.gpu.GEMV(),
        dl.gpu.Reduction(),
        dl.gpu.GeneralReduction(),
        dl.gpu.Fallback(),
    ]


def default_schedule(mod: Any, target: Any) -> Any:
    """TVM's default (DLight) GPU schedule of the functions in ``mod``: what compile_relax
    gives a kernel no record covers, and what tuning measures a kernel's gain against. A
    CPU target's functions are returned as they are. ``mod`` itself is left as it is:
    DLight's pass replaces the functions of the module it is given in place, and a tuning
    task's module, scheduled, would no longer hash to (or be) the workload its records are
    filed under."""
    if target.kind.name != "cuda":
        return mod
    from tvm.s_tir import dlight as dl

    with target:
        return dl.ApplyDefaultSchedule(*_dlight_rules())(mod.clone())


def default_trace(mod: Any, target: Any) -> Any | None:
    """The trace of the default schedule of ``mod``'s "main" (a task's workload): DLight's
    rules applied through a traced Schedule on a GPU, a step that changes nothing on the
    CPU (where compile_relax leaves a function without a record as it is). None when the default
    cannot be a record: DLight declines the function, or its trace replayed on the workload
    does not give DLight's function (a record must build what a build without it builds)."""
    import tvm_ffi
    from tvm import s_tir

    func = mod["main"]
    if target.kind.name != "cuda":
        # one step that changes nothing: TVM takes a record without a step for invalid
        # (its GetTopK skips it) and would apply the next best, a candidate
        sch = s_tir.Schedule(func)
        try:
            sch.get_sblock("root")
        except Exception:  # a function without TIR's root block: no such record
            return None
        return sch.trace
    with target:
        for rule in _dlight_rules():
            space = rule.apply(func, target, False)
            if space is not None:
                break
        else:
            return None
    if isinstance(space, list | tuple):
        if len(space) != 1:
            return None
        space = space[0]
    trace = space.trace
    if trace is None:
        return None
    replayed = s_tir.Schedule(mod)
    try:
        trace.apply_to_schedule(replayed, remove_postproc=False)
    except Exception:  # TVM's schedule errors: the trace does not replay on the workload
        return None
    if not tvm_ffi.structural_equal(replayed.mod["main"], space.mod["main"]):
        return None
    return trace


def commit_default_record(database: Any, mod: Any, target: Any, run_secs: list[float]) -> bool:
    """Commit the default schedule of ``mod`` (a task's workload) to ``database`` as a
    tuning record timed ``run_secs``, so that the database's best record of the task is
    never slower than a build without it (``MetaScheduleApplyDatabase`` takes the fastest
    record, even one slower than the default). False, committing nothing, where the default
    cannot be a record (``default_trace``)."""
    from tvm.s_tir import meta_schedule as ms
    from tvm.s_tir.meta_schedule.arg_info import ArgInfo

    trace = default_trace(mod, target)
    if trace is None:
        return False
    workload = database.commit_workload(mod)
    database.commit_tuning_record(
        ms.database.TuningRecord(
            trace, workload, [float(s) for s in run_secs], target,
            ArgInfo.from_prim_func(mod["main"]),
        )
    )  # fmt: skip
    return True


def _is_primfunc(func: Any) -> bool:
    return type(func).__name__ == "PrimFunc"


def workload_hash(func: Any) -> str:
    """The structural hash a database files ``func``'s workload under (as its JSON does)."""
    import tvm_ffi
    from tvm.s_tir.meta_schedule.tune_context import _normalize_mod

    return str(tvm_ffi.structural_hash(_normalize_mod(func)))


def open_database(folder: Path, create: bool = False) -> Any:
    """TVM's JSON database in ``folder`` (its two newline-delimited files)."""
    from tvm.s_tir import meta_schedule as ms

    if not create and not (folder / WORKLOADS).is_file():
        raise KernelscopeError(
            f"{folder}: not a tuning database (no {WORKLOADS})",
            hint="give the folder `kernelscope tune` or TVM's tune_relax wrote (its work_dir)",
        )
    folder.mkdir(parents=True, exist_ok=True)
    try:
        return ms.database.JSONDatabase(work_dir=str(folder), module_equality="structural")
    except Exception as exc:
        lines = [ln for ln in str(exc).strip().splitlines() if ln.strip()]
        raise KernelscopeError(
            f"{folder}: TVM cannot read this tuning database: {lines[-1] if lines else exc}",
            details=str(exc),
        ) from exc


def read_meta(folder: Path) -> dict[str, Any]:
    """kernelscope's notes beside a database ({} for one stock TVM wrote)."""
    path = folder / META
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise KernelscopeError(f"{path}: unreadable ({exc})") from exc
    return data if isinstance(data, dict) else {}


def write_meta(folder: Path, meta: dict[str, Any]) -> None:
    """Write kernelscope's notes beside a database, replacing the old ones in one step."""
    tmp = folder / f".{META}.tmp"
    tmp.write_text(json.dumps(meta, indent=1), encoding="utf-8")
    tmp.replace(folder / META)


def measured_on(meta: dict[str, Any]) -> str:
    """The GPUs the batch rounds in ``meta`` were measured on ("NVIDIA H200"), comma
    separated; "" when no run names one (local and RPC runs, a database stock TVM wrote)."""
    names: list[str] = []
    for run in meta.get("runs", []):
        how = str(run.get("measure", "")) if isinstance(run, dict) else ""
        found = re.fullmatch(r"batch round \S+ on (.+)", how)
        if found and found[1] != "cpu" and found[1] not in names:
            names.append(found[1])
    return ", ".join(names)


def kept_defaults(meta: dict[str, Any]) -> dict[str, float]:
    """Workload hash -> the default schedule's time in µs, for the workloads whose default
    schedule a tuning run committed as a record (``commit_default_record``; kernelscope's
    notes name them under "default_records")."""
    defaults = meta.get("defaults", {})
    return {
        shash: float(defaults[shash])
        for shash in meta.get("default_records", [])
        if defaults.get(shash) is not None
    }


@dataclass
class RecordSummary:
    """The records of one workload: how many candidates were measured (those that failed
    to build or run too), the best time; ``default_us`` where the default schedule is a
    record of the workload too (not a candidate: counted in neither)."""

    trials: int
    best_us: float | None
    arch: str
    default_us: float | None = None

    @property
    def default_kept(self) -> bool:
        """The default schedule's record is the fastest: the one a build applies."""
        return self.default_us is not None and (
            self.best_us is None or self.best_us >= self.default_us
        )


def summarise(database: Any, defaults: dict[str, float] | None = None) -> dict[str, RecordSummary]:
    """Records per workload hash: trials (every record, failed ones too) and the best mean
    time; a workload's record timed as its default in ``defaults`` (``kept_defaults``) is its
    default schedule, in neither (``RecordSummary.default_us``)."""
    import math

    import tvm_ffi

    defaults = defaults or {}
    out: dict[str, RecordSummary] = {}
    hashes: dict[Any, str] = {}  # records of one workload share its object
    for record in database.get_all_tuning_records():
        workload = record.workload
        if workload not in hashes:
            hashes[workload] = str(tvm_ffi.structural_hash(workload.mod))
        shash = hashes[workload]
        secs = [float(s) for s in record.run_secs] if record.run_secs else []
        mean_us = sum(secs) / len(secs) * 1e6 if secs else None
        arch = str(record.target.attrs.get("arch", "")) if record.target is not None else ""
        summary = out.setdefault(shash, RecordSummary(0, None, arch))
        default = defaults.get(shash)
        if (
            summary.default_us is None
            and default is not None
            and mean_us is not None
            and math.isclose(mean_us, default, rel_tol=1e-6)
        ):
            summary.default_us = mean_us
            continue
        summary.trials += 1
        # MetaSchedule files a candidate that failed as 1e10 s
        if (
            mean_us is not None
            and mean_us < 1e9
            and (summary.best_us is None or mean_us < summary.best_us)
        ):
            summary.best_us = mean_us
    return out


def check_tvm(folder: Path, meta: dict[str, Any], tvm_version: str, hint: str) -> None:
    """Refuse the records in ``folder`` when their notes (``meta``) say another TVM version
    tuned them than ``tvm_version``."""
    other = meta.get("tvm")
    if other and other != tvm_version:
        raise KernelscopeError(
            f"{folder}: these records were tuned with TVM {other}; this is TVM {tvm_version}",
            hint=hint,
        )


def check_compatible(folder: Path, database: Any, arch: str, tvm_version: str) -> None:
    """Refuse a database tuned for the CPU, another GPU architecture or another TVM version."""
    check_tvm(
        folder,
        read_meta(folder),
        tvm_version,
        "records do not carry over between TVM versions: tune again with this one",
    )
    targets = [r.target for r in database.get_all_tuning_records() if r.target is not None]
    kinds = {str(t.kind.name) for t in targets}
    if kinds and "cuda" not in kinds:  # the same fused functions, but no CUDA schedules
        raise KernelscopeError(
            f"{folder}: these records were tuned for {', '.join(sorted(kinds))} "
            f"(not a GPU); this build is for CUDA {arch}",
            hint=f"tune for the GPU (kernelscope tune without --target cpu) for {arch}",
        )
    archs = {a for t in targets if (a := str(t.attrs.get("arch", "")))}
    if archs and arch not in archs:
        raise KernelscopeError(
            f"{folder}: these records were tuned for {', '.join(sorted(archs))}; "
            f"this build is for {arch}",
            hint=f"build with --arch {sorted(archs)[0]}, or tune for {arch}",
        )
