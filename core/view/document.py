"""What the viewer shows: kernels, their source files, SASS, and metrics per line.

A ``ViewDocument`` is a Qt-free, read-only façade over whatever the user opened (a build
workspace, later a profile attached to it or a report on its own). The viewer's item models
read only these objects, so every pane works the same whatever the data came from, and
static correlation (the line table of a workspace) is there even without a profile.

Source locations are ``(file, line)`` pairs where ``file`` is the path as the line table
recorded it (the build machine's path); ``KernelView.files`` maps each such path to the text
found for it, which may be missing (``SourceFile.text is None``) for headers nobody has.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from ..workspace import KernelInfo, SassInstruction, Workspace

if TYPE_CHECKING:
    from ..ncu import Profile

Location = tuple[str, int]
Metrics = dict[str, float]

# The metric every document has: how many SASS instructions a line compiled to.
SASS_COUNT = "SASS instructions"


@dataclass
class SourceFile:
    path: str  # as recorded in the line table
    text: str | None  # None when no copy of the file was found

    @property
    def name(self) -> str:
        return os.path.basename(self.path) or self.path

    @cached_property
    def lines(self) -> list[str]:
        return self.text.splitlines() if self.text is not None else []


@dataclass
class KernelSummary:
    """One row of the kernel list."""

    name: str
    ops: list[str] = field(default_factory=list)  # fused Relax operators, program order
    grid: list[int] = field(default_factory=list)
    block: list[int] = field(default_factory=list)
    registers: int | None = None
    sass_instructions: int = 0
    source_lines: int = 0
    metrics: Metrics = field(default_factory=dict)  # kernel-level numbers from a profile
    top_stall: str = ""


@dataclass
class KernelView:
    """One kernel with everything its source and SASS panes need."""

    name: str
    main_file: str  # key of ``files`` for the kernel's own .cu file
    files: dict[str, SourceFile]
    instructions: list[SassInstruction]
    labels: dict[str, int]  # branch label -> offset
    instruction_metrics: list[Metrics]  # parallel to ``instructions``; counts only
    _file_metrics: dict[str, dict[int, Metrics]] = field(default_factory=dict, repr=False)

    @cached_property
    def _line_index(self) -> dict[Location, list[int]]:
        index: dict[Location, list[int]] = {}
        for i, insn in enumerate(self.instructions):
            for loc in _frames(insn):
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
        for f, n in _frames(self.instructions[index]):
            if f == file:
                return n
        return None

    def location_of(self, index: int) -> Location | None:
        """Where to show instruction ``index``: its line in the kernel's file if it has one,
        else its innermost frame (a header)."""
        frames = _frames(self.instructions[index])
        for f, n in frames:
            if f == self.main_file:
                return f, n
        return frames[0] if frames else None

    def file_metrics(self, file: str) -> dict[int, Metrics]:
        """Metrics per line of one file: the instruction count, and the sum of each
        per-instruction metric over the line's instructions (inlined ones included)."""
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

    def files_in_use(self) -> list[str]:
        """The kernel's file first, then every other file its instructions come from."""
        others = sorted({f for f, _ in self._line_index} - {self.main_file})
        return [self.main_file, *others]

    def target_offset(self, index: int) -> int | None:
        """Where a branch instruction jumps, from its label operand (``BRA `(.L_x_3)``)."""
        text = self.instructions[index].text
        start = text.find("`(")
        if start < 0:
            return None
        end = text.find(")", start)
        return self.labels.get(text[start + 2 : end])


def _frames(insn: SassInstruction) -> list[Location]:
    frames: list[Location] = []
    if insn.file is not None and insn.line is not None:
        frames.append((insn.file, insn.line))
    frames.extend(insn.inlined_at)
    return frames


