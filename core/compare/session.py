"""A comparison of two profiles: open them (with their build workspaces when known), match
their kernels, and compare the whole model, one kernel's lines and SASS, or the lines that
changed most.

    cmp = open_comparison("b8.ncu-rep", "b2.ncu-rep", base_workspace="b8.kscope",
                          new_workspace="b2.kscope")
    diff = cmp.summary()                  # ProfileDiff: per-kernel deltas, launches, total
    k = cmp.kernel("fused_conv2d_add_relu_kernel")   # KernelComparison: lines, SASS
    worse, better = cmp.line_changes(SAMPLES, top=20)

The methods read the profiles (per-instruction data on first use, cached by ``ncu``) and may
take seconds on a cold report: call them from a worker. What they return are finished, frozen
values; each result is kept, so asking again is free. A ``Comparison`` holds values, never a
``Profile``: what it reads of each profile is a ``reading.ComparedProfile``, whose reads run
where its maker put them (``view.compare_documents``: on the profile thread). Threads may
share one: its work is done one call at a time.
"""

from __future__ import annotations

import logging
import math
import os
import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import fields
from pathlib import Path

from ..errors import KernelscopeError
from ..formatting import format_dims
from ..ncu import KernelSummary, Launch, Profile, is_report
from ..tasks import Cancel, ProgressFn, check_cancel, no_progress
from ..workspace import MANIFEST, PROFILES, KernelInfo, SassInstruction, Workspace
from .lines import align_lines
from .matching import KernelIdentity, match_kernels
from .noise import NOISE, NoiseModel
from .reading import ComparedProfile, KernelReading, read_profile
from .records import (
    FASTER,
    NO_TIME,
    ONLY_BASE,
    ONLY_NEW,
    SAME,
    SLOWER,
    WITHIN_NOISE,
    KernelComparison,
    KernelDelta,
    LaunchDelta,
    LineChange,
    LineRow,
    ProfileDiff,
    Side,
    TimeDelta,
)
from .sass import align_instructions, opcode_deltas

_log = logging.getLogger(__name__)

PathArg = str | os.PathLike[str]
# A launch gets at least this many registers per thread whatever ptxas reports (seen on H200:
# kernels ptxas built with 10 and 14 registers launch with 16).
MIN_REGISTERS = 16
Metrics = dict[str, float]


