"""The build pipeline: model -> TVM -> split per-kernel sources -> cubin with line info ->
SASS with its line table -> a workspace folder (see workspace.py for the layout).

Two caches make rebuilding cheap: the whole workspace by a key over the model's bytes, the
options and the tool versions (a hit skips TVM entirely), and the cubin by a key over the
CUDA sources, flags and nvcc version. nvcc compiles inside that content-addressed cubin
folder, so the line table of every cubin names files that stay where it says they are.

``build_in_child`` is the build a long-lived process (the window, the CLI) runs: TVM is C++
that can crash on a model it mishandles, so everything that calls into it runs in a child
process (``python -m kernelscope.core.build``), which fills a staging folder the parent
made. The parent swaps that folder in only when the child reported success, so a crash, a
kill or a Cancel leaves the previous workspace as it was; a crash is reported with the step
it happened in, the signal and the child's log (kept under the cache's ``logs/``).
``build_model`` runs the same build in the calling process (scripts, tests, the child).

What runs at once: TVM's ``export_library`` (g++) links while nvcc compiles; a big unit is
compiled in parts, one nvcc process per core, joined into one cubin by ptxas
(``nvcc.compile_parts``); nvdisasm and cuobjdump read the cubin together. A window can
start a ``BuildChild`` before the user asks for the build (it imports TVM, ~1.5 s, and
waits), so that the import is over by then. An unchanged model is not hashed again (its
digest is kept by its stat, ``paths.memo_by_stat``).
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import importlib.metadata
import json
import logging
import os
import platform
import re
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from ..errors import Cancelled, KernelscopeError
from ..paths import cache_root, file_sha256, model_sha256
from ..process import ChildChannel, ChildCrashed, ChildFailed, StartedChild
from ..tasks import Cancel, ProgressFn, check_cancel, no_progress
from ..toolchain import find_tool, local_gpu_arch, nvcc
from ..workspace import (
    MANIFEST,
    NEVER_LAUNCHES,
    PTX,
    SASS,
    FunctionInfo,
    KernelInfo,
    KernelSass,
    LaunchSite,
    Manifest,
    OtherModelError,
    TunedFrom,
    Workspace,
    check_target_folder,
    other_model_in,
    staged_workspace,
    write_sass,
)
from . import cuda_graph, kv_cache_launches, records, relax_functions, relax_pipelines
from . import tvm_ir as irfacts
from .cuda_source import cuda_source
from .model_loader import LoadedModel, load_model, model_format
from .nvdisasm import parse_nvdisasm
from .provenance import Provenance
from .ptx_files import store_ptx
from .split_cuda import KERNEL_DIR, PART_UNIT, PRELUDE_NAME, SplitModule, split_module

logger = logging.getLogger(__name__)

_ARCH_RE = re.compile(r"^sm_\d{2,3}[af]?$")
_COMPILED_MARK = ".complete"
_KEPT_LOGS = 20  # logs of failed builds kept under <cache>/logs
# Marks a step of the build, so that a crash in a child names it: (name, tool) -> context.
StepFn = Callable[[str, bool], AbstractContextManager[None]]


@dataclass
class BuildRequest:
    model: Path
    output: Path
    arch: str | None = None  # None: the local GPU's, else sm_90
    shapes: dict[str, list[int]] = field(default_factory=dict)
    params: str = "random"  # "random": missing weights get seeded values; "runtime": they don't
    seed: int = 0
    use_cache: bool = True
    # Replace a workspace that holds another model's build (``--force``); without it such
    # a build is refused with ``OtherModelError``.
    replace_other_model: bool = False
    tuning_db: Path | None = None  # a MetaSchedule database to build from (compile_relax's way)
    pipeline: str = ""  # relax_pipelines.PIPELINES; "": the model's default
    # Relax's RewriteCUDAGraph (``relax.backend.use_cuda_graph``): the functions' static
    # regions run as CUDA graphs, captured on their first call and replayed after
    cuda_graph: bool = False


@dataclass(frozen=True)
class BuildPlan:
    """What is decided before TVM runs (no TVM needed): the checked request, the tools, their
    versions and the cache key. A build child gets it as JSON."""

    model: Path  # resolved
    output: Path  # resolved
    format: str
    model_sha256: str
    arch: str
    shapes: dict[str, list[int]]
    params: str
    seed: int
    use_cache: bool
    tools: dict[str, str]  # nvcc, nvdisasm, cuobjdump -> path
    versions: dict[str, str]
    flags: list[str]
    key: str
    cache: Path  # the cache folder (builds/, cubin/, logs/)
    replaces_other_model: bool = False  # the output holds another model's build: replace it
    tuning_db: str = ""  # the database folder ("": none); its files' digest is in the key
    pipeline: str = ""  # as asked ("": the model's default, decided once the model is read)
    cuda_graph: bool = False

    @property
    def cached(self) -> Path:
        return self.cache / "builds" / self.key

    def to_json(self) -> str:
        return json.dumps(asdict(self), default=str)

    @classmethod
    def from_json(cls, text: str) -> BuildPlan:
        data = json.loads(text)
        for name in ("model", "output", "cache"):
            data[name] = Path(data[name])
        return cls(**data)


def default_workspace(model: Path) -> Path:
    """Where a model's workspace goes when no folder is given: ``MODEL.kscope`` beside it."""
    return model.with_suffix(".kscope")


