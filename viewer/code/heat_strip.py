"""A narrow strip beside a code view: one colour mark per hot row, click to jump there."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QWidget

from .delegates import BAR_COLOUR


class HeatStrip(QWidget):
    row_clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._values: list[float] = []
        self._top = 0.0
        self._visible = (0, 0)  # first and last row on screen
        self.setFixedWidth(12)
        self.setToolTip("Heat of each line for the chosen metric; click to jump")
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    def sizeHint(self) -> QSize:
        return QSize(12, 100)

    def set_values(self, values: list[float]) -> None:
        self._values = values
        self._top = max(values, default=0.0)
        self.update()

    def set_visible_rows(self, first: int, last: int) -> None:
        if (first, last) != self._visible:
            self._visible = (first, last)
            self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), self.palette().color(QPalette.ColorRole.AlternateBase))
        n, height = len(self._values), self.height()
        if n == 0 or height <= 0:
            return
        first, last = self._visible
        view = self.palette().color(QPalette.ColorRole.Mid)
        view.setAlpha(90)
        top_y, bottom_y = int(first * height / n), int((last + 1) * height / n)
        painter.fillRect(QRect(0, top_y, self.width(), max(2, bottom_y - top_y)), view)
        if self._top <= 0:
            return
        # each pixel row shows the hottest line that falls on it
        buckets: dict[int, float] = {}
        for row, value in enumerate(self._values):
            if value > 0:
                y = row * height // n
                if value > buckets.get(y, 0.0):
                    buckets[y] = value
        mark = max(2, height // n)
        for y, value in buckets.items():
            colour = QColor(BAR_COLOUR)
            colour.setAlpha(60 + int(195 * value / self._top))
            painter.fillRect(QRect(1, y, self.width() - 2, mark), colour)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if self._values and event.button() == Qt.MouseButton.LeftButton:
            row = int(event.position().y() * len(self._values) / max(1, self.height()))
            self.row_clicked.emit(min(max(row, 0), len(self._values) - 1))
