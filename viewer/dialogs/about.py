"""Help > About: kernelscope's version and those of what it runs on (TVM, nvcc, nvdisasm,
Nsight Compute and its report reader, Qt, Python), read off the GUI thread, with a button
that copies them for a bug report."""

from __future__ import annotations

import html
import platform

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import Qt, qVersion
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from kernelscope.core.environment import Fact, project_urls

from ..workers.facts_job import request_facts
from ..workers.jobs import Workers

# (the fact's name in installed_facts, what the dialog calls it), in the dialog's order
ROWS = (
    ("kernelscope", "kernelscope"),
    ("TVM", "Apache TVM"),
    ("nvcc", "nvcc"),
    ("nvdisasm", "nvdisasm"),
    ("ncu", "Nsight Compute (ncu)"),
    ("ncu_report", "Nsight Compute report reader (ncu_report)"),
    ("Qt", "Qt"),
    ("Python", "Python"),
    ("GPU", "GPU"),
)


def version_rows(facts: list[Fact]) -> list[tuple[str, str, str]]:
    """(component, version or why there is none, where it is) in the dialog's order."""
    by_name = {f.name: f for f in facts}
    rows = []
    for name, shown in ROWS:
        f = by_name.get(name)
        if f is None:
            continue
        if name == "Qt":  # the bindings' release, and the Qt they run on
            version = f"Qt {qVersion()}, PySide6 {pyside_version}"
        elif f.found:
            version = f.version or "found"
        else:
            version = "none" if name == "GPU" else "not found"
        rows.append((shown, version, f.location if f.found else f.hint))
    return rows


class AboutDialog(QDialog):
    def __init__(self, workers: Workers, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("about_dialog")
        self.setWindowTitle("About kernelscope")
        icon = QLabel()
        app_icon = QApplication.windowIcon()
        if not app_icon.isNull():
            icon.setPixmap(app_icon.pixmap(64, 64))
        urls = project_urls()
        home = urls.get("Homepage", "")
        link = f"<br><a href='{html.escape(home)}'>{html.escape(home)}</a>" if home else ""
        self.title = QLabel(
            "<h2 style='margin:0'>kernelscope</h2>"
            "TVM-generated CUDA kernels, their SASS and Nsight Compute metrics, line by line."
            f"<br>Apache License 2.0{link}"
        )
        self.title.setOpenExternalLinks(True)
        self.title.setWordWrap(True)
        heading = QHBoxLayout()
        heading.addWidget(icon, 0, Qt.AlignmentFlag.AlignTop)
        heading.addWidget(self.title, 1)
        self.table = QTableWidget(0, 2)
        self.table.setObjectName("about_versions")
        self.table.setHorizontalHeaderLabels(["Component", "Version"])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setShowGrid(False)
        self.table.setWordWrap(False)
        self.table.horizontalHeader().setSectionResizeMode(
            0, QHeaderView.ResizeMode.ResizeToContents
        )
        self.table.horizontalHeader().setStretchLastSection(True)
        self.status = QLabel("Checking versions…")
        self.copy = QPushButton("Copy Versions")
        self.copy.setToolTip("Copy the versions as text, for a bug report")
        self.copy.setEnabled(False)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(self.copy, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        self.copy.clicked.connect(self.copy_versions)
        layout = QVBoxLayout(self)
        layout.addLayout(heading)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.status)
        layout.addWidget(buttons)
        self.rows: list[tuple[str, str, str]] = []
        chars = self.fontMetrics().horizontalAdvance("0")
        self.resize(chars * 90, self.fontMetrics().height() * 26)
        request_facts(workers, self._on_facts, self._on_failed)

    def _on_facts(self, facts: list[Fact]) -> None:
        self.rows = version_rows(facts)
        self.table.setRowCount(len(self.rows))
        for r, (name, version, where) in enumerate(self.rows):
            for c, text in enumerate((name, version)):
                item = QTableWidgetItem(text)
                item.setToolTip(where)
                self.table.setItem(r, c, item)
        self.status.setText(f"{platform.system()} {platform.machine()}")
        self.copy.setEnabled(True)

    def _on_failed(self, error: BaseException) -> None:
        self.status.setText(f"Could not read the versions: {error}")

    def versions_text(self) -> str:
        """The versions as lines of text, what Copy Versions puts on the clipboard."""
        width = max((len(name) for name, _, _ in self.rows), default=0)
        return "\n".join(f"{name:{width}}  {version}" for name, version, _ in self.rows) + "\n"

    def copy_versions(self) -> None:
        QApplication.clipboard().setText(self.versions_text())
