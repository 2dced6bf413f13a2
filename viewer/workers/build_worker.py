"""Build & Profile as a job for the ``build`` lane: a core build, then optionally a profile.

It sends ``Built`` as soon as the workspace is on disk (the window shows it at once) and
returns ``Profiled`` when an Nsight Compute report was added to it, ``ProfileSkipped`` when
this machine cannot profile (and why), or None when no profile was asked for. The build runs
in a child process (a TVM crash is an error, not the window's end); Cancel kills it and ncu.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kernelscope.core.build import BuildRequest, build_in_child
from kernelscope.core.profiling import ProfileRequest, profile_workspace, profiling_problem

from .jobs import JobContext, JobFn


@dataclass(frozen=True)
class Built:
    workspace: Path


@dataclass(frozen=True)
class Profiled:
    report: Path


@dataclass(frozen=True)
class ProfileSkipped:
    problem: str  # why this machine cannot profile


def build_job(
    request: BuildRequest, profile_request: Callable[[Path], ProfileRequest] | None = None
) -> JobFn:
    def run(context: JobContext) -> Profiled | ProfileSkipped | None:
        workspace = build_in_child(request, progress=context.progress, cancel=context.cancel)
        context.send(Built(workspace.path))
        if profile_request is None:
            return None
        profile = profile_request(workspace.path)
        problem = None if profile.host else profiling_problem()
        if problem:
            return ProfileSkipped(problem)
        result = profile_workspace(profile, progress=context.progress, cancel=context.cancel)
        return Profiled(result.report)

    return run
