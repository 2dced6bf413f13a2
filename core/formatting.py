"""How numbers and launch dimensions read, the same on the command line and in the window.

Qt-free, so that the CLI's text tables and the viewer's columns show one kernel's numbers
identically: ``format_number(28610.0)`` is ``28,610`` in both, a grid is ``8192x1x1`` in both.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def format_number(value: float | None, missing: str = "") -> str:
    """Short and aligned: whole numbers with thousands separators, at most two decimals from 1
    on, three significant digits below 1. ``missing`` stands for None/NaN (a text table wants
    ``-`` there so its columns still split; a table widget an empty cell)."""
    if value is None or math.isnan(value):
        return missing
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if value == int(value) and abs(value) < 1e15:
        return f"{int(value):,}"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 1:
        return f"{value:.2f}"
    return f"{value:.3g}"


def format_compact(value: float | None, missing: str = "") -> str:
    """At most five characters (six with a sign), for a narrow column beside code: ``960``,
    ``1.23k``, ``81.9M``, ``0.35``, ``12.5``; three significant digits from 1000 on (the
    exact number is the cell's tooltip)."""
    if value is None or math.isnan(value):
        return missing
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    size = abs(value)
    for scale, prefix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if size >= scale * 0.9995:  # 999.7 reads 1.00k, not 1e+03
            return f"{value / scale:.3g}{prefix}"
    if value == int(value):
        return str(int(value))
    return f"{value:.3g}" if size < 100 else f"{value:.0f}"


def format_signed(value: float | None, missing: str = "") -> str:
    """``format_number`` with a ``+`` before a positive value: a change."""
    text = format_number(value, missing)
    return f"+{text}" if value is not None and value > 0 else text


def format_us(ns: float | None, missing: str = "-", signed: bool = False) -> str:
    """Nanoseconds as microseconds, read as ``format_number`` (``format_signed``) reads them."""
    us = ns / 1e3 if ns is not None else None
    return format_signed(us, missing) if signed else format_number(us, missing)


def format_dims(values: Sequence[int] | None) -> str:
    """``[16, 1, 1]`` -> ``16x1x1``; ``-`` when unknown or never launched (all zeros)."""
    return "x".join(str(v) for v in values) if values and any(values) else "-"


def format_bytes(count: float) -> str:
    """A size as people read it: ``940 B``, ``190.2 KB``, ``63.1 MB``, ``1.2 GB`` (powers of
    1000, one decimal from KB on)."""
    for scale, unit in ((1e9, "GB"), (1e6, "MB"), (1e3, "KB")):
        if abs(count) >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count:.0f} B"