def default_arch() -> str:
    return local_gpu_arch() or "sm_90"


def plan_build(request: BuildRequest) -> BuildPlan:
    """Check the request and find the tools; raise what is wrong before anything runs."""
    arch = request.arch or default_arch()
    if not _ARCH_RE.match(arch):
        raise KernelscopeError(f"--arch {arch!r} is not a CUDA architecture like sm_90")
    model_path = request.model.expanduser().resolve()
    if not model_path.is_file():
        raise KernelscopeError(f"{request.model}: no such file")
    fmt = model_format(model_path)
    output = request.output.expanduser().resolve()
    check_target_folder(output)
    tools = {name: find_tool(name) for name in ("nvcc", "nvdisasm", "cuobjdump")}
    for tool in tools.values():
        tool.require()
    versions = {
        "tvm": importlib.metadata.version("apache-tvm"),
        "kernelscope": importlib.metadata.version("kernelscope"),
        "python": platform.python_version(),
        **{name: tool.version or "unknown" for name, tool in tools.items()},
    }
    flags = nvcc.kernelscope_flags(arch)
    relax_pipelines.check_pipeline(request.pipeline)
    # an unchanged model (by its stat) is not hashed again: ~0.3 s for ResNet-50's weights
    model_sha = model_sha256(model_path)
    held = other_model_in(output, model_path.name, model_sha)
    if held is not None and not request.replace_other_model:
        raise OtherModelError(
            f"{output} holds the build of another model ({held}), not of {model_path.name}; "
            "refusing to replace it",
            hint="choose another workspace folder with -o, or pass --force to replace that "
            "build (its profiles go with it)",
            held=held,
        )
    tuning_db = ""
    tuning_digest = ""
    if request.tuning_db is not None:
        folder = request.tuning_db.expanduser().resolve()
        if not (folder / records.WORKLOADS).is_file():
            raise KernelscopeError(
                f"{request.tuning_db}: not a tuning database (no {records.WORKLOADS} in it)",
                hint="give --tuning-db the folder `kernelscope tune` or TVM's tune_relax wrote "
                "(its work_dir)",
                window_hint="choose as tuning records the folder Tune… (kernelscope tune) or "
                "TVM's tune_relax wrote (its work_dir)",
            )
        tuning_db = str(folder)
        tuning_digest = _digest(
            *(
                file_sha256(folder / name) if (folder / name).is_file() else ""
                for name in (records.WORKLOADS, records.RECORDS, records.META)
            )
        )
    key = _digest(
        model_sha,
        fmt,
        request.shapes,
        request.params,
        request.seed,
        arch,
        versions,
        flags,
        str(tools["nvcc"].path),
        _code_digest(),
        *([tuning_digest] if tuning_digest else []),
        *([request.pipeline] if request.pipeline else []),
        *(["cuda-graph"] if request.cuda_graph else []),
    )
    return BuildPlan(
        model=model_path,
        output=output,
        format=fmt,
        model_sha256=model_sha,
        arch=arch,
        shapes=dict(request.shapes),
        params=request.params,
        seed=request.seed,
        use_cache=request.use_cache,
        tools={name: str(tool.path) for name, tool in tools.items()},
        versions=versions,
        flags=flags,
        key=key,
        cache=cache_root(),
        replaces_other_model=held is not None,
        tuning_db=tuning_db,
        pipeline=request.pipeline,
        cuda_graph=request.cuda_graph,
    )


def build_model(
    request: BuildRequest,
    progress: ProgressFn | None = None,
    cancel: Cancel | None = None,
) -> Workspace:
    """Build ``request.model`` into the workspace ``request.output`` in this process.

    A crash inside TVM takes this process with it: a process that must survive one (the
    window, the CLI) calls ``build_in_child``.
    """
    report = progress or no_progress
    plan = plan_build(request)
    with staged_workspace(plan.output, keep_profiles=not plan.replaces_other_model) as stage:
        manifest = _fill_stage(_Build(plan, stage, report, cancel))
        check_cancel(cancel, "build")  # the last moment a Cancel keeps the previous workspace
        report("done", 1.0, f"{len(manifest.kernels)} kernels in {plan.output}")
    return Workspace.open(plan.output)


