"""The Steps pane's tables: the profiled steps (their values and time by operator group) and
the ledger's rows (a kernel at one binding), over ``ncu.Ledger``."""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, Qt

from kernelscope.core.ncu import GROUPS, BindingRow, KernelLedger, Ledger, StepLedger

from ..widgets.formatting import format_number, format_us
from ..widgets.nnfusion_colours import colour
from ..widgets.roles import BarRole
from ..widgets.rows_model import Column, RowsModel


def _num(value: int | None) -> str:
    return format_number(value, missing="-")


STEP_COLUMNS: tuple[Column[StepLedger], ...] = (
    Column("Step", lambda s: (s.name != "prefill", s.index), lambda s: s.label, number=False,
           tip="the profiled step (prefill, decode k)"),
    Column("Seq len", lambda s: s.seq_len or 0, lambda s: _num(s.seq_len),
           tip="tokens each sequence took in this step"),
    Column("Batch", lambda s: s.batch or 0, lambda s: _num(s.batch), tip="sequences"),
    Column("Cached", lambda s: s.total_len or 0, lambda s: _num(s.total_len),
           tip="tokens the KV cache held after the step, all sequences"),
    Column("Launches", lambda s: s.launches, lambda s: str(s.launches),
           tip="kernel launches in the step (the step marker left out)"),
    Column("Time µs", lambda s: s.duration_ns, lambda s: format_us(s.duration_ns),
           tip="the launches' durations, summed (ncu: serialised launches, base clocks)"),
)  # fmt: skip


# shown for a CUDA graph build's steps (``build --cuda-graph``) alone
GRAPH_COLUMN: Column[StepLedger] = Column(
    "Graph nodes",
    lambda s: s.graph_launches,
    lambda s: f"{s.graph_launches} ({s.cuda_graph})" if s.cuda_graph else str(s.graph_launches),
    tip="launches that ran inside a CUDA graph (the build's IR says which: ncu's report does "
    "not); replay: the step replayed its graphs, capture: it captured them",
)


def _group_column(group: str) -> Column[StepLedger]:
    def ns(s: StepLedger) -> float:
        return s.groups[group].duration_ns if group in s.groups else 0.0

    def share(s: StepLedger) -> float:
        return ns(s) / s.duration_ns if s.duration_ns else 0.0

    return Column(
        f"{group.capitalize() if group != 'kv-cache' else 'KV cache'} µs",
        ns,
        lambda s: format_us(ns(s)) if group in s.groups else "-",
        bar=share,
        tip=GROUP_TIPS[group] + " (the bar: its share of the step)",
        roles=lambda s, role: (
            f"{group}: {format_us(ns(s))} µs, {share(s):.0%} of {s.label}"
            if role == Qt.ItemDataRole.ToolTipRole
            else None
        ),
    )


GROUP_TIPS = {
    "attention": "the KV cache's attention kernels (prefill, decode, merge) and Relax attention",
    "matmul": "kernels fused from a matmul (linear, NT_matmul, conv)",
    "norm": "kernels fused from a normalisation (rms_norm, layer_norm)",
    "rope": "the KV cache's rotary embedding kernel",
    "elementwise": "pointwise kernels (add, multiply, silu...)",
    "kv-cache": "the KV cache's maintenance: appending the step's keys and values, page copies",
    "library": "kernels the build does not have: a library's (cuBLAS, CUTLASS...)",
    "other": "everything else (reshape, take, reductions...)",
}


