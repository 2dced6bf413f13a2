"""Ctrl+F: find text (or a regex) in the source or SASS pane that last had focus."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QToolButton,
    QWidget,
)


class SearchBar(QWidget):
    find_requested = Signal(str, bool, bool, bool)  # pattern, regex, case, backwards

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("search_bar")
        self.edit = QLineEdit()
        self.edit.setPlaceholderText("Find (Enter: next, Shift+Enter: previous, Esc: close)")
        self.regex = QCheckBox("Regex")
        self.case = QCheckBox("Case")
        self.status = QLabel()
        previous, following = QToolButton(), QToolButton()
        previous.setArrowType(Qt.ArrowType.UpArrow)
        following.setArrowType(Qt.ArrowType.DownArrow)
        previous.setToolTip("Previous match (Shift+Enter)")
        following.setToolTip("Next match (Enter)")
        close = QToolButton()
        close.setText("✕")
        close.setToolTip("Close (Esc)")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        for widget in (QLabel("Find:"), self.edit, previous, following, self.regex, self.case):
            layout.addWidget(widget)
        layout.addWidget(self.status, 1)
        layout.addWidget(close)
        self.edit.returnPressed.connect(self._on_return)
        following.clicked.connect(lambda: self.search(False))
        previous.clicked.connect(lambda: self.search(True))
        close.clicked.connect(self.hide)

    def open(self) -> None:
        self.show()
        self.edit.setFocus()
        self.edit.selectAll()

    def search(self, backwards: bool) -> None:
        self.find_requested.emit(
            self.edit.text(), self.regex.isChecked(), self.case.isChecked(), backwards
        )

    def _on_return(self) -> None:
        shift = QApplication.keyboardModifiers() & Qt.KeyboardModifier.ShiftModifier
        self.search(bool(shift))

    def show_result(self, found: bool) -> None:
        self.status.setText("" if found else "no match")

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.hide()
        else:
            super().keyPressEvent(event)
