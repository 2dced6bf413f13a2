"""View > Palette (issue 30): light, dark or the system's look, switched at once, the code in
the palette's colours, and remembered for the next window (``kernelscope gui`` starts with
it); before, only ``--palette`` on the command line chose it."""

from __future__ import annotations

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QMenu
from viewer_support import WORKSPACE

from kernelscope.viewer.code.highlight import cuda_highlighter
from kernelscope.viewer.palette_choice import KEY, SYSTEM, apply_palette, saved_palette
from kernelscope.viewer.widgets.roles import SpansRole, item_data


def _base(app: QApplication) -> int:
    return app.palette().color(QPalette.ColorRole.Base).lightness()


def _keyword_colour(window) -> str:
    """The colour the source pane draws ``extern`` (line 1 or 2 of a TVM kernel) in."""
    model = window.source.model
    for row in range(model.rowCount()):
        for text, colour in item_data(model.index(row, model.code_column), SpansRole) or []:
            if text.strip() == "extern" and colour is not None:
                return colour.name()
    raise AssertionError("no keyword coloured")


def test_the_view_menu_switches_the_palette_and_remembers_it(qtbot, make_window) -> None:
    app = QApplication.instance()
    window = make_window(WORKSPACE)
    view = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
    palettes = window.findChild(QMenu, "palette_menu")
    assert palettes is not None and palettes.menuAction() in view.actions()
    light_keyword = _keyword_colour(window)
    try:
        window.findChild(type(palettes.actions()[0]), "action_palette_dark").trigger()
        assert _base(app) < 128, "a dark base"
        assert app.style().name().lower() == "fusion"
        assert saved_palette(window.settings) == "dark"
        # the code in the dark palette's colours (as a window opened dark draws it)
        dark = cuda_highlighter()
        expected = next(c for t, c in dark.line('extern "C"') if t.strip() == "extern")
        assert _keyword_colour(window) == expected.name() != light_keyword
        checked = [a.objectName() for a in palettes.actions() if a.isChecked()]
        assert checked == ["action_palette_dark"]
        # back to the system's look
        window.findChild(type(palettes.actions()[0]), f"action_palette_{SYSTEM}").trigger()
        assert _base(app) >= 128
        assert window.settings.value(KEY) == SYSTEM and saved_palette(window.settings) is None
        assert _keyword_colour(window) == light_keyword
    finally:
        apply_palette(app, SYSTEM)
