"""Labelled rows of numbers with optional horizontal bars, painted in one widget.

The Details pane shows a few hundred numbers (speed-of-light bars, stall reasons, pipe
utilisation, opcode counts); one QLabel each would cost tens of milliseconds per kernel
switch. A ``RowChart`` paints its rows itself (label | bar | value), answers tooltips by row,
and sizes itself to its rows, so switching kernels is a ``set_rows`` and one repaint. Written
here rather than with pyqtgraph's bar graphs: those have no per-bar tooltips or text labels,
and pyqtgraph costs a second to import (``plots.py`` loads it only for real plots).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QPoint, QRect, QSize, Qt
from PySide6.QtGui import QColor, QHelpEvent, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from ..code.delegates import BAR_COLOUR

_PAD = 6  # pixels between the columns


@dataclass(frozen=True)
class ChartRow:
    label: str
    text: str  # the value as shown
    fraction: float | None = None  # bar length, 0..1; None: no bar on this row
    tooltip: str = ""
    dim: bool = False  # greyed out (a zero, an estimate)


class RowChart(QWidget):
    """Rows of ``label  [bar]  value``; the bar column exists when any row has a bar."""

    def __init__(self, parent: QWidget | None = None, *, label_share: float = 0.5) -> None:
        super().__init__(parent)
        self._rows: list[ChartRow] = []
        self._label_share = label_share  # most of the width the labels may take
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMouseTracking(False)

    @property
    def rows(self) -> list[ChartRow]:
        return list(self._rows)

    def set_rows(self, rows: list[ChartRow]) -> None:
        if rows == self._rows:
            return
        same_height = len(rows) == len(self._rows)
        self._rows = list(rows)  # none: the chart is 0 pixels high
        if not same_height:  # a relayout of the pane costs more than painting the chart
            self.updateGeometry()
        self.update()

    def row_height(self) -> int:
        return self.fontMetrics().height() + 4

    def sizeHint(self) -> QSize:
        return QSize(320, self.row_height() * len(self._rows))

    def minimumSizeHint(self) -> QSize:
        """Every value whole beside a few characters of its label: narrower, the pane
        scrolls sideways rather than cut the numbers off."""
        metrics = self.fontMetrics()
        value = max((metrics.horizontalAdvance(r.text) for r in self._rows), default=0) + _PAD
        label = metrics.horizontalAdvance("0") * 10 + 2 * _PAD
        return QSize(max(160, label + value), self.row_height() * len(self._rows))

    def row_at(self, point: QPoint) -> int:
        row = point.y() // max(1, self.row_height())
        return row if 0 <= row < len(self._rows) else -1

    def tooltip_at(self, point: QPoint) -> str:
        row = self.row_at(point)
        return self._rows[row].tooltip if row >= 0 else ""

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            text = self.tooltip_at(event.pos())
            if text:
                QToolTip.showText(event.globalPos(), text, self)
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)

    def _columns(self) -> tuple[int, int, int]:
        """Widths of the label, bar and value columns."""
        metrics = self.fontMetrics()
        width = self.width()
        value = max((metrics.horizontalAdvance(r.text) for r in self._rows), default=0) + _PAD
        label = max((metrics.horizontalAdvance(r.label) for r in self._rows), default=0) + 2 * _PAD
        has_bars = any(r.fraction is not None for r in self._rows)
        if not has_bars:
            return min(label, width - value), 0, value
        label = min(label, int(width * self._label_share), max(0, width - value))
        return label, max(0, width - label - value), value

    def paintEvent(self, event: QPaintEvent) -> None:
        if not self._rows:
            return
        painter = QPainter(self)
        palette = self.palette()
        text = palette.color(QPalette.ColorRole.WindowText)
        dim = palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.WindowText)
        bar = QColor(BAR_COLOUR)  # the colour of the metric bars in the tables
        track = QColor(palette.color(QPalette.ColorRole.Mid))
        track.setAlpha(70)
        label_w, bar_w, value_w = self._columns()
        h = self.row_height()
        metrics = self.fontMetrics()
        align_left = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        align_right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        for i, row in enumerate(self._rows):
            top = i * h
            if top > event.rect().bottom() or top + h < event.rect().top():
                continue
            painter.setPen(dim if row.dim else text)
            label = metrics.elidedText(row.label, Qt.TextElideMode.ElideRight, label_w - _PAD)
            painter.drawText(QRect(0, top, label_w, h), align_left, label)
            if row.fraction is not None and bar_w > 4:
                area = QRect(label_w, top + 3, bar_w - _PAD, h - 6)
                painter.fillRect(area, track)
                filled = round(area.width() * max(0.0, min(1.0, row.fraction)))
                if filled > 0:
                    painter.fillRect(QRect(area.left(), area.top(), filled, area.height()), bar)
            painter.drawText(QRect(self.width() - value_w, top, value_w, h), align_right, row.text)
        painter.end()
