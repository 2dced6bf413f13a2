"""A pane that reads what it shows only while it is on screen: one gate for all of them.

A tabbed dock stays ``isVisible()`` behind another tab, so the window tells each pane
whether its tab is the current one (its ``gate.set_shown``, from the dock's
``visibilityChanged``).
A refresh asked for while hidden is remembered and runs when the pane is shown again.
"""

from __future__ import annotations

from collections.abc import Callable


class ShownGate:
    """Whether a pane is on screen, and whether it owes a refresh from while it was not."""

    def __init__(self, refresh: Callable[[], None]) -> None:
        self._refresh = refresh
        self.shown = False
        self.stale = True  # what the pane shows is out of date

    def set_shown(self, shown: bool) -> None:
        """The pane came on screen or left it; coming back runs the refresh it owes."""
        self.shown = shown
        if shown and self.stale:
            self._refresh()

    def due(self) -> bool:
        """Called first in the pane's refresh: True when it should read now; while hidden,
        False, and the refresh is owed."""
        if not self.shown:
            self.stale = True
            return False
        self.stale = False
        return True
