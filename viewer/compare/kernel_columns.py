"""Compare mode in the kernel list: the baseline's time, the new time, the change (a diverging
bar: red slower, blue faster, grey within noise) and the ratio of every kernel, per pass, and
a row for each kernel only the baseline has (greyed; nothing to open).

A kernel's time is the sum over its launches divided by the passes its profile holds
(``core.compare``). Sorting by the change puts the worst regressions first; a kernel on one
side only sorts as the time it adds (new) or saves (baseline).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from kernelscope.core.compare import (
    ONLY_BASE,
    ONLY_NEW,
    KernelDelta,
    ProfileDiff,
)
from kernelscope.core.ncu import KernelSummary
from kernelscope.core.view import ViewDocument

from ..code.delta_delegate import DeltaRole
from ..widgets.formatting import format_number, format_signed
from ..widgets.rows_model import Column

DELTA_TITLE = "Δ µs"
SPEEDUP = "Speedup"  # base / new, in place of the ratio for a tuned build
STATUS_TEXT = {ONLY_BASE: "only in base", ONLY_NEW: "only in new"}


def _us(ns: float | None) -> float | None:
    return ns / 1e3 if ns is not None else None


def _tooltip(d: KernelDelta) -> str:
    m = d.match
    lines = [f"<b>{m.label}</b>", f"{d.status}; matched by {m.how}: {m.evidence}"]
    if d.delta_ns is not None and d.noise_ns is not None:
        lines.append(
            f"{format_number(_us(d.base_per_pass_ns))} → {format_number(_us(d.new_per_pass_ns))} "
            f"µs per pass, {format_signed(_us(d.delta_ns))} µs "
            f"(noise ±{format_number(_us(d.noise_ns))})"
        )
    lines.append(f"launches: {d.base_launches} in base, {d.new_launches} in new")
    return "<br>".join(lines)


def compare_columns(
    diff: ProfileDiff, baseline: ViewDocument, speedup: bool = False
) -> tuple[list[Column[KernelSummary]], list[KernelSummary]]:
    """The kernel list's compare columns and the rows of kernels only in the baseline;
    ``speedup`` (the new side is a build from tuning records): the ratio as the speedup,
    base over new, which is what tuning is read by."""
    by_new = {d.match.new: d for d in diff.kernels if d.match.new}
    extra: list[KernelSummary] = []
    by_row: dict[int, KernelDelta] = {}
    for d in diff.only_base:
        name = d.match.base or ""
        try:
            summary = baseline.summary(name)
        except KeyError:
            summary = KernelSummary(name=name)
        row = dataclasses.replace(summary, launches=(), duration_ns=None, share=0.0)
        extra.append(row)
        by_row[id(row)] = d

    def delta(s: KernelSummary) -> KernelDelta | None:
        return by_row.get(id(s)) or by_new.get(s.name)

    def ordered(s: KernelSummary) -> float:
        d = delta(s)
        if d is None:
            return 0.0
        if d.delta_ns is not None:
            return d.delta_ns
        if d.status == ONLY_NEW:
            return d.new_per_pass_ns or 0.0
        return -(d.base_per_pass_ns or 0.0)

    top = max((abs(d.delta_ns) for d in diff.kernels if d.delta_ns is not None), default=0.0)

    def roles(change: bool = False) -> Callable[[KernelSummary, int], Any]:
        """What a compare column answers besides its text: the row's tooltip, alignment
        and, for the change, its bar."""

        def answer(s: KernelSummary, role: int) -> Any:
            d = delta(s)
            if d is None:
                return None
            if role == Qt.ItemDataRole.ToolTipRole:
                return _tooltip(d)
            if change and role == DeltaRole:
                fraction = (d.delta_ns or 0.0) / top if top > 0 else 0.0
                return (fraction, d.status)
            if change and role == Qt.ItemDataRole.ForegroundRole and d.delta_ns is None:
                return QColor(Qt.GlobalColor.gray)
            if role == Qt.ItemDataRole.TextAlignmentRole:
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            return None

        return answer

    def time(side: str) -> Callable[[KernelSummary], float]:
        def value(s: KernelSummary) -> float:
            d = delta(s)
            if d is None:
                return 0.0
            ns = d.base_per_pass_ns if side == "base" else d.new_per_pass_ns
            return (ns or 0.0) / 1e3

        return value

    def delta_text(s: KernelSummary) -> str:
        d = delta(s)
        if d is None:
            return ""
        if d.delta_ns is None:
            return STATUS_TEXT.get(d.status, d.status)
        return format_signed(_us(d.delta_ns))

    def ratio_text(s: KernelSummary) -> str:
        d = delta(s)
        r = d.ratio if d is not None else None
        return f"{r:.2f}x" if r is not None and d is not None and d.delta_ns is not None else ""

    def ratio_value(s: KernelSummary) -> float:
        d = delta(s)
        return (d.ratio or 0.0) if d is not None else 0.0

    def speedup_value(s: KernelSummary) -> float:
        r = ratio_value(s)
        return 1 / r if r else 0.0

    def speedup_text(s: KernelSummary) -> str:
        return f"{speedup_value(s):.2f}×" if ratio_text(s) else ""

    def us_text(side: str) -> Callable[[KernelSummary], str]:
        get = time(side)

        def text(s: KernelSummary) -> str:
            d = delta(s)
            present = d is not None and (d.match.base if side == "base" else d.match.new)
            return format_number(get(s)) if present else ""

        return text

    columns = [
        Column(DELTA_TITLE, ordered, delta_text, number=False, roles=roles(change=True)),
        Column(SPEEDUP, speedup_value, speedup_text, number=False, roles=roles())
        if speedup
        else Column("Ratio", ratio_value, ratio_text, number=False, roles=roles()),
        Column("Base µs", time("base"), us_text("base"), roles=roles()),  # numbers: a bar
        Column("New µs", time("new"), us_text("new"), roles=roles()),
    ]
    return columns, extra