def build_in_child(
    request: BuildRequest,
    progress: ProgressFn | None = None,
    cancel: Cancel | None = None,
    child: BuildChild | None = None,
) -> Workspace:
    """Build like ``build_model``, with every call into TVM in a child process.

    ``progress`` gets the calls ``build_model`` makes; ``cancel`` stops the child and every
    program it started. A crash of the child (a segfault in ``tvm.compile``...) raises a
    ``KernelscopeError`` naming the step, the signal, the model and the kept log; whatever
    happens, the previous workspace stays as it was unless the build succeeded. ``child``:
    one started earlier with the same ``cancel`` (``BuildChild.start``, which has imported
    TVM by now); else one is started once the build is known not to be in the cache.
    """
    report = progress or no_progress
    try:
        plan = plan_build(request)
        with staged_workspace(plan.output, keep_profiles=not plan.replaces_other_model) as stage:
            if plan.use_cache and (plan.cached / MANIFEST).is_file():
                manifest = _restore(plan, stage, report)  # no TVM: no child needed
            else:
                child = child or BuildChild.start(cancel)
                manifest = child.build(plan, stage, report)
            check_cancel(cancel, "build")
            report("done", 1.0, f"{len(manifest.kernels)} kernels in {plan.output}")
    finally:
        if child is not None:
            child.close()
    return Workspace.open(plan.output)


class BuildChild:
    """A build child started ahead of its work (``process.StartedChild``): it imports TVM,
    then waits for a plan on its stdin (``python -m kernelscope.core.build -``). ``build``
    hands it one and waits for the build; ``close`` stops it unused. One build each."""

    def __init__(self, cancel: Cancel | None) -> None:
        logs = cache_root() / "logs"
        _prune_logs(logs)
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        self.log_file = logs / f"build-{stamp}-{os.getpid()}-{id(self):x}.log"
        self._child = StartedChild(
            "kernelscope.core.build", ["-"], "building", cancel=cancel, log_file=self.log_file
        )

    @classmethod
    def start(cls, cancel: Cancel | None = None) -> BuildChild:
        """Start a child now; ``cancel`` stops it (and the build it is given)."""
        return cls(cancel)

    def build(self, plan: BuildPlan, stage: Path, report: ProgressFn) -> Manifest:
        """Build ``plan`` into ``stage``; the child's progress goes to ``report``."""
        what = f"building {plan.model.name}"  # the child was started before the model was known
        try:
            self._child.request({"plan": plan.to_json(), "stage": str(stage)}, report)
        except Cancelled as error:
            raise Cancelled(what) from error
        except ChildCrashed as error:
            crash = error.renamed(what)
            logger.info("%s; log kept in %s", crash.message, self.log_file)  # the error says it
            raise KernelscopeError(
                crash.message,
                hint=f"nothing was changed in {plan.output}; {crash.hint}",
                details=crash.details,
            ) from error
        except BaseException as error:
            if not (isinstance(error, KernelscopeError) and str(self.log_file) in error.hint):
                self.log_file.unlink(missing_ok=True)  # an error told in full: no log kept
            if isinstance(error, ChildFailed):
                raise error.renamed(what) from error
            raise  # the child's own error (its message) or the parent's
        self.log_file.unlink(missing_ok=True)  # kept only for a build that crashed
        return Manifest.from_json((stage / MANIFEST).read_text(encoding="utf-8"))

    def close(self) -> None:
        """Stop a child that got no work (it may still be importing TVM) and wait for it."""
        if self._child.close():
            self.log_file.unlink(missing_ok=True)


def _prune_logs(logs: Path) -> None:
    old = sorted(logs.glob("build-*.log"), key=lambda p: p.stat().st_mtime)[:-_KEPT_LOGS]
    for path in old:
        path.unlink(missing_ok=True)


def child_build(channel: ChildChannel, plan_json: str, stage: str) -> dict[str, Any]:
    """The build child's work (``python -m kernelscope.core.build PLAN STAGE``)."""
    plan = BuildPlan.from_json(plan_json)
    logger.info("building %s for %s into %s", plan.model, plan.arch, stage)
    manifest = _fill_stage(_Build(plan, Path(stage), channel.progress, None, channel.step))
    return {"kernels": len(manifest.kernels)}


