"""``ViewDocument``s with Nsight Compute numbers: a report on its own, or a report laid over
the build workspace its kernels came from.

Per-instruction metrics are matched by offset from the function start. With a workspace the
SASS, its line table (inline frames included) and the kernels' files are the workspace's, so
lines and files agree with the build; a report alone brings its own SASS, line table and
embedded sources. Either way the text of each file comes from the profile's one source lookup
(embedded copy first, then the workspace). Per-line numbers are sums over each line's
instructions, so only count metrics are used (``ncu.metrics.Kind.COUNT``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from ..errors import KernelscopeError
from ..ncu import (
    KERNEL_METRICS,
    REPORT_SUFFIX,
    InstructionTable,
    KernelSummary,
    Profile,
    SourceFile,
    report_steps,
    steps_path,
)
from ..ncu.kernel_list import group_kernels
from ..ncu.metrics import (
    INST_EXECUTED,
    SAMPLES,
    STALL_PREFIX,
    Kind,
    kind_of,
    label_of,
)
from ..workspace import KernelInfo, SassInstruction, Workspace, branch_target, model_lines
from .document import (
    KernelView,
    Metrics,
    ViewDocument,
    kernel_from_workspace,
    summary_from_info,
)
from .session import ProfileSession

# per-line columns, in this order, when the profile has them
LINE_COLUMNS = (
    SAMPLES,
    INST_EXECUTED,
    "thread_inst_executed_true",
    "smsp__branch_targets_threads_divergent",
    "derived__memory_l2_theoretical_sectors_global_excessive",
    "derived__memory_l1_wavefronts_shared_excessive",
)


def document_from_profile(
    profile: Profile,
    workspace: Workspace | None = None,
    *,
    summary_profile: Profile | None = None,
    before_load: Callable[[str], None] | None = None,
) -> ProfileSession:
    """Reads the kernel list and every kernel's totals (for its top stall): call it off the GUI
    thread. The session over ``profile`` with its document (``session.document``); kernels
    are read when first asked for (``ProfileSession.kernel``).

    ``summary_profile``: where the kernel list and its totals come from instead (a first look
    at a report that has no line data yet); ``before_load(name)`` is called before a kernel
    is read (to wait until a child process has read it)."""
    source = summary_profile or profile
    kernels = source.kernels()
    infos = {k.name: k for k in workspace.manifest.kernels} if workspace else {}
    summaries = []
    for k in kernels:
        stalls = source.totals(k.name).stalls(1)
        summaries.append(_with_build_facts(k, infos.get(k.name), stalls[0][0] if stalls else ""))
    steps, steps_note = _steps(source, workspace, summaries)
    profiled = {k.name for k in kernels}
    # the build's kernels that the model never launches: listed (dimmed, last), never measured
    unlaunched = {n: i for n, i in infos.items() if not i.launched and n not in profiled}
    summaries.extend(summary_from_info(i) for i in unlaunched.values())
    present: set[str] = set()
    for k in kernels[:1]:
        table = source.instructions(k.name)
        present = set(table.numbers) if table is not None else set()
    columns = [key for key in LINE_COLUMNS if key in present]

    def load(name: str) -> KernelView:
        if workspace is not None and name in unlaunched:
            return kernel_from_workspace(workspace, unlaunched[name], profile.source)
        if before_load is not None:
            before_load(name)
        return kernel_from_profile(profile, name, workspace)

    title = profile.name if workspace is None else f"{workspace.manifest.model} — {profile.name}"
    document = ViewDocument(
        title=title,
        summaries=summaries,
        has_profile=True,
        workspace=workspace,
        path=profile.paths[0],
        kernel_metric_names=KERNEL_METRICS,
        line_metric_names=[label_of(key) for key in columns],
        # a first look has none yet (the child reads them with the Details: ``open``)
        nvidia_descriptions=_descriptions(profile) if summary_profile is None else None,
        steps=steps,
    )
    if steps_note:
        document.notes = (steps_note,)
    return ProfileSession(document, load, profile=profile, workspace=workspace)


def kernel_from_profile(
    profile: Profile, name: str, workspace: Workspace | None = None
) -> KernelView:
    """One kernel with the profile's numbers: the workspace's SASS and line table when it is
    one of the workspace's kernels with SASS, else the report's own (a kernel the workspace
    only names: a library kernel of a torch.compile run, one whose cubin is gone). I/O (the
    report, the cache)."""
    table = profile.instructions(name)
    kernels = workspace.manifest.kernels if workspace is not None else []
    info = next((k for k in kernels if k.name == name), None)
    if info is None or workspace is None:
        return _kernel_from_report(profile, name, table)
    if not info.sass_instructions:  # its file (a torch.compile wrapper) beside the report's SASS
        path = workspace.source_path(info)
        text = path.read_text(encoding="utf-8") if path.is_file() else None
        own = SourceFile(info.file, text, "workspace", "ok" if text else "missing", path)
        view = _kernel_from_report(profile, name, table, own)
        if view.main_file == info.file and info.start_line:
            view = dataclasses.replace(view, start_line=info.start_line)
        return view
    instructions = workspace.sass(name).instructions
    metrics = None
    if table is not None:
        instructions = _exact_call_sites(instructions, table)
        metrics = _counts(table, [insn.offset for insn in instructions])
    return kernel_from_workspace(
        workspace,
        info,
        profile.source,
        instructions=instructions,
        instruction_metrics=metrics,
    )


def _descriptions(profile: Profile) -> dict[str, str]:
    """NVIDIA's metric descriptions: the report's, read with a launch's Details (from the
    cache that reading the report in a child filled, else from the report); none in CSVs."""
    known = profile.metric_descriptions()
    if known or profile.paths[0].suffix != REPORT_SUFFIX:
        return dict(known)
    try:
        profile.launch_metrics(profile.launches[0].id)
    except KernelscopeError:
        return {}
    return dict(profile.metric_descriptions())


def _steps(
    profile: Profile, workspace: Workspace | None, summaries: Sequence[KernelSummary]
) -> tuple[dict[str, list[KernelSummary]], str]:
    """Each profiled step's kernels, for a report of an LLM's steps (the runner's markers in
    it, its step list beside it); none for another report. When they do not fit, none and
    why (the window says it)."""
    if not profile.step_markers and not steps_path(profile.paths[0]).is_file():
        return {}, ""
    try:
        steps = report_steps(profile, workspace.path if workspace is not None else None)
    except KernelscopeError as exc:
        return {}, f"the kernel list cannot show steps: {exc}"
    whole = {s.name: s for s in summaries}
    out = {}
    for step in steps:
        out[step.label] = [
            dataclasses.replace(
                k,
                **{f: getattr(whole[k.name], f) for f in _BUILD_FACTS if k.name in whole},
            )
            for k in group_kernels(step.launches)
        ]
    return out, ""


# what the whole kernel list knows of a kernel beyond its launches (the build's facts, the
# top stall), which a step's row keeps
_BUILD_FACTS = (
    "grid",
    "block",
    "registers",
    "ops",
    "sass_instructions",
    "source_lines",
    "top_stall",
    "tuned",
    "about",
    "model_lines",
)


def _with_build_facts(k: KernelSummary, info: KernelInfo | None, top_stall: str) -> KernelSummary:
    """The profile's row, with what the build knows of the kernel when it is one of its own."""
    if info is None:
        return dataclasses.replace(k, top_stall=top_stall)
    return dataclasses.replace(
        k,
        # the build's grid, unless an extent of it is symbolic and unbound (0): then the
        # report's, which is what the launch really was (the KV cache's runtime launches)
        grid=tuple(info.grid) if info.grid and all(info.grid) else k.grid,
        block=tuple(info.block) or k.block,
        registers=info.registers if info.registers is not None else k.registers,
        ops=tuple(o.op for o in info.ops),
        sass_instructions=info.sass_instructions,
        source_lines=info.source_lines,
        top_stall=top_stall,
        tuned=info.tuned,
        about=tuple(info.about),
        model_lines=model_lines(info),
    )


