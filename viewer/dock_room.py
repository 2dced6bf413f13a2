"""Docks give way before the code does (issue 30).

The code panes keep a minimum (``code_pane.CODE_CHARS`` characters, ``CODE_LINES`` lines);
Qt then narrows the docks beside them, down to widths where a kernel list or the Details
pane is no longer of use, and past that makes the window wider than the screen. So a dock
shown (or dropped) in the left or right area of a window too narrow to hold it at a useful
width beside the code goes to the bottom area instead, tabbed with the docks there.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QDockWidget, QFrame, QMainWindow, QScrollArea, QWidget

# Narrower than this a side dock shows too little to be worth the code's room.
USEFUL_WIDTH = 240
SIDES = (Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea)
BOTTOM = Qt.DockWidgetArea.BottomDockWidgetArea


class DockRoom(QObject):
    """Watches ``docks`` (those that may be put beside the code) of ``window``."""

    def __init__(self, window: QMainWindow, docks: Sequence[QDockWidget]) -> None:
        super().__init__(window)
        self.window = window
        self.docks = list(docks)
        for dock in self.docks:
            dock.visibilityChanged.connect(lambda shown, dock=dock: self._later(dock, shown))
            dock.dockLocationChanged.connect(lambda area, dock=dock: self._later(dock, True))
        self._wanted = QSize()  # the window's size as the user (or the program) made it
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """A window made narrower: after the resize, the side docks that no longer fit go."""
        if watched is self.window and isinstance(event, QResizeEvent):
            new, old = event.size(), event.oldSize()
            # a dock shown beside the code widens the window to the layout's minimum: not
            # a size anybody asked for
            forced = old.isValid() and new.width() > old.width() == self._wanted.width()
            if not (forced and new.width() == self.window.minimumWidth()):
                self._wanted = QSize(new)
            QTimer.singleShot(0, self, self.make_room)
        return False

    def place(self, dock: QDockWidget) -> None:
        """Before ``dock`` is shown: to the bottom if it would not fit beside the code."""
        if dock.isVisible() or dock.isFloating():
            return
        if self.window.dockWidgetArea(dock) in SIDES and not self.fits(dock):
            self._to_bottom(dock)

    def needed_width(self, extra: QDockWidget | None = None) -> int:
        """The width the code's minimum and the side docks shown (and ``extra``) at a useful
        width take."""
        window = self.window
        central = window.centralWidget()
        width = central.minimumSizeHint().width() if central is not None else 0
        style = window.style()
        separator = style.pixelMetric(style.PixelMetric.PM_DockWidgetSeparatorExtent)
        for area in SIDES:
            docks = [d for d in self._docked(area) if d.isVisible() or d is extra]
            if docks:
                widest = max(max(d.minimumSizeHint().width(), USEFUL_WIDTH) for d in docks)
                width += widest + separator
        return width

    def fits(self, extra: QDockWidget | None = None) -> bool:
        return self.needed_width(extra) <= self.window.width()

    def make_room(self) -> None:
        """Move side docks that do not fit to the bottom, the last of ``docks`` first."""
        if not self.window.isVisible():
            return
        for dock in reversed(self.docks):
            if self.fits():
                return
            if dock.isVisible() and self.window.dockWidgetArea(dock) in SIDES:
                self._to_bottom(dock)

    def _docked(self, area: Qt.DockWidgetArea) -> list[QDockWidget]:
        return [
            d
            for d in self.window.findChildren(QDockWidget)
            if not d.isFloating() and self.window.dockWidgetArea(d) == area
        ]

    def _later(self, dock: QDockWidget, shown: bool) -> None:
        """After the signal: moving a dock while the window restores a layout (whose docks
        say they were shown) or lays one out crashed Qt."""
        if shown:
            QTimer.singleShot(0, self, lambda: self._check(dock))

    def _check(self, dock: QDockWidget) -> None:
        if not dock.isVisible() or dock.isFloating():
            return
        if self.window.dockWidgetArea(dock) not in SIDES:
            return
        if not self.window.isVisible() or self.fits():
            return
        window = self.window
        self._to_bottom(dock)
        # showing it had widened the window to the layout's minimum: back, as the dock goes
        if self._wanted.isValid() and window.width() > self._wanted.width():
            layout = window.layout()
            if layout is not None:  # its minimum without the dock beside the code
                layout.invalidate()
                layout.activate()
            window.resize(self._wanted.width(), window.height())

    def _to_bottom(self, dock: QDockWidget) -> None:
        window = self.window
        below = [d for d in self._docked(BOTTOM) if d.isVisible()]
        window.addDockWidget(BOTTOM, dock)
        if below:
            window.tabifyDockWidget(below[0], dock)
        dock.show()
        # raised once the tab bar has it (tabifying queues the tab's creation)
        QTimer.singleShot(0, dock, dock.raise_)
        dock.raise_()


def scrolling(panel: QWidget) -> QScrollArea:
    """``panel`` in a scroll area, for a dock: lower than the panel's own minimum, it scrolls
    (Qt takes the highest minimum of the docks tabbed together, and the code gave way)."""
    area = QScrollArea()
    area.setObjectName(f"{panel.objectName()}_scroll")
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidgetResizable(True)
    area.setWidget(panel)
    return area
