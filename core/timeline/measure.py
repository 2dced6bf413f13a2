"""Measuring a workspace's timeline with the model runner (``--timeline``), on this machine or
on an SSH host, and keeping it in the workspace's ``timelines/`` folder.

The runner times every PrimFunc call of one forward pass with CUDA events while a spinning
kernel holds the stream (see profiling/runner/timeline.py): no Nsight tool is involved, so
kernels run back to back as in a plain run rather than serialised and replayed as under ncu.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from ..errors import KernelscopeError
from ..profiling import (
    CommandResult,
    SshTarget,
    StepOptions,
    check_steps,
    explain_ssh_failure,
    run_command,
    runner,
    runner_site,
)
from ..tasks import Cancel, ProgressFn, no_progress
from ..workspace import Workspace
from .model import GRAPH_REPLAY, Timeline, TimelineCall

TIMELINES = "timelines"  # folder in a workspace


@dataclass
class TimelineRequest:
    workspace: Path
    warmup: int = 3
    repeat: int = 10  # timed passes; each call's duration is the median
    inputs: Path | None = None
    seed: int = 0
    name: str | None = None  # file name in timelines/; default: a timestamp
    save: bool = True
    host: SshTarget | None = None  # measure on this SSH host; None: on this machine
    # An LLM's steps: each step timed, and each call in it (no ``profile_steps``: a
    # timeline times every step)
    llm: StepOptions = field(default_factory=StepOptions)


def timelines_dir(ws: Workspace) -> Path:
    return ws.path / TIMELINES


def saved_timelines(ws: Workspace) -> list[Path]:
    folder = timelines_dir(ws)
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def _name(req: TimelineRequest) -> str:
    name = (req.name or datetime.now().strftime("timeline-%Y%m%d-%H%M%S")).removesuffix(".json")
    if not re.fullmatch(r"[\w.-]+", name):
        raise KernelscopeError(f"timeline name {name!r}: use letters, digits, '.', '_', '-'")
    return name


def _runner_args(
    req: TimelineRequest, workspace: str, inputs: str | None, hook: str | None = None
) -> list[str]:
    args = [workspace, "--timeline", "--warmup", str(req.warmup), "--repeat", str(req.repeat)]
    args += ["--seed", str(req.seed)]
    args += req.llm.runner_arguments(hook)
    return args + (["--inputs", inputs] if inputs else [])


def measure_timeline(
    req: TimelineRequest, progress: ProgressFn = no_progress, cancel: Cancel | None = None
) -> Timeline:
    """Run the workspace's model with per-call timing and return (and keep) its timeline."""
    ws = Workspace.open(req.workspace)
    if req.warmup < 0 or req.repeat < 1:
        raise KernelscopeError("--warmup must be at least 0 and --repeat at least 1")
    if req.inputs is not None and not req.inputs.is_file():
        raise KernelscopeError(f"--inputs {req.inputs}: no such file")
    name = _name(req)
    if req.llm.profile_steps is not None:
        raise KernelscopeError(
            "a timeline times every step: --profile-steps is for kernelscope profile"
        )
    check_steps(req.llm, ws=ws)
    target = req.host
    with runner_site(ws, target, req.inputs, progress, cancel, 0.05, req.llm.hook) as site:
        what = "runs of the steps" if req.llm.stepped else "forward passes"
        progress("timeline", 0.2, f"timing {req.repeat} {what} on {site.where}")
        cmd = site.command(_runner_args(req, site.workspace, site.inputs, site.hook))
        result = run_command(cmd, "timeline", cancel)
        if target is not None and result.code == 255:
            raise explain_ssh_failure(target, result, "timeline")
    raw = _result(result, site.where)
    timeline = from_runner(raw, ws, target.host if target else None)
    if req.save:
        timeline.meta["file"] = str(timeline.save(timelines_dir(ws) / f"{name}.json"))
    progress("done", 1.0, f"{len(timeline.calls)} calls timed on {timeline.device}")
    return timeline


def _result(result: CommandResult, where: str) -> dict:
    raw = runner.read_result(result.output)
    if result.code == 0 and raw is not None:
        return raw
    message = runner.read_message(result.output)
    hints = {
        runner.EXIT_NO_GPU: "measure on a GPU machine: kernelscope timeline WS --host user@gpu",
        runner.EXIT_NO_TVM: "install a TVM runtime there: kernelscope remote-install user@host",
        runner.EXIT_OLD_PYTHON: "pass a newer interpreter with --remote-python",
        runner.EXIT_SOURCE_MISMATCH: "rebuild the workspace with kernelscope build",
    }
    raise KernelscopeError(
        f"the timeline could not be measured on {where}"
        + (f": {message}" if message else f" (exit code {result.code})"),
        hint=hints.get(result.code, ""),
        details=result.output,
    )


def _name_graph_replays(calls: list[TimelineCall], raw: dict, ws: Workspace) -> None:
    """A CUDA graph build's replays (one VM call, one ``cudaGraphLaunch`` each) hold the
    kernels of their own region: the i-th replay in a step is the step function's i-th
    captured region (``FunctionInfo.graphs``), its kernels in node order. The timeline times
    a replay whole; its nodes are not split (``kernelscope steps`` has them per node)."""
    functions = {f.name: f for f in ws.manifest.functions}
    step_function = raw.get("functions") or {}
    first_kernel: dict[str, str] = {}
    for k in ws.manifest.kernels:
        first_kernel.setdefault(k.primfunc, k.name)
    seen: dict[str, int] = {}
    for call in calls:
        if call.primfunc != GRAPH_REPLAY or not call.step:
            continue
        name = call.step.rpartition(" ")[0]
        function = functions.get(step_function.get(name) or name)
        i = seen.get(call.step, 0)
        seen[call.step] = i + 1
        if function is not None and i < len(function.graphs):
            call.kernels = [first_kernel.get(p, p) for p in function.graphs[i]]


def from_runner(raw: dict, ws: Workspace, host: str | None = None) -> Timeline:
    """The runner's ``--timeline`` answer as a Timeline of the workspace."""
    calls = [
        TimelineCall(
            index=i,
            kernels=list(c["kernels"]),
            start_us=float(c["start_us"]),
            duration_us=float(c["duration_us"]),
            primfunc=c.get("primfunc", ""),
            min_us=c.get("min_us"),
            max_us=c.get("max_us"),
            raw_us=c.get("raw_us"),
            step=c.get("step", ""),
        )
        for i, c in enumerate(raw.get("calls", []))
    ]
    _name_graph_replays(calls, raw, ws)
    kernels = {k.name: k for k in ws.manifest.kernels}
    for call in calls:
        info = kernels.get(call.kernels[0])
        if info is not None and call.primfunc != GRAPH_REPLAY:
            call.grid, call.block = list(info.grid), list(info.block)
    meta = {k: v for k, v in raw.items() if k not in ("calls", "device")}
    meta["host"] = host or "localhost"
    meta["model"] = ws.manifest.model
    timeline = Timeline(
        source="runner", origin=str(ws.path), device=raw.get("device", "?"), calls=calls, meta=meta
    )
    timeline.annotate(ws)
    return timeline