def _exact_call_sites(
    instructions: list[SassInstruction], table: InstructionTable
) -> list[SassInstruction]:
    """The report's call-site lines for inlined instructions (nvdisasm's can lag, see
    ``build.nvdisasm``); new instructions, the workspace's own are left as they are."""
    out = []
    for insn in instructions:
        i = table.index_of(insn.offset)
        where = table.locations[i] if i is not None else None
        if insn.inlined_at and where is not None and insn.inlined_at[-1][1] != where[1]:
            frames = [*insn.inlined_at[:-1], (insn.inlined_at[-1][0], where[1])]
            insn = dataclasses.replace(insn, inlined_at=frames)
        out.append(insn)
    return out


def _counts(table: InstructionTable, offsets: Sequence[int]) -> list[Metrics]:
    """The count metrics of each instruction at ``offsets``, by label (stall reasons
    included); one pass per metric, not per instruction."""
    keys = [
        key
        for key in table.numbers
        if kind_of(key) is Kind.COUNT and (key in LINE_COLUMNS or key.startswith(STALL_PREFIX))
    ]
    out: list[Metrics] = [{} for _ in offsets]
    if not len(table) or not keys:
        return out
    import numpy as np  # not at start-up: a table is there, so numpy is loaded already

    wanted = np.asarray(offsets, dtype=np.int64)
    rows = np.minimum(np.searchsorted(table.offsets, wanted), len(table) - 1)
    found = table.offsets[rows] == wanted
    for key in keys:
        column = table.numbers[key][rows]
        label = label_of(key)
        hits = np.flatnonzero(found & ~np.isnan(column) & (column != 0))
        for k, value in zip(hits.tolist(), column[hits].tolist(), strict=True):
            out[k][label] = value
    return out


def _kernel_from_report(
    profile: Profile, name: str, table: InstructionTable | None, own: SourceFile | None = None
) -> KernelView:
    """The report's SASS and sources; ``own``: the file to show when the report has none."""
    texts = profile.sass(name)
    instructions: list[SassInstruction] = []
    if table is not None:
        inlined = table.inlined or [None] * len(table)
        for i, offset in enumerate(table.offsets.tolist()):
            outer, inner = table.locations[i], inlined[i]
            where = inner or outer
            instructions.append(
                SassInstruction(
                    offset=offset,
                    text=texts.get(offset, "").strip(),
                    file=where[0] if where else None,
                    line=where[1] if where else None,
                    inlined_at=[outer] if inner and outer else [],
                )
            )
    else:
        instructions = [SassInstruction(o, t.strip(), None, None) for o, t in sorted(texts.items())]
    files = profile.source_files(name)
    shown = {f: profile.source(f) for f in files}
    if not files and own is not None:
        files, shown = [own.path], {own.path: own}
    return KernelView(
        name=name,
        main_file=files[0] if files else "",
        files=shown,
        instructions=instructions,
        labels=_labels(instructions, profile.kernel(name).launches[0].function_start),
        instruction_metrics=_counts(table, [i.offset for i in instructions])
        if table is not None
        else [{} for _ in instructions],
    )


def _labels(instructions: list[SassInstruction], start: int | None) -> dict[str, int]:
    """Branch labels of report SASS, which prints each target's absolute address."""
    labels: dict[str, int] = {}
    for insn in instructions:
        target = branch_target(insn.text)
        if target is not None and target[1] is not None and start is not None:
            labels[target[0]] = target[1] - start
    return labels
