"""Combining per-instruction metrics: launches of one kernel, lines, files, kernels, the model.

Counts add; averages are weighted by ``inst_executed`` (the number of warp-level executions
they are an average over), never summed; categories become histograms such as
``Global(3),Shared`` (the way Nsight Compute's Source page prints them). A metric that has no
value on any instruction of a group stays absent from that group rather than becoming 0.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TypeVar

import numpy as np

from .metrics import INST_EXECUTED, ZERO_IS_ABSENT, Kind, kind_of
from .records import InstructionTable, LineMetrics, Location

T = TypeVar("T")


def unique_sorted(values: np.ndarray) -> np.ndarray:
    """``np.unique(values)`` for a 1-D array, without ``np.unique``'s first call importing
    ``numpy.ma`` (~45 ms of a cold process on this 2-core machine)."""
    ordered = np.sort(values, kind="stable")
    if len(ordered) < 2:
        return ordered
    keep = np.empty(len(ordered), dtype=bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


def combine_launches(tables: Sequence[InstructionTable]) -> InstructionTable:
    """One table for several launches of the same kernel (rows matched by offset)."""
    if len(tables) == 1:
        return tables[0]
    offsets = unique_sorted(np.concatenate([t.offsets for t in tables]))
    n = len(offsets)
    positions = [np.searchsorted(offsets, t.offsets) for t in tables]
    locations: list[Location | None] = _first_known([t.locations for t in tables], positions, n)
    inlined: list[Location | None] | None = None
    if any(t.inlined for t in tables):
        inlined = _first_known([t.inlined or None for t in tables], positions, n)
    sass: list[str] | None = None
    if all(t.sass is not None for t in tables):
        sass = [s or "" for s in _first_known([t.sass for t in tables], positions, n)]
    keys = {k for t in tables for k in t.numbers}
    # every table has every row in order (launches' totals rows; launches with the same
    # instructions sampled): one stack a metric instead of one assignment a metric and
    # launch, made by one concatenation (vstack's per-array calls were half of a 5,000-launch
    # kernel list's totals)
    aligned = all(len(pos) == n for pos in positions) and bool(
        np.array_equal(np.concatenate(positions), np.tile(np.arange(n), len(tables)))
    )

    def stack(key: str) -> np.ndarray:
        missing = np.full(n, np.nan)  # ``metric``'s column where a table lacks the key
        rows = [t.numbers.get(key, missing) for t in tables]
        return np.concatenate(rows).reshape(len(tables), n).astype(float)

    if aligned:
        weight_rows = np.nan_to_num(stack(INST_EXECUTED))
    else:
        weights = []
        for t, pos in zip(tables, positions, strict=True):
            w = np.zeros(n)
            w[pos] = np.nan_to_num(t.metric(INST_EXECUTED))
            weights.append(w)
        weight_rows = np.vstack(weights)
    numbers: dict[str, np.ndarray] = {}
    for key in keys:
        if aligned:
            stacked = stack(key)
        else:
            stacked = np.full((len(tables), n), np.nan)
            for row, (t, pos) in enumerate(zip(tables, positions, strict=True)):
                stacked[row, pos] = t.metric(key)
        present = ~np.isnan(stacked)
        if key in ZERO_IS_ABSENT:
            present &= stacked != 0
        if kind_of(key) is Kind.AVERAGE:
            w = np.where(present, weight_rows, 0.0)
            wsum = w.sum(axis=0)
            vals = np.where(present, stacked, 0.0)
            mean = vals.sum(axis=0) / np.maximum(present.sum(0), 1)
            weighted = (vals * w).sum(axis=0) / np.where(wsum > 0, wsum, 1.0)
            col = np.where(wsum > 0, weighted, mean)
        else:
            col = np.nansum(stacked, axis=0)
        col[~present.any(axis=0)] = np.nan
        numbers[key] = col
    categories: dict[str, list[str | None]] = {}
    for key in {k for t in tables for k in t.categories}:
        columns = [t.categories.get(key) for t in tables]
        categories[key] = _first_known(columns, positions, n)
    return InstructionTable(offsets, locations, numbers, categories, sass, inlined)


def _first_known(
    columns: Sequence[Sequence[T | None] | None], positions: Sequence[np.ndarray], n: int
) -> list[T | None]:
    """For each of ``n`` combined rows, the first value (tables in order) that is not empty
    (None, ""): ``columns`` one per table (None: the table has none), ``positions`` each
    table's rows in the combined table (increasing). After the first table only the rows
    still unknown are looked at: a kernel's launches mostly agree, so this is one pass over
    the rows, not one per launch (250 launches of a kernel: 0.25 M Python steps before); a
    table whose column and rows are the previous one's adds nothing and is skipped."""
    out: list[T | None] = [None] * n
    todo = np.arange(n)
    previous: tuple[Sequence[T | None] | None, np.ndarray | None] = (None, None)
    for values, pos in zip(columns, positions, strict=True):
        if values is None or not len(todo) or not len(pos):
            continue
        if previous[1] is not None and values == previous[0] and np.array_equal(pos, previous[1]):
            continue
        previous = (values, pos)
        at = np.minimum(np.searchsorted(pos, todo), len(pos) - 1)
        hit = pos[at] == todo
        unknown = []
        for row, i in zip(todo[hit].tolist(), at[hit].tolist(), strict=True):
            v = values[i]
            if v:
                out[row] = v
            else:
                unknown.append(row)
        todo = np.sort(np.concatenate([todo[~hit], np.asarray(unknown, dtype=todo.dtype)]))
    return out


