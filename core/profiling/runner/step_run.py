"""A workspace's LLM run step by step (``--steps`` or ``--hook``; see ``steps``), on GPU 0 with
the workspace's own cubin, or on another device (the CPU, for a model built for it)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .cuda import STEP_MARKER, Cuda
from .model import check_shape, device_name, open_vm, random_value, seeded_weights
from .protocol import EXIT_BAD_INPUT, RunnerError
from .steps import Driver, Selection, Session, StepObserver, parse_steps, run_hook
from .tvm_runtime import import_tvm


@dataclass
class StepRunOptions:
    """What to run: ``steps`` (``prefill=128,decode=32``) for ``batch`` sequences, or a
    ``hook`` file; ``profile_steps`` chooses the profiled steps; ``warmup`` whole runs first.
    (The runner's own, from its command line: the runner imports nothing of kernelscope's,
    so not core's ``StepOptions``, whose ``runner_arguments`` make that command line.)"""

    steps: str | None = None
    hook: Path | None = None
    batch: int = 1
    profile_steps: str | None = None
    warmup: int = 1
    seed: int = 0


class ProfilerMarks(StepObserver):
    """``cuProfilerStart``, then the marker kernel, at the start of each chosen step;
    ``cuProfilerStop`` once the device finished it."""

    def __init__(self, cuda: Cuda) -> None:
        self.cuda = cuda
        cuda.use_primary_context(0)
        cuda.load_marker()

    def enter(self, record: dict) -> None:
        if record["profiled"]:
            self.cuda.profiler_start()
            self.cuda.marker()

    def done(self, record: dict) -> None:
        if record["profiled"]:
            self.cuda.profiler_stop()


def weight_values(manifest: dict, workspace: Path, seed: int) -> dict[str, Any]:
    """The weights by name: params.npz's values, else seeded random ones (never for a build
    whose weights are runtime parameters: those have no values to make up)."""
    import numpy as np

    if manifest.get("weights_on_host"):
        return {
            w["name"]: v for w, v in zip(manifest["weights"], seeded_weights(manifest), strict=True)
        }
    stored = {}
    if "params" in manifest["files"]:
        stored = dict(np.load(workspace / manifest["files"]["params"]))
    rng = np.random.default_rng(seed)
    values: dict[str, Any] = {}
    for info in manifest["weights"]:
        name = info["name"]
        value = stored.get(name)
        if value is None:
            if manifest.get("params_mode") == "runtime":
                raise RunnerError(
                    f"no value for the weight {name!r}: the workspace was built with "
                    "--params runtime; rebuild with --params random (or model)",
                    EXIT_BAD_INPUT,
                )
            value = random_value(rng, name, info["shape"], info["dtype"])
        check_shape(name, info["shape"], info["dtype"], value, {})
        values[name] = value
    return values


class StepRun:
    """The workspace's model loaded for steps; ``session()`` gives a fresh session."""

    def __init__(self, workspace: Path, options: StepRunOptions, device: Any = None) -> None:
        if (options.steps is None) == (options.hook is None):
            raise RunnerError("give --steps or --hook (one of them)", EXIT_BAD_INPUT)
        self.options = options
        self.manifest = json.loads((workspace / "manifest.json").read_text(encoding="utf-8"))
        self.selection = Selection(options.profile_steps)
        self.driver = None
        if options.steps is not None:
            self.driver = Driver(self.manifest, parse_steps(options.steps), options.batch)
            self.selection.check_plan(self.driver.counts())
        if options.hook is not None and not options.hook.is_file():
            raise RunnerError(f"--hook {options.hook}: no such file", EXIT_BAD_INPUT)
        host = weight_values(self.manifest, workspace, options.seed)
        self.tvm, _ = import_tvm(cuda=device is None)
        self.device = self.tvm.cuda(0) if device is None else device
        self.on_gpu = self.device.dlpack_device_type() == self.tvm.cuda(0).dlpack_device_type()
        self.vm, self.calls = open_vm(self.tvm, workspace, self.manifest, self.device)
        self.weights = {k: self.tvm.runtime.tensor(v, self.device) for k, v in host.items()}
        del host
        # what the VM has called at which shape: its CUDA graphs are captured once
        self.captured: set[tuple[str, tuple[int, ...]]] = set()

    def session(self, observers: list[StepObserver], selection: Selection | None = None) -> Session:
        return Session(
            self.tvm,
            self.vm,
            self.device,
            self.manifest,
            self.weights,
            selection if selection is not None else Selection(None),
            observers,
            self.options.seed,
            self.captured,
        )

    def run_once(self, session: Session) -> None:
        if self.driver is not None:
            self.driver.run(session)
        else:
            assert self.options.hook is not None
            run_hook(self.options.hook, session)

    @property
    def warmups(self) -> int:
        """Whole runs before the measured one: as asked, and at least one for a CUDA graph
        build (``build --cuda-graph``), whose first call captures its graphs: the profiled
        and timed steps are replays, as an engine runs them after its first step."""
        graphs = bool(self.manifest.get("cuda_graph"))
        return max(self.options.warmup, 1) if graphs else self.options.warmup

    def warm_up(self) -> None:
        """Whole runs, unprofiled, each with a cache of its own: the module loaded, the memory
        pool filled, a CUDA graph build's graphs captured (each step's record says whether it
        captured or replayed them)."""
        for _ in range(self.warmups):
            self.run_once(self.session([]))

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "device": device_name(self.device) if self.on_gpu else str(self.device),
            "batch": self.options.batch,
            "warmup": self.warmups,
            "profile_steps": self.options.profile_steps or None,
            "marker": STEP_MARKER if self.on_gpu and self.selection else None,
            "cubin_loads": self.calls["count"],
            "cuda_graph": bool(self.manifest.get("cuda_graph")),
        }
        if self.driver is not None:
            out["plan"] = self.driver.plan
            out["kv_cache"] = self.driver.sizes
            out["functions"] = self.driver.functions.summary()
        else:
            out["hook"] = str(self.options.hook)
        return out


def run_steps(workspace: Path, options: StepRunOptions, device: Any = None) -> dict:
    """Run the steps once (after ``warmup`` whole runs), the chosen ones marked for the
    profiler on a GPU; the result lists every step run (``steps``)."""
    run = StepRun(workspace, options, device)
    run.warm_up()
    observers: list[StepObserver] = [ProfilerMarks(Cuda())] if run.on_gpu and run.selection else []
    session = run.session(observers, run.selection)
    run.run_once(session)
    if run.selection and not any(s["profiled"] for s in session.steps):
        ran = ", ".join(f"{s['name']} {s['index']}" for s in session.steps) or "none"
        raise RunnerError(
            f"--profile-steps {options.profile_steps}: no step run is one of them "
            f"(steps run: {ran})",
            EXIT_BAD_INPUT,
        )
    return {"mode": "steps", **run.describe(), "steps": session.steps}
