"""Rich text as tall as its content, with links: the Details pane's rule results.

A ``QTextBrowser`` without scroll bars whose height follows its document at the width it is
given (``heightForWidth``), inside the pane's own scroll area. One document lays out several
times faster than a word-wrapped QLabel per paragraph (3 ms against 30-40 ms for 20 rules on a
kernel switch), and links arrive as ``link_activated(href)``. Its height at a width is
measured on a copy of the document and kept until the text or font changes: a layout asks
for it many times a switch (~20), each a new layout of the whole document otherwise (1 ms
each), and the shown document stays laid out at the widget's own width.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt, QUrl, Signal
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QFrame, QSizePolicy, QTextBrowser, QWidget


class RichText(QTextBrowser):
    link_activated = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.viewport().setAutoFillBackground(False)  # the pane's background shows through
        self.document().setDocumentMargin(0)
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        self._heights: dict[int, int] = {}  # width -> height of the text shown
        self._measure: QTextDocument | None = None  # the copy heights are measured on
        self.document().contentsChanged.connect(self._forget_heights)
        self.anchorClicked.connect(self._on_anchor)

    def set_html(self, text: str) -> None:
        self.setHtml(text)
        self._forget_heights()
        self.updateGeometry()

    def _forget_heights(self) -> None:
        self._heights.clear()
        if self._measure is not None:
            self._measure.deleteLater()
            self._measure = None

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        width = max(1, width)
        height = self._heights.get(width)
        if height is None:
            if self._measure is None:
                self._measure = self.document().clone(self)
                self._measure.setDefaultFont(self.document().defaultFont())
                self._measure.setDocumentMargin(self.document().documentMargin())
            self._measure.setTextWidth(width)
            height = self._heights[width] = int(self._measure.size().height()) + 2
        return height

    def sizeHint(self) -> QSize:
        width = max(self.width(), 200)
        return QSize(width, self.heightForWidth(width))

    def minimumSizeHint(self) -> QSize:
        return QSize(100, 0)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._forget_heights()  # the same text, another size
        super().changeEvent(event)

    def resizeEvent(self, event: object) -> None:
        super().resizeEvent(event)  # type: ignore[arg-type]
        self.updateGeometry()

    def _on_anchor(self, url: QUrl) -> None:
        self.link_activated.emit(url.toString())
