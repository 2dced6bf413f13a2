"""Build & Profile as a job for the ``build`` lane: a core build, then optionally a profile.

It sends ``Built`` as soon as the workspace is on disk (the window shows it at once) and
returns ``Profiled`` when an Nsight Compute report was added to it, ``ProfileSkipped`` when
this machine cannot profile (and why), or None when no profile was asked for. Without a
build request the given workspace is profiled as it is. The build runs in a child process
(a TVM crash is an error, not the window's end); Cancel kills it, and ncu (here, or on the
SSH host with the model it runs).

``torch_job`` is the same dialog's job for a PyTorch model file: ``torch.compile`` and ncu
on this machine or the host (``core.torchrun``), returning ``TorchProfiled``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kernelscope.core.build import BuildRequest, build_in_child
from kernelscope.core.profiling import (
    ProfileRequest,
    check_steps,
    profile_workspace,
    profiling_problem,
)
from kernelscope.core.torchrun import TorchRequest, TorchRun, profile_torch
from kernelscope.core.workspace import Workspace

from ..workers.jobs import JobContext, JobFn


@dataclass(frozen=True)
class Built:
    workspace: Path


@dataclass(frozen=True)
class Profiled:
    report: Path
    launches: int = 0
    seconds: float = 0.0


@dataclass(frozen=True)
class ProfileSkipped:
    problem: str  # why this machine cannot profile


@dataclass(frozen=True)
class TorchProfiled:
    run: TorchRun

    def documents(self) -> list[Path]:
        """What the window opens: the run folder (``core.inductor`` reads it: the Triton
        kernels with their provenance, sources, SASS and PTX, and the newest report), then
        the timeline."""
        return [self.run.run_dir, *([self.run.timeline] if self.run.timeline else [])]


def torch_job(request: TorchRequest) -> JobFn:
    """Compile and profile a PyTorch model file (``core.torchrun.profile_torch``)."""

    def run(context: JobContext) -> TorchProfiled:
        return TorchProfiled(profile_torch(request, context.progress, context.cancel))

    return run


def build_job(
    request: BuildRequest | None,
    profile_request: Callable[[Path], ProfileRequest] | None = None,
    existing: Path | None = None,
) -> JobFn:
    """Build ``request`` (or take the workspace ``existing`` as it is), then profile it
    with ``profile_request(workspace)`` when given."""
    if request is None and existing is None:
        raise ValueError("build_job needs a build request or an existing workspace")

    def run(context: JobContext) -> Profiled | ProfileSkipped | None:
        if request is not None:
            workspace = build_in_child(request, progress=context.progress, cancel=context.cancel)
            context.send(Built(workspace.path))
            path = workspace.path
        else:
            assert existing is not None
            path = existing
        if profile_request is None:
            return None
        profile = profile_request(path)
        # what to run comes before where (as the CLI): an LLM without steps, on any machine
        check_steps(profile.llm, Workspace.open(path))
        problem = None if profile.host else profiling_problem()
        if problem:
            return ProfileSkipped(problem)
        result = profile_workspace(profile, progress=context.progress, cancel=context.cancel)
        return Profiled(result.report, result.launches, result.seconds)

    return run
