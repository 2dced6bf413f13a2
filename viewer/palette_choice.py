"""The window's look: the desktop's, or the Fusion style with a light or a dark palette.

``kernelscope gui --palette`` chooses it for one run; View > Palette switches it at once and
remembers the choice (the next window starts with it). "System" is the look the application
had before kernelscope changed it (``keep_system_look``).
"""

from __future__ import annotations

from PySide6.QtCore import QSettings, Signal
from PySide6.QtGui import QAction, QActionGroup, QColor, QPalette
from PySide6.QtWidgets import QApplication, QMenu, QStyleFactory, QWidget

PALETTES = ("light", "dark")
SYSTEM = "system"
KEY = "view/palette"
_system: tuple[str, QPalette] | None = None  # the application's own style and palette


def keep_system_look(app: QApplication) -> None:
    """Remember the application's style and palette, once, before anything changes them."""
    global _system
    if _system is None:
        _system = (app.style().name(), QPalette(app.palette()))


def palette(name: str) -> QPalette:
    """Fusion's light palette, or a dark one with the same roles."""
    if name == "light":
        style = QStyleFactory.create("Fusion")
        return style.standardPalette()
    p = QPalette()
    colours = {
        QPalette.ColorRole.Window: "#2b2b2b",
        QPalette.ColorRole.WindowText: "#dcdcdc",
        QPalette.ColorRole.Base: "#1e1e1e",
        QPalette.ColorRole.AlternateBase: "#262626",
        QPalette.ColorRole.ToolTipBase: "#3c3f41",
        QPalette.ColorRole.ToolTipText: "#dcdcdc",
        QPalette.ColorRole.PlaceholderText: "#8a8a8a",
        QPalette.ColorRole.Text: "#dcdcdc",
        QPalette.ColorRole.Button: "#3c3f41",
        QPalette.ColorRole.ButtonText: "#dcdcdc",
        QPalette.ColorRole.BrightText: "#ff6e6e",
        QPalette.ColorRole.Light: "#4a4a4a",
        QPalette.ColorRole.Midlight: "#3f3f3f",
        QPalette.ColorRole.Mid: "#5a5a5a",
        QPalette.ColorRole.Dark: "#202020",
        QPalette.ColorRole.Shadow: "#101010",
        QPalette.ColorRole.Highlight: "#2f65ca",
        QPalette.ColorRole.HighlightedText: "#ffffff",
        QPalette.ColorRole.Link: "#589df6",
    }
    for role, colour in colours.items():
        p.setColor(role, QColor(colour))
    disabled = QPalette.ColorGroup.Disabled
    for role in (
        QPalette.ColorRole.WindowText,
        QPalette.ColorRole.Text,
        QPalette.ColorRole.ButtonText,
    ):
        p.setColor(disabled, role, QColor("#7a7a7a"))
    return p


def apply_palette(app: QApplication, name: str) -> None:
    """Switch the application to ``name`` (one of ``PALETTES``, or ``SYSTEM``)."""
    keep_system_look(app)
    assert _system is not None
    if name == SYSTEM:
        app.setStyle(_system[0])
        app.setPalette(_system[1])
    else:
        app.setStyle("Fusion")
        app.setPalette(palette(name))


def saved_palette(settings: QSettings) -> str | None:
    """The palette chosen in View > Palette (None: the system's look)."""
    name = settings.value(KEY)
    return name if name in PALETTES else None


class PaletteMenu(QMenu):
    """View > Palette: System, Light, Dark; ``changed`` after the application switched."""

    changed = Signal(str)

    def __init__(self, settings: QSettings, parent: QWidget | None = None) -> None:
        super().__init__("&Palette", parent)
        self.setObjectName("palette_menu")
        self._settings = settings
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        keep_system_look(app)
        group = QActionGroup(self)
        chosen = saved_palette(settings) or SYSTEM
        for name, text in ((SYSTEM, "&System"), ("light", "&Light"), ("dark", "&Dark")):
            action = QAction(text, group)
            action.setObjectName(f"action_palette_{name}")
            action.setCheckable(True)
            action.setChecked(name == chosen)
            action.triggered.connect(lambda checked=False, name=name: self.choose(name))
            self.addAction(action)

    def choose(self, name: str) -> None:
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        apply_palette(app, name)
        self._settings.setValue(KEY, name)
        for action in self.actions():
            action.setChecked(action.objectName() == f"action_palette_{name}")
        self.changed.emit(name)