def child_build_from_stdin(channel: ChildChannel) -> dict[str, Any]:
    """A ``BuildChild``'s work (``python -m kernelscope.core.build -``): import TVM while the
    parent plans, then build what it sends on stdin (nothing, when it closes stdin)."""
    with channel.step("import tvm"):
        import tvm  # noqa: F401  (the import is what a child started early gets over with)
    line = sys.stdin.readline()
    if not line.strip():
        return {"kernels": 0}
    work = json.loads(line)
    return child_build(channel, work["plan"], work["stage"])


@contextlib.contextmanager
def _no_step(name: str, tool: bool = False) -> Iterator[None]:
    yield


@dataclass
class _Build:
    """One build in progress: what it builds, where, and whom it tells."""

    plan: BuildPlan
    stage: Path
    report: ProgressFn
    cancel: Cancel | None
    step: StepFn = _no_step
    timings: dict[str, float] = field(default_factory=dict)

    def timed(self, step: str, fraction: float, message: str) -> _Timer:
        """Check for Cancel, report the step, and time it into the manifest."""
        check_cancel(self.cancel, "build")
        self.report(step, fraction, message)
        return _Timer(self.timings, step)


def _fill_stage(build: _Build) -> Manifest:
    """Fill the staging folder from the cache or by building (and then cache it)."""
    plan = build.plan
    if plan.use_cache and (plan.cached / MANIFEST).is_file():
        return _restore(plan, build.stage, build.report)
    manifest = _build_into(build)
    if plan.use_cache:
        _store(build.stage, plan.cached)
    return manifest


def _restore(plan: BuildPlan, stage: Path, report: ProgressFn) -> Manifest:
    logger.info("%s: unchanged, restoring build %s from the cache", plan.model.name, plan.key)
    started = time.perf_counter()
    report("cache", 0.5, "model unchanged since an earlier build: reusing it")
    shutil.copytree(plan.cached, stage, dirs_exist_ok=True, ignore=_ignore_profiles)
    manifest = Manifest.from_json((stage / MANIFEST).read_text(encoding="utf-8"))
    # the same contents, maybe under another name or in another folder than the cached build's
    manifest.model, manifest.model_path = plan.model.name, str(plan.model)
    manifest.tuning_db = plan.tuning_db  # same records (their digest is in the key), this folder
    manifest.timings["restore_from_cache"] = time.perf_counter() - started
    (stage / MANIFEST).write_text(manifest.to_json(), encoding="utf-8")
    return manifest


def _ignore_profiles(folder: str, names: list[str]) -> list[str]:
    return ["profiles"] if "profiles" in names and Path(folder, MANIFEST).exists() else []


@functools.cache
def _code_digest() -> str:
    """Part of the build's cache key: the code that makes a build and writes its manifest (this
    package and the workspace's), so that a build cached by other code (another kernelscope,
    a changed checkout) is made again rather than restored without what this code records."""
    from .. import workspace

    here = Path(__file__).parent
    files = sorted(here.glob("*.py")) + sorted(Path(workspace.__file__).parent.glob("*.py"))
    return _digest(*(file_sha256(f) for f in files))


def _digest(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:32]


def _store(stage: Path, cached: Path) -> None:
    """Copy a finished build into the cache; a concurrent identical build may win the race."""
    if cached.exists():
        return
    cached.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".tmp-", dir=cached.parent))
    try:
        shutil.copytree(stage, tmp / "ws")
        with contextlib.suppress(OSError):  # another process stored the same build first
            (tmp / "ws").rename(cached)
    finally:  # also when a Cancel interrupts the copy
        shutil.rmtree(tmp, ignore_errors=True)


