"""The Kernel DB dock: browse, search, filter and delete the entries of an NNFusion kernel DB
(what NNFusion makes of each row, and why), the exact NNFusion command line that uses it
(``nnfusion_command``), and what NNFusion will look up in it for a model, with building what
is missing (``nnfusion_coverage``).

All reading and writing goes through ``core.kernel_db`` (the panel never touches SQLite
itself), on the window's ``db`` lane: one worker thread, which owns the read-only connection
the panel keeps open (a sqlite3 connection belongs to its thread). Typing in the search or
shape box lists again once the typing pauses; the newest query wins. Deleting opens the DB
for writing for its one transaction. The DB is first read when the panel is first shown
(``ensure_loaded``) or another file is chosen; the chosen file is remembered in QSettings.
``core.kernel_db`` (sqlite-utils: 0.3 s) is imported then too, not at start-up. The panel
shows the open profile's mean time beside each entry, read on the document lane. Export
options (allow ambiguous rows, replace, write the NNFusion model) are chosen here and kept
in QSettings.
"""

from __future__ import annotations

import dataclasses
import html
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QItemSelection, QSettings, QSortFilterProxyModel, Qt, QTimer, Signal
from PySide6.QtGui import (
    QFontDatabase,
    QSyntaxHighlighter,
    QTextCharFormat,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
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
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from kernelscope.core.view import ViewDocument

from ..code.highlight import Highlighter, Span
from ..widgets.file_dialogs import save_file_name
from ..widgets.formatting import format_dims, format_number
from ..widgets.nnfusion_colours import css
from ..widgets.roles import KeyRole, item_data
from ..widgets.rows_model import sort_by_role
from ..workers.jobs import Latest, Workers
from .export_worker import ExportOptions
from .jobs import (
    CommandInfo,
    DbSession,
    Listing,
    delete_entries,
    function_body,
    mean_times_us,
)
from .model import KernelDbModel
from .nnfusion_command import CommandView
from .nnfusion_coverage import CoverageView

if TYPE_CHECKING:
    from kernelscope.core.kernel_db import Coverage, EntryDetail, EntryFilters, ExportReport

SETTINGS_KEY = "kernel_db/path"
ALL = ""  # combo data of "any op type / device"
DB_FILTER = "Kernel DBs (*.db *.sqlite *.sqlite3);;All files (*)"
TYPING_PAUSE_MS = 250  # a search runs once typing pauses this long
TABS = ("entries", "command", "coverage")  # show_tab's names, in the tabs' order


class _CudaSyntax(QSyntaxHighlighter):
    """Colours of a whole file, lexed on a worker (``Highlighter.text``), block by block;
    none until they arrive."""

    def __init__(self, document: QTextDocument) -> None:
        super().__init__(document)
        self.spans: list[list[Span]] = []

    def set_spans(self, spans: list[list[Span]]) -> None:
        self.spans = spans
        self.rehighlight()

    def highlightBlock(self, text: str) -> None:
        number = self.currentBlock().blockNumber()
        if not 0 <= number < len(self.spans):
            return
        position = 0
        for part, colour in self.spans[number]:
            if colour is not None:
                fmt = QTextCharFormat()
                fmt.setForeground(colour)
                self.setFormat(position, len(part), fmt)
            position += len(part)


class KernelDbPanel(QWidget):
    error = Signal(str, object)  # title, exception: the window shows its error dialog
    reexport_requested = Signal(list)  # kernel names to export again from the open workspace
    listed = Signal()  # a listing is on screen
    detail_shown = Signal()
    command_shown = Signal()  # the NNFusion command tab shows the DB's (or a model's) command

    def __init__(self, settings: QSettings, workers: Workers, cuda: Highlighter) -> None:
        super().__init__()
        self.setObjectName("kernel_db_panel")
        self.settings = settings
        self.detail: EntryDetail | None = None
        remembered = str(settings.value(SETTINGS_KEY, "") or "")
        self._path: Path | None = Path(remembered) if remembered else None  # None: the default
        self._document: ViewDocument | None = None
        self._times = Latest(workers, "document", "reading kernel times", self)
        self._workers = workers
        self._session = DbSession()
        self._cuda = cuda
        self._loaded = False  # read once the panel is first shown
        self._listing = Latest(workers, "db", "listing the kernel DB", self)
        self._details = Latest(workers, "db", "reading a kernel DB entry", self)
        self._colouring = Latest(workers, "highlight", "highlighting an entry", self)
        self._command = Latest(workers, "db", "reading the NNFusion command", self)
        self._command_info: CommandInfo | None = None
        self._product: str | None = None  # -fproduct_name asked for (None: the DB's own)
        self._pending_key: str | None = None  # an entry to select once it is listed
        self._typing = QTimer(self)
        self._typing.setSingleShot(True)
        self._typing.setInterval(TYPING_PAUSE_MS)
        self._lines: list[str] = []  # of the file shown
        self.model = KernelDbModel(self)
        self.proxy = sort_by_role(QSortFilterProxyModel(self), self.model)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(self._build_top())
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self._build_listing())
        self.splitter.addWidget(self._build_details())
        self.splitter.setSizes([600, 500])
        self.commands = CommandView()
        self.coverage = CoverageView(workers)
        self.coverage.set_allow_ambiguous(self.export_options().allow_ambiguous)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("kernel_db_tabs")
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.splitter, "Entries")
        self.tabs.addTab(self.commands, "NNFusion command")
        self.tabs.addTab(self.coverage, "Coverage")
        self.tabs.setTabToolTip(1, "The NNFusion command line that uses this DB correctly")
        self.tabs.setTabToolTip(2, "What NNFusion looks up in this DB for a model")
        layout.addWidget(self.tabs, 1)
        self._typing.timeout.connect(self.refresh)
        self.search.textChanged.connect(self._typing.start)
        self.shape.textChanged.connect(self._typing.start)
        self.op_box.currentIndexChanged.connect(self.refresh)
        self.device_box.currentIndexChanged.connect(self.refresh)
        self.table.selectionModel().selectionChanged.connect(self._on_selection)
        self.files.currentIndexChanged.connect(self._show_file)
        self.delete_button.clicked.connect(self.confirm_delete)
        self.reexport_button.clicked.connect(self._reexport)
        self._listing.result.connect(self._on_listed)
        self._listing.failed.connect(
            lambda exc, path: self.error.emit(f"Cannot read {path.name}", exc)
        )
        self._details.result.connect(self._on_detail)
        self._details.failed.connect(lambda exc, _: self.error.emit("Cannot read the entry", exc))
        self._times.result.connect(self._on_times)
        self._times.failed.connect(lambda exc, _: self.error.emit("Cannot read kernel times", exc))
        self._colouring.result.connect(self._on_coloured)
        self._command.result.connect(self._on_command)
        self._command.failed.connect(
            lambda exc, _: self.error.emit("Cannot read the NNFusion command", exc)
        )
        self.commands.product_changed.connect(self._on_product)
        self.coverage.coverage_shown.connect(self._on_coverage_shown)
        self.coverage.db_changed.connect(self.reload)
        self.coverage.error.connect(self.error)
        self.coverage.entry_requested.connect(self.show_entry)

    # ---- construction -------------------------------------------------------------------
    def _build_top(self) -> QHBoxLayout:
        self.path_label = QLabel()
        self.path_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        choose = QPushButton("Open DB…")
        choose.setToolTip("Choose the kernel DB file to browse and export into")
        choose.clicked.connect(self.choose_db)
        options = QPushButton("Export options…")
        options.setToolTip(
            "Ambiguous rows, replacing older rows, and writing the model NNFusion compiles"
        )
        options.clicked.connect(self.edit_export_options)
        top = QHBoxLayout()
        top.addWidget(self.path_label, 1)
        top.addWidget(options)
        top.addWidget(choose)
        return top

    def _build_listing(self) -> QWidget:
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
        for column, width in enumerate((28, 16, 14, 13, 36, 9, 9)):
            self.table.setColumnWidth(column, chars * width)
        self.delete_button = QPushButton("Delete…")
        self.delete_button.setToolTip("Delete the selected entries from the DB (asks first)")
        self.reexport_button = QPushButton("Re-export")
        self.reexport_button.setToolTip(
            "Export the selected entries' kernels again from the open workspace"
        )
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
        layout = QVBoxLayout(listing)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(filters)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        return listing

    def _build_details(self) -> QWidget:
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
        details = QWidget()
        layout = QVBoxLayout(details)
        layout.setContentsMargins(0, 0, 0, 0)
        form = QFormLayout()
        form.addRow(self.info)
        form.addRow("File:", self.files)
        layout.addLayout(form)
        layout.addWidget(self.source, 1)
        return details

    # ---- the DB file --------------------------------------------------------------------
    @property
    def path(self) -> Path:
        if self._path is None:
            from kernelscope.core.kernel_db import default_db_path

            self._path = default_db_path()
        return self._path

    @property
    def busy(self) -> bool:
        return (
            self._listing.busy
            or self._details.busy
            or self._times.busy
            or self._typing.isActive()
            or self._command.busy
            or self.coverage.busy
        )

    def choose_db(self) -> None:
        path = save_file_name(self, "Kernel DB", str(self.path), DB_FILTER, confirm_overwrite=False)
        if path:
            self.set_path(path)

    def set_path(self, path: str | Path) -> None:
        """Show (and export into) another DB file; remembered for the next session."""
        self._path = Path(path).expanduser()
        self.settings.setValue(SETTINGS_KEY, str(self._path))
        self.load()

    def load(self) -> None:
        """(Re)open the DB read-only and list it; a file that does not exist yet is empty."""
        self._loaded = True
        self.path_label.setText(str(self.path))
        self.path_label.setToolTip(str(self.path))
        self._read_times()
        self._list(reread=True)

    def reload(self) -> None:
        """After the DB changed on disk (an export): new op types, devices and rows."""
        if self._loaded:
            self._list(reread=True)

    def refresh(self) -> None:
        """List again with the filters as they are now."""
        if self._loaded:
            self._list(reread=False)

    def close_db(self) -> None:
        """Stop listening and close the connection (the window closes)."""
        self._typing.stop()
        self._listing.cancel()
        self._details.cancel()
        self._colouring.cancel()
        self._times.cancel()
        self._command.cancel()
        self.coverage.stop()
        if self._loaded and not self._workers.closed:
            session = self._session
            self._workers.start("db", lambda context: session.close(), "closing the kernel DB")
        self._loaded = False

    def ensure_loaded(self) -> None:
        """Read the DB if it was not read yet (the dock's tab came to the front)."""
        if not self._loaded:
            self.load()

    def _list(self, reread: bool) -> None:
        self._typing.stop()
        path, filters, session = self.path, self.filters(), self._session
        self._listing.submit(lambda context: session.list(path, filters, reread), path)

    # ---- listing ------------------------------------------------------------------------
    def filters(self) -> EntryFilters:
        return {
            "op": self.op_box.currentData() or None,
            "device": self.device_box.currentData() or None,
            "shape": self.shape.text().strip() or None,
            "search": self.search.text().strip() or None,
        }

    def _on_listed(self, listing: Listing, path: Path) -> None:
        if listing.error is not None:
            self.error.emit(f"Cannot read {path.name}", listing.error)
        if listing.choices is not None:
            self._fill_filters(*listing.choices)
        selected = set(self.selected_keys())
        self.model.set_entries(listing.entries)
        if listing.verdicts is not None:  # the file was (re)read: its rows may have changed
            self.model.set_verdicts(listing.verdicts)
            self._read_command()
            self.coverage.set_db(path, refresh=True)
        if not listing.readable:
            self.count_label.setText(
                "No DB yet: Export to Kernel DB creates it"
                if not path.exists()
                else "The DB could not be read"
            )
        else:
            shown = len(listing.entries)
            self.count_label.setText(
                f"{listing.total} entries"
                if shown == listing.total
                else f"{shown} of {listing.total} entries"
            )
        if self._pending_key is not None:
            selected, self._pending_key = {self._pending_key}, None
            self.table.clearSelection()
        rows = [r for r in range(self.model.rowCount()) if self.model.entry(r).key in selected]
        for row in rows:
            self.table.selectRow(self.proxy.mapFromSource(self.model.index(row, 0)).row())
        if rows:
            self.table.scrollTo(self.proxy.mapFromSource(self.model.index(rows[0], 0)))
        if not rows:
            self._show_detail(None)
        self._update_buttons()
        self.listed.emit()

    def _fill_filters(self, op_types: list[tuple[str, int]], devices: list[str]) -> None:
        for box, items, empty in (
            (self.op_box, [(f"{op} ({n})", op) for op, n in op_types], "All op types"),
            (self.device_box, [(d, d) for d in devices], "All devices"),
        ):
            current = box.currentData()
            box.blockSignals(True)
            box.clear()
            box.addItem(empty, ALL)
            for text, value in items:
                box.addItem(text, value)
            box.setCurrentIndex(max(0, box.findData(current)))
            box.blockSignals(False)

    def set_document(self, document: ViewDocument | None) -> None:
        """The document open in the window: its profile's mean times go beside the entries,
        its workspace's model is offered for coverage."""
        self._document = document
        self.coverage.set_workspace(document.workspace_path if document is not None else None)
        if self._loaded:
            self._read_times()

    def _read_times(self) -> None:
        document = self._document
        if document is None or not document.has_profile:
            self._times.cancel()
            self.model.set_profile_times({})
            self.commands.set_profile_gpus(set())
            return
        self._times.submit(lambda context: mean_times_us(document))

    def _on_times(self, found: tuple[dict[str, float], set[str]], context: object) -> None:
        times_us, gpus = found
        self.model.set_profile_times(times_us)
        self.commands.set_profile_gpus(gpus)

    # ---- NNFusion -----------------------------------------------------------------------
    def _read_command(self) -> None:
        path, product, session = self.path, self._product, self._session
        self._command.submit(lambda context: session.command(path, product))

    def _on_command(self, info: CommandInfo, context: object) -> None:
        self._command_info = info
        self._show_command()

    def _show_command(self) -> None:
        """The DB's command, or the coverage model's when one is on screen."""
        info = self._command_info
        if info is None:
            return  # the DB's rows are not read yet
        coverage: Coverage | None = self.coverage.coverage
        if coverage is not None and coverage.db_path == info.db:
            info = dataclasses.replace(info, settings=coverage.settings, model=coverage.model)
        self.commands.show_info(info)
        self.command_shown.emit()

    def _on_coverage_shown(self, coverage: Coverage | None) -> None:
        shown = self.commands.info
        if coverage is not None or (shown is not None and shown.model):
            self._show_command()  # the command for the coverage's model, or no more

    def _on_product(self, name: str | None) -> None:
        self._product = name
        if self._loaded:
            self._read_command()
        self.coverage.set_product(name)

    def show_entry(self, key: str, kernel_name: str) -> None:
        """Show one entry in the Entries tab: the listing searched for its kernel, the
        entry selected once listed."""
        self._pending_key = key
        self.show_tab("entries")
        for box in (self.op_box, self.device_box):
            box.blockSignals(True)
            box.setCurrentIndex(0)
            box.blockSignals(False)
        self.shape.blockSignals(True)
        self.shape.clear()
        self.shape.blockSignals(False)
        self.search.blockSignals(True)
        self.search.setText(kernel_name)
        self.search.blockSignals(False)
        self.refresh()

    def show_tab(self, name: str) -> None:
        """Bring a tab to the front: "entries", "command" or "coverage"."""
        self.tabs.setCurrentIndex(TABS.index(name))

    def export_options(self) -> ExportOptions:
        """The options every export from the window uses (kept in the settings)."""
        from .export_options import load_options

        return load_options(self.settings)

    def set_export_options(self, options: ExportOptions) -> None:
        from .export_options import save_options

        save_options(self.settings, options)
        self.coverage.set_allow_ambiguous(options.allow_ambiguous)

    def edit_export_options(self) -> QWidget:
        """Open the export options (non-blocking); OK keeps them for the next exports."""
        from .export_options import ExportOptionsDialog

        dialog = ExportOptionsDialog(self.export_options(), self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.chosen.connect(self.set_export_options)
        dialog.open()
        return dialog

    def exported(self, report: ExportReport) -> None:
        """An export from the window finished: list again, and show the coverage of the
        model it wrote for NNFusion."""
        self.reload()
        if report.nnfusion_model is not None:
            self.coverage.set_model(report.nnfusion_model.path)

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
        if key is None:
            self._details.cancel()
            self._on_detail(None, None)
            return
        session = self._session
        self._details.submit(lambda context: session.detail(key), key)

    def _on_detail(self, detail: EntryDetail | None, key: str | None) -> None:
        self.detail = d = detail
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
        self.detail_shown.emit()

    def _show_file(self) -> None:
        d = self.detail
        if d is None:
            return
        text = d.sources.get(self.files.currentText())
        self._lines = lines = (text if text is not None else function_body(d)).splitlines()
        self._syntax.spans = []
        self.source.setPlainText("\n".join(lines))  # one block per line, as lexed
        cuda = self._cuda
        self._colouring.submit(lambda context: cuda.text(lines, context.cancel), lines)

    def _on_coloured(self, spans: list[list[Span]], lines: list[str]) -> None:
        if lines is self._lines:
            self._syntax.set_spans(spans)

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
            f"Delete {len(chosen)} entr{'y' if len(chosen) == 1 else 'ies'} from {self.path.name}?",
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

    def delete(self, keys: list[str]) -> None:
        """Delete these entries on the ``db`` lane, then list again."""
        path = self.path
        job = self._workers.start(
            "db", lambda context: delete_entries(path, keys), "deleting kernel DB entries"
        )
        job.returned.connect(lambda removed: self.reload())
        job.errored.connect(lambda exc: self.error.emit("Cannot delete from the kernel DB", exc))

    def _reexport(self) -> None:
        names = list(dict.fromkeys(name for _, name in self._selected_entries() if name))
        if names:
            self.reexport_requested.emit(names)


def _describe(d: EntryDetail) -> str:
    from kernelscope.core.kernel_db import (  # loaded with the DB
        describe_line_summary,
        describe_tuning,
    )

    grid = format_dims(d.grid) if d.grid else "?"
    block = format_dims(d.block) if d.block else "?"
    parts = [
        f"<b>{html.escape(d.kernel_name or d.key[:12])}</b> — "
        f"{html.escape(d.op_type)} on {html.escape(d.device_type)}",
        f"Identifier: <tt>{html.escape(d.identifier)}</tt>",
        f"Launch: grid {grid}, block {block}",
    ]
    if d.time_us is not None:
        parts.append(
            f"Stored time: {format_number(d.time_us)} µs on {html.escape(d.device_name or '?')}"
        )
    if d.model:
        parts.append(f"Model: {html.escape(d.model)}, exported {d.exported_at}")
    schedule = describe_tuning(d.tuning)
    if schedule:
        parts.append(f"Schedule: {html.escape(schedule)}")
    parts += [html.escape(text) for text in describe_line_summary(d.metrics)]
    if d.usable:
        parts.append("Usable by NNFusion")
    else:
        reasons = "; ".join(d.reasons) or "no reason recorded"
        parts.append(
            f"<span style='color:{css('bad')}'>Not usable by NNFusion: "
            f"{html.escape(reasons)}</span>"
        )
    return "<br>".join(parts)
