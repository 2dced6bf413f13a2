"""Painting cells: metric bars behind numbers, and highlighted code without QTextDocument."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, Qt
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from ..widgets.roles import BarRole, HighlightRole, SpansRole, item_data

Index = QModelIndex | QPersistentModelIndex
BAR_COLOUR = QColor(230, 110, 40)


def _background(painter: QPainter, option: QStyleOptionViewItem, index: Index) -> QColor:
    """Fill the cell's background; return the colour text should be drawn in."""
    palette = option.palette
    rect: QRect = option.rect
    state = option.state
    if state & QStyle.StateFlag.State_Selected:
        painter.fillRect(rect, palette.color(QPalette.ColorRole.Highlight))
        return palette.color(QPalette.ColorRole.HighlightedText)
    if item_data(index, HighlightRole):
        tint = QColor(palette.color(QPalette.ColorRole.Highlight))
        tint.setAlpha(70)
        painter.fillRect(rect, tint)
    return palette.color(QPalette.ColorRole.Text)


class BarDelegate(QStyledItemDelegate):
    """A number right-aligned over a bar whose length is the cell's ``BarRole``."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        painter.save()
        text_colour = _background(painter, option, index)
        rect: QRect = option.rect.adjusted(2, 2, -2, -2)
        fraction = item_data(index, BarRole)
        if fraction:
            bar = QColor(BAR_COLOUR)
            bar.setAlpha(80 + int(140 * min(1.0, fraction)))
            width = max(1, int(rect.width() * min(1.0, fraction)))
            painter.fillRect(QRect(rect.left(), rect.top(), width, rect.height()), bar)
        text = item_data(index, Qt.ItemDataRole.DisplayRole)
        if text:
            painter.setPen(text_colour)
            painter.setFont(option.font)
            align = item_data(index, Qt.ItemDataRole.TextAlignmentRole) or int(
                Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
            )
            painter.drawText(rect.adjusted(2, 0, -2, 0), align, text)
        painter.restore()


class CodeDelegate(QStyledItemDelegate):
    """Code as coloured spans (``SpansRole``), elided at the cell's right edge."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        painter.save()
        text_colour = _background(painter, option, index)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        rect: QRect = option.rect.adjusted(4, 0, -2, 0)
        painter.setFont(option.font)
        metrics = painter.fontMetrics()
        baseline = rect.top() + (rect.height() + metrics.ascent() - metrics.descent()) // 2
        x = rect.left()
        painter.setClipRect(rect)
        for text, colour in item_data(index, SpansRole) or []:
            if x > rect.right():
                break
            text = text.expandtabs(4)
            painter.setPen(text_colour if selected or colour is None else colour)
            painter.drawText(x, baseline, text)
            x += metrics.horizontalAdvance(text)
        painter.restore()


class PlainDelegate(QStyledItemDelegate):
    """Plain text on the same background rules as the other code cells."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        painter.save()
        text_colour = _background(painter, option, index)
        painter.setPen(text_colour)
        painter.setFont(option.font)
        align = item_data(index, Qt.ItemDataRole.TextAlignmentRole) or int(
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        )
        rect: QRect = option.rect.adjusted(4, 0, -4, 0)
        painter.drawText(rect, align, item_data(index, Qt.ItemDataRole.DisplayRole) or "")
        painter.restore()
