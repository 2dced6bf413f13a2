"""Which metric columns the code panes show before the code (issue 30: three wide columns
pushed the code to the middle of the pane).

By default one narrow column: the metric chosen in the Metric box, following it. The
header's context menu of any code pane adds or removes metrics (for the source, SASS and PTX
panes together); the choice is remembered in the settings. A metric the document does not
have is left out, not forgotten: the next report that has it shows it again.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QObject, QSettings, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QWidget

CHOSEN = "chosen"  # stands for the Metric box's metric, whichever it is
KEY = "code/metric_columns"
DEFAULT = (CHOSEN,)


class MetricColumns(QObject):
    """The remembered choice of metric columns; ``changed`` when the user edits it."""

    changed = Signal()

    def __init__(self, settings: QSettings, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._settings = settings
        stored = settings.value(KEY)
        # one string, a name a line: an empty choice (no metric column) stays empty
        self._names = tuple(str(stored).splitlines()) if isinstance(stored, str) else DEFAULT

    @property
    def names(self) -> tuple[str, ...]:
        return self._names

    def shown(self, available: Sequence[str], chosen: str) -> set[str]:
        """The names of ``available`` to show, ``chosen`` being the Metric box's metric."""
        wanted = {chosen if n == CHOSEN else n for n in self._names}
        return wanted & set(available)

    def set_names(self, names: Sequence[str]) -> None:
        if tuple(names) == self._names:
            return
        self._names = tuple(names)
        self._settings.setValue(KEY, "\n".join(self._names))
        self.changed.emit()

    def toggle(self, name: str, on: bool) -> None:
        names = [n for n in self._names if n != name]
        self.set_names([*names, name] if on else names)

    def menu(self, parent: QWidget, available: Sequence[str]) -> QMenu:
        """The header's context menu: the chosen metric, each of ``available``, a reset."""
        menu = QMenu(parent)
        menu.setObjectName("metric_columns_menu")
        menu.setToolTipsVisible(True)

        def add(text: str, name: str, tip: str) -> None:
            action = QAction(text, menu)
            action.setCheckable(True)
            action.setChecked(name in self._names)
            action.setToolTip(tip)
            action.setData(name)
            action.toggled.connect(lambda on, name=name: self.toggle(name, on))
            menu.addAction(action)

        add("Chosen Metric", CHOSEN, "A column for the metric chosen in the Metric box")
        menu.addSeparator()
        for name in available:
            add(name, name, f"Always a column for {name}")
        menu.addSeparator()
        reset = menu.addAction("Default Columns")
        reset.setToolTip("Only the chosen metric's column")
        reset.triggered.connect(lambda: self.set_names(DEFAULT))
        return menu
