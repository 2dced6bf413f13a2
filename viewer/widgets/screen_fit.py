"""Windows no larger than the screen they open on."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

# Of the screen's free area a window takes at most: room for its frame and the desktop's bars.
_SHARE = 0.95


def resize_within_screen(widget: QWidget, width: int, height: int) -> None:
    """``widget.resize(width, height)``, each side cut to the screen's free area (a dialog
    sized for 1080 lines had its buttons below a 720-line screen's edge)."""
    free = widget.screen().availableGeometry()
    widget.resize(min(width, int(free.width() * _SHARE)), min(height, int(free.height() * _SHARE)))
