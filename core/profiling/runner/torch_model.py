"""A PyTorch model file under ``torch.compile``: what ``kernelscope profile-torch`` runs under
ncu (``--torch FILE --run-dir DIR``), and its timeline (``--timeline``).

The file follows the Relax-file loader's convention (a Python file whose module-level names
say what to build): it defines ``model``, an ``nn.Module`` or any callable (or exactly one
``nn.Module`` at module level under another name), and ``example_inputs``, a tensor, a tuple
or list of positional arguments, or a function returning one of them. The model and the
tensors go to GPU 0, the model in eval mode, and run without autograd.

Everything Inductor and Triton write lands in the run folder: ``TORCHINDUCTOR_CACHE_DIR``
(``inductor_cache/``, the generated Triton files), ``TRITON_CACHE_DIR`` (``triton_cache/``,
cubins and PTX), ``TORCH_COMPILE_DEBUG=1`` output under ``torch_compile_debug/``, and
``TORCH_TRACE`` logs under ``trace/``, with ``INDUCTOR_PROVENANCE=1`` (the FX nodes each kernel
fuses). The first call compiles (and, in the max-autotune modes, autotunes); then warm-up
calls; only then ``cudaProfilerStart``, the profiled calls and ``cudaProfilerStop``: under
``ncu --profile-from-start off`` only the steady-state calls are profiled.

The timeline is every kernel of ``repeat`` calls as CUPTI records them through
``torch.profiler`` (GPU start and end of each launch, Triton's and the libraries' alike):
Inductor's wrapper launches its kernels itself, so there is no per-call hook to put CUDA
events around as the TVM timeline does. Each kernel's duration is its median over the calls.

Standard library and the host's own PyTorch only, as the rest of the runner.
"""

from __future__ import annotations

import json
import os
import platform
import runpy
import statistics
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .protocol import EXIT_BAD_INPUT, EXIT_COMPILE, EXIT_NO_GPU, EXIT_NO_TORCH, RunnerError

MODES = ("default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs")
# The run folder's description, written by a profiled run; core.inductor's reader of run
# folders takes the versions from it (torch, triton, cuda).
FACTS = "run.json"
FACTS_VERSION = 1
CONVENTION = (
    "define `model` (an nn.Module or callable) and `example_inputs` (a tensor, a tuple of "
    "arguments, or a function returning one) at module level"
)


def compile_environment(run_dir: Path, debug: bool = True) -> dict[str, str]:
    """The variables that put Inductor's and Triton's output into ``run_dir``; ``debug``
    False: their caches alone (a second run of the same model compiles from them and adds
    no debug output beside the first run's)."""
    caches = {
        "TORCHINDUCTOR_CACHE_DIR": str(run_dir / "inductor_cache"),
        "TRITON_CACHE_DIR": str(run_dir / "triton_cache"),
    }
    if not debug:
        return caches
    return {
        **caches,
        "TORCH_COMPILE_DEBUG": "1",
        "TORCH_COMPILE_DEBUG_DIR": str(run_dir),
        "TORCH_TRACE": str(run_dir / "trace"),
        "INDUCTOR_PROVENANCE": "1",
    }


def import_torch() -> Any:
    try:
        import torch
    except ImportError as exc:
        raise RunnerError(
            f"PyTorch is not installed for {sys.executable} ({exc}): install PyTorch with "
            "CUDA for that Python (kernelscope installs none of it), or run the model with "
            "another Python that has it",
            EXIT_NO_TORCH,
        ) from exc
    return torch


