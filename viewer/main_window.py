"""The main window: source and SASS side by side; kernel list, hot lines and kernel DB in docks.

Documents open off the GUI thread (``DocumentLoader``): what is on screen stays until the
newest requested document is ready. Exports to the kernel DB run in an ``ExportThread``.
"""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings, Qt
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QIcon, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDockWidget,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.kernel_db import (
    ExportReport,
    profile_line_summaries,
    profile_times,
)
from kernelscope.core.view import ViewDocument, is_model

from .code.code_pane import CodePane
from .code.sass_pane import SassPane
from .code.search_bar import SearchBar
from .code.source_pane import SourcePane
from .dialogs.error_dialog import error_box
from .panels.hot_lines_panel import HotLinesPanel
from .panels.kernel_db_panel import KernelDbPanel
from .panels.kernel_list import KernelList
from .selection import SelectionState
from .widgets.busy import BusyIndicator
from .widgets.formatting import format_dims
from .workers.export_worker import ExportThread, summary_box
from .workers.open_worker import DocumentLoader

MAX_RECENT = 10
OPEN_FILTER = (
    "kernelscope inputs (manifest.json *.ncu-rep *.csv *.onnx);;Workspaces (manifest.json);;"
    "Nsight Compute reports (*.ncu-rep *.csv);;Models (*.onnx);;All files (*)"
)


