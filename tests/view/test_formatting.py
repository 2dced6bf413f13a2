"""The one number and dims formatter, as the CLI's tables and the window's columns show them."""

from __future__ import annotations

import math

import pytest

from kernelscope.core.formatting import format_dims, format_number


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