def load_model_file(path: Path, is_module: Callable[[Any], bool]) -> tuple[Any, tuple]:
    """The file's model and its example inputs as positional arguments (see the module's
    docstring); ``is_module`` tells an ``nn.Module``. Raises what is missing, by name."""
    if not path.is_file():
        raise RunnerError(f"{path}: no such file", EXIT_BAD_INPUT)
    folder = str(path.parent.absolute())
    if folder not in sys.path:  # its own modules beside it import, as under `python FILE`
        sys.path.insert(0, folder)
    try:
        namespace = runpy.run_path(str(path), run_name="kernelscope_model")
    except Exception as exc:
        traceback.print_exc()
        raise RunnerError(
            f"{path.name}: running the file failed: {type(exc).__name__}: {exc}", EXIT_BAD_INPUT
        ) from exc
    model = namespace.get("model")
    problems = []
    if model is None:
        modules = sorted(k for k, v in namespace.items() if not k.startswith("_") and is_module(v))
        if len(modules) == 1:
            model = namespace[modules[0]]
        elif modules:
            problems.append(
                f"several nn.Modules ({', '.join(modules)}) and no `model` saying which to compile"
            )
        else:
            problems.append("no `model`")
    elif not callable(model):
        problems.append(f"a `model` that is not callable ({type(model).__name__})")
    if "example_inputs" not in namespace:
        problems.append("no `example_inputs`")
    if problems:
        raise RunnerError(
            f"{path.name} defines {' and '.join(problems)}: {CONVENTION}", EXIT_BAD_INPUT
        )
    inputs = namespace["example_inputs"]
    if callable(inputs):
        try:
            inputs = inputs()
        except Exception as exc:
            traceback.print_exc()
            raise RunnerError(
                f"{path.name}: example_inputs() failed: {type(exc).__name__}: {exc}",
                EXIT_BAD_INPUT,
            ) from exc
    return model, tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)


def _first_line(exc: BaseException) -> str:
    """The first line of an exception's message that says something (Dynamo's and Inductor's
    messages run to pages)."""
    for line in str(exc).splitlines():
        if line.strip():
            return f"{type(exc).__name__}: {line.strip()}"
    return type(exc).__name__


class CompiledModel:
    """The file's model on GPU 0 under ``torch.compile``, compiled by its first call."""

    def __init__(self, path: Path, run_dir: Path, mode: str) -> None:
        if mode not in MODES:
            raise RunnerError(f"mode {mode!r}: one of {', '.join(MODES)}", EXIT_BAD_INPUT)
        run_dir.mkdir(parents=True, exist_ok=True)
        self.environment = compile_environment(run_dir)
        os.environ.update(self.environment)  # before torch reads its configuration
        self.torch = torch = import_torch()
        if not torch.cuda.is_available():
            raise RunnerError(
                f"PyTorch {torch.__version__} here sees no CUDA GPU (built for CUDA "
                f"{torch.version.cuda}): torch.cuda.is_available() is False",
                EXIT_NO_GPU,
            )
        model, inputs = load_model_file(path, lambda v: isinstance(v, torch.nn.Module))
        device = torch.device("cuda", 0)
        if isinstance(model, torch.nn.Module):
            model = model.to(device).eval()
        self.inputs = tuple(x.to(device) if isinstance(x, torch.Tensor) else x for x in inputs)
        self.path, self.run_dir, self.mode = path, run_dir, mode
        self.compiled = torch.compile(model, mode=None if mode == "default" else mode)
        self.compile_s = 0.0

    def call(self, times: int) -> None:
        with self.torch.no_grad():
            for _ in range(times):
                self.compiled(*self.inputs)
        self.torch.cuda.synchronize()

    def compile(self) -> None:
        """The first call: Dynamo traces, Inductor generates and Triton compiles (and the
        max-autotune modes benchmark their choices)."""
        start = time.perf_counter()
        try:
            self.call(1)
        except Exception as exc:
            traceback.print_exc()
            raise RunnerError(
                f"torch.compile failed on the example inputs: {_first_line(exc)}", EXIT_COMPILE
            ) from exc
        self.compile_s = time.perf_counter() - start

    def facts(self, warmup: int, iterations: int) -> dict:
        torch = self.torch
        try:
            import triton

            triton_version = triton.__version__
        except ImportError:
            triton_version = None
        major, minor = torch.cuda.get_device_capability(0)
        return {
            "version": FACTS_VERSION,
            "model": self.path.stem,
            "model_file": self.path.name,
            "mode": self.mode,
            "torch": torch.__version__,
            "triton": triton_version,
            "cuda": torch.version.cuda,
            "python": platform.python_version(),
            "device": torch.cuda.get_device_name(0),
            "compute_capability": f"{major}.{minor}",
            "run_dir": str(self.run_dir),  # as the machine that ran it saw it
            "environment": self.environment,
            "inputs": [_describe(x) for x in self.inputs],
            "compile_s": self.compile_s,
            "warmup": warmup,
            "iterations": iterations,
            "profiled": "the calls between cudaProfilerStart and cudaProfilerStop, after the "
            "compiling call and the warm-up calls",
        }