class MainWindow(QMainWindow):
    def __init__(self, *, restore_layout: bool = True) -> None:
        super().__init__()
        self.setObjectName("main_window")
        self.setWindowTitle("kernelscope")
        self.setAcceptDrops(True)
        icon = Path(__file__).resolve().parent.parent / "resources" / "kernelscope.svg"
        if icon.is_file():
            self.setWindowIcon(QIcon(str(icon)))
        self.state = SelectionState(self)
        self.settings = QSettings()
        self.source = SourcePane(self.state)
        self.sass = SassPane(self.state)
        self.search_bar = SearchBar()
        self.search_bar.hide()
        self._search_pane: CodePane = self.source
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("code_splitter")
        self.splitter.addWidget(self.source)
        self.splitter.addWidget(self.sass)
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.search_bar)
        self.setCentralWidget(central)
        self.kernels = KernelList(self.state)
        self.hot = HotLinesPanel(self.state)
        self.kernel_dock = self._dock("Kernels", self.kernels, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.hot_dock = self._dock("Hot lines", self.hot, Qt.DockWidgetArea.BottomDockWidgetArea)
        self.db_panel = KernelDbPanel(self.settings)
        self.db_dock = self._dock(
            "Kernel DB", self.db_panel, Qt.DockWidgetArea.BottomDockWidgetArea
        )
        self.tabifyDockWidget(self.hot_dock, self.db_dock)
        self.hot_dock.raise_()
        self.loader = DocumentLoader(self)
        self.open_busy = BusyIndicator("open_busy")
        self.export_busy = BusyIndicator("export_busy")
        self._export_thread: ExportThread | None = None
        self.metric_box = QComboBox()
        self.metric_box.setToolTip("Metric for heat strips, hot lines and next/previous hot line")
        self.metric_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.doc_label = QLabel("Open a workspace, report or model (Ctrl+O), or drop it here")
        self.kernel_label = QLabel()
        self.line_label = QLabel()
        self.statusBar().addWidget(self.doc_label, 1)
        self.statusBar().addPermanentWidget(self.open_busy)
        self.statusBar().addPermanentWidget(self.export_busy)
        self.statusBar().addPermanentWidget(self.line_label)
        self.statusBar().addPermanentWidget(self.kernel_label)
        self._build_actions()
        self.search_bar.find_requested.connect(self._find)
        self.metric_box.currentTextChanged.connect(self._on_metric_chosen)
        self.state.document_changed.connect(self._on_document)
        self.state.kernel_changed.connect(self._on_kernel)
        self.state.selection_changed.connect(self._on_selection)
        self.loader.opened.connect(self._on_opened)
        self.loader.failed.connect(self._on_open_failed)
        self.loader.busy_changed.connect(self._on_open_busy)
        self.open_busy.cancel_requested.connect(self.loader.cancel)
        self.db_panel.error.connect(self.show_error)
        self.db_panel.reexport_requested.connect(self.export_to_db)
        self.db_panel.load()
        QApplication.instance().focusChanged.connect(self._on_focus)  # type: ignore[union-attr]
        self.resize(1500, 900)
        self.splitter.setSizes([800, 700])
        self.resizeDocks([self.kernel_dock], [380], Qt.Orientation.Horizontal)
        self.resizeDocks([self.hot_dock], [220], Qt.Orientation.Vertical)
        self._default_state = self.saveState()
        self._save_layout = restore_layout
        if restore_layout:
            self._restore_layout()

    # ---- construction -------------------------------------------------------------------
    def _dock(self, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(f"dock_{widget.objectName()}")
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _action(
        self, text: str, slot, shortcut: QKeySequence | str | None = None, tip: str = ""
    ) -> QAction:  # noqa: ANN001
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setStatusTip(tip)
            action.setToolTip(f"{tip} ({action.shortcut().toString()})" if shortcut else tip)
        action.triggered.connect(slot)
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        std = QKeySequence.StandardKey
        self.open_action = self._action(
            "&Open…", self.choose_file, std.Open, "Open a workspace, report or model"
        )
        self.build_action = self._action(
            "&Build && Profile…",
            self.build_and_profile,
            "Ctrl+B",
            "Build a model with TVM and profile it",
        )
        self.export_action = self._action(
            "&Export to Kernel DB",
            lambda: self.export_to_db(self.kernels.selected_names()),
            "Ctrl+E",
            "Export the selected kernels (with the open profile's times) to the kernel DB",
        )
        self.export_all_action = self._action(
            "Export &All Kernels to Kernel DB",
            lambda: self.export_to_db(None),
            tip="Export every kernel of the open workspace to the kernel DB",
        )
        choose_db = self._action(
            "Choose Kernel &DB…", self.db_panel.choose_db, tip="Kernel DB file to export into"
        )
        quit_action = self._action("&Quit", self.close, std.Quit)
        find = self._action("&Find…", self.open_search, std.Find, "Search the source or SASS pane")
        find_next = self._action("Find &Next", lambda: self.search_bar.search(False), std.FindNext)
        find_prev = self._action(
            "Find &Previous", lambda: self.search_bar.search(True), std.FindPrevious
        )
        self.next_hot = self._action(
            "Next Hot Line", lambda: self.step_hot(False), "F8", "Go to the next hottest line"
        )
        self.prev_hot = self._action(
            "Previous Hot Line",
            lambda: self.step_hot(True),
            "Shift+F8",
            "Go back to the previous hotter line",
        )
        follow = self._action(
            "Follow Branch",
            self._follow_branch,
            "Ctrl+Return",
            "Jump to the selected branch's target",
        )
        kernels_focus = self._action("Kernel List", self._focus_kernels, "Ctrl+1")
        source_focus = self._action("Source", lambda: self.source.table.setFocus(), "Ctrl+2")
        sass_focus = self._action("SASS", lambda: self.sass.table.setFocus(), "Ctrl+3")
        filter_focus = self._action("Filter Kernels", self._focus_filter, "Ctrl+K")
        reset = self._action("Reset Layout", self.reset_layout)
        about = self._action("&About kernelscope", self._about)
        menu = self.menuBar()
        file_menu = menu.addMenu("&File")
        file_menu.addAction(self.open_action)
        self.recent_menu = file_menu.addMenu("Open &Recent")
        file_menu.addSeparator()
        file_menu.addAction(self.build_action)
        file_menu.addSeparator()
        for action in (self.export_action, self.export_all_action, choose_db):
            file_menu.addAction(action)
        file_menu.addSeparator()
        file_menu.addAction(quit_action)
        edit = menu.addMenu("&Edit")
        for action in (find, find_next, find_prev):
            edit.addAction(action)
        nav = menu.addMenu("&Navigate")
        for action in (self.next_hot, self.prev_hot, follow):
            nav.addAction(action)
        nav.addSeparator()
        for action in (kernels_focus, filter_focus, source_focus, sass_focus):
            nav.addAction(action)
        view = menu.addMenu("&View")
        view.addAction(self.kernel_dock.toggleViewAction())
        view.addAction(self.hot_dock.toggleViewAction())
        view.addAction(self.db_dock.toggleViewAction())
        view.addSeparator()
        view.addAction(reset)
        menu.addMenu("&Help").addAction(about)
        toolbar = self.addToolBar("Main")
        toolbar.setObjectName("main_toolbar")
        toolbar.addAction(self.open_action)
        toolbar.addAction(self.build_action)
        toolbar.addAction(self.export_action)
        toolbar.addSeparator()
        toolbar.addWidget(QLabel(" Metric: "))
        toolbar.addWidget(self.metric_box)
        toolbar.addAction(self.prev_hot)
        toolbar.addAction(self.next_hot)
        toolbar.addSeparator()
        toolbar.addAction(find)
        self.kernels.table.addAction(self.export_action)
        self.kernels.table.addAction(self.export_all_action)
        self._fill_recent()

    # ---- opening ------------------------------------------------------------------------
    def choose_file(self) -> None:
        """Open one file, or several CSV exports of one report (details + source pages)."""
        paths, _ = QFileDialog.getOpenFileNames(self, "Open", "", OPEN_FILTER)
        if len(paths) == 1:
            self.open_path(paths[0])
        elif paths:
            self.loader.open(paths)

    def open_path(self, path: str | Path) -> bool:
        """Start opening a workspace or report in the background (a newer call wins); a model
        opens Build & Profile. False when there is nothing to open."""
        if is_model(path):
            self.build_and_profile(Path(path))
            return True
        if not str(path):
            return False
        self.loader.open(path)
        return True

    def wait_for_document(self, timeout_s: float = 120.0) -> bool:
        """Process events until the pending open is done (scripts, benchmarks, tests)."""
        deadline = time.monotonic() + timeout_s
        while self.loader.busy and time.monotonic() < deadline:
            QApplication.processEvents()
            time.sleep(0.002)
        return not self.loader.busy

    def _on_opened(self, document: ViewDocument, path: str) -> None:
        self.state.set_document(document)
        if Path(path).exists():  # not for several CSV files opened together
            self._remember(str(Path(path).resolve()))
        self.kernels.select_first()

    def _on_open_failed(self, error: BaseException, path: str) -> None:
        self.show_error(f"Cannot open {path}", error)

    def _on_open_busy(self, busy: bool) -> None:
        if busy:
            self.open_busy.start("Opening…", cancellable=True)
        else:
            self.open_busy.stop()

    def show_error(self, title: str, error: BaseException) -> None:
        self.statusBar().showMessage(str(error).splitlines()[0], 10000)
        box = error_box(self, title, error)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    def build_and_profile(self, model: Path | None = None) -> None:
        from .dialogs.build_dialog import BuildDialog

        dialog = BuildDialog(self, model)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.finished_document.connect(self._on_built)
        dialog.import_requested.connect(self.choose_file)
        dialog.open()

    def _on_built(self, path: str) -> None:
        self.open_path(path)

    # ---- kernel DB ----------------------------------------------------------------------
    def export_to_db(self, kernels: list[str] | None = None) -> bool:
        """Export these kernels (all when None or empty) of the open workspace, in a thread."""
        document = self.state.document
        if document is None or document.workspace is None:
            self.show_error(
                "Nothing to export",
                KernelscopeError(
                    "Export to kernel DB needs a build workspace",
                    hint="open a workspace or build a model first; a report alone has no "
                    "kernel sources to export",
                ),
            )
            return False
        if self._export_thread is not None:
            self.statusBar().showMessage("an export to the kernel DB is already running", 5000)
            return False
        known = {k.name for k in document.workspace.manifest.kernels}
        chosen = [k for k in kernels or [] if k in known]
        if kernels and not chosen:
            self.show_error(
                "Nothing to export",
                KernelscopeError(
                    f"{', '.join(kernels)} not in the open workspace",
                    hint="open the workspace the entries were exported from",
                ),
            )
            return False
        times, version = profile_times(document.profile) if document.profile else ({}, None)
        # Line summaries read the profile, which belongs to this thread (cached: fast).
        metrics = (
            profile_line_summaries(document.profile, chosen or None) if document.profile else {}
        )
        thread = ExportThread(
            str(document.workspace.path), str(self.db_panel.path), chosen, times, version, metrics
        )
        thread.progress.connect(self.export_busy.set_progress)
        thread.exported.connect(self._on_exported)
        thread.failed.connect(lambda exc: self.show_error("Export to kernel DB failed", exc))
        thread.finished.connect(self._on_export_finished)
        self._export_thread = thread
        self.export_busy.start(f"Exporting to {self.db_panel.path.name}…")
        self.export_action.setEnabled(False)
        self.export_all_action.setEnabled(False)
        thread.start()
        return True

    def _on_exported(self, report: ExportReport) -> None:
        self.db_panel.reload()
        self.db_dock.show()
        self.db_dock.raise_()
        box = summary_box(self, report)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    def _on_export_finished(self) -> None:
        self.export_busy.stop()
        self.export_action.setEnabled(True)
        self.export_all_action.setEnabled(True)
        if self._export_thread is not None:
            self._export_thread.deleteLater()
            self._export_thread = None

    # ---- following the state -----------------------------------------------------------
    def _on_document(self) -> None:
        document = self.state.document
        self.metric_box.blockSignals(True)
        self.metric_box.clear()
        if document is not None:
            self.metric_box.addItems(document.line_metric_names)
            self.metric_box.setCurrentText(self.state.metric)
        self.metric_box.blockSignals(False)
        times = profile_times(document.profile)[0] if document and document.profile else {}
        self.db_panel.set_profile_times({k: ns / 1000 for k, (_, ns) in times.items()})
        if document is None:
            self.setWindowTitle("kernelscope")
            return
        self.setWindowTitle(f"{document.title} — kernelscope")
        self.doc_label.setText(
            f"{document.title}: {len(document.summaries)} kernels — {document.path}"
        )

    def _on_kernel(self) -> None:
        kernel, document = self.state.kernel, self.state.document
        if kernel is None or document is None:
            self.kernel_label.setText("")
            return
        s = document.summary(kernel.name)
        grid = f"grid {format_dims(s.grid)} block {format_dims(s.block)}" if s.grid else ""
        self.kernel_label.setText(f"{kernel.name}  {grid}  {len(kernel.instructions)} instructions")

    def _on_selection(self) -> None:
        if self.state.kernel is None or not self.state.line:
            self.line_label.setText("")
            return
        n = len(self.state.instructions)
        self.line_label.setText(f"line {self.state.line}: {n} SASS instruction{'s' * (n != 1)}")

    def _on_metric_chosen(self, name: str) -> None:
        if name:
            self.state.set_metric(name)

    def _on_focus(self, old: QWidget | None, new: QWidget | None) -> None:
        if new is self.source.table:
            self._search_pane = self.source
        elif new is self.sass.table:
            self._search_pane = self.sass

    # ---- actions ------------------------------------------------------------------------
    def open_search(self) -> None:
        self.search_bar.open()

    def _find(self, pattern: str, regex: bool, case: bool, backwards: bool) -> None:
        found = self._search_pane.find(pattern, regex=regex, case=case, backwards=backwards)
        self.search_bar.show_result(found)

    def step_hot(self, backwards: bool) -> None:
        pane = self.sass if self._search_pane is self.sass else self.source
        if not pane.step_hot(backwards):
            self.statusBar().showMessage(f"no line has any {self.state.metric}", 5000)

    def _follow_branch(self) -> None:
        if not self.sass.follow_branch(self.sass.current_row()):
            self.statusBar().showMessage("the selected instruction is not a branch", 5000)

    def _focus_kernels(self) -> None:
        self.kernel_dock.show()
        self.kernels.table.setFocus()

    def _focus_filter(self) -> None:
        self.kernel_dock.show()
        self.kernels.filter.setFocus()
        self.kernels.filter.selectAll()

    def _about(self) -> None:
        QMessageBox.about(
            self,
            "About kernelscope",
            "<b>kernelscope</b><br>TVM-generated CUDA kernels, their SASS and Nsight Compute "
            "metrics, line by line.",
        )

    # ---- settings -----------------------------------------------------------------------
    def _remember(self, path: str) -> None:
        recent = [p for p in self.recent_files() if p != path]
        self.settings.setValue("recent_files", [path, *recent][:MAX_RECENT])
        self._fill_recent()

    def recent_files(self) -> list[str]:
        value = self.settings.value("recent_files", [])
        if isinstance(value, str):
            return [value]
        return [str(v) for v in value or []]

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for path in self.recent_files():
            action = self.recent_menu.addAction(path)
            action.triggered.connect(lambda checked=False, p=path: self.open_path(p))
        self.recent_menu.setEnabled(bool(self.recent_files()))

    def _restore_layout(self) -> None:
        geometry = self.settings.value("window/geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        state = self.settings.value("window/state")
        if isinstance(state, QByteArray):
            self.restoreState(state)
        splitter = self.settings.value("window/splitter")
        if isinstance(splitter, QByteArray):
            self.splitter.restoreState(splitter)

    def reset_layout(self) -> None:
        self.restoreState(self._default_state)
        self.kernel_dock.show()
        self.hot_dock.show()
        self.db_dock.show()
        self.hot_dock.raise_()
        self.splitter.setSizes([self.width() // 2, self.width() // 2])

    def closeEvent(self, event: QCloseEvent) -> None:
        self.loader.shutdown()
        if self._export_thread is not None:
            self._export_thread.wait()  # one transaction: let it commit or roll back
        self.db_panel.close_db()
        if self._save_layout:
            self.settings.setValue("window/geometry", self.saveGeometry())
            self.settings.setValue("window/state", self.saveState())
            self.settings.setValue("window/splitter", self.splitter.saveState())
        QApplication.instance().focusChanged.disconnect(self._on_focus)  # type: ignore[union-attr]
        super().closeEvent(event)

    # ---- drag and drop ------------------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        urls = [u for u in event.mimeData().urls() if u.isLocalFile()]
        if urls:
            event.acceptProposedAction()
            self.open_path(urls[0].toLocalFile())