def count_passes(names: Sequence[str]) -> int:
    """How often a launch sequence repeats itself whole (the model iterations profiled)."""
    n = len(names)
    for period in range(1, n // 2 + 1):
        if n % period == 0 and all(names[i] == names[i % period] for i in range(n)):
            return n // period
    return 1


def workspace_misfit(kernels: Sequence[KernelSummary], ws: Workspace) -> str | None:
    """Why ``ws`` is not the build a profile with ``kernels`` was made from, or None when it
    fits: every profiled kernel is in its manifest, launched with the grid, block and registers
    it says."""
    built = {k.name: k for k in ws.manifest.kernels}
    for k in kernels:
        info = built.get(k.name)
        if info is None:
            return f"it has no kernel {k.name}"
        first = k.launches[0]
        for what, got, want in (
            ("grid", first.grid, info.grid),
            ("block", first.block, info.block),
        ):
            if got is not None and any(want) and tuple(got) != tuple(want):
                return f"{k.name} was launched with {what} {format_dims(got)}, the build says " + (
                    format_dims(want)
                )
        used, built_with = first.registers, info.registers
        if used is not None and built_with is not None and used != max(built_with, MIN_REGISTERS):
            return f"{k.name} used {used} registers, the build says {built_with}"
    return None


def _shape(v: Sequence[int | str]) -> str:
    """A tensor shape (a dimension can be symbolic): ``8x3x56x56``."""
    return "x".join(str(x) for x in v)


def _find_workspace(report: Path) -> Path | None:
    """The workspace a report sits in (``WS/profiles/REPORT``), as kernelscope profile leaves it."""
    folder = report.resolve().parent
    if folder.name == PROFILES and (folder.parent / MANIFEST).is_file():
        return folder.parent
    return None


def _resolve_input(path: PathArg | Sequence[PathArg]) -> tuple[list[Path], Path | None]:
    """Profile files and the workspace an input names: a report or CSV file(s), or a workspace
    folder (its newest attached report)."""
    if not isinstance(path, str | os.PathLike):
        return [Path(p) for p in path], None
    p = Path(path)
    if p.name == MANIFEST:
        p = p.parent
    if p.is_dir():
        ws = Workspace.open(p)
        reports = ws.profiles()
        if not reports:
            raise KernelscopeError(
                f"{p} is a workspace without profiles",
                hint=f"profile it first (kernelscope profile {p}) or give a report",
            )
        return [reports[-1]], p
    if not p.exists():
        raise KernelscopeError(f"{p}: no such file")
    return [p], _find_workspace(p) if is_report(p) else None


def open_comparison(
    base: PathArg | Sequence[PathArg],
    new: PathArg | Sequence[PathArg],
    *,
    base_workspace: PathArg | None = None,
    new_workspace: PathArg | None = None,
    noise: NoiseModel = NOISE,
    passes: tuple[int | None, int | None] = (None, None),
    progress: ProgressFn = no_progress,
    cancel: Cancel | None = None,
) -> Comparison:
    """Open two profiles (reports, CSV exports, or workspaces with attached reports).

    A workspace given for the base only is tried for the new profile too, and kept there when
    it fits (two profiles of one build); a workspace that does not fit its profile is not
    used, with a note saying why. ``cancel`` is polled between the two reports.
    """
    notes: list[str] = []
    base_files, base_found = _resolve_input(base)
    new_files, new_found = _resolve_input(new)
    ws_b = Path(base_workspace) if base_workspace is not None else base_found
    ws_n = Path(new_workspace) if new_workspace is not None else new_found
    shared = new_workspace is None and new_found is None and base_workspace is not None
    wb = Workspace.open(ws_b) if ws_b is not None else None
    wn = Workspace.open(ws_n) if ws_n is not None else (wb if shared else None)
    progress("open", 0.0, f"reading {base_files[0].name}")
    pb = Profile.open(base_files if len(base_files) > 1 else base_files[0], workspace=wb)
    check_cancel(cancel, "comparing profiles")
    progress("open", 0.5, f"reading {new_files[0].name}")
    pn = Profile.open(new_files if len(new_files) > 1 else new_files[0], workspace=wn)
    check_cancel(cancel, "comparing profiles")
    progress("open", 1.0, "both profiles read")
    if shared and wn is not None:
        why = workspace_misfit(pn.kernels(), wn)
        if why is None:
            notes.append(f"{wn.path} is the build of both profiles")
        else:
            _log.info("%s does not fit %s: %s", wn.path, pn.name, why)
            wn = None
    return Comparison(
        read_profile(pb),
        read_profile(pn),
        base_workspace=wb,
        new_workspace=wn,
        noise=noise,
        passes=passes,
        notes=notes,
    )


class Comparison:
    """What two profiles hold (``reading.read_profile``) and what is known of their builds;
    see the module docstring.

    The viewer makes one from two open documents (``view.compare_documents``). A workspace
    that is not the build of its profile (``workspace_misfit``) is not used, with a note
    saying why.
    """

    def __init__(
        self,
        base: ComparedProfile,
        new: ComparedProfile,
        *,
        base_workspace: Workspace | None = None,
        new_workspace: Workspace | None = None,
        noise: NoiseModel = NOISE,
        passes: tuple[int | None, int | None] = (None, None),
        notes: Sequence[str] = (),
    ) -> None:
        self._profiles = {"base": base, "new": new}
        self.workspaces = {"base": base_workspace, "new": new_workspace}
        self._notes = list(notes)
        for role, ws in list(self.workspaces.items()):
            p = self._profiles[role]
            why = workspace_misfit(p.kernels, ws) if ws is not None else None
            if ws is not None and why is not None:
                self._notes.append(
                    f"{ws.path} is not the build of {role} {p.name} ({why}); not used"
                )
                self.workspaces[role] = None
        # the duration band only for reports of the GPU it was measured on
        self.noise = noise.for_devices(d for p in self._profiles.values() for d in p.devices)
        if not self.noise.band_known:
            self._notes.append(self.noise.unknown_band_note())
        self.passes = {
            role: given or count_passes([x.name for x in self._profiles[role].launches])
            for role, given in zip(("base", "new"), passes, strict=True)
        }
        self._summary: ProfileDiff | None = None
        self._kernels: dict[str, KernelComparison] = {}
        self._embedded: dict[str, Mapping[str, str]] = {}
        self._one_at_a_time = threading.RLock()  # its caches are filled by one thread at once

    def name(self, role: str) -> str:
        """The file name of one side's profile (``base`` or ``new``)."""
        return self._profiles[role].name

    def resolve_metric(self, text: str) -> str:
        """A metric key for what a user typed, as the profiles with line data know them
        (new's first); raises with the known names if none fits."""
        with self._one_at_a_time:
            for p in (self._profiles["new"], self._profiles["base"]):
                if any(x.has_source_metrics for x in p.launches):
                    return p.resolve_metric(text)
            return text

    # ---- identities and sources ----------------------------------------------------------
    def _info(self, role: str, name: str) -> KernelInfo | None:
        ws = self.workspaces[role]
        if ws is None:
            return None
        try:
            return ws.manifest.kernel(name)
        except KeyError:
            return None

    def _identities(self, role: str) -> list[KernelIdentity]:
        profile = self._profiles[role]
        order = {x.name: i for i, x in reversed(list(enumerate(profile.launches)))}
        out = []
        for k in profile.kernels:
            first = k.launches[0]
            out.append(
                KernelIdentity(
                    name=k.name,
                    order=order[k.name],
                    grid=tuple(first.grid or ()),
                    block=tuple(first.block or ()),
                    registers=first.registers,
                    info=self._info(role, k.name),
                )
            )
        return out

    def _source_lines(self, role: str, name: str, reading: KernelReading) -> list[str] | None:
        """A kernel's own source on one side: the profile's copy (what was profiled), else its
        workspace's file; None when neither has it."""
        if reading.source is not None:
            return reading.source
        info, ws = self._info(role, name), self.workspaces[role]
        if info is not None and ws is not None:
            try:
                return ws.source_text(info).splitlines()
            except OSError:
                return None
        return None

    def _source_for_matching(self, role: str, name: str) -> list[str] | None:
        """The workspace's copy, else the profile's embedded one: neither needs the kernel's
        per-instruction data (reading that for every kernel would cost more than the diff)."""
        info, ws = self._info(role, name), self.workspaces[role]
        if info is not None and ws is not None:
            try:
                return ws.source_text(info).splitlines()
            except OSError:
                pass
        if role not in self._embedded:
            self._embedded[role] = self._profiles[role].embedded_sources()
        text = _kernel_file(self._embedded[role], name)
        return text.splitlines() if text is not None else None

    # ---- the per-kernel table ---------------------------------------------------------------
    def summary(self) -> ProfileDiff:
        """Kernels matched, per-kernel and per-launch times, the model total and notes."""
        with self._one_at_a_time:
            if self._summary is None:
                self._summary = self._make_summary()
            return self._summary

    def _make_summary(self) -> ProfileDiff:
        matches = match_kernels(
            self._identities("base"), self._identities("new"), self._source_for_matching
        )
        kb = {k.name: k for k in self._profiles["base"].kernels}
        kn = {k.name: k for k in self._profiles["new"].kernels}
        rows: list[KernelDelta] = []
        launches: list[LaunchDelta] = []
        for m in matches:
            a = kb.get(m.base) if m.base else None
            b = kn.get(m.new) if m.new else None
            la = list(a.launches) if a else []
            lb = list(b.launches) if b else []
            time = self._time_delta(
                a.duration_ns if a else None,
                b.duration_ns if b else None,
                la,
                lb,
                ONLY_NEW if a is None else ONLY_BASE if b is None else None,
            )
            rows.append(
                KernelDelta(
                    **{f.name: getattr(time, f.name) for f in fields(TimeDelta)},
                    match=m,
                    base_launches=len(la),
                    new_launches=len(lb),
                    base_share=a.share if a else 0.0,
                    new_share=b.share if b else 0.0,
                )
            )
            for i in range(max(len(la), len(lb))):
                x = la[i] if i < len(la) else None
                y = lb[i] if i < len(lb) else None
                launches.append(
                    LaunchDelta(
                        m.base,
                        m.new,
                        i,
                        x.id if x else None,
                        y.id if y else None,
                        x.duration_ns if x else None,
                        y.duration_ns if y else None,
                    )
                )
        rows = _model_order(rows, self._identities("base"), self._identities("new"))
        launches.sort(
            key=lambda d: (
                d.new_id if d.new_id is not None else math.inf,
                d.base_id if d.base_id is not None else math.inf,
            )
        )
        base_side, new_side = self._side("base"), self._side("new")
        total = self._time_delta(base_side.total_ns, new_side.total_ns, [], [], None)
        notes = self._notes + self._compare_notes(base_side, new_side, rows)
        return ProfileDiff(
            base_side, new_side, tuple(rows), tuple(launches), total, tuple(notes), self.noise
        )

    def _time_delta(
        self,
        base_ns: float | None,
        new_ns: float | None,
        la: Sequence[Launch],
        lb: Sequence[Launch],
        one_side: str | None,
    ) -> TimeDelta:
        pb, pn = self.passes["base"], self.passes["new"]
        bpp = base_ns / pb if base_ns is not None else None
        npp = new_ns / pn if new_ns is not None else None
        if one_side is not None:
            return TimeDelta(base_ns, new_ns, bpp, npp, None, None, one_side)
        if base_ns is None or new_ns is None or bpp is None or npp is None:
            return TimeDelta(base_ns, new_ns, bpp, npp, None, None, NO_TIME)
        band = self.noise.duration_band(
            base_ns, new_ns, pb, pn, _same_config_durations(la), _same_config_durations(lb)
        )
        delta = npp - bpp
        status = WITHIN_NOISE if abs(delta) <= band else SLOWER if delta > 0 else FASTER
        return TimeDelta(base_ns, new_ns, bpp, npp, delta, band, status)

    def _side(self, role: str) -> Side:
        p, ws = self._profiles[role], self.workspaces[role]
        return Side(
            role=role,
            name=p.name,
            paths=tuple(str(x) for x in p.paths),
            kind="report" if is_report(p.paths[0]) else "CSV export",
            workspace=str(ws.path) if ws else None,
            model=ws.manifest.model if ws else None,
            model_sha256=ws.manifest.model_sha256 if ws else None,
            devices=p.devices,
            compute_capability=p.launches[0].cc,
            launches=len(p.launches),
            kernels=len(p.kernels),
            passes=self.passes[role],
            total_ns=sum(x.duration_ns or 0.0 for x in p.launches),
            has_source_metrics=any(x.has_source_metrics for x in p.launches),
            warnings=tuple(p.warnings),
        )

    def _compare_notes(self, base: Side, new: Side, rows: list[KernelDelta]) -> list[str]:
        notes = []
        wb, wn = self.workspaces["base"], self.workspaces["new"]
        if wb is not None and wn is not None:
            mb, mn = wb.manifest, wn.manifest
            if mb.model_sha256 != mn.model_sha256:
                notes.append(
                    f"built from different model files: {mb.model} "
                    f"({mb.model_sha256[:12]}) and {mn.model} ({mn.model_sha256[:12]})"
                )
            shapes_b = [(t.name, t.shape) for t in mb.inputs]
            shapes_n = [(t.name, t.shape) for t in mn.inputs]
            if shapes_b != shapes_n:
                notes.append(
                    "inputs: "
                    + "; ".join(
                        f"{a[0]} {_shape(a[1])} -> {'' if a[0] == b[0] else b[0] + ' '}"
                        + _shape(b[1])
                        for a, b in zip(shapes_b, shapes_n, strict=False)
                        if a != b
                    )
                )
            for key in sorted(set(mb.versions) | set(mn.versions)):
                if key != "kernelscope" and mb.versions.get(key) != mn.versions.get(key):
                    notes.append(f"{key} {mb.versions.get(key)} -> {mn.versions.get(key)}")
            if mb.nvcc_flags != mn.nvcc_flags:
                notes.append(f"nvcc flags {' '.join(mb.nvcc_flags)} -> {' '.join(mn.nvcc_flags)}")
        elif wb is not None or wn is not None:
            missing = "new" if wn is None else "base"
            notes.append(
                f"no workspace for {missing}: kernels matched by name and source only "
                f"(give {'--w-new' if missing == 'new' else '-w'} WORKSPACE to compare "
                "their structure)"
            )
        known = all(s.devices and all(s.devices) for s in (base, new))
        if known and (
            base.devices != new.devices or base.compute_capability != new.compute_capability
        ):
            notes.append(
                f"different GPUs: {base.device} ({base.compute_capability}) and "
                f"{new.device} ({new.compute_capability}); times differ for that "
                "reason as well"
            )
        if base.passes != new.passes:
            notes.append(
                f"base profiled {base.passes} pass(es), new {new.passes}: compared per pass"
            )
        if base.kind != new.kind:
            notes.append(f"base is a {base.kind}, new a {new.kind}")
        matched = sum(1 for r in rows if r.match.base and r.match.new)
        if matched * 2 < base.kernels or matched * 2 < new.kernels:
            notes.append(
                f"only {matched} of {base.kernels} base and {new.kernels} new kernels "
                "match: these look like profiles of different models"
            )
        elif matched < max(base.kernels, new.kernels):
            notes.append(
                f"{base.kernels - matched} base and {new.kernels - matched} new kernels have "
                "no counterpart: the model changed, or these are two models"
            )
        redone = [r.match.label for r in rows if r.match.different_code]
        if redone:
            notes.append(
                f"{', '.join(redone)}: the same operator with different code (TVM scheduled "
                "it for other shapes); its lines are compared only where they correspond"
            )
        for side in (base, new):
            if not side.has_source_metrics:
                p = self._profiles[side.role]
                why = p.correlation_problem(p.kernels[0].name)
                notes.append(f"{side.role} {side.name}: kernel level only; {why}")
        return notes

    # ---- one kernel -------------------------------------------------------------------------
    def kernel(self, which: str | KernelDelta, side: str | None = None) -> KernelComparison:
        """One matched kernel, given as its row of ``summary()`` or by name (on ``side``, see
        ``ProfileDiff.kernel``): sources aligned with each line's metrics on both sides,
        per-opcode and (where the streams align) per-instruction SASS deltas."""
        delta = which if isinstance(which, KernelDelta) else self._delta(which, side)
        if delta.match.base is None or delta.match.new is None:
            only = "new" if delta.match.base is None else "base"
            raise KernelscopeError(
                f"{delta.name} is only in the {only} profile: nothing to compare it with "
                f"({delta.match.evidence})"
            )
        key = f"{delta.match.base}\0{delta.match.new}"
        with self._one_at_a_time:
            if key not in self._kernels:
                self._kernels[key] = self._compare_kernel(delta)
            return self._kernels[key]

    def _delta(self, name: str, side: str | None = None) -> KernelDelta:
        try:
            return self.summary().kernel(name, side)
        except KeyError:
            known = ", ".join(k.match.label for k in self.summary().kernels)
            raise KernelscopeError(
                f"no kernel {name!r} in {'either profile' if side is None else side}",
                hint=f"kernels: {known}",
            ) from None

    def _compare_kernel(self, delta: KernelDelta) -> KernelComparison:
        names = {"base": delta.match.base or "", "new": delta.match.new or ""}
        notes: list[str] = []
        files: dict[str, str | None] = {}
        texts: dict[str, list[str]] = {}
        lines: dict[str, Mapping[int, Metrics]] = {}
        has_lines: dict[str, bool] = {}
        totals: dict[str, Metrics] = {}
        sass: dict[str, list[SassInstruction]] = {}
        per_insn: dict[str, Mapping[int, Mapping[str, float]]] = {}
        for role in ("base", "new"):
            name = names[role]
            built = self._workspace_sass(role, name)
            reading = self._profiles[role].read_kernel(name, built is None)
            files[role] = reading.file
            texts[role] = self._source_lines(role, name, reading) or []
            if not texts[role]:
                notes.append(f"{role}: no source text for {name}")
            lines[role] = reading.lines
            has_lines[role] = reading.problem is None and reading.file is not None
            if reading.problem is not None:
                notes.append(f"{role}: {reading.problem}")
            totals[role] = dict(reading.totals)
            per_insn[role] = reading.instruction_metrics
            sass[role] = built if built is not None else _report_sass(reading)
        rows = align_lines(texts["base"], texts["new"], lines["base"], lines["new"])
        opcodes = opcode_deltas(
            sass["base"], sass["new"], per_insn["base"] or None, per_insn["new"] or None
        )
        insn_rows, share = align_instructions(
            sass["base"], sass["new"], per_insn["base"], per_insn["new"]
        )
        if not insn_rows and sass["base"] and sass["new"]:
            notes.append(
                f"the SASS streams differ too much to align instruction by instruction "
                f"({share:.0%} of the instructions align)"
            )
        return KernelComparison(
            kernel=delta,
            base_passes=self.passes["base"],
            new_passes=self.passes["new"],
            base_file=files["base"],
            new_file=files["new"],
            rows=tuple(rows),
            sources_identical=bool(rows) and all(r.kind == SAME for r in rows),
            base_has_lines=has_lines["base"],
            new_has_lines=has_lines["new"],
            opcodes=tuple(opcodes),
            instructions=tuple(insn_rows),
            instructions_aligned=share,
            base_totals=totals["base"],
            new_totals=totals["new"],
            notes=tuple(notes),
            noise=self.noise,
        )

    def _workspace_sass(self, role: str, name: str) -> list[SassInstruction] | None:
        """The kernel's instructions from its workspace's line table; None when the workspace
        has none for it (the report's SASS is used)."""
        ws = self.workspaces[role]
        if ws is not None and self._info(role, name) is not None:
            try:
                return list(ws.sass(name).instructions)
            except (KeyError, OSError, ValueError):
                pass
        return None

    # ---- hot lines ----------------------------------------------------------------------------
    def line_changes(
        self,
        metric: str,
        top: int = 20,
        kernel: str | None = None,
        cancel: Cancel | None = None,
    ) -> tuple[list[LineChange], list[LineChange]]:
        """The source lines whose ``metric`` (per pass) grew most and shrank most, over the
        matched kernels (or one): (biggest regressions, biggest improvements)."""
        deltas = [self._delta(kernel)] if kernel else list(self.summary().matched)
        deltas = [d for d in deltas if d.match.base and d.match.new]
        found: list[tuple[float, KernelComparison, LineRow]] = []
        for d in deltas:
            check_cancel(cancel, "comparing lines")
            comp = self.kernel(d)
            for row in comp.rows:
                change = comp.delta(row, metric)
                if change:
                    found.append((change, comp, row))

        def ranked(items: list[tuple[float, KernelComparison, LineRow]]) -> list[LineChange]:
            out = []
            for rank, (change, comp, row) in enumerate(items[: max(top, 0)], 1):
                m = comp.kernel.match
                out.append(
                    LineChange(
                        rank=rank,
                        kernel=m.new or m.base or "",
                        base_kernel=m.base,
                        new_kernel=m.new,
                        row=row,
                        metric=metric,
                        base_value=comp.value(row, metric, "base"),
                        new_value=comp.value(row, metric, "new"),
                        delta=change,
                        noise=comp.noise_band(row, metric),
                    )
                )
            return out

        def order(e: tuple[float, KernelComparison, LineRow]) -> tuple[str, int]:
            return (e[1].kernel.name, e[2].new_line or e[2].base_line or 0)

        worse = sorted((e for e in found if e[0] > 0), key=lambda e: (-e[0], order(e)))
        better = sorted((e for e in found if e[0] < 0), key=lambda e: (e[0], order(e)))
        return ranked(worse), ranked(better)


def _kernel_file(files: Mapping[str, str], kernel: str) -> str | None:
    """The text of a kernel's own file among a profile's embedded files: ``<kernel>.cu`` (a
    kernelscope build splits one file per kernel), else the one file defining it."""
    named = [t for p, t in files.items() if Path(p.replace("\\", "/")).name == f"{kernel}.cu"]
    if len(named) == 1:
        return named[0]
    defining = re.compile(r"__global__\b[^(;{]*\b" + re.escape(kernel) + r"\s*\(")
    found = [t for t in files.values() if defining.search(t)]
    return found[0] if len(found) == 1 else None


def _report_sass(reading: KernelReading) -> list[SassInstruction]:
    """A kernel's instructions from its report's SASS text."""
    texts = reading.sass or {}
    return [SassInstruction(off, t.strip(), None, None) for off, t in sorted(texts.items())]


def _same_config_durations(launches: Sequence[Launch]) -> list[float]:
    """Launch durations for the launch-to-launch spread, when all launches are alike."""
    configs = {(x.grid, x.block) for x in launches}
    if len(configs) != 1 or any(x.duration_ns is None for x in launches):
        return []
    return [x.duration_ns for x in launches if x.duration_ns is not None]


def _model_order(
    rows: list[KernelDelta], base: list[KernelIdentity], new: list[KernelIdentity]
) -> list[KernelDelta]:
    """New's first-launch order; a kernel only in base goes after the kernel that precedes it
    in base's order."""
    order_b = {k.name: k.order for k in base}
    order_n = {k.name: k.order for k in new}
    placed = sorted((r for r in rows if r.match.new), key=lambda r: order_n[r.match.new or ""])
    pending = sorted(
        (r for r in rows if not r.match.new), key=lambda r: order_b[r.match.base or ""]
    )
    result: list[KernelDelta] = []
    for r in placed:
        here = order_b.get(r.match.base or "")
        while pending and here is not None and order_b[pending[0].match.base or ""] < here:
            result.append(pending.pop(0))
        result.append(r)
    return result + pending
