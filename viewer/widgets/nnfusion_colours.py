"""Colours for what NNFusion makes of a row or a lookup, readable on the light and the dark
palette: the application's palette decides which set, when the colour is asked for."""

from __future__ import annotations

from PySide6.QtGui import QColor, QGuiApplication, QPalette

# kind -> (on a light background, on a dark one)
_COLOURS = {
    "good": ("#1b7a2f", "#7fd88f"),
    "warn": ("#a35a00", "#f0b45a"),
    "bad": ("#b00040", "#ff7a9a"),
    "muted": ("#6a6a6a", "#9a9a9a"),
}
STATUS_KIND = {  # coverage statuses and row verdicts
    "covered": "good",
    "usable": "good",
    "ambiguous": "warn",
    "flagged": "warn",
    "missing": "bad",
    "wrong": "bad",
    "kept": "bad",
    "unusable": "bad",
    "nnfusion": "muted",
}


def dark() -> bool:
    palette = QGuiApplication.palette()
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def colour(kind: str) -> QColor:
    """The colour of ``kind`` ("good", "warn", "bad", "muted" or a status) now."""
    pair = _COLOURS[STATUS_KIND.get(kind, kind)]
    return QColor(pair[1] if dark() else pair[0])


def css(kind: str) -> str:
    """The same colour for rich text (``<span style='color:...'>``)."""
    return colour(kind).name()
