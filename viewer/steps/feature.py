"""The Steps pane in the window: at the bottom, a tab beside Headroom, reading only while
shown, its errors in the window's error dialog."""

from __future__ import annotations

from PySide6.QtCore import Qt

from ..feature import Feature, WindowContext
from .pane import StepsPane


class StepsFeature(Feature):
    def install(self, ctx: WindowContext) -> None:
        self.pane = StepsPane(ctx.selection, ctx.workers)
        self.dock = ctx.add_dock(
            "Steps", self.pane, Qt.DockWidgetArea.BottomDockWidgetArea, tabbed=True
        )
        self.dock.visibilityChanged.connect(self.pane.gate.set_shown)
        self.pane.error.connect(ctx.show_error)

    @property
    def busy(self) -> bool:
        return self.pane.busy
