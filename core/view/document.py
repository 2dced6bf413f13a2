"""What the viewer shows: kernels, their source files, SASS, and metrics per line.

A ``ViewDocument`` is a Qt-free, read-only façade over whatever the user opened (a build
workspace, a profile attached to it or a report on its own). The viewer's item models read
only these objects, so every pane works the same whatever the data came from, and static
correlation (the line table of a workspace) is there even without a profile.

Values, not services: a ``KernelView`` is complete when it is made and never changes (as KDAB
Hotspot hands its views finished results), a ``KernelSummary`` likewise. What a window needs
of the profile behind a document it asks the document for (``kernel_times``, ``export_facts``,
``hot_lines``, ``details``, ``roofline``, ``headroom``); the document never hands out its live
``Profile``.

Source locations are ``(file, line)`` pairs where ``file`` is the path as the line table
recorded it (the build machine's path); ``KernelView.files`` maps each such path to the text
found for it by the one source lookup (``ncu.SourceResolver``), which may be missing
(``SourceFile.text is None``, with a ``note`` saying why) for headers nobody has.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..errors import KernelscopeError
from ..ncu import (
    HotLine,
    InstructionTable,
    KernelSummary,
    SourceFile,
    SourceResolver,
    metric_description,
    rank_lines,
    resolve_metric_name,
)
from ..workspace import KernelInfo, Location, SassInstruction, Workspace
from .ptx import NO_WORKSPACE, PtxView, ptx_view

if TYPE_CHECKING:
    from ..compare import Comparison
    from ..kernel_db import KernelTimes, ProfileFacts
    from ..ncu import KernelDetails, Profile
    from ..roofline import Headroom, Roofline

Metrics = dict[str, float]

# The metric every document has: how many SASS instructions a line compiled to.
SASS_COUNT = "SASS instructions"
_SASS_COUNT_TIP = (
    "SASS instructions this code compiled to, from the build's line table (no profile needed)"
)


@dataclass(frozen=True)
class KernelView:
    """One kernel with everything its source and SASS panes need; complete once made."""

    name: str
    main_file: str  # key of ``files`` for the kernel's own .cu file
    files: Mapping[str, SourceFile]
    instructions: Sequence[SassInstruction]
    labels: Mapping[str, int]  # branch label -> offset
    instruction_metrics: Sequence[Metrics]  # parallel to ``instructions``; counts only, by label
    ptx: PtxView = field(default_factory=lambda: PtxView(note=NO_WORKSPACE))
    # what ``file_metrics`` worked out, per file (not copied by ``dataclasses.replace``)
    _file_metrics: dict[str, dict[int, Metrics]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    @cached_property
    def _line_index(self) -> dict[Location, list[int]]:
        index: dict[Location, list[int]] = {}
        for i, insn in enumerate(self.instructions):
            for loc in insn.frames:
                index.setdefault(loc, []).append(i)
        return index

    @cached_property
    def offset_index(self) -> dict[int, int]:
        return {insn.offset: i for i, insn in enumerate(self.instructions)}

    def instructions_at(self, file: str, line: int) -> list[int]:
        """Indices of the instructions that a source line produced (inlined frames too)."""
        return self._line_index.get((file, line), [])

    def line_of(self, index: int, file: str) -> int | None:
        """The line of ``file`` that instruction ``index`` belongs to, if any frame is there."""
        for f, n in self.instructions[index].frames:
            if f == file:
                return n
        return None

    def location_of(self, index: int) -> Location | None:
        """Where to show instruction ``index``: its line in the kernel's file if it has one,
        else its innermost frame (a header)."""
        frames = self.instructions[index].frames
        for f, n in frames:
            if f == self.main_file:
                return f, n
        return frames[0] if frames else None

    def file_metrics(self, file: str) -> dict[int, Metrics]:
        """Metrics per line of one file as the source pane shows them: the instruction count,
        and the sum of each per-instruction metric over the line's instructions. A header line
        counts the instructions inlined from it, as Nsight Compute's Source view does (for a
        ranking where each instruction counts once, see ``ViewDocument.hot_lines``)."""
        cached = self._file_metrics.get(file)
        if cached is not None:
            return cached
        out: dict[int, Metrics] = {}
        for (f, n), indices in self._line_index.items():
            if f != file:
                continue
            metrics: Metrics = {SASS_COUNT: float(len(indices))}
            for i in indices:
                for key, value in self.instruction_metrics[i].items():
                    metrics[key] = metrics.get(key, 0.0) + value
            out[n] = metrics
        self._file_metrics[file] = out
        return out

    @cached_property
    def ptx_metrics(self) -> list[Metrics]:
        """Per PTX row what ``file_metrics`` gives a source line: the count of the SASS
        instructions assembled from it and the sum of each of their metrics."""
        out: list[Metrics] = []
        for indices in self.ptx.instructions:
            metrics: Metrics = {SASS_COUNT: float(len(indices))} if indices else {}
            for i in indices:
                for key, value in self.instruction_metrics[i].items():
                    metrics[key] = metrics.get(key, 0.0) + value
            out.append(metrics)
        return out

    def files_in_use(self) -> list[str]:
        """The kernel's file first, then every other file its instructions come from."""
        others = sorted({f for f, _ in self._line_index} - {self.main_file})
        return [self.main_file, *others]

    def target_offset(self, index: int) -> int | None:
        """Where a branch instruction jumps, from its label operand (``BRA `(.L_x_3)``)."""
        label = self.instructions[index].branch_label
        return self.labels.get(label) if label is not None else None

    def count_table(self) -> InstructionTable:
        """The instructions as a table with one metric, ``SASS_COUNT`` (1 each), at their line
        in the kernel's own file: what ranks lines by instruction count."""
        frames = [insn.kernel_line for insn in self.instructions]
        return InstructionTable(
            offsets=np.array([insn.offset for insn in self.instructions], dtype=np.int64),
            locations=frames,
            numbers={SASS_COUNT: np.ones(len(self.instructions))},
        )


