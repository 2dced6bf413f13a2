"""A report's launches of a torch.compile run, each tied to the wrapper call that made it.

Triton launches carry their kernel's name. The others (cuBLAS, cuDNN, attention libraries)
carry a library's name and come from the extern calls of the wrapper (``extern_kernels.mm``,
``extern_kernels.convolution``...): they are tied by position, the wrapper's calls and the
report's launches being in the same order. The library launches between two Triton launches
belong to the extern calls between the same two calls in the wrapper: one launch each, in
order, and what is left over (a split-K GEMM's second kernel, a cuDNN pre-pass) to the last.
A report of part of a run (``--launch-skip``, a kernel filter) ties what it can; what cannot be
tied is shown without an operator.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from ..ncu import Profile
from .run_folder import InductorRun, TritonKernel, WrapperLaunch


@dataclass(frozen=True)
class RunLaunch:
    """One profiled launch with the wrapper call that made it (None when not known)."""

    launch_id: int
    name: str
    duration_ns: float | None
    call: WrapperLaunch | None

    @property
    def triton(self) -> bool:
        return self.call.triton if self.call is not None else self.name.startswith("triton_")

    @property
    def operator(self) -> str:
        """``mm``, ``convolution``... for a library kernel; the ATen operators of a Triton one."""
        if self.call is None:
            return ""
        return self.call.operator if not self.call.triton else "+".join(self.call.aten)

    @property
    def aten(self) -> tuple[str, ...]:
        return self.call.aten if self.call is not None else ()


def tie_launches(run: InductorRun, profile: Profile) -> list[RunLaunch]:
    """Every launch of ``profile`` in report order, tied to ``run``'s wrapper calls; a report
    profiled step by step (its step markers) step by step (``tie_step``)."""
    launches = [(x.id, x.name, x.duration_ns) for x in profile.launches]
    if not profile.step_markers:
        return tie_calls(run.launches, launches)
    out: list[RunLaunch] = []
    markers = sorted(profile.step_markers)
    for i, start in enumerate(markers):
        end = markers[i + 1] if i + 1 < len(markers) else None
        step = [x for x in launches if x[0] > start and (end is None or x[0] < end)]
        out += tie_step(run, step)
    before = [x for x in launches if x[0] < markers[0]]
    return tie_calls(run.launches, before) + out if before else out


def tie_calls(
    calls: Sequence[WrapperLaunch], launches: Sequence[tuple[int, str, float | None]]
) -> list[RunLaunch]:
    """``launches`` (ID, kernel name, ns; in launch order) tied to the wrapper ``calls``."""
    out: list[RunLaunch] = []
    pos = 0  # the next wrapper call not yet tied
    pending: list[tuple[int, str, float | None]] = []  # library launches since the last Triton

    def flush(until: int) -> None:
        """Tie the pending library launches to the extern calls in calls[pos:until]."""
        externs = [c for c in calls[pos:until] if not c.triton]
        for i, (lid, name, dur) in enumerate(pending):
            call = externs[min(i, len(externs) - 1)] if externs else None
            out.append(RunLaunch(lid, name, dur, call))
        pending.clear()

    for lid, name, dur in launches:
        if not name.startswith("triton_"):
            pending.append((lid, name, dur))
            continue
        at = next(
            (i for i in range(pos, len(calls)) if calls[i].triton and calls[i].kernel == name),
            None,
        )
        if at is None:  # not in the wrapper (another run's report) or out of order
            flush(pos)
            out.append(RunLaunch(lid, name, dur, None))
            continue
        flush(at)
        out.append(RunLaunch(lid, name, dur, calls[at]))
        pos = at + 1
    flush(len(calls))
    return out


def tie_step(
    run: InductorRun, launches: Sequence[tuple[int, str, float | None]]
) -> list[RunLaunch]:
    """One call of the compiled model (an LLM's step: ``launches`` of one step of the report)
    tied to the graphs that ran it. Prefill and decode are different graphs whose kernels
    may share names (Inductor numbers each graph's kernels from 0), so the calls are those of
    the run of consecutive graphs (one, or several where Dynamo broke the model) that ties
    most of the step's Triton launches, with the fewest calls left over."""
    graphs: list[list[WrapperLaunch]] = []
    for wrapper in run.wrappers:
        calls = [c for c in run.launches if c.wrapper == wrapper]
        if calls:
            graphs.append(calls)
    best: tuple[tuple[int, int], list[RunLaunch]] | None = None
    for first in range(len(graphs)):
        for last in range(first, len(graphs)):
            calls = [c for g in graphs[first : last + 1] for c in g]
            tied = tie_calls(calls, launches)
            used = sum(1 for t in tied if t.call is not None and t.call.triton)
            score = (used, -len(calls))
            if best is None or score > best[0]:
                best = (score, tied)
    return best[1] if best is not None else tie_calls([], launches)


def report_problems(run: InductorRun, profile: Profile) -> list[str]:
    """Why ``profile`` may not be a profile of ``run``'s kernels, for people: Triton kernels
    the run does not have, and kernels whose source the report embedded differs from the
    run's (another PyTorch or Triton version, or another compile of the model), or, for a
    report made without ``--import-source``, the run's files that cannot be the ones it
    measured (the report has metrics past their end). Empty when the report fits: the lines
    of a report without sources that fit the run's files need no note."""
    names = {k.name for k in run.kernels}
    triton = [k.name for k in profile.kernels() if k.name.startswith("triton_")]
    foreign = [n for n in triton if n not in names]
    embedded = bool(profile.embedded_sources())
    changed, unchecked = [], []  # against the report's copies; against its line numbers only
    for name in triton:
        if name not in names:
            continue
        if not embedded:
            if _past_the_end(run.kernel(name), profile):
                unchecked.append(name)
            continue
        files = profile.source_files(name)
        if files and profile.source(files[0]).status == "changed":
            changed.append(name)
    problems = []
    redo = (
        "open the run folder the report was made from, or profile this run's model again "
        "(ncu --import-source yes) into it"
    )
    if unchecked:
        problems.append(
            f"{len(unchecked)} Triton kernels' files in the run folder are not the ones "
            f"profiled ({_few(unchecked)}: "
            "the report has metrics for lines past their end), and the report carries no "
            "sources (made without ncu --import-source yes): their per-line values land on "
            "the wrong lines; profile this run's model again with ncu --import-source yes"
        )
    if foreign:
        problems.append(
            f"{len(foreign)} of the report's {len(triton)} Triton kernels are not in this run "
            f"folder ({_few(foreign)}): the "
            f"report comes from another compile (another PyTorch or Triton version, or another "
            f"model); {redo}"
        )
    if changed:
        problems.append(
            f"{len(changed)} Triton kernels differ from the copies the report embedded "
            f"({_few(changed)}): the run folder "
            f"was compiled again since it was profiled (another PyTorch or Triton version?); "
            f"the report's copies are shown, its line numbers hold for them; {redo}"
        )
    return problems


def _few(names: list[str]) -> str:
    """The first three names, and ``...`` when there are more."""
    return ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")


def _past_the_end(kernel: TritonKernel, profile: Profile) -> bool:
    """Whether ``profile`` measured lines of ``kernel``'s file past the end of the run's copy
    (all a report without sources can tell of a file changed since)."""
    table = profile.instructions(kernel.name)
    if table is None:
        return False
    have = len(kernel.source_text.splitlines())
    return any(
        loc is not None and loc[1] > have and os.path.basename(loc[0]) == kernel.file_name
        for loc in table.locations
    )
