"""``ViewDocument``s with Nsight Compute numbers: a report on its own, or a report laid over
the build workspace its kernels came from.

Per-instruction metrics are matched by offset from the function start. With a workspace the
SASS, its line table (inline frames included) and the sources are the workspace's, so lines
and files agree with the build; a report alone brings its own SASS, line table and
embedded sources. Per-line numbers are sums over each line's instructions, so only count
metrics are used (``ncu_metrics.Kind.COUNT``).
"""

from __future__ import annotations

import dataclasses
import math

from ..ncu import InstructionTable, Profile
from ..ncu import KernelSummary as ProfileKernel
from ..ncu.metrics import (
    INST_EXECUTED,
    SAMPLES,
    STALL_PREFIX,
    Kind,
    kind_of,
    label_of,
)
from ..workspace import SassInstruction, Workspace
from .document import (
    KernelSummary,
    KernelView,
    Metrics,
    SourceFile,
    ViewDocument,
    kernel_from_workspace,
    summary_from_info,
)

# per-line columns, in this order, when the profile has them
LINE_COLUMNS = (
    SAMPLES,
    INST_EXECUTED,
    "thread_inst_executed_true",
    "smsp__branch_targets_threads_divergent",
    "derived__memory_l2_theoretical_sectors_global_excessive",
    "derived__memory_l1_wavefronts_shared_excessive",
)
TIME = "Time (µs)"
SHARE = "Time %"
KERNEL_COLUMNS = (
    TIME,
    SHARE,
    "Launches",
    "Mean (µs)",
    "SM %",
    "Memory %",
    "Occupancy %",
    "Est. speedup %",
)


def document_from_profile(profile: Profile, workspace: Workspace | None = None) -> ViewDocument:
    kernels = profile.kernels()
    infos = {k.name: k for k in workspace.manifest.kernels} if workspace else {}
    summaries = []
    for k in kernels:
        summary = summary_from_info(infos[k.name]) if k.name in infos else KernelSummary(k.name)
        _add_profile_numbers(summary, k)
        stalls = profile.totals(k.name).stalls(1)
        summary.top_stall = stalls[0][0] if stalls else ""
        summaries.append(summary)
    present = set()
    for k in kernels[:1]:
        table = profile.instructions(k.name)
        present = set(table.numbers) if table is not None else set()
    columns = [key for key in LINE_COLUMNS if key in present]

    def load(name: str) -> KernelView:
        table = profile.instructions(name)
        if workspace is not None and name in infos:
            view = kernel_from_workspace(workspace, infos[name])
            if table is not None:
                view.instructions = _exact_call_sites(view.instructions, table)
        else:
            view = _kernel_from_report(profile, name, table)
        if table is not None:
            view.instruction_metrics = [_counts(table, insn.offset) for insn in view.instructions]
        return view

    title = profile.name if workspace is None else f"{workspace.manifest.model} — {profile.name}"
    return ViewDocument(
        title=title,
        summaries=summaries,
        load_kernel=load,
        path=profile.paths[0],
        kernel_metric_names=KERNEL_COLUMNS,
        line_metric_names=[label_of(key) for key in columns],
        workspace=workspace,
        profile=profile,
    )


def _exact_call_sites(
    instructions: list[SassInstruction], table: InstructionTable
) -> list[SassInstruction]:
    """The report's call-site lines for inlined instructions (nvdisasm's can lag, see sass.py)."""
    out = []
    for insn in instructions:
        i = table.index_of(insn.offset)
        where = table.locations[i] if i is not None else None
        if insn.inlined_at and where is not None and insn.inlined_at[-1][1] != where[1]:
            frames = [*insn.inlined_at[:-1], (insn.inlined_at[-1][0], where[1])]
            insn = dataclasses.replace(insn, inlined_at=frames)
        out.append(insn)
    return out


def _add_profile_numbers(summary: KernelSummary, k: ProfileKernel) -> None:
    first = k.first
    if not summary.grid and first.grid:
        summary.grid, summary.block = list(first.grid), list(first.block or ())
    summary.registers = summary.registers or k.registers
    speedups = [r.speedup_pct for x in k.launches for r in x.rules if r.speedup_pct is not None]
    values = {
        TIME: (k.duration_ns or 0.0) / 1000,
        SHARE: 100 * k.share,
        "Launches": float(len(k.launches)),
        "Mean (µs)": (k.duration_ns or 0.0) / 1000 / max(1, len(k.launches)),
        "SM %": k.sm_throughput_pct,
        "Memory %": k.memory_throughput_pct,
        "Occupancy %": k.achieved_occupancy_pct,
        "Est. speedup %": max(speedups) if speedups else None,
    }
    summary.metrics = {key: v for key, v in values.items() if v is not None}


def _counts(table: InstructionTable, offset: int) -> Metrics:
    """The count metrics of one instruction, by label (stall reasons included)."""
    i = table.index_of(offset)
    if i is None:
        return {}
    out: Metrics = {}
    for key, column in table.numbers.items():
        value = float(column[i])
        if math.isnan(value) or value == 0 or kind_of(key) is not Kind.COUNT:
            continue
        if key in LINE_COLUMNS or key.startswith(STALL_PREFIX):
            out[label_of(key)] = value
    return out


def _kernel_from_report(profile: Profile, name: str, table: InstructionTable | None) -> KernelView:
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
    main = files[0] if files else ""
    return KernelView(
        name=name,
        main_file=main,
        files={f: SourceFile(f, profile.source(f).text) for f in files},
        instructions=instructions,
        labels=_labels(instructions),
        instruction_metrics=[{} for _ in instructions],
    )


def _labels(instructions: list[SassInstruction]) -> dict[str, int]:
    """Branch labels of report SASS, where targets are printed as addresses."""
    labels: dict[str, int] = {}
    for insn in instructions:
        start = insn.text.find("`(")
        if start >= 0:
            target = insn.text[start + 2 : insn.text.find(")", start)]
            try:
                labels[target] = int(target, 16)
            except ValueError:
                continue
    return labels