class ViewDocument:
    """Everything one window shows.

    ``summaries`` and the metric names are there from the start. Methods that may read files
    (the report, the profile cache, the workspace's line table and sources) are marked "I/O"
    below: call them off the GUI thread. A document may be used from several threads; its
    lock lets one of them in at a time (the profile behind it is not thread-safe).
    """

    def __init__(
        self,
        title: str,
        summaries: Sequence[KernelSummary],
        load_kernel: Callable[[str], KernelView],
        *,
        path: Path | None = None,
        kernel_metric_names: Iterable[str] = (),
        line_metric_names: Iterable[str] = (),
        workspace: Workspace | None = None,
        profile: Profile | None = None,
        nvidia_descriptions: Mapping[str, str] | None = None,
    ) -> None:
        """``nvidia_descriptions``: NVIDIA's text for each metric name, from the report
        (``Profile.metric_descriptions``); the tooltips use it where it has a metric."""
        self.title = title
        self.path = path
        self.summaries = tuple(summaries)
        self.kernel_metric_names = tuple(kernel_metric_names)
        self.line_metric_names = (*line_metric_names, SASS_COUNT)
        self.workspace = workspace  # the build the kernels come from, if any
        # kernels the build has but the model never launches (TVM keeps reshape kernels that
        # run as views): the kernel list dims them and puts them last
        self.never_launched = frozenset(
            k.name for k in (workspace.manifest.kernels if workspace else ()) if not k.launched
        )
        self._profile = profile
        self._nvidia_descriptions = dict(nvidia_descriptions or {})
        self._load_kernel = load_kernel
        self._kernels: dict[str, KernelView] = {}
        self._lock = threading.RLock()

    @property
    def has_profile(self) -> bool:
        """Whether Nsight Compute numbers come with the document."""
        return self._profile is not None

    def add_nvidia_descriptions(self, descriptions: Mapping[str, str]) -> None:
        """NVIDIA's descriptions that arrive after the document was made (a report shown while
        a child process reads it)."""
        self._nvidia_descriptions = {**self._nvidia_descriptions, **descriptions}

    def metric_description(self, name: str) -> str:
        """What a kernel or line metric of this document means, for its tooltip: NVIDIA's
        description where the report carries one, else kernelscope's (no I/O)."""
        if name == SASS_COUNT:
            return _SASS_COUNT_TIP
        return metric_description(name, self._nvidia_descriptions)

    def kernel(self, name: str) -> KernelView:
        """I/O on the first call for a kernel (instructions, SASS, sources); kept after."""
        with self._lock:
            view = self._kernels.get(name)
            if view is None:
                view = self._kernels[name] = self._load_kernel(name)
            return view

    def launched(self, name: str) -> bool:
        """False for a kernel the build's manifest says the model never launches (no I/O)."""
        return name not in self.never_launched

    def summary(self, name: str) -> KernelSummary:
        for s in self.summaries:
            if s.name == name:
                return s
        raise KeyError(name)

    def kernel_times(self) -> KernelTimes:
        """Mean time of each measured kernel with the device it ran on (no I/O)."""
        return {
            s.name: (s.device_name, mean) for s in self.summaries if (mean := s.mean_ns) is not None
        }

    def export_facts(self, kernels: Sequence[str] | None = None) -> ProfileFacts:
        """I/O: what an export to the kernel DB stores from the profile (times, Nsight Compute
        version, line summaries) for these kernels (all when None); empty without a profile."""
        from ..kernel_db import ProfileFacts, profile_facts  # the DB layer loads on export only

        with self._lock:
            if self._profile is None:
                return ProfileFacts({}, None, {})
            return profile_facts(self._profile, kernels)

    def compare_to(self, baseline: ViewDocument) -> Comparison:
        """This document's profile (new) against ``baseline``'s, with their workspaces.

        The comparison reads both profiles when asked for a kernel, so use it where the
        documents' other reads run (the viewer's document lane), one thread at a time."""
        from ..compare import Comparison

        if self._profile is None or baseline._profile is None:
            side = "the open document" if self._profile is None else "the baseline"
            raise KernelscopeError(
                f"{side} has no Nsight Compute profile to compare",
                hint="compare two profiles: open a report, or a workspace with a profile",
            )
        return Comparison(
            baseline._profile,
            self._profile,
            base_workspace=baseline.workspace,
            new_workspace=self.workspace,
        )

    def _measured(self, what: str) -> Profile:
        if self._profile is None:
            raise KernelscopeError(
                f"{self.title} has no Nsight Compute profile: {what} comes from one",
                hint="open a report, or profile the workspace (Build & Profile, or "
                "kernelscope profile WORKSPACE) and open it again",
            )
        return self._profile

    def details(self, kernel: str, launch: int | None = None) -> KernelDetails:
        """I/O: the kernel's Details (``ncu.kernel_details``: its launches combined, or one
        launch), as ``kernelscope details --kernel`` shows them. A kernel the profile holds no
        launch of is a ``KernelscopeError`` saying why."""
        from ..ncu import kernel_details

        with self._lock:
            profile = self._measured("the Details view")
            if not self.launched(kernel):
                raise KernelscopeError(
                    f"{kernel} has no launches: the model never launches it",
                    hint="TVM keeps kernels that run as views (a reshape); nothing to measure",
                )
            return kernel_details(profile, kernel, launch)

    def roofline(self, kernel: str | None = None) -> Roofline:
        """I/O: every kernel on the roofline (or one kernel's launches), ``roofline.roofline``;
        ``Roofline.note`` says which counters are missing and the flag that collects them."""
        from ..roofline import roofline

        with self._lock:
            return roofline(self._measured("the roofline"), kernel)

    def headroom(self, roof: Roofline | None = None) -> Headroom:
        """I/O: the headroom list (``roofline.headroom``) with this document's workspace for
        the operator column; ``roof``, the document's ``roofline()`` if already computed."""
        from ..roofline import headroom

        with self._lock:
            return headroom(self._measured("the headroom list"), self.workspace, roof)

    def hot_lines(self, metric: str, kernel: str | None = None, limit: int = 50) -> list[HotLine]:
        """I/O: the lines with the most ``metric`` (a line metric name, label or Nsight Compute
        metric name), in one kernel or over the whole model, ranked by ``ncu.rank_lines`` as
        ``kernelscope hot`` ranks them. Empty when the document has no such metric."""
        with self._lock:
            if metric != SASS_COUNT:
                key = resolve_metric_name(metric)
                if self._profile is None or key is None or kernel in self.never_launched:
                    return []
                return self._profile.hot_lines(metric=key, top=limit, kernel=kernel)
            names = [kernel] if kernel else [s.name for s in self.summaries]
            views = [self.kernel(n) for n in names]
            files = {path: f for v in views for path, f in v.files.items()}

            def text_of(path: str) -> list[str] | None:
                f = files.get(path)
                return f.lines if f is not None and f.text is not None else None

            tables = [(v.name, v.count_table()) for v in views]
            return rank_lines(tables, SASS_COUNT, limit, text_of)


