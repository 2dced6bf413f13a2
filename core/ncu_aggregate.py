"""Combining per-instruction metrics: launches of one kernel, lines, files, kernels, the model.

Counts add; averages are weighted by ``inst_executed`` (the number of warp-level executions
they are an average over), never summed; categories become histograms such as
``Global(3),Shared`` (the way Nsight Compute's Source page prints them). A metric that has no
value on any instruction of a group stays absent from that group rather than becoming 0.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np

from kernelscope.core.ncu_metrics import INST_EXECUTED, Kind, kind_of
from kernelscope.core.ncu_model import InstructionTable, LineMetrics, Location


def combine_launches(tables: Sequence[InstructionTable]) -> InstructionTable:
    """One table for several launches of the same kernel (rows matched by offset)."""
    if len(tables) == 1:
        return tables[0]
    offsets = np.unique(np.concatenate([t.offsets for t in tables]))
    n = len(offsets)
    positions = [np.searchsorted(offsets, t.offsets) for t in tables]
    locations: list[Location | None] = [None] * n
    sass: list[str] | None = [""] * n if all(t.sass is not None for t in tables) else None
    for t, pos in zip(tables, positions, strict=True):
        for i, p in enumerate(pos):
            if locations[p] is None:
                locations[p] = t.locations[i]
            if sass is not None and not sass[p]:
                sass[p] = t.sass[i]  # type: ignore[index]
    keys = {k for t in tables for k in t.numbers}
    weights = []
    for t, pos in zip(tables, positions, strict=True):
        w = np.zeros(n)
        w[pos] = np.nan_to_num(t.metric(INST_EXECUTED))
        weights.append(w)
    numbers: dict[str, np.ndarray] = {}
    for key in keys:
        stacked = np.full((len(tables), n), np.nan)
        for row, (t, pos) in enumerate(zip(tables, positions, strict=True)):
            stacked[row, pos] = t.metric(key)
        present = ~np.isnan(stacked)
        if kind_of(key) is Kind.AVERAGE:
            w = np.where(present, np.vstack(weights), 0.0)
            wsum = w.sum(axis=0)
            vals = np.where(present, stacked, 0.0)
            mean = np.where(present, stacked, 0.0).sum(axis=0) / np.maximum(present.sum(0), 1)
            weighted = (vals * w).sum(axis=0) / np.where(wsum > 0, wsum, 1.0)
            col = np.where(wsum > 0, weighted, mean)
        else:
            col = np.nansum(stacked, axis=0)
        col[~present.any(axis=0)] = np.nan
        numbers[key] = col
    categories: dict[str, list[str | None]] = {}
    for key in {k for t in tables for k in t.categories}:
        merged: list[str | None] = [None] * n
        for t, pos in zip(tables, positions, strict=True):
            for i, v in enumerate(t.categories.get(key, ())):
                if merged[pos[i]] is None:
                    merged[pos[i]] = v
        categories[key] = merged
    return InstructionTable(offsets, locations, numbers, categories, sass)


def aggregate_rows(table: InstructionTable, rows: Sequence[int] | np.ndarray) -> dict[str, float]:
    """Numeric metrics over the given row indices."""
    rows = np.asarray(rows, dtype=np.int64)
    w = np.nan_to_num(table.metric(INST_EXECUTED)[rows])
    out: dict[str, float] = {}
    for key, col in table.numbers.items():
        v = col[rows]
        present = ~np.isnan(v)
        if not present.any():
            continue
        if kind_of(key) is Kind.AVERAGE:
            wp = w[present]
            total = wp.sum()
            out[key] = float((v[present] * wp).sum() / total) if total > 0 else 0.0
        else:
            out[key] = float(v[present].sum())
    return out


def histogram(values: Iterable[str | None]) -> str:
    """``Global(3),Shared``: values in first-seen order, with counts above one."""
    counts = Counter(v for v in values if v is not None)
    return ",".join(f"{v}({n})" if n > 1 else v for v, n in counts.items())


def _group(table: InstructionTable, rows: np.ndarray, file: str | None, line: int | None):
    cats = {}
    for key, col in table.categories.items():
        h = histogram(col[i] for i in rows)
        if h:
            cats[key] = h
    return LineMetrics(
        file=file,
        line=line,
        values=aggregate_rows(table, rows),
        categories=cats,
        offsets=[int(table.offsets[i]) for i in rows],
    )


def by_line(table: InstructionTable, file: str | None = None) -> dict[Location, LineMetrics]:
    """Per source line (innermost frame), optionally only the lines of one file."""
    groups: dict[Location, list[int]] = {}
    for i, loc in enumerate(table.locations):
        if loc is not None and (file is None or loc[0] == file):
            groups.setdefault(loc, []).append(i)
    return {
        loc: _group(table, np.asarray(rows), loc[0], loc[1])
        for loc, rows in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1]))
    }


def by_file(table: InstructionTable) -> dict[str, LineMetrics]:
    groups: dict[str, list[int]] = {}
    for i, loc in enumerate(table.locations):
        if loc is not None:
            groups.setdefault(loc[0], []).append(i)
    return {f: _group(table, np.asarray(rows), f, None) for f, rows in groups.items()}


def total(table: InstructionTable) -> LineMetrics:
    return _group(table, np.arange(len(table)), None, None)


def combine_totals(parts: Sequence[tuple[LineMetrics, float]]) -> LineMetrics:
    """Whole-model figures from per-kernel totals; each part comes with its inst_executed."""
    values: dict[str, float] = {}
    weights: dict[str, float] = {}
    for lm, w in parts:
        for key, v in lm.values.items():
            if kind_of(key) is Kind.AVERAGE:
                values[key] = values.get(key, 0.0) + v * w
                weights[key] = weights.get(key, 0.0) + w
            else:
                values[key] = values.get(key, 0.0) + v
    for key, w in weights.items():
        values[key] = values[key] / w if w > 0 else 0.0
    return LineMetrics(file=None, line=None, values=values)
