"""Why a kernel is slow (issue 10) in the window: Details and the roofline on the right, the
Headroom list with the other lists at the bottom; each reads only while it is shown, and a
kernel's data is read ahead when the window is idle."""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QWidget

from kernelscope.core.compare import ProfileDiff
from kernelscope.core.view import ProfileSession

from ..actions import HEADROOM
from ..feature import Feature, WindowContext
from .details_pane import DetailsPane
from .headroom_panel import HeadroomPanel
from .roofline_panel import RooflinePanel
from .warm_ahead import WarmAhead

PANES = ("details", "roofline", "headroom")


class DetailsFeature(Feature):
    def install(self, ctx: WindowContext) -> None:
        self.ctx = ctx
        self.details_pane = DetailsPane(ctx.selection, ctx.workers)
        self.roofline_panel = RooflinePanel(ctx.selection, ctx.workers)
        self.headroom_panel = HeadroomPanel(ctx.selection, ctx.workers)
        # a first click on a kernel costs what a second does: its data read ahead when idle
        self.warm_ahead = WarmAhead(
            ctx.selection, ctx.workers, self.details_pane, ctx.code.hot, ctx.window
        )
        right = Qt.DockWidgetArea.RightDockWidgetArea
        self.details_dock = ctx.add_dock("Details", self.details_pane, right, tabbed=True, size=440)
        self.roofline_dock = ctx.add_dock("Roofline", self.roofline_panel, right, tabbed=True)
        # closed until asked for (toolbar, Ctrl+4/5, View): the code panes keep their width
        self.details_dock.hide()
        self.roofline_dock.hide()
        self.headroom_dock = ctx.add_dock(
            "Headroom", self.headroom_panel, Qt.DockWidgetArea.BottomDockWidgetArea, tabbed=True
        )
        ctx.add_context_menu(HEADROOM, self.headroom_panel.table)
        for pane in PANES:
            ctx.add_action(f"show_{pane}", partial(self.show_pane, pane))
        self.details_dock.visibilityChanged.connect(self.details_pane.gate.set_shown)
        self.roofline_dock.visibilityChanged.connect(self.roofline_panel.gate.set_shown)
        self.headroom_dock.visibilityChanged.connect(self.headroom_panel.gate.set_shown)

    @property
    def busy(self) -> bool:
        return self.details_pane.busy or self.roofline_panel.busy or self.headroom_panel.busy

    def show_pane(self, pane: str) -> QWidget:
        """Raise the dock of a pane ("details", "roofline", "headroom") and return the pane."""
        dock, widget = self._panes()[pane]
        self.ctx.raise_dock(dock, make_room=True)  # below the code when no room beside it
        return widget

    def _panes(self) -> dict[str, tuple[QDockWidget, QWidget]]:
        return {
            "details": (self.details_dock, self.details_pane),
            "roofline": (self.roofline_dock, self.roofline_panel),
            "headroom": (self.headroom_dock, self.headroom_panel),
        }

    def chosen_in_headroom(self) -> list[str] | None:
        """The kernels chosen in the Headroom list when it has the keyboard (its context
        menu asked), else None."""
        panel = self.headroom_panel
        return panel.selected_names() if panel.table.hasFocus() else None

    def savings_us(self) -> dict[str, float] | None:
        """Each kernel's microseconds to save (the Headroom list's), where known."""
        return self.headroom_panel.savings_us()

    def set_baseline(self, session: ProfileSession | None, diff: ProfileDiff | None) -> None:
        """Compare mode's baseline: the Headroom list's change column."""
        self.headroom_panel.set_baseline(session, diff)