def aggregate_groups(
    table: InstructionTable, groups: Sequence[np.ndarray]
) -> list[dict[str, float]]:
    """Numeric metrics over each group of row indices (vectorised: one pass per metric)."""
    out: list[dict[str, float]] = [{} for _ in groups]
    sizes = [len(g) for g in groups]
    if not groups or not all(sizes):
        raise ValueError("every group needs at least one row")
    order = np.concatenate(groups).astype(np.int64)
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    w = np.nan_to_num(table.metric(INST_EXECUTED)[order])
    for key, col in table.numbers.items():
        v = col[order]
        present = ~np.isnan(v)
        if key in ZERO_IS_ABSENT:
            present &= v != 0
        count = np.add.reduceat(present.astype(np.int64), starts)
        if kind_of(key) is Kind.AVERAGE:
            num = np.add.reduceat(np.where(present, v * w, 0.0), starts)
            den = np.add.reduceat(np.where(present, w, 0.0), starts)
            values = np.where(den > 0, num / np.where(den > 0, den, 1.0), 0.0)
        else:
            values = np.add.reduceat(np.where(present, v, 0.0), starts)
        for g in np.flatnonzero(count).tolist():
            out[g][key] = float(values[g])
    return out


def histogram(values: Iterable[str | None]) -> str:
    """``Global,Shared(2)``, ``64,128(3)``: sorted (numbers by value), counts above one."""
    counts = Counter(v for v in values if v is not None)
    order = sorted(counts, key=lambda v: (0, int(v), "") if v.isdigit() else (1, 0, v))
    return ",".join(f"{v}({counts[v]})" if counts[v] > 1 else v for v in order)


def _groups(
    table: InstructionTable,
    keys: Sequence[tuple[str | None, int | None]],
    rows: Sequence[np.ndarray],
    categories: bool = True,
) -> list[LineMetrics]:
    """One ``LineMetrics`` per group of row indices, keyed (file, line) by ``keys``."""
    values = aggregate_groups(table, rows) if rows else []
    out = []
    for (file, line), r, vals in zip(keys, rows, values, strict=True):
        cats = {}
        for key, col in table.categories.items() if categories else ():
            h = histogram(col[i] for i in r)
            if h:
                cats[key] = h
        offsets = table.offsets[r].tolist()
        out.append(LineMetrics(file=file, line=line, values=vals, categories=cats, offsets=offsets))
    return out


def by_line(
    table: InstructionTable, file: str | None = None, *, categories: bool = True
) -> dict[Location, LineMetrics]:
    """Per source line, optionally only the lines of one file (``categories=False``: numbers
    only, no histograms of the category metrics).

    An instruction counts on its line in the kernel's file and, when it was inlined from a
    header and the inlined frame is known, on the header line too (as Nsight Compute's
    Source view shows it). Sums over the kernel's own file therefore equal the kernel totals.
    """
    groups: dict[Location, list[int]] = {}
    frames = [table.locations] + ([table.inlined] if table.inlined else [])
    for column in frames:
        for i, loc in enumerate(column):
            if loc is not None and (file is None or loc[0] == file):
                groups.setdefault(loc, []).append(i)
    keys = sorted(groups)
    rows = [np.asarray(groups[loc]) for loc in keys]
    return dict(zip(keys, _groups(table, keys, rows, categories), strict=True))


def total(table: InstructionTable) -> LineMetrics:
    if not len(table):
        return LineMetrics(None, None, {})
    return _groups(table, [(None, None)], [np.arange(len(table))])[0]


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