class StepsModel(RowsModel[StepLedger]):
    """One row per profiled step; a column per operator group the steps have."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(STEP_COLUMNS, parent)

    def set_ledger(self, ledger: Ledger | None) -> None:
        steps = ledger.steps if ledger is not None else []
        groups = [g for g in GROUPS if any(g in s.groups for s in steps)]
        graphs = [GRAPH_COLUMN] if any(s.cuda_graph or s.graph_launches for s in steps) else []
        self.beginResetModel()
        self.columns = [*STEP_COLUMNS[:5], *graphs, *STEP_COLUMNS[5:]]
        self.columns += [_group_column(g) for g in groups]
        self.rows = list(steps)
        self.endResetModel()

    def key(self, row: StepLedger, number: int) -> str:
        return row.label


@dataclass(frozen=True)
class LedgerRow:
    """A row of the kernels table: a kernel at one binding."""

    kernel: KernelLedger
    row: BindingRow


def _grids(r: LedgerRow) -> str:
    return ", ".join("x".join(str(d) for d in g) for g in r.row.grids) or "-"


ROW_COLUMNS: tuple[Column[LedgerRow], ...] = (
    Column("Kernel", lambda r: r.kernel.name, lambda r: r.kernel.name, number=False,
           tip="the kernel (one kernel, a row per binding it ran at)"),
    Column("Group", lambda r: GROUPS.index(r.kernel.group), lambda r: r.kernel.group,
           number=False, tip="its operator group, from the build's manifest"),
    Column("Bindings", lambda r: r.row.bindings_text(), lambda r: r.row.bindings_text(),
           number=False, tip="the symbolic values it ran at: the step function's variables, "
           "and for the KV cache's kernels the tokens the cache held (cached)"),
    Column("Steps", lambda r: len(r.row.steps), lambda r: r.row.steps_text(), number=False,
           tip="the steps it ran at these values"),
    Column("Launches", lambda r: r.row.launches,
           lambda r: str(r.row.launches) + (f" ({r.row.graph_launches} in graphs)"
                                             if r.row.graph_launches else ""),
           tip="its launches at these values (and how many ran inside a CUDA graph)"),
    Column("Time µs", lambda r: r.row.duration_ns, lambda r: format_us(r.row.duration_ns),
           tip="their durations, summed"),
    Column("Grid", _grids, lambda r: "⚠ " * bool(r.row.flag) + _grids(r), number=False,
           tip="the grid Nsight Compute recorded; ⚠ where the build's grid expression gives "
           "another at these values"),
)  # fmt: skip
TIME = 5
GRID = 6


class LedgerModel(RowsModel[LedgerRow]):
    """The ledger's kernels, a row per binding; one step's rows when a step is chosen."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(ROW_COLUMNS, parent)
        self._top = 0.0

    def set_ledger(self, ledger: Ledger | None, step: str | None = None) -> None:
        rows = [
            LedgerRow(k, r)
            for k in (ledger.kernels if ledger is not None else [])
            for r in k.rows
            if step is None or step in r.steps
        ]
        self._top = max((r.row.duration_ns for r in rows), default=0.0)
        self.set_rows(rows)

    def key(self, row: LedgerRow, number: int) -> tuple[str, int]:
        """The launch a row stands for: its kernel and its first launch."""
        return row.kernel.name, row.row.launch_ids[0]

    def tooltip(self, row: LedgerRow, column: int) -> str:
        lines = [f"<b>{html.escape(row.kernel.name)}</b>: {html.escape(row.kernel.group)}"]
        lines.append(html.escape(row.kernel.why))
        ids = row.row.launch_ids
        lines.append(f"launches {', '.join(str(i) for i in ids[:8])}{' …' * (len(ids) > 8)}")
        if row.row.flag:
            lines.append(f"<b>⚠ {html.escape(row.row.flag)}</b>")
        return "<br>".join(lines)

    def role_data(self, row: LedgerRow, column: int, role: int) -> Any:
        if role == BarRole and column == TIME:
            return row.row.duration_ns / self._top if self._top > 0 else 0.0
        if role == Qt.ItemDataRole.ForegroundRole and row.row.flag and column == GRID:
            return colour("warn")
        return None

    def row_of(self, kernel: str, launch: int | None) -> int:
        return next(
            (
                i
                for i, r in enumerate(self.rows)
                if r.kernel.name == kernel and (launch is None or launch in r.row.launch_ids)
            ),
            -1,
        )
