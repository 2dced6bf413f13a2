"""See the gain of tuning: build the workspace's model again with the tuning records into a
sibling workspace (``WS-tuned``), profile it the way the untuned build was profiled, and
compare the two profiles: per kernel the untuned and tuned time, the record it was built
from, and the Headroom list of the tuned run.

The parts are the existing ones: ``build_in_child`` with ``tuning_db`` (a database that
applies to nothing is refused there), ``profile_workspace`` (here or over SSH, with the
settings the untuned build's newest report was made with when they were recorded),
a ``compare.Comparison`` of the two reports and ``roofline.headroom``. Every step writes
atomically: a Cancel or a failure leaves the untuned workspace as it was and the tuned one
either built completely (without a report when the profile did not finish) or as it was
before.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..build import BuildRequest, build_in_child
from ..compare import Comparison, read_profile
from ..errors import Cancelled, KernelscopeError
from ..formatting import format_us
from ..ncu import Profile
from ..profiling import (
    ProfileRequest,
    profile_command,
    profile_workspace,
    profiling_problem,
    recorded_request,
)
from ..tasks import Cancel, ProgressFn, check_cancel, no_progress
from ..workspace import KernelInfo, TunedFrom, Workspace
from .plan import built_shapes

TUNED_SUFFIX = "-tuned"
# Where each step's progress goes in the whole run's 0..1.
_BUILD, _PROFILE, _COMPARE = (0.0, 0.45), (0.45, 0.45), (0.9, 0.1)


def tuned_workspace(untuned: Path) -> Path:
    """The tuned build's folder beside ``untuned``: ``model.kscope`` -> ``model-tuned.kscope``,
    ``ws`` -> ``ws-tuned``."""
    path = untuned.expanduser().resolve()
    if path.suffix == ".kscope":
        return path.with_name(f"{path.stem}{TUNED_SUFFIX}.kscope")
    return path.with_name(path.name + TUNED_SUFFIX)


@dataclass(frozen=True)
class KernelGain:
    """One kernel of the tuned build against its untuned self."""

    kernel: str  # the tuned build's name (the untuned one's where only it has the kernel)
    base_kernel: str | None  # its name in the untuned profile; None: only in the tuned one
    trials: int | None  # of its record; None: it kept the default schedule
    record_us: float | None  # the record's measured time (the tuning's best)
    default_us: float | None  # the default schedule's, as the tuning measured it
    base_us: float | None  # profiled, per pass: untuned
    tuned_us: float | None  # ... tuned
    status: str  # the comparison's: faster, slower, within noise, only in base/new
    headroom_before_us: float | None = None  # the Headroom list's savings, untuned
    headroom_after_us: float | None = None  # ... recomputed on the tuned run

    @property
    def tuned(self) -> bool:
        return self.trials is not None

    @property
    def speedup(self) -> float | None:
        """Untuned over tuned time, as profiled (2.0: twice as fast)."""
        if self.base_us and self.tuned_us:
            return self.base_us / self.tuned_us
        return None


@dataclass(frozen=True)
class TunedGain:
    """What ``see_gain`` made: the two workspaces and reports, and the comparison's rows.
    Without a profile of the tuned build (``profile_problem``), ``kernels`` has the records
    only, and ``profile_later`` is the command that profiles it."""

    untuned: Path
    tuned: Path
    database: Path
    base_report: Path | None = None
    tuned_report: Path | None = None
    kernels: tuple[KernelGain, ...] = ()
    base_total_us: float | None = None
    tuned_total_us: float | None = None
    headroom_before_us: float | None = None
    headroom_after_us: float | None = None
    profile_problem: str = ""  # why the tuned build was not profiled ("" when it was)
    profile_later: str = ""  # the command that profiles it
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def compared(self) -> bool:
        return self.tuned_report is not None and self.base_report is not None

    @property
    def speedup(self) -> float | None:
        if self.base_total_us and self.tuned_total_us:
            return self.base_total_us / self.tuned_total_us
        return None

    def diff_command(self) -> str:
        """The ``kernelscope diff`` of the two workspaces (what CI runs)."""
        return shlex.join(["kernelscope", "diff", str(self.untuned), str(self.tuned)])

    def how_to_finish(self) -> str:
        """What to run when the tuned build was not profiled here."""
        return f"profile it on a GPU: {self.profile_later}; then compare: {self.diff_command()}"

    def summary(self) -> str:
        n = sum(1 for k in self.kernels if k.tuned)
        kernels = f"{n} kernel{'s' * (n != 1)}"
        if not self.compared:
            return (
                f"{kernels} built from the records in {self.tuned}; not profiled: "
                f"{self.profile_problem}"
            )
        total = (
            f"{format_us((self.base_total_us or 0) * 1e3)} → "
            f"{format_us((self.tuned_total_us or 0) * 1e3)} µs per pass"
        )
        ratio = f" ({self.speedup:.2f}x)" if self.speedup else ""
        return f"{kernels} from tuning records; the model {total}{ratio}"


def _scaled(progress: ProgressFn, span: tuple[float, float]) -> ProgressFn:
    start, width = span

    def report(step: str, fraction: float | None, message: str) -> None:
        progress(step, None if fraction is None else start + width * fraction, message)

    return report


def build_request(untuned: Workspace, database: Path, output: Path, force: bool) -> BuildRequest:
    """The untuned build's model and options, with ``database``'s records, into ``output``."""
    m = untuned.manifest
    return BuildRequest(
        model=untuned.model_file(),
        output=output,
        arch=str(m.target.get("arch") or "") or None,
        shapes=built_shapes(m),
        params="runtime" if m.params_mode == "runtime" else "random",
        seed=m.params_seed or 0,
        replace_other_model=force,
        tuning_db=database,
    )


def profile_request_for(untuned: Workspace, given: ProfileRequest | None) -> ProfileRequest:
    """How to profile the tuned build: as ``given`` when the user said, else as the untuned
    build's newest report was made (when recorded), else kernelscope profile's defaults."""
    if given is not None:
        return given
    reports = untuned.profiles()
    recorded = recorded_request(reports[-1], untuned.path) if reports else None
    return recorded or ProfileRequest(workspace=untuned.path)


def see_gain(
    untuned: Path,
    database: Path,
    *,
    output: Path | None = None,
    profile: ProfileRequest | None = None,
    force: bool = False,
    progress: ProgressFn | None = None,
    cancel: Cancel | None = None,
) -> TunedGain:
    """Build ``untuned``'s model with ``database``'s records into ``output`` (default
    ``tuned_workspace(untuned)``), profile it (``profile``'s settings, else those the untuned
    build's newest report was made with) and compare it with the untuned build's newest
    report. Without a GPU here and no host, the tuned build stays unprofiled and the result
    says how to profile it (``profile_problem``, ``profile_later``)."""
    report = progress or no_progress
    ws = Workspace.open(untuned.expanduser().resolve())
    reports = ws.profiles()
    if not reports:
        raise KernelscopeError(
            f"{ws.path} has no profile to compare the tuned build with",
            hint=f"profile it first: kernelscope profile {shlex.quote(str(ws.path))}",
        )
    target = (output or tuned_workspace(ws.path)).expanduser().resolve()
    if target == ws.path.resolve():
        raise KernelscopeError(
            f"{target} is the untuned workspace: the tuned build needs a folder of its own",
            hint="leave out -o (it goes beside it, as …-tuned) or give another folder",
        )
    folder = database.expanduser().resolve()
    request = profile_request_for(ws, profile)
    report("build", 0.0, f"building {ws.manifest.model} with the records in {folder}")
    built = build_in_child(
        build_request(ws, folder, target, force), progress=_scaled(report, _BUILD), cancel=cancel
    )
    check_cancel(cancel, "seeing the gain")
    request = replace(request, workspace=built.path)
    later = shlex.join(profile_command(replace(request, name=None)))
    gain = TunedGain(ws.path, built.path, folder, base_report=reports[-1], profile_later=later)
    problem = None if request.host else profiling_problem()
    if problem is not None:
        return replace(
            gain,
            profile_problem=problem,
            kernels=tuple(_record_rows(built)),
            notes=(gain.how_to_finish(),),
        )
    try:
        profiled = profile_workspace(request, _scaled(report, _PROFILE), cancel)
    except Cancelled:
        raise
    except KernelscopeError as exc:
        raise KernelscopeError(
            f"the tuned build is in {built.path}, but profiling it failed: {exc.message}",
            hint=f"{exc.hint + '; ' if exc.hint else ''}profile it later: {later}, then "
            f"compare: {gain.diff_command()}",
            details=exc.details,
        ) from exc
    report("compare", _COMPARE[0], "comparing the tuned run with the untuned one")
    opening = _scaled(report, (_COMPARE[0], _COMPARE[1] * 0.5))
    opening("open", 0.0, f"reading {reports[-1].name}")
    base = Profile.open(reports[-1], workspace=ws)
    check_cancel(cancel, "comparing profiles")
    opening("open", 0.5, f"reading {profiled.report.name}")
    tuned = Profile.open(profiled.report, workspace=built)
    check_cancel(cancel, "comparing profiles")
    opening("open", 1.0, "both profiles read")
    result = compare_gain(base, tuned, replace(gain, tuned_report=profiled.report), ws, built)
    report("done", 1.0, result.summary())
    return result


def _record_rows(built: Workspace) -> list[KernelGain]:
    rows = []
    for k in built.manifest.kernels:
        if k.launched:
            tuned = _record_of(k)
            rows.append(
                KernelGain(
                    k.name,
                    None,
                    tuned.trials if tuned else None,
                    tuned.best_us if tuned else None,
                    tuned.default_us if tuned else None,
                    None,
                    None,
                    "",
                )
            )
    return rows


def _record_of(kernel: KernelInfo | None) -> TunedFrom | None:
    """The tuned record a kernel was built from; None for the default schedule, also where
    the record applied is the default itself (no candidate beat it)."""
    tuned = kernel.tuned if kernel is not None else None
    return None if tuned is None or tuned.default_kept else tuned


def compare_gain(
    base: Profile, after: Profile, gain: TunedGain, untuned: Workspace, built: Workspace
) -> TunedGain:
    """``gain`` with the rows of a comparison of ``base`` (``untuned``'s) and ``after``
    (``built``'s, tuned): each kernel's untuned and tuned time (matched by ``core.compare``), its
    record from the tuned build's manifest, and both Headroom lists."""
    from ..roofline import headroom

    comparison = Comparison(
        read_profile(base), read_profile(after), base_workspace=untuned, new_workspace=built
    )
    diff = comparison.summary()
    before = headroom(base, comparison.workspaces["base"])
    tuned_room = headroom(after, comparison.workspaces["new"])
    saved_before = {r.kernel: r.savings_us for r in before.rows if r.launched}
    saved_after = {r.kernel: r.savings_us for r in tuned_room.rows if r.launched}
    rows = []
    for d in diff.kernels:
        name = d.match.new or d.match.base or ""
        info = _kernel_info(built, d.match.new)
        tuned = _record_of(info)
        rows.append(
            KernelGain(
                kernel=name,
                base_kernel=d.match.base,
                trials=tuned.trials if tuned else None,
                record_us=tuned.best_us if tuned else None,
                default_us=tuned.default_us if tuned else None,
                base_us=_us(d.base_per_pass_ns),
                tuned_us=_us(d.new_per_pass_ns),
                status=d.status,
                headroom_before_us=saved_before.get(d.match.base or ""),
                headroom_after_us=saved_after.get(d.match.new or ""),
            )
        )
    return replace(
        gain,
        kernels=tuple(rows),
        base_total_us=_us(diff.total.base_per_pass_ns),
        tuned_total_us=_us(diff.total.new_per_pass_ns),
        headroom_before_us=before.savings_ns / 1e3,
        headroom_after_us=tuned_room.savings_ns / 1e3,
        notes=tuple(diff.notes),
    )


def _kernel_info(ws: Workspace, name: str | None) -> KernelInfo | None:
    if name is None:
        return None
    try:
        return ws.manifest.kernel(name)
    except KeyError:
        return None


def _us(ns: float | None) -> float | None:
    return None if ns is None else ns / 1e3