def _describe(value: Any) -> dict:
    shape = getattr(value, "shape", None)
    if shape is None:
        return {"type": type(value).__name__}
    return {"shape": [int(d) for d in shape], "dtype": str(getattr(value, "dtype", ""))}


def run_torch(path: Path, run_dir: Path, mode: str, warmup: int, iterations: int) -> dict:
    """Compile, warm up, then the profiled calls inside cudaProfilerStart/Stop; the run's
    facts go to ``run_dir/run.json`` and are the result."""
    model = CompiledModel(path, run_dir, mode)
    model.compile()
    model.call(warmup)
    torch = model.torch
    times = []
    torch.cuda.profiler.start()
    try:
        for _ in range(iterations):
            start = time.perf_counter()
            model.call(1)
            times.append(1000 * (time.perf_counter() - start))
    finally:
        torch.cuda.profiler.stop()
    facts = model.facts(warmup, iterations)
    facts["wall_ms"] = times
    (run_dir / FACTS).write_text(json.dumps(facts, indent=1), encoding="utf-8")
    return facts


def torch_timeline(path: Path, run_dir: Path, mode: str, warmup: int, repeat: int) -> dict:
    """Every kernel launch of ``repeat`` calls from CUPTI (``torch.profiler``), each call's
    launches in order with their median start (from the call's first kernel) and duration."""
    model = CompiledModel(path, run_dir, mode)
    model.compile()
    model.call(max(warmup, 1))
    torch = model.torch
    repeat = max(repeat, 1)
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    plain = []
    for _ in range(repeat):
        start.record()
        model.call(1)
        end.record()
        end.synchronize()
        plain.append(1000 * start.elapsed_time(end))
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(repeat):
            model.call(1)
    trace = run_dir / "timelines" / f".trace-{os.getpid()}.json"
    trace.parent.mkdir(parents=True, exist_ok=True)
    try:
        prof.export_chrome_trace(str(trace))
        events = json.loads(trace.read_text(encoding="utf-8")).get("traceEvents", [])
    finally:
        trace.unlink(missing_ok=True)
    kernels = sorted(
        (e for e in events if e.get("cat") == "kernel" and e.get("ph") == "X"),
        key=lambda e: float(e["ts"]),
    )
    if not kernels:
        raise RunnerError("torch.profiler recorded no kernel launch (is CUPTI available?)")
    if len(kernels) % repeat:
        raise RunnerError(
            f"the {repeat} calls launched {len(kernels)} kernels in all, not the same number "
            "each: the model does not launch the same kernels every call"
        )
    per = len(kernels) // repeat
    passes = [kernels[i * per : (i + 1) * per] for i in range(repeat)]
    calls = []
    for i, first in enumerate(passes[0]):
        names = {p[i]["name"] for p in passes}
        if len(names) != 1:
            raise RunnerError(f"kernel {i} differs between calls: {', '.join(sorted(names))}")
        durations = [float(p[i]["dur"]) for p in passes]
        args = first.get("args", {})
        calls.append(
            {
                "kernels": [first["name"]],
                "start_us": statistics.median(
                    float(p[i]["ts"]) - float(p[0]["ts"]) for p in passes
                ),
                "duration_us": statistics.median(durations),
                "min_us": min(durations),
                "max_us": max(durations),
                "grid": args.get("grid"),
                "block": args.get("block"),
                "stream": args.get("stream"),
            }
        )
    return {
        "mode": "timeline",
        "device": torch.cuda.get_device_name(0),
        "clock": f"CUPTI kernel activity (torch.profiler) over {repeat} calls of the compiled "
        "model; each kernel's median",
        "compile_mode": mode,
        "torch": torch.__version__,
        "warmup": max(warmup, 1),
        "repeat": repeat,
        "plain_gpu_us": statistics.median(plain),
        "compile_s": model.compile_s,
        "calls": calls,
    }