def _build_into(build: _Build) -> Manifest:
    plan, stage, step = build.plan, build.stage, build.step
    # Each step is marked before its progress is reported: whoever sees the progress knows
    # which step a crash right after it happened in.
    with step("load_model", False), build.timed("load", 0.02, f"loading {plan.model.name}"):
        model = load_model(plan.model, plan.shapes, plan.params, plan.seed)
    pipeline = relax_pipelines.resolve(plan.pipeline, model.format, irfacts.builtins_in(model.mod))
    kv_target = irfacts.kv_cache_target(model.mod)
    _check_kv_target(kv_target, plan)
    with step("tvm.compile", False), build.timed("tvm", 0.1, f"tvm.compile for {plan.arch}"):
        mod = relax_pipelines.prepare(model.mod, pipeline)
        functions = _built_functions(mod, model)
        if plan.cuda_graph:
            mod = cuda_graph.attach_hints(mod, functions, model.symbols)
        executable, facts, tuned = _tvm_compile(mod, plan, model.provenance)
    # TVM links the model library with g++ on one core while nvcc uses the others.
    export = _Background(
        lambda: _export_library(executable, stage / "model.so"), step, "export_library", False
    )
    if model.weight_values:
        # (Any: numpy's stubs would match the arrays against savez's own allow_pickle flag)
        import numpy as np

        weights: dict[str, Any] = model.weight_values
        np.savez(stage / "params.npz", **weights)
    try:
        with build.timed("split", 0.5, "splitting the CUDA source into per-kernel files"):
            with step("inspect_source", False):
                source = cuda_source(executable)
            split = split_module(source)
        compile_dir = (
            plan.cache
            / "cubin"
            / _digest(
                split.unit_file(),
                split.prelude_file(),
                [split.kernel_file(k) for k in split.kernels],
                plan.flags,
                plan.versions["nvcc"],
            )
        )
        nvcc_message = f"nvcc: {len(split.kernels)} kernels with -lineinfo"
        with step("nvcc", True), build.timed("nvcc", 0.55, nvcc_message):
            ptxas_log = _compile_cached(compile_dir, split, build)
        with build.timed("disassemble", 0.9, "nvdisasm: SASS and its line table"):
            parts = shutil.ignore_patterns(PART_UNIT.format("*"))  # the compile's, not the user's
            shutil.copytree(compile_dir / "src", stage / "src", ignore=parts)
            shutil.copy2(compile_dir / "module.cubin", stage / "module.cubin")
            cubin = stage / "module.cubin"
            # cuobjdump reads the cubin while nvdisasm does (each uses one core)
            resources = _Background(
                lambda: nvcc.run_tool(
                    [plan.tools["cuobjdump"], "--dump-resource-usage", str(cubin)],
                    stage,
                    "cuobjdump",
                    build.cancel,
                ),
                step,
                "cuobjdump",
            )
            try:
                with step("nvdisasm", True):
                    disassembly = nvcc.run_tool(
                        [plan.tools["nvdisasm"], "-c", "-g", "-gi", "-gp", str(cubin)],
                        stage,
                        "nvdisasm",
                        build.cancel,
                    )
                sass = _relative_paths(parse_nvdisasm(disassembly), compile_dir)
                write_sass(stage / SASS, sass)
                ptx_files = store_ptx(compile_dir, stage, disassembly, _relative_to(compile_dir))
            finally:
                resource_usage = resources.join()
            usage = nvcc.resources(resource_usage, ptxas_log)
            (stage / "build.log").write_text(ptxas_log, encoding="utf-8")
    finally:
        export.thread.join()  # never leave g++ writing into a folder being removed
    with build.timed("export", 0.95, "waiting for the model library"):
        export.join()
    manifest = _manifest(plan, model, split, facts, usage, sass, build.timings, tuned)
    _add_functions(manifest, functions, facts, model.symbols)
    if plan.cuda_graph:
        _add_graph_calls(manifest.functions, facts)
    manifest.pipeline, manifest.kv_cache_target = pipeline, kv_target
    manifest.cuda_graph = plan.cuda_graph
    manifest.files.update(ptx_files)
    (stage / MANIFEST).write_text(manifest.to_json(), encoding="utf-8")
    logger.info("%s: %d kernels, steps %s", plan.model.name, len(split.kernels), build.timings)
    return manifest


