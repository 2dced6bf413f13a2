"""The build pipeline: model -> TVM -> split per-kernel sources -> cubin with line info ->
SASS with its line table -> a workspace folder (see workspace.py for the layout).

Two caches make rebuilding cheap: the whole workspace by a key over the model's bytes, the
options and the tool versions (a hit skips TVM entirely), and the cubin by a key over the
CUDA sources, flags and nvcc version. nvcc compiles inside that content-addressed cubin
folder, so the line table of every cubin names files that stay where it says they are.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import importlib.metadata
import json
import platform
import re
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from ..errors import Cancelled, KernelscopeError
from ..paths import cache_root
from ..toolchain import find_tool, local_gpu_arch, nvcc
from ..workspace import (
    MANIFEST,
    SASS,
    KernelInfo,
    KernelSass,
    Manifest,
    Workspace,
    check_target_folder,
    staged_workspace,
    write_sass,
)
from . import tvm_ir as irfacts
from .model_loader import LoadedModel, file_sha256, load_model, model_format
from .nvdisasm import parse_nvdisasm
from .split_cuda import KERNEL_DIR, PRELUDE_NAME, SplitModule, split_module

ProgressFn = Callable[[str, float | None, str], None]
_ARCH_RE = re.compile(r"^sm_\d{2,3}[af]?$")
_COMPILED_MARK = ".complete"


class CancelToken(Protocol):
    def is_set(self) -> bool: ...


@dataclass
class BuildRequest:
    model: Path
    output: Path
    arch: str | None = None  # None: the local GPU's, else sm_90
    shapes: dict[str, list[int]] = field(default_factory=dict)
    params: str = "random"  # "random": missing weights get seeded values; "runtime": they don't
    seed: int = 0
    use_cache: bool = True


def default_arch() -> str:
    return local_gpu_arch() or "sm_90"


def build_model(
    request: BuildRequest,
    progress: ProgressFn | None = None,
    cancel: CancelToken | None = None,
) -> Workspace:
    """Build ``request.model`` into the workspace ``request.output`` and open it."""
    report = progress or (lambda step, fraction, message: None)
    token = cancel or threading.Event()
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
    model_sha = file_sha256(model_path)
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
    )
    cached = cache_root() / "builds" / key

    with staged_workspace(output) as stage:
        started = time.perf_counter()
        if request.use_cache and (cached / MANIFEST).is_file():
            report("cache", 0.5, "model unchanged since an earlier build: reusing it")
            shutil.copytree(cached, stage, dirs_exist_ok=True, ignore=_ignore_profiles)
            manifest = Manifest.from_json((stage / MANIFEST).read_text(encoding="utf-8"))
            manifest.timings["restore_from_cache"] = time.perf_counter() - started
            (stage / MANIFEST).write_text(manifest.to_json(), encoding="utf-8")
        else:
            manifest = _build_into(
                stage,
                model_path,
                fmt,
                model_sha,
                request,
                arch,
                versions,
                flags,
                key,
                report,
                token.is_set,
            )
            if request.use_cache:
                _store(stage, cached)
        if token.is_set():  # the last moment a Cancel keeps the previous workspace
            raise Cancelled("build")
        report("done", 1.0, f"{len(manifest.kernels)} kernels in {output}")
    return Workspace.open(output)


def _ignore_profiles(folder: str, names: list[str]) -> list[str]:
    return ["profiles"] if "profiles" in names and Path(folder, MANIFEST).exists() else []


def _digest(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:32]


def _store(stage: Path, cached: Path) -> None:
    """Copy a finished build into the cache; a concurrent identical build may win the race."""
    if cached.exists():
        return
    cached.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".tmp-", dir=cached.parent))
    shutil.copytree(stage, tmp / "ws")
    with contextlib.suppress(OSError):  # another process stored the same build first
        (tmp / "ws").rename(cached)
    shutil.rmtree(tmp, ignore_errors=True)


def _build_into(
    stage: Path,
    model_path: Path,
    fmt: str,
    model_sha: str,
    request: BuildRequest,
    arch: str,
    versions: dict[str, str],
    flags: list[str],
    key: str,
    report: ProgressFn,
    cancelled: Callable[[], bool],
) -> Manifest:
    timings: dict[str, float] = {}

    def timed(step: str, fraction: float, message: str) -> _Timer:
        if cancelled():
            raise Cancelled("build")
        report(step, fraction, message)
        return _Timer(timings, step)

    with timed("load", 0.02, f"loading {model_path.name}"):
        model = load_model(model_path, request.shapes, request.params, request.seed)
    with timed("tvm", 0.1, f"tvm.compile for {arch}"):
        executable, facts = _tvm_compile(model, arch)
    # TVM links the model library with g++ on one core while nvcc uses the others.
    export = _Background(lambda: _export_library(executable, stage / "model.so"))
    if model.weight_values:
        np.savez(stage / "params.npz", **model.weight_values)
    try:
        with timed("split", 0.5, "splitting the CUDA source into per-kernel files"):
            split = split_module(_cuda_source(executable))
        compile_dir = (
            cache_root()
            / "cubin"
            / _digest(
                split.unit_file(),
                split.prelude_file(),
                [split.kernel_file(k) for k in split.kernels],
                flags,
                versions["nvcc"],
            )
        )
        with timed("nvcc", 0.55, f"nvcc: {len(split.kernels)} kernels with -lineinfo"):
            log = _compile_cached(compile_dir, split, flags, request.use_cache, cancelled)
        with timed("disassemble", 0.9, "nvdisasm: SASS and its line table"):
            shutil.copytree(compile_dir / "src", stage / "src")
            shutil.copy2(compile_dir / "module.cubin", stage / "module.cubin")
            cubin = stage / "module.cubin"
            sass = _relative_paths(
                parse_nvdisasm(
                    nvcc.run_tool(
                        [str(find_tool("nvdisasm").require()), "-c", "-g", "-gi", str(cubin)],
                        stage,
                        "nvdisasm",
                    )
                ),
                compile_dir,
            )
            write_sass(stage / SASS, sass)
            usage = nvcc.resources(
                nvcc.run_tool(
                    [str(find_tool("cuobjdump").require()), "--dump-resource-usage", str(cubin)],
                    stage,
                    "cuobjdump",
                ),
                log,
            )
            (stage / "build.log").write_text(log, encoding="utf-8")
    finally:
        export.thread.join()  # never leave g++ writing into a folder being removed
    with timed("export", 0.95, "waiting for the model library"):
        export.join()

    kernels = []
    for k in split.kernels:
        launch = facts.launches.get(k.name)
        res = usage.get(k.name)
        primfunc = launch.primfunc if launch else ""
        kernels.append(
            KernelInfo(
                name=k.name,
                file=f"src/{KERNEL_DIR}/{k.file_name}",
                primfunc=primfunc,
                grid=launch.grid if launch else [0, 0, 0],
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
            )
        )
    manifest = Manifest(
        model=model_path.name,
        model_sha256=model_sha,
        model_format=fmt,
        entry=model.entry,
        target={"kind": "cuda", "arch": arch},
        inputs=model.inputs,
        weights=model.weights,
        params_mode=model.params_mode,
        params_seed=request.seed if model.params_mode == "random" else None,
        versions=versions,
        nvcc_flags=flags,
        cache_key=key,
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
    )
    (stage / MANIFEST).write_text(manifest.to_json(), encoding="utf-8")
    return manifest


class _Background:
    """Run ``work`` in a thread; ``join`` re-raises what it raised."""

    def __init__(self, work: Callable[[], None]) -> None:
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, args=(work,), daemon=True)
        self.thread.start()

    def _run(self, work: Callable[[], None]) -> None:
        try:
            work()
        except BaseException as exc:  # handed to the joining thread
            self.error = exc

    def join(self) -> None:
        self.thread.join()
        if self.error is not None:
            raise self.error


class _Timer:
    def __init__(self, timings: dict[str, float], step: str) -> None:
        self.timings, self.step = timings, step

    def __enter__(self) -> None:
        self.start = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        self.timings[self.step] = round(time.perf_counter() - self.start, 3)


def _count(ks: KernelSass | None) -> int:
    return sum(1 for i in ks.instructions if i.opcode != "NOP") if ks else 0


def _tvm_compile(model: LoadedModel, arch: str) -> tuple[Any, irfacts.IRFacts]:
    import tvm

    snapshots: dict[str, Any] = {}
    target = tvm.target.Target({"kind": "cuda", "arch": arch})
    with _interrupt_flag() as interrupted:
        try:
            with tvm.transform.PassContext(instruments=[irfacts.make_instrument(snapshots)]):
                executable = tvm.compile(model.mod, target=target)
        except Exception as exc:
            if interrupted:  # TVM's FFI turns Ctrl-C inside a pass into a RuntimeError
                raise KeyboardInterrupt from exc
            lines = [ln for ln in str(exc).strip().splitlines() if ln.strip()]
            raise KernelscopeError(
                f"TVM could not compile the model: {lines[-1] if lines else type(exc).__name__}",
                details=str(exc),
            ) from exc
    return executable, irfacts.extract(snapshots)


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


def _cuda_source(executable: Any) -> str:
    pending = list(executable.mod.imports)
    while pending:
        module = pending.pop(0)
        kind = getattr(module, "kind", None) or getattr(module, "type_key", "")
        if "cuda" in str(kind):
            return str(module.inspect_source("cuda"))
        pending.extend(module.imports)
    raise KernelscopeError("TVM's build holds no CUDA module: nothing to run on the GPU")


def _export_library(executable: Any, path: Path) -> None:
    try:
        executable.export_library(str(path))
    except Exception as exc:
        raise KernelscopeError(
            "exporting the model library failed (TVM needs a C++ compiler, g++, for this)",
            hint="install one with: apt-get install g++",
            details=str(exc),
        ) from exc


def _compile_cached(
    compile_dir: Path,
    split: SplitModule,
    flags: list[str],
    use_cache: bool,
    cancelled: Callable[[], bool],
) -> str:
    """Compile in the content-addressed folder unless a finished cubin is already there."""
    compile_dir.mkdir(parents=True, exist_ok=True)
    with (compile_dir.parent / f"{compile_dir.name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = compile_dir / _COMPILED_MARK
        if use_cache and done.is_file():
            return (compile_dir / "build.log").read_text(encoding="utf-8")
        done.unlink(missing_ok=True)
        src = compile_dir / "src"
        (src / KERNEL_DIR).mkdir(parents=True, exist_ok=True)
        (src / PRELUDE_NAME).write_text(split.prelude_file(), encoding="utf-8")
        (src / "module.cu").write_text(split.unit_file(), encoding="utf-8")
        (src / "tvm_kernels.cu").write_text(split.source, encoding="utf-8")
        for k in split.kernels:
            (src / KERNEL_DIR / k.file_name).write_text(split.kernel_file(k), encoding="utf-8")
        nvcc_path = find_tool("nvcc").require()
        log, _ = nvcc.compile_unit(
            nvcc_path,
            src / "module.cu",
            compile_dir / "module.cubin",
            flags,
            cancelled=cancelled,
        )
        (compile_dir / "build.log").write_text(log, encoding="utf-8")
        done.write_text("ok", encoding="utf-8")
        return log


def _relative_paths(kernels: dict[str, KernelSass], compile_dir: Path) -> dict[str, KernelSass]:
    """Name the workspace's own files relative to it (``src/kernels/x.cu``); headers stay."""
    prefix = str(compile_dir.resolve()) + "/"

    def fix(path: str | None) -> str | None:
        if path is None:
            return None
        clean = path.replace("/./", "/")
        return clean[len(prefix) :] if clean.startswith(prefix) else clean

    for ks in kernels.values():
        for insn in ks.instructions:
            insn.file = fix(insn.file)
            insn.inlined_at = [(fix(f) or f, n) for f, n in insn.inlined_at]
    return kernels
