"""Combining per-instruction metrics: launches of one kernel, lines, files, kernels, the model.

Counts add; averages are weighted by ``inst_executed`` (the number of warp-level executions
they are an average over), never summed; categories become histograms such as
``Global(3),Shared`` (the way Nsight Compute's Source page prints them). A metric that has no
value on any instruction of a group stays absent from that group rather than becoming 0.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from .metrics import INST_EXECUTED, ZERO_IS_ABSENT, Kind, kind_of
from .records import InstructionTable, LineMetrics, Location

if TYPE_CHECKING:
    from .rep.launch import PerPc

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


def rising_runs(ids: np.ndarray, counts: Sequence[int] | np.ndarray) -> bool:
    """Whether ``ids``, runs of ``counts`` values one after the other (a metric's PCs, say),
    rise strictly within each run."""
    rising = ids[1:] > ids[:-1]
    starts = np.cumsum(counts)[:-1]
    rising[starts[(starts > 0) & (starts < len(ids))] - 1] = True  # where a run begins
    return bool(rising.all())


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
        numbers[key] = _combined_column(key, stacked, weight_rows)
    categories: dict[str, list[str | None]] = {}
    for key in {k for t in tables for k in t.categories}:
        columns = [t.categories.get(key) for t in tables]
        categories[key] = _first_known(columns, positions, n)
    return InstructionTable(offsets, locations, numbers, categories, sass, inlined)


def _combined_column(key: str, stacked: np.ndarray, weight_rows: np.ndarray) -> np.ndarray:
    """One metric over several launches (``stacked``: a row a launch, NaN where a launch has
    no value): summed, or for an average weighted by ``weight_rows`` (each launch's
    instructions executed on the same rows; a plain mean where they are all 0); NaN where no
    launch has a value."""
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
    return col


def combine_per_pc(launches: Sequence[Mapping[str, PerPc]]) -> dict[str, PerPc] | None:
    """Several launches' per-PC arrays (metric key -> (PCs, values)) as one launch's, so
    that the one table made of them is ``combine_launches`` of theirs: counts summed,
    averages weighted by the launch's instructions executed at the PC, a category's first
    known value (launches in order). None where a launch has a PC twice in a metric (its
    table keeps the last value: then only the tables can be combined).

    Every launch's entries are taken at once: a cell is (metric, PC), and sums are one
    ``bincount`` over all cells, where combining tables made a table a launch (a kernel of
    250 launches: 0.5 ms a launch) and stacked each metric over the launches."""
    keys = list(dict.fromkeys(k for p in launches for k in p))
    if not keys:
        return {}
    index = {k: i for i, k in enumerate(keys)}
    parts = [(index[k], li, x, v) for li, p in enumerate(launches) for k, (x, v) in p.items()]
    counts = np.array([len(ids) for _, _, ids, _ in parts])
    ids = np.concatenate([x[2] for x in parts]).astype(np.int64)
    values = np.concatenate([x[3] for x in parts]).astype(float)
    if not rising_runs(ids, counts):
        return None
    key_of = np.repeat(np.array([x[0] for x in parts]), counts)
    launch_of = np.repeat(np.array([x[1] for x in parts]), counts)
    pcs = unique_sorted(ids)
    width = len(pcs)
    pos = np.searchsorted(pcs, ids)
    cell = key_of * width + pos
    size = len(keys) * width
    had = np.bincount(cell, minlength=size).reshape(len(keys), width) > 0
    present = ~np.isnan(values)
    for key in ZERO_IS_ABSENT & set(keys):
        present &= (key_of != index[key]) | (values != 0)
    sums = np.bincount(cell[present], weights=values[present], minlength=size)
    seen = np.bincount(cell[present], minlength=size)
    kinds = [kind_of(k) for k in keys]
    weights = _entry_weights(kinds, index, launch_of, pos, key_of, values, width)
    out: dict[str, PerPc] = {}
    for k, (key, kind) in enumerate(zip(keys, kinds, strict=True)):
        cols = np.flatnonzero(had[k])
        mine = slice(k * width, (k + 1) * width)
        if kind is Kind.CATEGORY:
            col = _first_category(key, cell, values, key_of == k, size)[mine]
        elif weights is not None and kind is Kind.AVERAGE:
            col = _weighted(cell, values, present & (key_of == k), weights, size)[mine]
        else:
            col = sums[mine] / np.where(seen[mine] > 0, 1.0, np.nan)
        out[key] = (pcs[cols], col[cols])
    return out


def _entry_weights(
    kinds: list[Kind],
    index: dict[str, int],
    launch_of: np.ndarray,
    pos: np.ndarray,
    key_of: np.ndarray,
    values: np.ndarray,
    width: int,
) -> np.ndarray | None:
    """Each entry's launch's instructions executed at its PC (0 where none), what an average
    is weighted by; None where no average needs it."""
    if Kind.AVERAGE not in kinds:
        return None
    if INST_EXECUTED not in index:
        return np.zeros(len(values))
    mine = key_of == index[INST_EXECUTED]
    where = launch_of[mine] * width + pos[mine]  # rising: launches in order, PCs rising
    wanted = launch_of * width + pos
    at = np.minimum(np.searchsorted(where, wanted), max(len(where) - 1, 0))
    if not len(where):
        return np.zeros(len(values))
    return np.where(where[at] == wanted, np.nan_to_num(values[mine][at]), 0.0)


def _weighted(
    cell: np.ndarray, values: np.ndarray, present: np.ndarray, weights: np.ndarray, size: int
) -> np.ndarray:
    """An average's cells: weighted by ``weights``, a plain mean where they sum to 0, NaN
    where no entry is present (``_combined_column``'s rule, entry by entry)."""
    c, v, w = cell[present], values[present], weights[present]
    wsum = np.bincount(c, weights=w, minlength=size)
    weighted = np.bincount(c, weights=v * w, minlength=size) / np.where(wsum > 0, wsum, 1.0)
    n = np.bincount(c, minlength=size)
    mean = np.bincount(c, weights=v, minlength=size) / np.maximum(n, 1)
    col = np.where(wsum > 0, weighted, mean)
    col[n == 0] = np.nan
    return col


def _first_category(
    key: str, cell: np.ndarray, values: np.ndarray, mine: np.ndarray, size: int
) -> np.ndarray:
    """A category's cells: the first launch's known value (0 where none is: an eviction
    policy of 0 is no explicit policy, shown empty)."""
    known = mine & ((values != 0) | (not key.endswith("evict_type")))
    c, v = cell[known], values[known]
    order = np.argsort(c, kind="stable")  # entries are in launch order: the first stays first
    c, v = c[order], v[order]
    first = np.ones(len(c), dtype=bool)
    first[1:] = c[1:] != c[:-1]
    col = np.zeros(size)
    col[c[first]] = v[first]
    return col


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