def _manifest(
    plan: BuildPlan,
    model: LoadedModel,
    split: SplitModule,
    facts: irfacts.IRFacts,
    usage: dict[str, nvcc.Resources],
    sass: dict[str, KernelSass],
    timings: dict[str, float],
    tuned: dict[str, TunedFrom],
) -> Manifest:
    kernels = []
    for k in split.kernels:
        launch = facts.launches.get(k.name)
        res = usage.get(k.name)
        primfunc = launch.primfunc if launch else ""
        sizes = [v for (_, prim), v in facts.sizes.items() if prim == primfunc]
        grid, grid_expr = irfacts.grid_for(launch, sizes, model.symbols) if launch else ([], [])
        kernels.append(
            KernelInfo(
                name=k.name,
                file=f"src/{KERNEL_DIR}/{k.file_name}",
                primfunc=primfunc,
                grid=grid or [0, 0, 0],
                grid_expr=grid_expr,
                block=launch.block if launch else [0, 0, 0],
                dynamic_smem_bytes=launch.dynamic_smem_bytes if launch else 0,
                params=launch.params if launch else [],
                ops=facts.ops_by_primfunc.get(primfunc, []),
                source_lines=split.kernel_file(k).count("\n"),
                registers=res.registers if res else None,
                static_smem_bytes=res.static_smem_bytes if res else None,
                local_bytes=res.local_bytes if res else None,
                sass_instructions=_count(sass.get(k.name)),
                launched=launch is not None
                and (facts.called_primfuncs is None or primfunc in facts.called_primfuncs),
                tuned=tuned.get(primfunc),
            )
        )
    return Manifest(
        model=plan.model.name,
        model_path=str(plan.model),
        model_sha256=plan.model_sha256,
        model_format=plan.format,
        entry=model.entry,
        target={"kind": "cuda", "arch": plan.arch},
        inputs=model.inputs,
        weights=model.weights,
        params_mode=model.params_mode,
        params_seed=plan.seed if model.params_mode == "random" else None,
        versions=plan.versions,
        nvcc_flags=plan.flags,
        cache_key=plan.key,
        timings=timings,
        kernels=kernels,
        files={
            "cubin": "module.cubin",
            "library": "model.so",
            "tvm_source": "src/tvm_kernels.cu",
            "prelude": f"src/{PRELUDE_NAME}",
            "unit": "src/module.cu",
            "sass": SASS,
            "log": "build.log",
            **({"params": "params.npz"} if model.weight_values else {}),
        },
        notes=model.notes,
        calls=facts.calls.get(model.entry, []),
        tuning_db=plan.tuning_db,
        symbols=model.symbols,
        weights_on_host=model.weights_on_host,
    )


def _built_functions(mod: Any, model: LoadedModel) -> list[FunctionInfo]:
    """The Relax functions of the module the build compiles (after the pipeline's own
    passes): those LiftTransformParams added are marked."""
    loaded = {f.name for f in model.functions}
    functions = relax_functions.signatures(mod)
    for f in functions:
        f.transforms_params = f.name not in loaded and f.name.endswith(
            relax_pipelines.LIFTED_SUFFIX
        )
    return functions


def _add_functions(
    manifest: Manifest,
    functions: list[FunctionInfo],
    facts: irfacts.IRFacts,
    symbols: dict[str, int],
) -> None:
    """Record the module's functions and, per kernel, who launches it: ``call_tir`` sites,
    and the KV cache's kernels the runtime launches for its builtins (``kv_cache_launches``).
    A kernel is launched iff something launches it."""
    roles: dict[str, str] = {}
    for creation in facts.kv_cache.values():
        roles.update(creation)
    sites: dict[str, list[LaunchSite]] = {}
    for f in functions:
        f.calls = facts.calls.get(f.name, [])
        f.builtins = facts.builtins.get(f.name, [])
        f.creates_kv_cache = f.name in facts.kv_cache
        for prim in dict.fromkeys(f.calls):
            sites.setdefault(prim, []).append(LaunchSite(f.name, "call_tir"))
        shape = kv_cache_launches.call_shape(_tokens_per_sequence(f, symbols))
        for builtin in dict.fromkeys(f.builtins):
            launched = kv_cache_launches.launched_roles(builtin, shape)
            for prim, role in roles.items():
                if role in launched:
                    origin = facts.builtin_origins.get((f.name, builtin))
                    site = LaunchSite(f.name, builtin, role)
                    if origin is not None:
                        site.origin, site.origin_text = origin.where, origin.text
                    sites.setdefault(prim, []).append(site)
    for k in manifest.kernels:
        k.launched_by = sites.get(k.primfunc, [])
        k.launched = bool(k.launched_by) if functions else k.launched
        kv_role = roles.get(k.primfunc)
        if kv_role and not k.launched:
            why = kv_cache_launches.NOT_LAUNCHED.get(kv_role, "no function's call launches it")
            k.about.append(f"a KV cache kernel ({kv_role}) {NEVER_LAUNCHES}: {why}")
    manifest.functions = functions


def _add_graph_calls(functions: list[FunctionInfo], facts: irfacts.IRFacts) -> None:
    """Each function's captured regions and, per ``call_tir`` call, the region it runs in
    (the k-th call of a PrimFunc in ``calls`` is its k-th call after RewriteCUDAGraph)."""
    for f in functions:
        rewritten = facts.graph_calls.get(f.name, [])
        regions: dict[int, list[str]] = {}
        by_prim: dict[str, list[int | None]] = {}
        for prim, region in rewritten:
            by_prim.setdefault(prim, []).append(region)
            if region is not None:
                regions.setdefault(region, []).append(prim)
        f.graphs = [regions[i] for i in sorted(regions)]
        f.call_graphs = [(by_prim[prim].pop(0) if by_prim.get(prim) else None) for prim in f.calls]


