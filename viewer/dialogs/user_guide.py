"""Help > User Guide: docs/user-guide.md (with troubleshooting.md and cli.md, which it links)
rendered from its Markdown in a window of the app.

Why a Qt window and not the desktop's browser: the guide is Markdown, which a browser shows
as plain text; Qt renders it (``QTextDocument``'s GitHub dialect: tables, code, images)
offline, inside the packaged app, on a machine with no browser or ``xdg-open`` (a GPU server
reached with ssh -X), in the window's palette (dark too) and at its scale, and it can be
screenshot like the rest. Links to the web still open in the browser.

The pages and their pictures are read in a job (``read_guide``); following a link between
them then reads nothing. Headings get the anchors GitHub gives them, so ``cli.md#kernelscope-build``
lands on its section.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QUrl
from PySide6.QtGui import (
    QDesktopServices,
    QImage,
    QTextBlock,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from kernelscope.core.environment import USER_GUIDE, user_docs

from ..widgets.screen_fit import resize_within_screen
from ..workers.jobs import Workers

PAGES = (USER_GUIDE, "troubleshooting.md", "cli.md")
IMAGE_WIDTH = 820  # a screenshot's width on the page, in the window's (logical) pixels


@dataclass(frozen=True)
class Guide:
    folder: Path
    pages: dict[str, str]  # file name -> Markdown
    images: dict[str, QImage]  # path relative to the folder -> picture


def read_guide(folder: Path | None = None) -> Guide:
    """I/O: the guide's pages and every picture they show (call it in a job)."""
    folder = folder or user_docs()
    pages = {name: (folder / name).read_text(encoding="utf-8") for name in PAGES}
    images: dict[str, QImage] = {}
    for text in pages.values():
        for target in re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", text):
            image = QImage(str(folder / target))
            if not image.isNull():  # a scaled-down display, full resolution for high DPI
                image.setDevicePixelRatio(max(1.0, image.width() / IMAGE_WIDTH))
                images[target] = image
    return Guide(folder, pages, images)


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: "1. Open a model" -> "1-open-a-model"."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


class GuideBrowser(QTextBrowser):
    """Shows one page of a ``Guide``; its pictures come from the guide, never the disk."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.guide: Guide | None = None
        self.setOpenLinks(False)  # links are followed by the dialog (pages in memory)

    def loadResource(self, kind: int, name: QUrl | str) -> Any:
        if self.guide is not None and kind == QTextDocument.ResourceType.ImageResource.value:
            image = self.guide.images.get(name.toString() if isinstance(name, QUrl) else name)
            if image is not None:
                return image
        return None  # nothing else is read from the disk on the GUI thread

    def show_page(self, name: str, fragment: str = "") -> None:
        assert self.guide is not None
        self.setMarkdown(self.guide.pages[name])
        top = 0.0
        heading = _headings(self.document()).get(fragment) if fragment else None
        if heading is not None:  # (scrollToAnchor finds no position before the layout)
            top = self.document().documentLayout().blockBoundingRect(heading).top()
        self.verticalScrollBar().setValue(int(top))


def _headings(document: QTextDocument) -> dict[str, QTextBlock]:
    """The heading blocks by their GitHub anchor; each gets it as its anchor name too."""
    found: dict[str, QTextBlock] = {}
    block = document.begin()
    while block.isValid():
        if block.blockFormat().headingLevel() > 0 and block.text():
            name = slug(block.text())
            found.setdefault(name, block)
            cursor = QTextCursor(block)
            cursor.movePosition(
                QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor
            )
            anchor = QTextCharFormat()
            anchor.setAnchor(True)
            anchor.setAnchorNames([name])
            cursor.mergeCharFormat(anchor)
        block = block.next()
    return found


class UserGuideDialog(QDialog):
    """A window of its own (not modal): read the guide beside the main window."""

    def __init__(self, workers: Workers, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("user_guide")
        self.setWindowTitle("kernelscope user guide")
        self.browser = GuideBrowser(self)
        self.browser.setObjectName("user_guide_browser")
        self.browser.setPlainText("Reading the user guide…")
        self.back, self.forward, self.contents = QToolButton(), QToolButton(), QToolButton()
        self.back.setText("Back")
        self.forward.setText("Forward")
        self.contents.setText("Contents")
        self.contents.setToolTip("The user guide's first page")
        self.where = QLabel()
        bar = QHBoxLayout()
        for button in (self.back, self.forward, self.contents):
            bar.addWidget(button)
        bar.addWidget(self.where, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.browser, 1)
        self.page = ""
        self._history: list[tuple[str, str]] = []
        self._position = -1
        self.browser.anchorClicked.connect(self.follow)
        self.back.clicked.connect(lambda: self._step(-1))
        self.forward.clicked.connect(lambda: self._step(1))
        self.contents.clicked.connect(lambda: self.go(USER_GUIDE))
        self._update_buttons()
        chars = self.fontMetrics().horizontalAdvance("0")
        resize_within_screen(self, chars * 110, self.fontMetrics().height() * 48)
        job = workers.start("open", lambda context: read_guide(), "reading the user guide")
        job.returned.connect(self._on_read)
        job.errored.connect(self._on_failed)

    def _on_read(self, guide: Guide) -> None:
        self.browser.guide = guide
        self.go(USER_GUIDE)

    def _on_failed(self, error: BaseException) -> None:
        self.browser.setPlainText(f"Cannot show the user guide: {error}")

    def go(self, page: str, fragment: str = "") -> None:
        """Show ``page`` (one of ``PAGES``) at the heading ``fragment``; remembered for Back."""
        self._history[self._position + 1 :] = [(page, fragment)]
        self._position = len(self._history) - 1
        self._show(page, fragment)

    def follow(self, url: QUrl) -> None:
        """A link: another page of the guide (or a section), or a web page in the browser."""
        if url.scheme() in ("http", "https", "mailto"):
            QDesktopServices.openUrl(url)
            return
        page = Path(url.path()).name if url.path() else self.page
        if self.browser.guide is None or page not in self.browser.guide.pages:
            self.where.setText(f"{url.toString()} is not part of the guide shipped here")
            return
        self.go(page, url.fragment())

    def _step(self, delta: int) -> None:
        position = self._position + delta
        if 0 <= position < len(self._history):
            self._position = position
            self._show(*self._history[position])

    def _show(self, page: str, fragment: str) -> None:
        self.page = page
        self.browser.show_page(page, fragment)
        self.where.setText(page + (f" — {fragment}" if fragment else ""))
        self._update_buttons()

    def _update_buttons(self) -> None:
        self.back.setEnabled(self._position > 0)
        self.forward.setEnabled(self._position < len(self._history) - 1)
