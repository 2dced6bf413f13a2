"""The one number and dims formatter, as the CLI's tables and the window's columns show them."""

from __future__ import annotations

import math

import pytest

from kernelscope.core.formatting import format_compact, format_dims, format_number


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (28610.0, "28,610"),
        (3, "3"),
        (1234.567, "1,235"),
        (12.3456, "12.35"),
        (1.0, "1"),
        (0.5, "0.5"),
        (0.012345, "0.0123"),
        (-250.4, "-250"),
        (0.0, "0"),
        (math.inf, "inf"),
    ],
)
def test_format_number(value: float, text: str) -> None:
    assert format_number(value) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (960.0, "960"),
        (1234.0, "1.23k"),
        (81_920_000.0, "81.9M"),
        (999.7, "1k"),
        (0.354, "0.354"),
        (12.345, "12.3"),
        (-250.4, "-250"),
        (-12_345.0, "-12.3k"),
        (0.0, "0"),
        (None, ""),
    ],
)
def test_format_compact_stays_narrow(value: float | None, text: str) -> None:
    """A code pane's metric column is five characters wide (six with a sign)."""
    assert format_compact(value) == text
    assert len(text.lstrip("-")) <= 5


def test_missing_numbers() -> None:
    assert format_number(None) == ""
    assert format_number(math.nan) == ""
    assert format_number(None, missing="-") == "-"


@pytest.mark.parametrize(
    ("dims", "text"),
    [([8192, 1, 1], "8192x1x1"), ((16, 8, 2), "16x8x2"), ([0, 0, 0], "-"), ([], "-"), (None, "-")],
)
def test_format_dims(dims: list[int] | None, text: str) -> None:
    assert format_dims(dims) == text
