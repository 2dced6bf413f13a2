"""The Kernel DB dock: browse, search, filter and delete the entries of an NNFusion kernel DB.

All reading and writing goes through ``core.kernel_db`` (the panel never touches SQLite
itself). The DB is opened read-only and kept open; deleting opens it for writing for the
one transaction. The chosen file is remembered in QSettings. Call ``load()`` once the
``error`` signal is connected.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QItemSelection, QSettings, QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QFontDatabase, QSyntaxHighlighter, QTextCharFormat, QTextDocument
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.kernel_db import EntryDetail, KernelDB, default_db_path, describe_line_summary

from ..code.highlight import LineHighlighter, cuda_highlighter
from ..widgets.formatting import format_dims, format_number
from ..widgets.roles import KeyRole, SortRole, item_data
from .kernel_db_model import KernelDbModel

SETTINGS_KEY = "kernel_db/path"
PAGE = 1000  # rows listed at most; the filters narrow the rest down
ALL = ""  # combo data of "any op type / device"
DB_FILTER = "Kernel DBs (*.db *.sqlite *.sqlite3);;All files (*)"


class _CudaSyntax(QSyntaxHighlighter):
    """The viewer's CUDA colours (``highlight.py``) in a plain text view."""

    def __init__(self, document: QTextDocument) -> None:
        super().__init__(document)
        self._lines: LineHighlighter = cuda_highlighter()

    def highlightBlock(self, text: str) -> None:
        position = 0
        for part, colour in self._lines.spans(text):
            if colour is not None:
                fmt = QTextCharFormat()
                fmt.setForeground(colour)
                self.setFormat(position, len(part), fmt)
            position += len(part)


