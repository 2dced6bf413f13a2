"""What the viewer shows: kernels, their source files, SASS, and metrics per line.

A ``ViewDocument`` is a Qt-free, read-only façade over whatever the user opened (a build
workspace, a profile attached to it or a report on its own). The viewer's item models read
only these objects, so every pane works the same whatever the data came from, and static
correlation (the line table of a workspace) is there even without a profile.

Values, not services: a ``KernelView`` is complete when it is made and never changes (as KDAB
Hotspot hands its views finished results), a ``KernelSummary`` likewise, and the document
holds only such values. The live ``Profile`` and workspace behind a document have one owner,
a ``session.ProfileSession``, which the openers return (with the document as
``session.document``) and a window keeps beside the document; it reads them on one thread,
whoever asks: the kernels' views (``session.kernel``) and what a window needs beyond the
values (Details, roofline, headroom, export facts, hot lines, a comparison: the feature functions of
``features``) are read through it and handed back as finished values.

Source locations are ``(file, line)`` pairs where ``file`` is the path as the line table
recorded it (the build machine's path); ``KernelView.files`` maps each such path to the text
found for it by the one source lookup (``ncu.SourceResolver``), which may be missing
(``SourceFile.text is None``, with a ``note`` saying why) for headers nobody has.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from ..ncu import (
    InstructionTable,
    KernelSummary,
    SourceFile,
    SourceResolver,
    metric_description,
)
from ..workspace import (
    KernelInfo,
    Location,
    SassInstruction,
    Workspace,
    frame_index,
    model_lines,
)
from .ptx import NO_WORKSPACE, PtxView, ptx_view
from .session import ProfileSession

if TYPE_CHECKING:
    from ..kernel_db import KernelTimes

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
    # the line of ``main_file`` to go to and mark when the kernel is chosen and nothing else
    # is asked (``KernelInfo.start_line``: a library kernel's launching wrapper line); 0: none
    start_line: int = 0
    # what ``file_metrics`` worked out, per file (not copied by ``dataclasses.replace``)
    _file_metrics: dict[str, dict[int, Metrics]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    @cached_property
    def _line_index(self) -> dict[Location, list[int]]:
        return frame_index(self.instructions)

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
        ranking where each instruction counts once, see ``features.hot_lines``)."""
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
        import numpy as np  # not at start-up: the window's first paint needs none

        frames = [insn.kernel_line for insn in self.instructions]
        return InstructionTable(
            offsets=np.array([insn.offset for insn in self.instructions], dtype=np.int64),
            locations=frames,
            numbers={SASS_COUNT: np.ones(len(self.instructions))},
        )


class ViewDocument:
    """Everything one window shows, as values: the kernel list (``summaries``), the metric
    names, where the build is; read from any thread, no I/O. Each kernel's view comes from
    the document's ``ProfileSession`` (``session.kernel``), which the opener hands back with
    it and which alone reads files."""

    def __init__(
        self,
        title: str,
        summaries: Sequence[KernelSummary],
        *,
        has_profile: bool,
        workspace: Workspace | None = None,
        path: Path | None = None,
        kernel_metric_names: Iterable[str] = (),
        line_metric_names: Iterable[str] = (),
        nvidia_descriptions: Mapping[str, str] | None = None,
        steps: Mapping[str, Sequence[KernelSummary]] | None = None,
    ) -> None:
        """``nvidia_descriptions``: NVIDIA's text for each metric name, from the report
        (``Profile.metric_descriptions``); the tooltips use it where it has a metric.
        ``steps``: a report of an LLM's steps: each profiled step ("decode 2") with the
        kernels it launched, their numbers over that step's launches alone.
        ``workspace``: the build the kernels come from, if any (what the document keeps of it
        are values: its folder, its kernels)."""
        self.title = title
        self.path = path
        self.summaries = tuple(summaries)
        self.steps = {label: tuple(kernels) for label, kernels in (steps or {}).items()}
        self.kernel_metric_names = tuple(kernel_metric_names)
        self.line_metric_names = (*line_metric_names, SASS_COUNT)
        self.has_profile = has_profile  # whether Nsight Compute numbers come with it
        # the build the kernels come from (None for a report alone) and its kernels
        self.workspace_path = workspace.path if workspace is not None else None
        infos = workspace.manifest.kernels if workspace is not None else []
        self.workspace_kernels = tuple(k.name for k in infos)
        # kernels the build has but the model never launches (TVM keeps reshape kernels that
        # run as views): the kernel list dims them and puts them last
        self.never_launched = frozenset(k.name for k in infos if not k.launched)
        # the model the build was made from (file name and digest), to tell models apart
        self.model = workspace.manifest.model if workspace is not None else None
        self.model_sha256 = workspace.manifest.model_sha256 if workspace is not None else None
        self._nvidia_descriptions = dict(nvidia_descriptions or {})
        # what the opener found wrong with the inputs but could show anyway (a torch.compile
        # run's report of another compile, ...): the window says it when the document opens
        self.notes: tuple[str, ...] = ()

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

    def launched(self, name: str) -> bool:
        """False for a kernel the build's manifest says the model never launches (no I/O)."""
        return name not in self.never_launched

    def other_model(self, other: ViewDocument) -> str | None:
        """Why ``other`` is a profile of another model than this document's, or None when it
        may be the same model (a rerun, a batch size, a tuned build): the model files' digests
        where both builds are known, else whether half of ``other``'s kernels have no name
        here (TVM names kernels after their operators, so one model keeps most names)."""
        if self.model_sha256 and other.model_sha256:  # "" for a torch.compile run
            if self.model_sha256 == other.model_sha256:
                return None
            return f"{other.title} is a build of {other.model}, not of {self.model}"
        names = {s.name for s in self.summaries}
        shared = sum(1 for s in other.summaries if s.name in names)
        if shared * 2 >= len(other.summaries):
            return None
        return (
            f"only {shared} of the {len(other.summaries)} kernels of {other.title} have a "
            f"name in {self.title}"
        )

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


def document_from_workspace(ws: Workspace) -> ProfileSession:
    """Static view of a build: sources, SASS and the line table; no metrics yet. The session
    that reads it, with its document (``session.document``)."""
    resolver = SourceResolver(None, ws)
    document = ViewDocument(
        title=ws.manifest.model or ws.path.name,
        summaries=[summary_from_info(k) for k in ws.manifest.kernels],
        has_profile=False,
        workspace=ws,
        path=ws.path,
    )
    return ProfileSession(
        document,
        lambda name: kernel_from_workspace(ws, ws.manifest.kernel(name), resolver.resolve),
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
        tuned=k.tuned,
        about=tuple(k.about),
        model_lines=model_lines(k),
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
