"""Jobs of the SSH host and the timeline, for the window's lanes: the remote doctor and the
runtime install (``build`` lane, the dialog's one job at a time), measuring a timeline and
profiling one of its calls (``build`` lane too: GPU work runs one at a time, so that ncu
never disturbs a timeline), and reading a timeline file (``open`` lane). Each is a core call
with the job's progress and Cancel; none touches a widget."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kernelscope.core.profiling import (
    HostReport,
    InstallResult,
    ProfileResult,
    SshTarget,
    check_host,
    install_runtime,
)
from kernelscope.core.timeline import (
    Agreement,
    Timeline,
    TimelineRequest,
    TimelineSummary,
    measure_timeline,
    ncu_agreement,
    open_timeline,
    profile_call,
    saved_timelines,
    summarise,
)
from kernelscope.core.workspace import Workspace

from .jobs import JobContext, JobFn


def check_job(target: SshTarget) -> JobFn:
    def run(context: JobContext) -> HostReport:
        return check_host(target, progress=context.progress, cancel=context.cancel)

    return run


def install_job(target: SshTarget) -> JobFn:
    def run(context: JobContext) -> InstallResult:
        return install_runtime(target, progress=context.progress, cancel=context.cancel)

    return run


def measure_job(request: TimelineRequest) -> JobFn:
    def run(context: JobContext) -> Timeline:
        return measure_timeline(request, progress=context.progress, cancel=context.cancel)

    return run


Summarised = tuple[Timeline, TimelineSummary]  # a timeline and what the pane shows of it


def open_timeline_job(path: Path, workspace: Workspace | None = None) -> JobFn:
    """A timeline file, summarised; an Nsight Systems trace gets the operator types of
    ``workspace``'s kernels (those of its calls that are that workspace's kernels)."""

    def run(context: JobContext) -> Summarised:
        timeline = open_timeline(path, progress=context.progress, cancel=context.cancel)
        if workspace is not None and timeline.source != "runner":
            timeline.annotate(workspace)
        return timeline, summarise(timeline)

    return run


def agreement_job(timeline: Timeline, workspace: Path) -> JobFn:
    """The timeline's calls against the newest report of ``workspace`` with a whole pass."""

    def run(context: JobContext) -> Agreement:
        return ncu_agreement(timeline, workspace)

    return run


def newest_timeline_job(workspace: Path) -> JobFn:
    """The workspace's newest saved timeline, summarised, or None when it has none."""

    def run(context: JobContext) -> Summarised | None:
        saved = saved_timelines(Workspace.open(workspace))
        if not saved:
            return None
        timeline = Timeline.load(max(saved, key=lambda p: p.stat().st_mtime))
        return timeline, summarise(timeline)

    return run


def profile_call_job(
    timeline: Timeline, index: int, workspace: Path, options: dict[str, Any]
) -> JobFn:
    """ncu on one call of the timeline (``core.timeline.profile_call``, as the CLI's
    --profile); refuses at once on a machine that cannot profile."""

    def run(context: JobContext) -> ProfileResult:
        return profile_call(
            timeline,
            index,
            workspace,
            progress=context.progress,
            cancel=context.cancel,
            **options,
        )

    return run