def _tokens_per_sequence(func: FunctionInfo, symbols: dict[str, int]) -> int | None:
    """Dim 1 of the function's first tensor input of rank >= 2, where it is known."""
    for p in func.params[: func.num_input]:
        if p.kind == "tensor" and len(p.shape) >= 2:
            dim = p.shape[1]
            return dim if isinstance(dim, int) else symbols.get(dim)
    return None


def _check_kv_target(kv_target: dict[str, Any], plan: BuildPlan) -> None:
    """Refuse a model whose KV cache kernels were made for another target than the build's:
    ``TIRPagedKVCache`` fixes its target when the IRModule is made, not when it is built."""
    kind, arch = kv_target.get("kind"), kv_target.get("arch")
    if kind and kind not in ("cuda", "gpu"):
        raise KernelscopeError(
            f"{plan.model.name}: its KV cache's kernels were made for {kind} (the CPU), "
            f"not for a CUDA GPU; this build is for {plan.arch}",
            hint="make the model with TIRPagedKVCache(..., target=Target({'kind': 'cuda', "
            f"'arch': '{plan.arch}'}})): the KV cache takes its target when the IRModule is made",
        )
    if arch and arch != plan.arch:
        raise KernelscopeError(
            f"{plan.model.name}: its KV cache's kernels were made for {arch}; this build is "
            f"for {plan.arch}",
            hint=f"build with --arch {arch}, or make the model's KV cache for {plan.arch} "
            "(TIRPagedKVCache takes its target when the IRModule is made)",
        )


class _Background:
    """Run ``work`` in a thread as a step of the build; ``join`` returns what it returned or
    raises what it raised."""

    def __init__(self, work: Callable[[], Any], step: StepFn, name: str, tool: bool = True) -> None:
        self.error: BaseException | None = None
        self.value: Any = None
        self.thread = threading.Thread(target=self._run, args=(work, step, name, tool), daemon=True)
        self.thread.start()

    def _run(self, work: Callable[[], Any], step: StepFn, name: str, tool: bool) -> None:
        try:
            with step(name, tool):
                self.value = work()
        except BaseException as exc:  # handed to the joining thread
            self.error = exc

    def join(self) -> Any:
        self.thread.join()
        if self.error is not None:
            raise self.error
        return self.value


class _Timer:
    def __init__(self, timings: dict[str, float], step: str) -> None:
        self.timings, self.step = timings, step

    def __enter__(self) -> None:
        self.start = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        self.timings[self.step] = round(time.perf_counter() - self.start, 3)


def _count(ks: KernelSass | None) -> int:
    return sum(1 for i in ks.instructions if i.opcode != "NOP") if ks else 0


def _tvm_compile(
    mod: Any, plan: BuildPlan, provenance: Provenance | None = None
) -> tuple[Any, irfacts.IRFacts, dict[str, TunedFrom]]:
    """``tvm.compile`` the model, or, with a tuning database, build it as ``compile_relax``
    does; also the launch facts, and the PrimFuncs built from a record."""
    import tvm

    snapshots: dict[str, Any] = {}
    tuned: dict[str, TunedFrom] = {}
    with _interrupt_flag() as interrupted:
        try:
            instruments = [irfacts.make_instrument(snapshots)]
            if plan.tuning_db:
                executable, tuned = _compile_with_records(mod, plan, instruments)
            else:
                target = tvm.target.Target({"kind": "cuda", "arch": plan.arch})
                with tvm.transform.PassContext(
                    instruments=instruments, config=cuda_graph.pass_config(plan.cuda_graph)
                ):
                    executable = tvm.compile(mod, target=target)
        except KernelscopeError:
            raise
        except Exception as exc:
            if interrupted:  # TVM's FFI turns Ctrl-C inside a pass into a RuntimeError
                raise KeyboardInterrupt from exc
            lines = [ln for ln in str(exc).strip().splitlines() if ln.strip()]
            raise KernelscopeError(
                f"TVM could not compile the model: {lines[-1] if lines else type(exc).__name__}",
                details=str(exc),
            ) from exc
    return executable, irfacts.extract(snapshots, provenance), tuned