class ViewDocument:
    """Everything one window shows. Kernels are built on first use and kept."""

    def __init__(
        self,
        title: str,
        summaries: list[KernelSummary],
        load_kernel: Callable[[str], KernelView],
        *,
        path: Path | None = None,
        kernel_metric_names: Iterable[str] = (),
        line_metric_names: Iterable[str] = (),
        workspace: Workspace | None = None,
        profile: Profile | None = None,
    ) -> None:
        self.title = title
        self.path = path
        self.summaries = summaries
        self.kernel_metric_names = list(kernel_metric_names)
        self.line_metric_names = [*line_metric_names, SASS_COUNT]
        self.workspace = workspace
        self.profile = profile  # the Nsight Compute profile the numbers come from, if any
        self._load_kernel = load_kernel
        self._kernels: dict[str, KernelView] = {}

    def kernel(self, name: str) -> KernelView:
        view = self._kernels.get(name)
        if view is None:
            view = self._kernels[name] = self._load_kernel(name)
        return view

    def summary(self, name: str) -> KernelSummary:
        for s in self.summaries:
            if s.name == name:
                return s
        raise KeyError(name)


def document_from_workspace(ws: Workspace) -> ViewDocument:
    """Static view of a build: sources, SASS and the line table; no metrics yet."""
    summaries = [summary_from_info(k) for k in ws.manifest.kernels]
    return ViewDocument(
        title=ws.manifest.model or ws.path.name,
        summaries=summaries,
        load_kernel=lambda name: kernel_from_workspace(ws, ws.manifest.kernel(name)),
        path=ws.path,
        workspace=ws,
    )


def summary_from_info(k: KernelInfo) -> KernelSummary:
    return KernelSummary(
        name=k.name,
        ops=[o.op for o in k.ops],
        grid=list(k.grid),
        block=list(k.block),
        registers=k.registers,
        sass_instructions=k.sass_instructions,
        source_lines=k.source_lines,
    )


def kernel_from_workspace(ws: Workspace, info: KernelInfo) -> KernelView:
    sass = ws.sass(info.name)
    own = Path(info.file).name
    recorded = {f for insn in sass.instructions for f, _ in _frames(insn)}
    main = next((f for f in sorted(recorded) if os.path.basename(f) == own), info.file)
    files = {main: SourceFile(main, ws.source_text(info))}
    for f in recorded - {main}:
        files[f] = SourceFile(f, _find_text(ws, f))
    return KernelView(
        name=info.name,
        main_file=main,
        files=files,
        instructions=sass.instructions,
        labels=sass.labels,
        instruction_metrics=[{} for _ in sass.instructions],
    )


def _find_text(ws: Workspace, recorded: str) -> str | None:
    """A file the line table names, looked up in the workspace first, then on this machine."""
    name = os.path.basename(recorded)
    candidates = [p for p in ws.path.glob(f"src/**/{name}") if p.is_file()]
    candidates.append(Path(recorded))
    for path in candidates:
        try:
            return path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
    return None


@dataclass
class HotLine:
    kernel: str
    file: str
    line: int
    value: float
    share: float  # of the metric's total over the lines considered, 0..1
    text: str  # the source line, stripped
    stall: str = ""  # the stall reason with the largest value on this line, if measured


def hot_lines(
    document: ViewDocument, metric: str, kernel: str | None = None, limit: int = 50
) -> list[HotLine]:
    """The lines with the most ``metric``, in one kernel or over the whole model."""
    names = [kernel] if kernel else [s.name for s in document.summaries]
    found: list[HotLine] = []
    for name in names:
        view = document.kernel(name)
        for file in view.files_in_use():
            lines = view.files[file].lines if file in view.files else []
            for line, metrics in view.file_metrics(file).items():
                value = metrics.get(metric, 0.0)
                if value <= 0:
                    continue
                text = lines[line - 1].strip() if 0 < line <= len(lines) else ""
                found.append(HotLine(name, file, line, value, 0.0, text, _top_stall(metrics)))
    total = sum(h.value for h in found)
    found.sort(key=lambda h: -h.value)
    for h in found:
        h.share = h.value / total if total > 0 else 0.0
    return found[:limit]


def _top_stall(metrics: Metrics) -> str:
    stalls = [
        (v, k)
        for k, v in metrics.items()
        if k.startswith("stall_") and "not issued" not in k.lower() and v > 0
    ]
    return max(stalls)[1] if stalls else ""
