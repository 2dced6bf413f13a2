"""Tuning as a job for the ``tune`` lane: ``kernelscope tune``'s core calls (``plan_tuning``,
then ``tune_in_child``, measured through an SSH host's forwarded RPC server when one is
chosen). It sends the plan's tasks as soon as they are known; Cancel stops the child and
returns what the database holds (each candidate is committed as it is measured).
``gain_job`` is the step after it: build with the records, profile, compare."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.profiling import SshTarget
from kernelscope.core.toolchain import local_gpu_arch
from kernelscope.core.tuning import (
    Measure,
    TuningPlan,
    TuningResult,
    merge_in_child,
    plan_tuning,
    tune_in_child,
)

from ..workers.jobs import JobContext, JobFn

if TYPE_CHECKING:
    from kernelscope.core.tuning import TunedGain

NO_GPU = (
    "measuring needs a GPU: this machine has none (nvidia-smi lists none); measure on an SSH "
    "host's GPU or through an RPC tracker"
)


@dataclass(frozen=True)
class TuneRequest:
    workspace: Path
    trials: int
    kernels: tuple[str, ...] = ()  # these kernels' PrimFuncs, or
    top: int | None = None  # the top N by microseconds to save
    savings_us: dict[str, float] | None = None  # the Headroom list's, when the window has it
    host: SshTarget | None = None  # measure on this host's GPU (its RPC server, over SSH)
    tracker: str = ""  # HOST:PORT of TVM's RPC tracker, with ``key``
    key: str = ""
    cpu: bool = False  # tune for this machine's CPU (LLVM): the path without a GPU
    database: Path | None = None  # default WS/tuning
    population: int = 512  # the evolutionary search's; tests use fewer


@dataclass(frozen=True)
class TuneStarted:
    """Sent once the plan is made: the tasks in the order they are tuned, the database, and
    how the top N were ranked ("" when the kernels were chosen)."""

    tasks: tuple[str, ...]
    database: Path
    ranking: str = ""


def local_gpu_problem() -> str | None:
    """Why this machine cannot measure CUDA candidates, or None (it runs nvidia-smi)."""
    return None if local_gpu_arch() else NO_GPU


def plan_of(request: TuneRequest) -> TuningPlan:
    """Check the request against its workspace (``plan_tuning``, as ``kernelscope tune``)."""
    kind = "tracker" if request.tracker else "host" if request.host else "local"
    if not request.kernels and request.top is None:
        raise KernelscopeError("choose the kernels to tune", hint="select them, or take the top N")
    return plan_tuning(
        request.workspace,
        kernel="|".join(f"^{re.escape(k)}$" for k in request.kernels) if request.kernels else None,
        top=None if request.kernels else request.top,
        trials=request.trials,
        per_round=min(16, request.trials),
        database=request.database,
        measure=Measure(kind=kind, address=request.tracker, key=request.key),
        target_kind="llvm" if request.cpu else "cuda",
        savings_us=request.savings_us,
        population=request.population,
    )


def tune_job(request: TuneRequest) -> JobFn:
    def run(context: JobContext) -> TuningResult:
        plan = plan_of(request)
        if plan.measure.kind == "local" and not request.cpu and local_gpu_arch() is None:
            raise KernelscopeError(NO_GPU)
        context.send(TuneStarted(tuple(plan.tasks), plan.database, plan.ranking))
        with _server(request.host) as address:
            if address:
                plan = replace(plan, measure=replace(plan.measure, address=address))
            return tune_in_child(plan, progress=context.progress, cancel=context.cancel)

    return run


def merge_job(database: Path, sources: list[Path]) -> JobFn:
    """Add the records of ``sources`` to ``database`` (``kernelscope tune-merge``): what
    ``merge_in_child`` returns (records added, already there, in the database)."""

    def run(context: JobContext) -> dict[str, object]:
        return merge_in_child(database, sources, context.progress, context.cancel)

    return run


@contextlib.contextmanager
def _server(host: SshTarget | None) -> Iterator[str]:
    """The forwarded address of ``host``'s RPC server for the run ("" without a host)."""
    if host is None:
        yield ""
        return
    from kernelscope.core.tuning import ForwardedServer

    with ForwardedServer(host) as server:
        yield server.address


def gain_job(untuned: Path, database: Path, output: Path | None, host: SshTarget | None) -> JobFn:
    """See the gain (``see_gain``): the untuned build's model built with ``database``'s
    records, profiled with the settings the untuned report was made with on ``host`` (None:
    this machine), and compared with it."""
    from kernelscope.core.tuning import profile_request_for, see_gain
    from kernelscope.core.workspace import Workspace

    def run(context: JobContext) -> TunedGain:
        recorded = profile_request_for(Workspace.open(untuned), None)
        chosen, before = host, recorded.host
        if chosen is not None and before is not None and chosen.host == before.host:
            # the host the report was made on, chosen without options of its own: as it
            # was reached
            chosen = replace(chosen, options=chosen.options or before.options)
        profile = replace(recorded, host=chosen)
        return see_gain(
            untuned,
            database,
            output=output,
            profile=profile,
            progress=context.progress,
            cancel=context.cancel,
        )

    return run


def recorded_host_job(untuned: Path) -> JobFn:
    """The SSH host the untuned workspace's newest report was made on (None: here, or not
    recorded)."""
    from kernelscope.core.tuning import profile_request_for
    from kernelscope.core.workspace import Workspace

    def run(context: JobContext) -> str | None:
        recorded = profile_request_for(Workspace.open(untuned), None).host
        return recorded.host if recorded is not None else None

    return run
