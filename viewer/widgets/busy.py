"""The busy indicator: what is running, a progress bar and an optional Cancel; in the status
bar, and the progress strip of panes and pages with long jobs of their own."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QToolButton, QWidget


class BusyIndicator(QWidget):
    cancel_requested = Signal()

    def __init__(self, name: str, *, text: bool = True) -> None:
        """``text``: the indicator shows what runs; without, its owner says it elsewhere (a
        wrapped line of its own) from the same ``set_progress`` calls."""
        super().__init__()
        self.setObjectName(name)
        self.label = QLabel()
        self.label.setVisible(text)
        self.bar = QProgressBar()
        self.bar.setMaximumWidth(160)
        self.bar.setTextVisible(False)
        self.cancel = QToolButton()
        self.cancel.setText("Cancel")
        self.cancel.clicked.connect(self.cancel_requested)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label)
        layout.addWidget(self.bar)
        layout.addWidget(self.cancel)
        self.hide()

    def start(self, text: str, cancellable: bool = False) -> None:
        self.label.setText(text)
        self.bar.setRange(0, 0)  # busy until a fraction is known
        self.cancel.setVisible(cancellable)
        self.show()

    def set_progress(self, fraction: float, text: str) -> None:
        if fraction < 0:
            self.bar.setRange(0, 0)
        else:
            self.bar.setRange(0, 1000)
            self.bar.setValue(int(1000 * fraction))
        self.label.setText(text)

    def stop(self) -> None:
        self.hide()
        self.bar.setRange(0, 1)
