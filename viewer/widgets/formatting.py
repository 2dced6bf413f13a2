"""How numbers look in tables: short, aligned, with thousands separators."""

from __future__ import annotations


def format_number(value: float | None) -> str:
    if value is None:
        return ""
    if value == int(value) and abs(value) < 1e15:
        return f"{int(value):,}"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 1:
        return f"{value:.2f}"
    return f"{value:.3g}"


def format_dims(dims: list[int]) -> str:
    while len(dims) > 1 and dims[-1] == 1:
        dims = dims[:-1]
    return "×".join(str(d) for d in dims)
