"""What a window asks of a document beyond its values: the named queries, each read through
the document's ``ProfileSession`` (I/O, run on the profile thread and waited for: call them off
the GUI thread), each answer a finished value. These are the only reads of a session's live
profile (``ProfileSession._read_profile``); nothing here hands the profile out.

The feature packages load on first use (``roofline``, ``compare``, ``kernel_db``): a window
that never shows a roofline or exports never imports them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import KernelscopeError
from ..ncu import HotLine, rank_lines, resolve_metric_name
from .document import SASS_COUNT, KernelView
from .session import ProfileSession, on_profile_thread

if TYPE_CHECKING:
    from ..compare import ComparedProfile, Comparison
    from ..inductor import InductorRun, StepsVersus, Versus
    from ..kernel_db import ProfileFacts
    from ..ncu import KernelDetails, Ledger
    from ..roofline import Headroom, Roofline


def read_details(session: ProfileSession, kernel: str, launch: int | None = None) -> KernelDetails:
    """The kernel's Details (``ncu.kernel_details``: its launches combined, or one launch),
    as ``kernelscope details --kernel`` shows them. A kernel the profile holds no launch of is
    a ``KernelscopeError`` saying why."""
    from ..ncu import kernel_details

    if session.has_profile and not session.document.launched(kernel):
        raise KernelscopeError(
            f"{kernel} has no launches: the model never launches it",
            hint="TVM keeps kernels that run as views (a reshape); nothing to measure",
        )
    return session._read_profile(
        "the Details view", lambda profile: kernel_details(profile, kernel, launch)
    )


def read_ledger(session: ProfileSession) -> Ledger:
    """The step ledger of a report of an LLM's steps (``ncu.step_ledger``): each step's time
    by operator group, each kernel's launches by binding. A report without steps, or opened
    without its workspace, is a ``KernelscopeError`` saying how to profile with steps."""
    from ..ncu import step_ledger

    return session._read_profile(
        "the step ledger", lambda profile: step_ledger(profile, session.workspace)
    )


def read_roofline(session: ProfileSession, kernel: str | None = None) -> Roofline:
    """Every kernel on the roofline (or one kernel's launches), ``roofline.roofline``;
    ``Roofline.note`` says which counters are missing and the flag that collects them."""
    from ..roofline import roofline

    return session._read_profile("the roofline", lambda profile: roofline(profile, kernel))


def read_headroom(session: ProfileSession, roof: Roofline | None = None) -> Headroom:
    """The headroom list (``roofline.headroom``) with the session's workspace for the
    operator column; ``roof``, the session's ``read_roofline`` if already computed."""
    from ..roofline import headroom

    return session._read_profile(
        "the headroom list", lambda profile: headroom(profile, session.workspace, roof)
    )


def read_export_facts(
    session: ProfileSession, kernels: Sequence[str] | None = None
) -> ProfileFacts:
    """What an export to the kernel DB stores from the profile (times, Nsight Compute
    version, line summaries) for these kernels (all when None); empty without a profile."""
    from ..kernel_db import ProfileFacts, profile_facts

    if not session.has_profile:
        return ProfileFacts({}, None, {})
    return session._read_profile("an export", lambda profile: profile_facts(profile, kernels))


def hot_lines(
    session: ProfileSession, metric: str, kernel: str | None = None, limit: int = 50
) -> list[HotLine]:
    """The lines with the most ``metric`` (a line metric name, label or Nsight Compute metric
    name), in one kernel or over the whole model, ranked by ``ncu.rank_lines`` as
    ``kernelscope hot`` ranks them. Empty when the document has no such metric."""
    document = session.document
    if metric != SASS_COUNT:
        key = resolve_metric_name(metric)
        if not session.has_profile or key is None or kernel in document.never_launched:
            return []
        return session._read_profile(
            "hot lines", lambda profile: profile.hot_lines(metric=key, top=limit, kernel=kernel)
        )
    names = [kernel] if kernel else [s.name for s in document.summaries]
    views = [session.kernel(n) for n in names]
    files = {path: f for v in views for path, f in v.files.items()}

    def text_of(path: str) -> list[str] | None:
        f = files.get(path)
        return f.lines if f is not None and f.text is not None else None

    tables = [(v.name, v.count_table()) for v in views]
    return rank_lines(tables, SASS_COUNT, limit, text_of)


def compare_documents(base: ProfileSession, new: ProfileSession) -> Comparison:
    """``new``'s profile against ``base``'s, with their workspaces: a comparison of values
    read from both sessions, whose later reads (a kernel's lines and SASS) run on the profile
    thread through them."""
    from ..compare import Comparison

    if not new.has_profile or not base.has_profile:
        side = "the open document" if not new.has_profile else "the baseline"
        raise KernelscopeError(
            f"{side} has no Nsight Compute profile to compare",
            hint="compare two profiles: open a report, or a workspace with a profile",
        )
    return Comparison(
        _compared(base),
        _compared(new),
        base_workspace=base.workspace,
        new_workspace=new.workspace,
    )


def _compared(session: ProfileSession) -> ComparedProfile:
    """The session's profile as a comparison reads it (``compare.read_profile``), its later
    reads on the profile thread."""
    from ..compare import read_profile

    return session._read_profile(
        "a comparison", lambda profile: read_profile(profile, on_profile_thread)
    )


def read_run_problems(session: ProfileSession, run: InductorRun) -> list[str]:
    """What is wrong with a torch.compile run folder's report for the session's build (a
    report of another compile, Triton files changed since: ``inductor.report_problems``)."""
    from ..inductor import report_problems

    return session._read_profile(
        "the report's check", lambda profile: report_problems(run, profile)
    )


def versus_kernels(versus: Versus, group: str) -> tuple[KernelView | None, KernelView | None]:
    """I/O: the slowest kernel of each compiler in an operator group of a TVM-against-
    Inductor table, as the panes show them (None for a side without a kernel there)."""
    from .open import open_document

    row = next((r for r in versus.rows if r.group == group), None)
    if row is None:
        raise KernelscopeError(f"no operator group {group!r} in this comparison")
    tvm, inductor = row.tvm.slowest(), row.inductor.slowest()
    left = open_document(versus.tvm_workspace.path).kernel(tvm) if tvm else None
    right = open_document(versus.run.path).kernel(inductor) if inductor else None
    return left, right


def versus_step_kernels(
    versus: StepsVersus, step: str, group: str
) -> tuple[KernelView | None, KernelView | None]:
    """I/O: the slowest kernel of each compiler in one row of the per-step table (``step``
    as labelled, "decode 0"; ``group``, or "total": the step's slowest), as the panes show
    them: TVM's from the report that profiled that step, torch.compile's from the twin's
    stepped report (None for a side without a kernel there)."""
    from ..inductor import run_workspace
    from ..ncu import Profile
    from .from_profile import document_from_profile

    pair = next((s for s in versus.steps if s.label == step), None)
    row = None
    if pair is not None:
        row = (
            pair.total
            if group == "total"
            else next((r for r in pair.rows if r.group == group), None)
        )
    if pair is None or row is None:
        raise KernelscopeError(f"no step {step!r} with operator group {group!r} in this comparison")
    tvm, inductor = row.tvm.slowest(), row.inductor.slowest()
    left = right = None
    if tvm:
        ws = versus.workspace
        report = pair.tvm_report or versus.tvm_reports[-1]
        left = document_from_profile(Profile.open(report, workspace=ws), ws).kernel(tvm)
    if inductor:
        ws = run_workspace(versus.run)
        right = document_from_profile(Profile.open(versus.torch_report, workspace=ws), ws).kernel(
            inductor
        )
    return left, right
