"""Help inside the app: Help > About with the versions of what kernelscope runs on, and Help >
User Guide showing the guide shipped with the package; both rendered in light and dark, and
at twice the scale, without anything cut off."""

from __future__ import annotations

import importlib.metadata
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt, QUrl, qVersion
from PySide6.QtGui import QImage, QTextDocument
from PySide6.QtWidgets import QApplication
from viewer_support import WAIT_MS

from kernelscope.core.environment import USER_GUIDE, installed_facts, user_docs
from kernelscope.viewer.app import DIALOG_SIZES
from kernelscope.viewer.dialogs.about import AboutDialog
from kernelscope.viewer.dialogs.user_guide import PAGES, UserGuideDialog, slug


def test_about_lists_the_versions_and_copies_them(qtbot, make_window) -> None:
    window = make_window()
    window.action("about").trigger()
    dialog = window.findChild(AboutDialog)
    assert dialog is not None and dialog.isVisible()
    qtbot.waitUntil(lambda: dialog.copy.isEnabled(), timeout=WAIT_MS)
    rows = {name: version for name, version, _ in dialog.rows}
    assert rows["kernelscope"] == importlib.metadata.version("kernelscope")
    assert rows["Apache TVM"] == importlib.metadata.version("apache-tvm")
    assert rows["Python"] == platform.python_version()
    assert f"Qt {qVersion()}" in rows["Qt"]
    facts = {f.name: f for f in installed_facts(probe_gpu=False)}
    for tool in ("nvcc", "nvdisasm"):
        assert rows[tool] == facts[tool].version
    ncu = facts["ncu"]
    assert rows["Nsight Compute (ncu)"] == (ncu.version if ncu.found else "not found")
    assert rows["Nsight Compute report reader (ncu_report)"] == importlib.metadata.version(
        "ncu-report"
    )
    assert dialog.table.rowCount() == len(rows)
    # where each is: its folder or program, or what to do when it is missing
    assert dialog.table.horizontalHeaderItem(2).text() == "Where"
    for r, row in enumerate(dialog.rows):
        assert dialog.table.item(r, 2).text() == row.where != ""
    where = {name: place for name, _, place in dialog.rows}
    assert where["Python"] == facts["Python"].location
    # at the size it opens with, every row is on screen (Python and GPU were below a scroll)
    qtbot.waitUntil(lambda: dialog.table.height() >= dialog.table.minimumHeight())
    last = dialog.table.visualRect(dialog.table.model().index(len(rows) - 1, 1))
    assert dialog.table.viewport().rect().contains(last)
    assert not dialog.table.verticalScrollBar().isVisible()
    qtbot.mouseClick(dialog.copy, Qt.MouseButton.LeftButton)
    copied = QApplication.clipboard().text()
    assert all(name in copied and version in copied for name, version in rows.items())
    dialog.close()


def test_the_guide_is_installed_with_the_package() -> None:
    folder = user_docs()
    for page in PAGES:
        assert (folder / page).is_file(), page
    assert (folder / "images" / "kernel.png").is_file()
    assert slug("1. Open a model") == "1-open-a-model"
    assert slug("kernelscope db list") == "kernelscope-db-list"


def test_the_user_guide_shows_its_pages_and_follows_links(qtbot, make_window) -> None:
    window = make_window()
    window.action("user_guide").trigger()
    guide = window.findChild(UserGuideDialog)
    assert guide is not None and guide.isVisible() and not guide.isModal()
    browser = guide.browser
    qtbot.waitUntil(lambda: browser.guide is not None, timeout=WAIT_MS)
    assert guide.page == USER_GUIDE
    assert browser.toPlainText().startswith("kernelscope user guide")
    # every picture the page shows is there, at the page's width, full resolution behind it
    shown = [n for n in browser.guide.images if f"]({n})" in browser.guide.pages[USER_GUIDE]]
    assert shown
    for name in shown:
        image = browser.document().resource(QTextDocument.ResourceType.ImageResource, QUrl(name))
        assert isinstance(image, QImage) and not image.isNull(), name
        assert image.width() / image.devicePixelRatio() <= 820
    # a link to another page, then to a section of a third, then back
    browser.anchorClicked.emit(QUrl("troubleshooting.md"))
    assert guide.page == "troubleshooting.md"
    assert "troubleshooting" in browser.toPlainText().splitlines()[0].lower()
    browser.anchorClicked.emit(QUrl("cli.md#kernelscope-profile"))
    assert guide.page == "cli.md"
    qtbot.waitUntil(lambda: browser.verticalScrollBar().value() > 0)
    top = browser.cursorForPosition(QPoint(20, 20)).block().text()  # the first line shown
    assert top == "kernelscope profile", f"scrolled to {top!r}"
    assert guide.back.isEnabled() and not guide.forward.isEnabled()
    guide.back.click()
    assert guide.page == "troubleshooting.md" and guide.forward.isEnabled()
    guide.contents.click()
    assert guide.page == USER_GUIDE
    browser.anchorClicked.emit(QUrl("../README.md"))
    assert guide.page == USER_GUIDE and "not part of the guide" in guide.where.text()
    window.action("user_guide").trigger()
    assert window.findChildren(UserGuideDialog) == [guide], "one guide window, raised"
    guide.close()


@pytest.mark.parametrize(
    ("dialog", "palette", "scale"),
    [("about", "dark", "1"), ("user-guide", "dark", "1"), ("about", "light", "2")],
)
def test_the_help_windows_render_in_both_palettes_and_at_twice_the_scale(
    tmp_path: Path, dialog: str, palette: str, scale: str
) -> None:
    """kernelscope --screenshot --dialog: the dialog alone, in the palette asked for; at
    QT_SCALE_FACTOR=2 with twice the pixels (docs/images/*-2x.png are for the eye)."""
    out = tmp_path / f"{dialog}.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "QT_SCALE_FACTOR": scale}
    proc = subprocess.run(
        [sys.executable, "-m", "kernelscope.core.cli", "--screenshot", str(out)]
        + ["--dialog", dialog, "--palette", palette],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    image = QImage(str(out))
    size = DIALOG_SIZES[dialog]
    if size is not None:
        assert (image.width(), image.height()) == (size[0] * int(scale), size[1] * int(scale))
    else:  # About at the size it opens with: every row (test above)
        assert image.width() >= 600 * int(scale) and image.height() >= 300 * int(scale)
    # the background right of the guide's pictures, of the About table's versions
    background = image.pixelColor(image.width() * 9 // 10, image.height() * 6 // 10)
    assert (background.lightness() < 100) == (palette == "dark")


def test_every_heading_of_every_page_renders(qapp) -> None:
    """Markdown that Qt (and GitHub) reads as HTML (a bare <date>) swallows the rest of a
    page: every heading must come out as a heading with its text."""
    import re

    from kernelscope.viewer.dialogs.user_guide import _headings

    for page in PAGES:
        text = (user_docs() / page).read_text(encoding="utf-8")
        written = [
            slug(line.lstrip("#"))
            for line in re.sub(r"```.*?```", "", text, flags=re.S).splitlines()
            if line.startswith("#")
        ]
        document = QTextDocument()
        document.setMarkdown(text)
        assert list(_headings(document)) == list(dict.fromkeys(written)), page