def hot_lines(
    document: ViewDocument, metric: str, kernel: str | None = None, limit: int = 50
) -> list[HotLine]:
    """I/O: ``document.hot_lines``, the hot-lines panel's entry point."""
    return document.hot_lines(metric, kernel, limit)


def document_from_workspace(ws: Workspace) -> ViewDocument:
    """Static view of a build: sources, SASS and the line table; no metrics yet."""
    resolver = SourceResolver(None, ws)
    return ViewDocument(
        title=ws.manifest.model or ws.path.name,
        summaries=[summary_from_info(k) for k in ws.manifest.kernels],
        load_kernel=lambda name: kernel_from_workspace(
            ws, ws.manifest.kernel(name), resolver.resolve
        ),
        path=ws.path,
        workspace=ws,
    )


def summary_from_info(k: KernelInfo) -> KernelSummary:
    """The kernel-list row a build alone gives."""
    return KernelSummary(
        name=k.name,
        ops=tuple(o.op for o in k.ops),
        grid=tuple(k.grid),
        block=tuple(k.block),
        registers=k.registers,
        sass_instructions=k.sass_instructions,
        source_lines=k.source_lines,
    )


def kernel_from_workspace(
    ws: Workspace,
    info: KernelInfo,
    resolve: Callable[[str], SourceFile],
    *,
    instructions: Sequence[SassInstruction] | None = None,
    instruction_metrics: Sequence[Metrics] | None = None,
) -> KernelView:
    """A kernel of a build from its line table (or the given ``instructions``, the same ones
    with the report's call sites), its files found by ``resolve``."""
    sass = ws.sass(info.name)
    insns = list(sass.instructions if instructions is None else instructions)
    own = Path(info.file).name
    recorded = {f for insn in insns for f, _ in insn.frames}
    main = next((f for f in sorted(recorded) if os.path.basename(f) == own), info.file)
    files = {f: resolve(f) for f in [main, *sorted(recorded - {main})]}
    return KernelView(
        name=info.name,
        main_file=main,
        files=files,
        instructions=insns,
        labels=dict(sass.labels),
        instruction_metrics=list(instruction_metrics or [{} for _ in insns]),
        ptx=ptx_view(ws, info.name, files, insns),
    )
