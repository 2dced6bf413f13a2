"""Rich text as tall as its content, with links: the Details pane's rule results.

A ``QTextBrowser`` without scroll bars whose height follows its document at the width it is
given (``heightForWidth``), inside the pane's own scroll area. One document lays out several
times faster than a word-wrapped QLabel per paragraph (3 ms against 30-40 ms for 20 rules on a
kernel switch), and links arrive as ``link_activated(href)``.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, QUrl, Signal
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
        self.anchorClicked.connect(self._on_anchor)

    def set_html(self, text: str) -> None:
        self.setHtml(text)
        self.updateGeometry()

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        document = self.document()
        document.setTextWidth(max(1, width))
        return int(document.size().height()) + 2

    def sizeHint(self) -> QSize:
        width = max(self.width(), 200)
        return QSize(width, self.heightForWidth(width))

    def minimumSizeHint(self) -> QSize:
        return QSize(100, 0)

    def resizeEvent(self, event: object) -> None:
        super().resizeEvent(event)  # type: ignore[arg-type]
        self.updateGeometry()

    def _on_anchor(self, url: QUrl) -> None:
        self.link_activated.emit(url.toString())
