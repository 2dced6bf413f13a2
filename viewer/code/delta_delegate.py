"""Compare mode's cells: a change drawn as a diverging bar from the cell's middle, to the right
and in one colour when the new profile is slower (or a line's metric grew), to the left in
another when it is faster, grey when the change is within run-to-run noise."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, Qt
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem

from kernelscope.core.compare import FASTER, SLOWER, WITHIN_NOISE

from ..widgets.roles import item_data
from .delegates import _background

Index = QModelIndex | QPersistentModelIndex

# (fraction of the column's largest change in -1..1, status): what a delta cell draws.
DeltaRole = Qt.ItemDataRole.UserRole + 20

# A red-blue diverging pair (as ColorBrewer's RdBu), readable on light and dark bases, and
# told apart by people who cannot tell red from green; noise is neutral grey.
COLOURS = {
    SLOWER: QColor(214, 58, 52),
    FASTER: QColor(45, 118, 214),
    WITHIN_NOISE: QColor(128, 128, 128),
}


def status_colour(status: str | None) -> QColor | None:
    """The colour of a change's status (SLOWER, FASTER, WITHIN_NOISE), None for others."""
    colour = COLOURS.get(status or "")
    return QColor(colour) if colour is not None else None


class DeltaDelegate(QStyledItemDelegate):
    """A signed number over a bar from the cell's centre (``DeltaRole``)."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        painter.save()
        text_colour = _background(painter, option, index)
        rect: QRect = option.rect.adjusted(2, 2, -2, -2)
        found = item_data(index, DeltaRole)
        text = item_data(index, Qt.ItemDataRole.DisplayRole)
        if found is not None and text:
            fraction, status = found
            colour = status_colour(status)
            if colour is not None and fraction:
                colour.setAlpha(110 + int(110 * min(1.0, abs(fraction))))
                half = rect.width() // 2
                width = max(2, int(half * min(1.0, abs(fraction))))
                centre = rect.left() + half
                left = centre if fraction > 0 else centre - width
                painter.fillRect(QRect(left, rect.top(), width, rect.height()), colour)
        align = item_data(index, Qt.ItemDataRole.TextAlignmentRole) or int(
            Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        )
        text_rect = rect.adjusted(2, 0, -2, 0)
        if found is not None and text:
            middle = QColor(text_colour)
            middle.setAlpha(60)
            box = option.fontMetrics.boundingRect(text_rect, align, text)
            for segment in zero_line(rect, box):
                painter.fillRect(segment, middle)
        if text:
            painter.setPen(text_colour)
            painter.setFont(option.font)
            painter.drawText(text_rect, align, text)
        painter.restore()


def zero_line(cell: QRect, text: QRect) -> list[QRect]:
    """The zero line down the middle of ``cell``, one pixel wide, but not through ``text``
    (the digits' box, with a pixel to spare): above and below it when the number is wide
    enough to reach the middle, else whole."""
    x = cell.left() + cell.width() // 2
    line = QRect(x, cell.top(), 1, cell.height())
    around = text.adjusted(-1, -1, 1, 1)
    if not line.intersects(around):
        return [line]
    above = QRect(x, cell.top(), 1, max(0, around.top() - cell.top()))
    below = QRect(x, around.bottom() + 1, 1, max(0, cell.bottom() - around.bottom()))
    return [r for r in (above, below) if r.height() > 0]
