"""The Details pane's rich text: its height at a width is measured apart from the document on
screen, which layouts asking for heights (~20 times a kernel switch) never lay out again."""

from __future__ import annotations

from kernelscope.viewer.widgets.rich_text import RichText


def test_heights_are_measured_apart_and_kept_until_the_text_changes(qtbot) -> None:
    text = RichText()
    qtbot.addWidget(text)
    text.resize(300, 100)
    text.show()
    text.set_html("<p>" + "word " * 200 + "</p>")
    shown = text.document().textWidth()
    narrow = text.heightForWidth(300)
    wide = text.heightForWidth(600)
    assert wide < narrow
    assert text.document().textWidth() == shown  # the text on screen stays as laid out
    copy = text.document().clone()
    copy.setTextWidth(300)
    assert narrow == int(copy.size().height()) + 2
    assert text.heightForWidth(300) == narrow
    text.set_html("<p>short</p>")
    assert text.heightForWidth(300) < narrow
