"""File > Open Recent: the paths opened last, newest first, kept in QSettings."""

from __future__ import annotations

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import QMenu, QWidget

MAX_RECENT = 10
SETTINGS_KEY = "recent_files"


class RecentFilesMenu(QMenu):
    open_requested = Signal(str)

    def __init__(self, settings: QSettings, parent: QWidget | None = None) -> None:
        super().__init__("Open &Recent", parent)
        self.setObjectName("recent_menu")
        self._settings = settings
        self._fill()

    def paths(self) -> list[str]:
        value = self._settings.value(SETTINGS_KEY, [])
        if isinstance(value, str):
            return [value]
        return [str(v) for v in value] if isinstance(value, list) else []

    def remember(self, path: str) -> None:
        recent = [p for p in self.paths() if p != path]
        self._settings.setValue(SETTINGS_KEY, [path, *recent][:MAX_RECENT])
        self._fill()

    def _fill(self) -> None:
        self.clear()
        paths = self.paths()
        for path in paths:
            action = self.addAction(path)
            action.triggered.connect(lambda checked=False, p=path: self.open_requested.emit(p))
        self.setEnabled(bool(paths))
