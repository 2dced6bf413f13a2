"""Build one profile out of several CSV exports of the same report.

Any combination of pages works: details and/or raw give the launch list (raw has exact
numbers, details the rule results), the ``sass`` and ``cuda,sass`` Source views give the
per-instruction metrics (the latter with source lines), the ``cuda`` view the source text,
and the session page the versions and device. Source-page blocks are matched to launches by
kernel name in launch order, because the pages spell template kernels differently.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import KernelscopeError
from .csv_pages import (
    SourceBlock,
    read_details,
    read_details_metrics,
    read_raw,
    read_raw_metrics,
    read_session,
    read_source_cuda,
    read_source_cuda_sass,
    read_source_sass,
)
from .csv_text import (
    MISSING,
    CsvText,
    Page,
    base_name,
    kernel_key,
    parse_number,
    read_csv,
)
from .detail_metrics import METRIC_NAMES, LaunchMetrics
from .metrics import METRIC_FIELDS, Kind, by_label
from .records import InstructionTable, Launch, Location


@dataclass
class CsvImport:
    launches: list[Launch]
    tables: dict[int, InstructionTable]  # launch id -> per-instruction metrics
    sources: dict[str, str]  # file path -> text (from the cuda view)
    session: dict[str, str]
    warnings: list[str] = field(default_factory=list)
    has_line_view: bool = False  # a cuda,sass Source view was given
    # ncu's own per-line aggregates from the cuda,sass view, by launch id (for cross-checks)
    reported_lines: dict[int, dict[Location, dict[str, str]]] = field(default_factory=dict)
    # launch id -> Details metrics: every raw-page column kernelscope reads, else the details
    # page's header metrics (rounded as printed)
    metrics: dict[int, LaunchMetrics] = field(default_factory=dict)


def import_csvs(paths: list[str | Path]) -> CsvImport:
    texts: dict[Page, CsvText] = {}
    warnings: list[str] = []
    for p in paths:
        ct = read_csv(p)
        if ct.page in (Page.SOURCE_PTX, Page.SUMMARY):
            raise KernelscopeError(
                f"{ct.path}: this is the {ct.page.value} page, which kernelscope cannot use",
                hint="export --page details, raw, session or source "
                "(--print-source sass, cuda or cuda,sass)",
            )
        if ct.page in texts:
            warnings.append(f"{ct.path}: a second {ct.page.value} page; ignored")
            continue
        texts[ct.page] = ct

    details = read_details(texts[Page.DETAILS]) if Page.DETAILS in texts else {}
    raw = read_raw(texts[Page.RAW]) if Page.RAW in texts else {}
    session = read_session(texts[Page.SESSION]) if Page.SESSION in texts else {}
    sass_blocks = read_source_sass(texts[Page.SOURCE_SASS]) if Page.SOURCE_SASS in texts else []
    line_blocks = (
        read_source_cuda_sass(texts[Page.SOURCE_CUDA_SASS])
        if Page.SOURCE_CUDA_SASS in texts
        else []
    )
    sources = read_source_cuda(texts[Page.SOURCE_CUDA]) if Page.SOURCE_CUDA in texts else {}
    for ct in texts.values():
        warnings.extend(ct.warnings)

    launches = _merge_launch_lists(details, raw)
    if not launches:
        blocks = sass_blocks or line_blocks
        launches = [Launch(id=i, name=b.kernel, demangled=b.kernel) for i, b in enumerate(blocks)]
    device = session.get("display_name", "")
    for launch in launches:
        launch.name = base_name(launch.name) or launch.name
        if device and not launch.device_name:
            launch.device_name = device

    sass_for = _assign(sass_blocks, launches, "sass", warnings)
    lines_for = _assign(line_blocks, launches, "cuda,sass", warnings)
    tables: dict[int, InstructionTable] = {}
    reported: dict[int, dict[Location, dict[str, str]]] = {}
    for launch in launches:
        sb, lb = sass_for.get(launch.id), lines_for.get(launch.id)
        if lb is not None:
            reported[launch.id] = lb.line_rows
        main = sb or lb
        if main is None:
            continue
        start = min(main.addresses)
        launch.function_start = start
        table = block_table(main, start)
        if lb is not None:
            where = dict(zip(lb.addresses, lb.locations, strict=True))
            inl = {lb.addresses[i]: loc for i, loc in lb.inlined.items()}
            table.locations = [where.get(int(o) + start) for o in table.offsets]
            table.inlined = [inl.get(int(o) + start) for o in table.offsets] if inl else None
        tables[launch.id] = table
        launch.has_source_metrics = True
    if texts and not tables and (Page.SOURCE_SASS in texts or Page.SOURCE_CUDA_SASS in texts):
        warnings.append("the Source-page export holds no instruction rows")
    return CsvImport(
        launches,
        tables,
        sources,
        session,
        warnings,
        has_line_view=Page.SOURCE_CUDA_SASS in texts,
        reported_lines=reported,
        metrics=_launch_metrics(texts),
    )


def _launch_metrics(texts: dict[Page, CsvText]) -> dict[int, LaunchMetrics]:
    details = read_details_metrics(texts[Page.DETAILS]) if Page.DETAILS in texts else {}
    if Page.RAW in texts:
        raw = read_raw_metrics(texts[Page.RAW], set(METRIC_NAMES))
        return {
            rid: LaunchMetrics(
                values, sections=details[rid][1] if rid in details else None, source="raw"
            )
            for rid, values in raw.items()
        }
    return {
        rid: LaunchMetrics(values, sections=sections, source="details")
        for rid, (values, sections) in details.items()
    }


def _merge_launch_lists(details: dict[int, Launch], raw: dict[int, Launch]) -> list[Launch]:
    """Details give rules; raw gives exact values (details round them): take both."""
    merged = dict(details)
    for rid, r in raw.items():
        d = merged.get(rid)
        if d is None:
            merged[rid] = r
            continue
        for name in (*METRIC_FIELDS.values(), "device_name"):
            value = getattr(r, name)
            if value not in (None, ""):
                setattr(d, name, value)
    return [merged[k] for k in sorted(merged)]


def _assign(
    blocks: list[SourceBlock], launches: list[Launch], view: str, warnings: list[str]
) -> dict[int, SourceBlock]:
    """Give each Source-page block to the next launch of the same kernel, in launch order."""
    out: dict[int, SourceBlock] = {}
    for block in blocks:
        target = None
        for match in (kernel_key, base_name):
            key = match(block.kernel)
            target = next(
                (
                    ln
                    for ln in launches
                    if ln.id not in out and match(ln.demangled or ln.name) == key
                ),
                None,
            )
            if target is not None:
                break
        if target is None:
            warnings.append(
                f"{view} source block for {block.kernel!r} (line {block.first_line + 1}) "
                "matches no launch of the launch list; skipped"
            )
            continue
        out[target.id] = block
    return out


def _numbers(cells: list[str]) -> np.ndarray | None:
    """Cells as float64 (NaN for missing); None when a cell is text."""
    out = np.empty(len(cells))
    for i, c in enumerate(cells):
        try:
            v = parse_number(c)
        except ValueError:
            return None
        out[i] = math.nan if v is None else v
    return out


def block_table(block: SourceBlock, start: int) -> InstructionTable:
    order = np.argsort(np.asarray(block.addresses, dtype=np.int64), kind="stable")
    offsets = np.asarray(block.addresses, dtype=np.int64)[order] - start
    numbers: dict[str, np.ndarray] = {}
    categories: dict[str, list[str | None]] = {}
    for label, cells in block.columns().items():
        metric = by_label(label)
        key = metric.key if metric else label
        col = None if metric and metric.kind is Kind.CATEGORY else _numbers(cells)
        if col is not None:
            numbers[key] = col[order]
        else:
            cats = [c.strip() for c in cells]
            categories[key] = [None if cats[i] in MISSING else cats[i] for i in order]
    return InstructionTable(
        offsets=offsets,
        locations=[block.locations[i] for i in order],
        numbers=numbers,
        categories=categories,
        sass=[block.sass[i] for i in order],
    )
