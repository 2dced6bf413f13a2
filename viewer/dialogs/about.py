"""Help > About: kernelscope's version and those of what it runs on (TVM, nvcc, nvdisasm,
Nsight Compute and its report reader, Qt, Python, the GPU) and where each is found, read off
the GUI thread, with a button that copies them for a bug report, and the window's log file
to attach to it."""

from __future__ import annotations

import html

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import Qt, QUrl, qVersion
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

from kernelscope.core.environment import AboutInfo, VersionRow, about_info

from .. import log_file
from ..workers.facts_job import installed
from ..workers.jobs import JobContext, Workers

TITLE = (
    "<h2 style='margin:0'>kernelscope</h2>"
    "TVM-generated CUDA kernels, their SASS and Nsight Compute metrics, line by line."
    "<br>Apache License 2.0"
)


class AboutDialog(QDialog):
    def __init__(self, workers: Workers, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("about_dialog")
        self.setWindowTitle("About kernelscope")
        icon = QLabel()
        app_icon = QApplication.windowIcon()
        if not app_icon.isNull():
            icon.setPixmap(app_icon.pixmap(64, 64))
        self.title = QLabel(TITLE)
        self.title.setOpenExternalLinks(True)
        self.title.setWordWrap(True)
        heading = QHBoxLayout()
        heading.addWidget(icon, 0, Qt.AlignmentFlag.AlignTop)
        heading.addWidget(self.title, 1)
        self.table = QTableWidget(0, 3)
        self.table.setObjectName("about_versions")
        self.table.setHorizontalHeaderLabels(["Component", "Version", "Where"])
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setShowGrid(False)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # a long path keeps its end
        header = self.table.horizontalHeader()
        for column in (0, 1):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.status = QLabel("Checking versions…")
        self.log = QLabel(_log_line())
        self.log.setObjectName("about_log")
        self.log.setWordWrap(True)
        self.log.setOpenExternalLinks(True)  # its folder, in the file manager
        self.log.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
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
        layout.addWidget(self.log)
        layout.addWidget(buttons)
        self.rows: list[VersionRow] = []
        self._info: AboutInfo | None = None
        chars = self.fontMetrics().horizontalAdvance("0")
        self.resize(max(chars * 120, self.sizeHint().width()), self.sizeHint().height())
        qt = f"Qt {qVersion()}, PySide6 {pyside_version}"  # the bindings, and the Qt they run on

        def read(context: JobContext) -> AboutInfo:
            return about_info(installed(), qt)

        job = workers.start("open", read, "checking what is installed")
        job.returned.connect(self._on_info)
        job.errored.connect(self._on_failed)

    def _on_info(self, info: AboutInfo) -> None:
        self._info = info
        self.rows = info.rows
        if info.homepage:
            home = html.escape(info.homepage)
            self.title.setText(f"{TITLE}<br><a href='{home}'>{home}</a>")
        self.table.setRowCount(len(self.rows))
        for r, row in enumerate(self.rows):
            for c, text in enumerate(row):  # component, version, where
                item = QTableWidgetItem(text)
                item.setToolTip(row.where)
                self.table.setItem(r, c, item)
        # every row on screen, however tall the font makes a row: the dialog grows to it
        self.table.setMinimumHeight(self._table_height(len(self.rows)))
        self.status.setText(info.system)
        self.copy.setEnabled(True)

    def _table_height(self, rows: int) -> int:
        """The table's height with ``rows`` rows, its header and frame: no scroll bar."""
        table = self.table
        header = table.horizontalHeader().sizeHint().height()
        return header + rows * table.verticalHeader().defaultSectionSize() + 2 * table.frameWidth()

    def _on_failed(self, error: BaseException) -> None:
        self.status.setText(f"Could not read the versions: {error}")

    def copy_versions(self) -> None:
        if self._info is not None:
            QApplication.clipboard().setText(self._info.text())


def _log_line() -> str:
    """Where the window's log is, its folder a link, as rich text."""
    path = log_file.current()
    if path is None:
        return "The window writes no log file."
    folder = html.escape(QUrl.fromLocalFile(str(path.parent)).toString())
    return f"Log file (attach it to a bug report): <a href='{folder}'>{html.escape(str(path))}</a>"