class KernelDbPanel(QWidget):
    error = Signal(str, object)  # title, exception: the window shows its error dialog
    reexport_requested = Signal(list)  # kernel names to export again from the open workspace
    db_changed = Signal(str)  # the DB file now shown

    def __init__(self, settings: QSettings) -> None:
        super().__init__()
        self.setObjectName("kernel_db_panel")
        self.settings = settings
        self.db: KernelDB | None = None
        self.detail: EntryDetail | None = None
        self._path = Path(str(settings.value(SETTINGS_KEY, "") or default_db_path()))
        self.model = KernelDbModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(SortRole)
        self._build()

    # ---- construction -------------------------------------------------------------------
    def _build(self) -> None:
        self.path_label = QLabel()
        self.path_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        choose = QPushButton("Open DB…")
        choose.setToolTip("Choose the kernel DB file to browse and export into")
        choose.clicked.connect(self.choose_db)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search kernel, identifier, op, model…")
        self.search.setClearButtonEnabled(True)
        self.op_box = QComboBox()
        self.op_box.setToolTip("Op type (a part of a fused op type matches too)")
        self.device_box = QComboBox()
        self.device_box.setToolTip("DeviceType or the GPU the time was measured on")
        self.shape = QLineEdit()
        self.shape.setPlaceholderText("shape, e.g. 1,64,56,56")
        self.shape.setClearButtonEnabled(True)
        self.count_label = QLabel()
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setWordWrap(False)
        self.table.setAlternatingRowColors(True)
        self.table.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # the DB's order: newest first
        chars = self.fontMetrics().horizontalAdvance("0")
        for column, width in enumerate((30, 16, 34, 9, 10, 10)):
            self.table.setColumnWidth(column, chars * width)
        self.info = QLabel()
        self.info.setWordWrap(True)
        self.info.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.files = QComboBox()
        self.files.setToolTip("Source files stored with the entry")
        self.source = QPlainTextEdit()
        self.source.setReadOnly(True)
        self.source.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.source.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self._syntax = _CudaSyntax(self.source.document())
        self.delete_button = QPushButton("Delete…")
        self.delete_button.setToolTip("Delete the selected entries from the DB (asks first)")
        self.reexport_button = QPushButton("Re-export")
        self.reexport_button.setToolTip(
            "Export the selected entries' kernels again from the open workspace"
        )

        top = QHBoxLayout()
        top.addWidget(self.path_label, 1)
        top.addWidget(choose)
        filters = QHBoxLayout()
        filters.addWidget(self.search, 2)
        filters.addWidget(self.op_box, 1)
        filters.addWidget(self.device_box, 1)
        filters.addWidget(self.shape, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.count_label, 1)
        buttons.addWidget(self.reexport_button)
        buttons.addWidget(self.delete_button)
        listing = QWidget()
        listing_layout = QVBoxLayout(listing)
        listing_layout.setContentsMargins(0, 0, 0, 0)
        listing_layout.addLayout(filters)
        listing_layout.addWidget(self.table, 1)
        listing_layout.addLayout(buttons)
        details = QWidget()
        detail_layout = QVBoxLayout(details)
        detail_layout.setContentsMargins(0, 0, 0, 0)
        form = QFormLayout()
        form.addRow(self.info)
        form.addRow("File:", self.files)
        detail_layout.addLayout(form)
        detail_layout.addWidget(self.source, 1)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(listing)
        self.splitter.addWidget(details)
        self.splitter.setSizes([600, 500])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(top)
        layout.addWidget(self.splitter, 1)

        self.search.textChanged.connect(self.refresh)
        self.shape.textChanged.connect(self.refresh)
        self.op_box.currentIndexChanged.connect(self.refresh)
        self.device_box.currentIndexChanged.connect(self.refresh)
        self.table.selectionModel().selectionChanged.connect(self._on_selection)
        self.files.currentIndexChanged.connect(self._show_file)
        self.delete_button.clicked.connect(self.confirm_delete)
        self.reexport_button.clicked.connect(self._reexport)

    # ---- the DB file --------------------------------------------------------------------
    @property
    def path(self) -> Path:
        return self._path

    def choose_db(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self,
            "Kernel DB",
            str(self._path),
            DB_FILTER,
            options=QFileDialog.Option.DontConfirmOverwrite,
        )
        if path:
            self.set_path(path)

    def set_path(self, path: str | Path) -> None:
        """Show (and export into) another DB file; remembered for the next session."""
        self._path = Path(path).expanduser()
        self.settings.setValue(SETTINGS_KEY, str(self._path))
        self.load()
        self.db_changed.emit(str(self._path))

    def load(self) -> None:
        """(Re)open the DB read-only and list it; a file that does not exist yet is empty."""
        self.close_db()
        self.path_label.setText(str(self._path))
        self.path_label.setToolTip(str(self._path))
        if self._path.is_file():
            try:
                self.db = KernelDB.open(self._path)
            except KernelscopeError as exc:
                self.error.emit(f"Cannot read {self._path.name}", exc)
        self._fill_filters()
        self.refresh()

    def close_db(self) -> None:
        if self.db is not None:
            self.db.close()
            self.db = None

    def _fill_filters(self) -> None:
        for box, items, empty in (
            (self.op_box, self._op_items(), "All op types"),
            (self.device_box, self._device_items(), "All devices"),
        ):
            current = box.currentData()
            box.blockSignals(True)
            box.clear()
            box.addItem(empty, ALL)
            for text, value in items:
                box.addItem(text, value)
            box.setCurrentIndex(max(0, box.findData(current)))
            box.blockSignals(False)

    def _op_items(self) -> list[tuple[str, str]]:
        return [(f"{op} ({n})", op) for op, n in self.db.op_types()] if self.db else []

    def _device_items(self) -> list[tuple[str, str]]:
        return [(d, d) for d in self.db.devices()] if self.db else []

    # ---- listing ------------------------------------------------------------------------
    def filters(self) -> dict[str, str | None]:
        return {
            "op": self.op_box.currentData() or None,
            "device": self.device_box.currentData() or None,
            "shape": self.shape.text().strip() or None,
            "search": self.search.text().strip() or None,
        }

    def refresh(self) -> None:
        selected = set(self.selected_keys())
        if self.db is None:
            self.model.set_entries([])
            self.count_label.setText(
                "No DB yet: Export to Kernel DB creates it"
                if not self._path.exists()
                else "The DB could not be read"
            )
        else:
            filters = self.filters()
            self.model.set_entries(self.db.list_entries(**filters, limit=PAGE))
            total = self.db.count_entries(**filters)
            shown = self.model.rowCount()
            self.count_label.setText(
                f"{total} entries" if shown == total else f"{shown} of {total} entries"
            )
        rows = [r for r in range(self.model.rowCount()) if self.model.entry(r).key in selected]
        for row in rows:
            self.table.selectRow(self.proxy.mapFromSource(self.model.index(row, 0)).row())
        if not rows:
            self._show_detail(None)
        self._update_buttons()

    def reload(self) -> None:
        """After the DB changed on disk (an export): new op types, devices and rows."""
        if self.db is None:
            self.load()
        else:
            self._fill_filters()
            self.refresh()

    def set_profile_times(self, times_us: dict[str, float]) -> None:
        self.model.set_profile_times(times_us)

    def selected_keys(self) -> list[str]:
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()})
        return [item_data(self.proxy.index(r, 0), KeyRole) for r in rows]

    def _selected_entries(self) -> list[tuple[str, str]]:  # (key, kernel name)
        keys = set(self.selected_keys())
        return [
            (e.key, e.kernel_name)
            for e in (self.model.entry(r) for r in range(self.model.rowCount()))
            if e.key in keys
        ]

    def _on_selection(self, selected: QItemSelection, deselected: QItemSelection) -> None:
        current = self.table.currentIndex()
        keys = self.selected_keys()
        key = item_data(current, KeyRole) if current.isValid() else None
        self._show_detail(key if key in keys else (keys[0] if keys else None))
        self._update_buttons()

    def _update_buttons(self) -> None:
        chosen = bool(self.selected_keys())
        self.delete_button.setEnabled(chosen)
        self.reexport_button.setEnabled(chosen)

    # ---- detail -------------------------------------------------------------------------
    def _show_detail(self, key: str | None) -> None:
        self.detail = None
        if key is not None and self.db is not None:
            try:
                self.detail = self.db.get(key)
            except KernelscopeError as exc:
                self.error.emit("Cannot read the entry", exc)
        d = self.detail
        self.files.blockSignals(True)
        self.files.clear()
        if d is None:
            self.info.setText("Select an entry to see its source and launch dimensions.")
            self.source.setPlainText("")
        else:
            self.info.setText(_describe(d))
            self.files.addItems(list(d.sources) or ["Function body"])
        self.files.blockSignals(False)
        self._show_file()

    def _show_file(self) -> None:
        d = self.detail
        if d is None:
            return
        text = d.sources.get(self.files.currentText())
        if text is None:
            text = str(d.function.get("function_body") or d.source or "")
        self.source.setPlainText(text)

    # ---- editing ------------------------------------------------------------------------
    def confirm_delete(self) -> QMessageBox | None:
        """Ask (a non-blocking box), then delete the selected entries."""
        chosen = self._selected_entries()
        if not chosen:
            return None
        names = ", ".join(name for _, name in chosen[:5]) + (", …" if len(chosen) > 5 else "")
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Delete kernel DB entries",
            f"Delete {len(chosen)} entr{'y' if len(chosen) == 1 else 'ies'} from "
            f"{self._path.name}?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            self,
        )
        box.setInformativeText(names)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        keys = [key for key, _ in chosen]
        box.accepted.connect(lambda: self.delete(keys))
        box.open()
        return box

    def delete(self, keys: list[str]) -> int:
        try:
            with KernelDB.open(self._path, write=True, timeout=2.0) as db:
                removed = db.delete(keys)
        except KernelscopeError as exc:
            self.error.emit("Cannot delete from the kernel DB", exc)
            return 0
        self.reload()
        return removed

    def _reexport(self) -> None:
        names = list(dict.fromkeys(name for _, name in self._selected_entries() if name))
        if names:
            self.reexport_requested.emit(names)


def _describe(d: EntryDetail) -> str:
    grid = format_dims(d.grid) if d.grid else "?"
    block = format_dims(d.block) if d.block else "?"
    parts = [
        f"<b>{d.kernel_name or d.key[:12]}</b> — {d.op_type} on {d.device_type}",
        f"Identifier: <tt>{_escape(d.identifier)}</tt>",
        f"Launch: grid {grid}, block {block}",
    ]
    if d.time_us is not None:
        parts.append(f"Stored time: {format_number(d.time_us)} µs on {d.device_name or '?'}")
    if d.model:
        parts.append(f"Model: {_escape(d.model)}, exported {d.exported_at}")
    parts += [_escape(text) for text in describe_line_summary(d.metrics)]
    if d.usable:
        parts.append("Usable by NNFusion")
    else:
        reasons = "; ".join(d.reasons) or "no reason recorded"
        parts.append(
            f"<span style='color:#b00040'>Not usable by NNFusion: {_escape(reasons)}</span>"
        )
    return "<br>".join(parts)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