def _compile_with_records(
    mod: Any, plan: BuildPlan, instruments: list[Any]
) -> tuple[Any, dict[str, TunedFrom]]:
    import tvm

    folder = Path(plan.tuning_db)
    database = records.open_database(folder)
    records.check_compatible(folder, database, plan.arch, plan.versions["tvm"])
    target = records.cuda_target(plan.arch)
    applied = records.Applied()
    pipeline = records.database_pipeline(target, applied)
    config = cuda_graph.pass_config(plan.cuda_graph)
    with (
        target,
        database,
        tvm.transform.PassContext(opt_level=3, instruments=instruments, config=config),
    ):
        executable = tvm.relax.build(mod, target=target, relax_pipeline=pipeline)
    if not applied.from_record:
        raise KernelscopeError(
            f"none of the records in {folder} is for a kernel of {plan.model.name} "
            f"({len(database)} records; the model has {len(applied.primfuncs)} fused kernels)",
            hint="these records were tuned for another model (or other input shapes): tune "
            "this one with `kernelscope tune`, or build without --tuning-db",
            window_hint="these records were tuned for another model (or other input shapes): "
            "tune this one with Tune…, or build it with no tuning records",
        )
    meta = records.read_meta(folder)
    summary = records.summarise(database, records.kept_defaults(meta))
    defaults = meta.get("defaults", {})
    measured_on = records.measured_on(meta)
    tuned = {}
    for name, shash in applied.from_record.items():
        found = summary.get(shash)
        default = defaults.get(shash)
        tuned[name] = TunedFrom(
            trials=found.trials if found else 0,
            best_us=found.best_us if found else None,
            default_us=float(default) if default is not None else None,
            measured_on=measured_on,
            default_kept=found.default_kept if found else False,
        )
    return executable, tuned


@contextlib.contextmanager
def _interrupt_flag() -> Iterator[list[bool]]:
    """Record Ctrl-C (on the main thread) so an error it caused can be told from a real one."""
    seen: list[bool] = []
    if threading.current_thread() is not threading.main_thread():
        yield seen
        return

    def on_sigint(signum: int, frame: object) -> None:
        seen.append(True)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        yield seen
    finally:
        signal.signal(signal.SIGINT, previous)


def _export_library(executable: Any, path: Path) -> None:
    try:
        executable.export_library(str(path))
    except Exception as exc:
        raise KernelscopeError(
            "exporting the model library failed (TVM needs a C++ compiler, g++, for this)",
            hint="install one with: apt-get install g++",
            details=str(exc),
        ) from exc


def _compile_cached(compile_dir: Path, split: SplitModule, build: _Build) -> str:
    """Compile in the content-addressed folder unless a finished cubin (with its PTX: one
    compiled before builds kept PTX is compiled again) is already there."""
    compile_dir.mkdir(parents=True, exist_ok=True)
    with (compile_dir.parent / f"{compile_dir.name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = compile_dir / _COMPILED_MARK
        if build.plan.use_cache and done.is_file() and (compile_dir / PTX).is_file():
            return (compile_dir / "build.log").read_text(encoding="utf-8")
        done.unlink(missing_ok=True)
        src = compile_dir / "src"
        (src / KERNEL_DIR).mkdir(parents=True, exist_ok=True)
        (src / PRELUDE_NAME).write_text(split.prelude_file(), encoding="utf-8")
        (src / "module.cu").write_text(split.unit_file(), encoding="utf-8")
        (src / "tvm_kernels.cu").write_text(split.source, encoding="utf-8")
        for k in split.kernels:
            (src / KERNEL_DIR / k.file_name).write_text(split.kernel_file(k), encoding="utf-8")
        part_units = split.write_part_units(src)
        log, _ = nvcc.compile_parts(
            Path(build.plan.tools["nvcc"]),
            src / "module.cu",
            part_units,
            compile_dir / "module.cubin",
            [*build.plan.flags, *([] if part_units else nvcc.split_compile())],
            cancel=build.cancel,
            ptx=compile_dir / PTX,
        )
        (compile_dir / "build.log").write_text(log, encoding="utf-8")
        done.write_text("ok", encoding="utf-8")
        return log


def _relative_paths(kernels: dict[str, KernelSass], compile_dir: Path) -> dict[str, KernelSass]:
    """Name the workspace's own files relative to it (``src/kernels/x.cu``); headers stay."""
    fix = _relative_to(compile_dir)
    for ks in kernels.values():
        for insn in ks.instructions:
            insn.file = fix(insn.file) if insn.file is not None else None
            insn.inlined_at = [(fix(f), n) for f, n in insn.inlined_at]
    return kernels


def _relative_to(compile_dir: Path) -> Callable[[str], str]:
    """A path the compile in ``compile_dir`` recorded, as the workspace names it."""
    prefix = str(compile_dir.resolve()) + "/"

    def fix(path: str) -> str:
        clean = path.replace("/./", "/")
        return clean[len(prefix) :] if clean.startswith(prefix) else clean

    return fix
