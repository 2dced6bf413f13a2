"""The main window: source and SASS side by side, the kernel list and hot lines in docks, and
the features (``features.FEATURES``: the Kernel DB, compare mode, tuning...) installed into it.

The window gets finished data: opening a document, a kernel's first load and hot lines run as
jobs (``workers.jobs``) and arrive through signals; what is on screen stays until the newest
requested result is ready. The panes follow one Qt-free ``Selection``. Actions are declared in
``actions.ACTIONS``, their handlers given by the window or a feature (``WindowContext``), and
enabled in ``update_actions``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QByteArray, QSettings, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialog,
    QLabel,
    QMainWindow,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.view import ProfileSession, Selection

from .actions import ACTIONS, KERNELS, MENUS, ActionState
from .code.code_pane import CodePane, CodeTable
from .code.highlight import cuda_highlighter, is_dark, ptx_highlighter, sass_highlighter
from .code.metric_columns import MetricColumns
from .code.ptx_pane import PtxPane
from .code.sass_pane import SassPane
from .code.search_bar import SearchBar
from .code.source_pane import SourcePane
from .dialogs.error_dialog import error_box
from .dock_room import SIDES, DockRoom
from .feature import CodeView, Feature, WindowContext
from .features import FEATURES
from .palette_choice import PaletteMenu
from .panels.hot_lines_panel import HotLinesPanel
from .panels.kernel_list import KernelList
from .panels.welcome import WelcomePage
from .recent import RecentFilesMenu
from .selection import KernelLoader
from .widgets.busy import BusyIndicator
from .widgets.file_dialogs import OPEN_FILTER, existing_folder, open_file_names
from .widgets.formatting import format_dims
from .widgets.screen_fit import resize_within_screen
from .workers.jobs import Latest, Workers
from .workers.open_worker import open_job

F = TypeVar("F", bound=Feature)

# saveState's version: raised when an older saved layout must not be restored (2: issue 30,
# layouts that left the code panes no room)
LAYOUT_VERSION = 2


class MainWindow(QMainWindow):
    document_opened = Signal(object)  # the ViewDocument now shown (after an open)
    session_opened = Signal(object)  # the ProfileSession of a document newly opened

    def __init__(self, *, restore_layout: bool = True, settings: QSettings | None = None) -> None:
        """``restore_layout``: take the window's geometry and docks from the settings and
        save them on close; ``settings``: where recent files and the DB path are kept (the
        application's by default)."""
        super().__init__()
        self.setObjectName("main_window")
        self.setWindowTitle("kernelscope")
        self.setAcceptDrops(True)
        self.settings = settings if settings is not None else QSettings()
        self.selection = Selection()
        self.workers = Workers(self)
        cuda, sass, ptx = cuda_highlighter(), sass_highlighter(), ptx_highlighter()
        self._highlighters = (cuda, sass, ptx)  # their colours follow View > Palette
        self.kernel_loader = KernelLoader(self.selection, self.workers, self)
        self.loader = Latest(self.workers, "open", "opening", self)
        self.metric_columns = MetricColumns(self.settings, self)  # the code panes' choice
        self.source = SourcePane(self.selection, cuda, self.metric_columns)
        self.sass = SassPane(self.selection, sass, self.metric_columns)
        self.ptx = PtxPane(self.selection, ptx, self.metric_columns)
        # SASS and the PTX it was assembled from share the right side, one tab each
        self.code_tabs = QTabWidget()
        self.code_tabs.setObjectName("code_tabs")
        self.code_tabs.setDocumentMode(True)
        self.code_tabs.addTab(self.sass, "SASS")
        self.code_tabs.addTab(self.ptx, "PTX")
        self.search_bar = SearchBar()
        self.search_bar.hide()
        self._search_pane: CodePane = self.source
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("code_splitter")
        self.splitter.addWidget(self.source)
        self.splitter.addWidget(self.code_tabs)
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.search_bar)
        self.code_area = central
        # the welcome page while nothing is open, the code panes once something is
        self.welcome = WelcomePage(self.workers, lambda: self.recent.paths())
        self.pages = QStackedWidget()
        self.pages.addWidget(self.welcome)
        self.pages.addWidget(central)
        self.setCentralWidget(self.pages)
        self.kernels = KernelList(self.selection)
        self.hot = HotLinesPanel(self.selection, self.workers)
        self.open_busy = BusyIndicator("open_busy")
        self.doc_label = QLabel("Open a workspace, report or model (Ctrl+O), or drop it here")
        self.statusBar().addWidget(self.doc_label, 1)
        self.statusBar().addPermanentWidget(self.open_busy)
        code = CodeView(self.source, self.sass, self.kernels, self.hot, cuda, self.splitter, layout)
        self.context = WindowContext(
            self,
            selection=self.selection,
            workers=self.workers,
            settings=self.settings,
            code=code,
            document_opened=self.document_opened,
            session_opened=self.session_opened,
            # looked up when called: a test may put its own in the window's place
            open_path=lambda path: self.open_path(path),
            choose_file=lambda: self.choose_file(),
            show_error=lambda title, error: self.show_error(title, error),
            update_actions=lambda: self.update_actions(),
        )
        left, bottom = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.BottomDockWidgetArea
        self.kernel_dock = self.context.add_dock("Kernels", self.kernels, left, size=380)
        self.hot_dock = self.context.add_dock("Hot lines", self.hot, bottom, tabbed=True, size=220)
        self._actions: dict[str, QAction] = {}  # made once every feature gave its handlers
        self.features: list[Feature] = self.context.features
        for make in FEATURES:  # each adds its docks, action handlers, status-bar widgets
            self.features.append(make())
            self.features[-1].install(self.context)
        self.hot_dock.raise_()
        # the code keeps its room: a dock beside it with no room left goes below it
        docks = [d.dock for d in self.context.docks if d.dock is not self.kernel_dock]
        self.context.dock_room = DockRoom(self, docks)
        self.metric_box = QComboBox()
        self.metric_box.setToolTip("Metric for heat strips, hot lines and next/previous hot line")
        self.metric_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.kernel_label = QLabel()
        self.line_label = QLabel()
        self.statusBar().addPermanentWidget(self.line_label)
        self.statusBar().addPermanentWidget(self.kernel_label)
        self.recent = RecentFilesMenu(self.settings, self)
        self.palette_menu = PaletteMenu(self.settings, self)
        self.palette_menu.changed.connect(self._on_palette)
        self._build_actions()
        self._connect()
        self.update_actions()
        resize_within_screen(self, 1500, 900)
        self.splitter.setSizes([800, 700])
        # the docks' first sizes: the side docks' widths, then the bottom docks' heights
        for side in (True, False):
            for d in self.context.docks:
                if d.size is not None and (d.area in SIDES) == side:
                    orientation = Qt.Orientation.Horizontal if side else Qt.Orientation.Vertical
                    self.resizeDocks([d.dock], [d.size], orientation)
        self._default_state = self.saveState(LAYOUT_VERSION)
        # the window's minimum was taken while the docks had those first sizes: taken again,
        # so that a smaller window (a small screen, a restored geometry) narrows the docks
        own = self.layout()
        assert own is not None  # a QMainWindow has its own
        own.invalidate()
        own.activate()
        self._save_layout = restore_layout
        if restore_layout:
            self._restore_layout()

    def feature(self, kind: type[F]) -> F:
        """The window's feature of that class (``features.FEATURES``)."""
        return self.context.feature(kind)

    # ---- construction -------------------------------------------------------------------
    def _own_actions(self) -> None:
        """The handlers of the window's own actions (the features give theirs)."""
        add = self.context.add_action
        add("open", self.choose_file, submenu=self.recent)
        add("open_folder", self.choose_folder)
        add("quit", self.close)
        add("find", self.search_bar.open)
        add("find_next", lambda: self.search_bar.search(False))
        add("find_previous", lambda: self.search_bar.search(True))
        add("previous_hot", lambda: self._step_hot(True))
        add("next_hot", lambda: self._step_hot(False))
        add("follow_branch", self.sass.follow_branch)
        add("focus_kernels", self.focus_kernels)
        add("focus_filter", self.focus_filter)
        add("focus_source", self.focus_source)
        add("focus_sass", self.focus_sass)
        add("focus_ptx", self.focus_ptx)
        add("reset_layout", self.reset_layout, submenu=self.palette_menu)
        add("user_guide", self.user_guide)
        add("about", self.about)
        self.context.add_context_menu(KERNELS, self.kernels.table)

    def _build_actions(self) -> None:
        """Menus, toolbar and context menus, from the table in its order."""
        self._own_actions()
        handlers = self.context.handlers
        missing = [spec.id for spec in ACTIONS if spec.id not in handlers]
        if missing:
            raise RuntimeError(f"no window part or feature handles the actions {missing}")
        menus = {title: self.menuBar().addMenu(title) for title in MENUS}
        sections = dict.fromkeys(MENUS, 0)
        for d in self.context.docks:  # View's first section
            menus["&View"].addAction(d.dock.toggleViewAction())
        toolbar = self.addToolBar("Main")
        toolbar.setObjectName("main_toolbar")
        toolbar_section = 0
        for spec in ACTIONS:
            action = QAction(spec.text, self)
            action.setObjectName(f"action_{spec.id}")
            if spec.shortcut is not None:
                action.setShortcut(QKeySequence(spec.shortcut))
            if spec.tip:
                action.setStatusTip(spec.tip)
                shortcut = action.shortcut().toString()
                action.setToolTip(f"{spec.tip} ({shortcut})" if shortcut else spec.tip)
            handler = handlers[spec.id]
            action.triggered.connect(lambda checked=False, run=handler.run: run())
            self.addAction(action)
            self._actions[spec.id] = action
            if spec.menu:
                menu = menus[spec.menu]
                if spec.section != sections[spec.menu]:
                    menu.addSeparator()
                    sections[spec.menu] = spec.section
                menu.addAction(action)
                if handler.submenu is not None:
                    menu.addMenu(handler.submenu)
            if spec.toolbar is not None:
                if spec.toolbar != toolbar_section:
                    toolbar.addSeparator()
                    toolbar_section = spec.toolbar
                    if spec.toolbar == 1:  # the metric that navigation and heat follow
                        toolbar.addWidget(QLabel(" Metric: "))
                        toolbar.addWidget(self.metric_box)
                toolbar.addAction(action)
            for name in spec.context:
                self.context.context_menus[name].addAction(action)

    def action(self, id: str) -> QAction:
        """The window's action of that id (``actions.ACTIONS``)."""
        return self._actions[id]

    def _connect(self) -> None:
        selection = self.selection
        selection.document_changed.connect(self._on_document)
        selection.kernel_changed.connect(self._on_kernel)
        selection.selection_changed.connect(self._on_selection)
        selection.loading_changed.connect(lambda loading: self.update_actions())
        self.kernels.table.selectionModel().selectionChanged.connect(self.update_actions)
        self.search_bar.find_requested.connect(self._find)
        self.metric_box.currentTextChanged.connect(self._on_metric_chosen)
        self.loader.result.connect(self._on_opened)
        self.loader.partial.connect(self._on_opened)  # a report's kernel list, the rest to come
        self.loader.failed.connect(self._on_open_failed)
        self.loader.busy_changed.connect(self._on_open_busy)
        self.open_busy.cancel_requested.connect(self.loader.cancel)
        self.kernel_loader.failed.connect(self.show_error)
        self.recent.open_requested.connect(self.open_path)
        self.welcome.open_requested.connect(self.open_path)
        self.welcome.open_chosen.connect(self.choose_file)
        self.welcome.build_chosen.connect(self.action("build").trigger)
        self.welcome.error.connect(self.show_error)
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        app.focusChanged.connect(self._on_focus)

    # ---- enabled states -----------------------------------------------------------------
    def action_state(self) -> ActionState:
        """What the actions' enabled states depend on: the window's part, then each
        feature's."""
        document = self.selection.document
        own = ActionState(
            document=document is not None,
            workspace=document is not None and document.workspace_path is not None,
            kernel=self.selection.kernel is not None,
            kernels_chosen=bool(self.kernels.selected_names()),
            branch=self.selection.branch_target() is not None,
            profile=document is not None and document.has_profile,
        )
        return reduce(lambda state, feature: feature.action_state(state), self.features, own)

    def update_actions(self) -> None:
        if not self._actions:  # a feature's state changed while the features were installed
            return
        state = self.action_state()
        for spec in ACTIONS:
            self._actions[spec.id].setEnabled(spec.enabled(state))

    # ---- opening ------------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        """Something asked for is not on screen yet: a document, a kernel, hot lines, or
        what a feature was asked for (a DB listing, an export, Details...; not a DB entry's
        colours, which follow it; ``workers.idle`` says when every job is done)."""
        return (
            self.loader.busy
            or self.selection.loading
            or self.hot.busy
            or self.welcome.busy
            or any(feature.busy for feature in self.features)
        )

    def choose_file(self) -> None:
        """Open one file, or several CSV exports of one report (details + source pages)."""
        paths = open_file_names(self, "Open", "", OPEN_FILTER)
        if len(paths) == 1:
            self.open_path(paths[0])
        elif paths:
            self.open_paths(paths)

    def choose_folder(self) -> None:
        """Open a workspace folder or a torch.compile run folder."""
        path = existing_folder(self, "Open Folder")
        if path:
            self.open_path(path)

    def open_path(self, path: str | Path) -> bool:
        """Start opening a workspace or report in the background (a newer call wins); what a
        feature opens (a model: Build & Profile; a timeline) goes to it. False when there is
        nothing to open."""
        if not str(path):
            return False
        for accepts, open_with in self.context.openers:
            if accepts(path):
                open_with(Path(path))
                return True
        self.open_paths([path])
        return True

    def open_paths(self, paths: Sequence[str | Path]) -> None:
        """Open one path, or several CSV exports of one report together."""
        chosen = [Path(p) for p in paths]
        self.loader.submit(open_job(chosen), chosen)
        self.pages.setCurrentWidget(self.code_area)  # opening: the panes, with its progress

    def _on_opened(self, session: ProfileSession, paths: list[Path]) -> None:
        document = session.document
        if document.notes:  # shown anyway, but the user must know (the status bar cuts it)
            self.show_error(
                f"{document.title}: the report may not be of these kernels",
                KernelscopeError("\n\n".join(document.notes)),
            )
        if document is self.selection.document:
            return  # shown when its kernel list was read; now all of it is
        self.selection.set_document(document, session)
        self.session_opened.emit(session)
        if len(paths) == 1 and paths[0].exists():  # not for several CSV files opened together
            self.recent.remember(str(paths[0].resolve()))
        self.kernels.select_first()
        self.document_opened.emit(document)

    def _on_open_failed(self, error: BaseException, paths: list[Path]) -> None:
        self.show_error(f"Cannot open {', '.join(map(str, paths))}", error)

    def _on_open_busy(self, busy: bool) -> None:
        if busy:
            self.open_busy.start("Opening…", cancellable=True)
        else:
            self.open_busy.stop()
            if self.selection.document is None:  # failed or cancelled: welcome again
                self.pages.setCurrentWidget(self.welcome)

    def show_error(self, title: str, error: BaseException) -> None:
        self.statusBar().showMessage(str(error).splitlines()[0], 10000)
        box = error_box(self, title, error)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    # ---- following the selection --------------------------------------------------------
    def _on_document(self) -> None:
        document = self.selection.document
        self.metric_box.blockSignals(True)
        self.metric_box.clear()
        if document is not None:
            self.metric_box.addItems(document.line_metric_names)
            self.metric_box.setCurrentText(self.selection.metric)
            for i, name in enumerate(document.line_metric_names):  # what each one means
                tip = document.metric_description(name)
                self.metric_box.setItemData(i, tip, Qt.ItemDataRole.ToolTipRole)
        self.metric_box.blockSignals(False)
        self.update_actions()
        self.pages.setCurrentWidget(self.welcome if document is None else self.code_area)
        if document is None:
            self.setWindowTitle("kernelscope")
            return
        self.setWindowTitle(f"{document.title} — kernelscope")
        self.doc_label.setText(
            f"{document.title}: {len(document.summaries)} kernels — {document.path}"
        )

    def _on_kernel(self) -> None:
        kernel, document = self.selection.kernel, self.selection.document
        self.update_actions()
        if kernel is None or document is None:
            self.kernel_label.setText("")
            return
        s = document.summary(kernel.name)
        grid = f"grid {format_dims(s.grid)} block {format_dims(s.block)}" if s.grid else ""
        self.kernel_label.setText(f"{kernel.name}  {grid}  {len(kernel.instructions)} instructions")

    def _on_selection(self) -> None:
        self.update_actions()
        selection = self.selection
        n = len(selection.instructions)
        counted = f"{n} SASS instruction{'s' * (n != 1)}"
        if selection.kernel is not None and selection.picked == "ptx":  # the row's own
            self.line_label.setText(
                f"PTX line {selection.kernel.ptx.rows[selection.ptx_row].line}: {counted}"
            )
            return
        if selection.kernel is None or not selection.line:
            self.line_label.setText("")
            return
        self.line_label.setText(f"line {selection.line}: {counted}")

    def _on_palette(self) -> None:
        """View > Palette switched the application's palette: code in its colours."""
        for highlighter in self._highlighters:
            highlighter.set_dark(is_dark())
        for table in self.findChildren(CodeTable):
            table.viewport().update()

    def _on_metric_chosen(self, name: str) -> None:
        if name:
            self.selection.set_metric(name)

    def _on_focus(self, old: QWidget | None, new: QWidget | None) -> None:
        if new is self.source.table:
            self._search_pane = self.source
        elif new is self.sass.table:
            self._search_pane = self.sass
        elif new is self.ptx.table:
            self._search_pane = self.ptx

    # ---- action handlers ----------------------------------------------------------------
    def _find(self, pattern: str, regex: bool, case: bool, backwards: bool) -> None:
        found = self._search_pane.find_text(pattern, regex=regex, case=case, backwards=backwards)
        self.search_bar.show_result(found)

    def _step_hot(self, backwards: bool) -> None:
        if not self._search_pane.step_hot(backwards):
            self.statusBar().showMessage(f"no line has any {self.selection.metric}", 5000)

    def focus_kernels(self) -> None:
        self.kernel_dock.show()
        self.kernels.table.setFocus()

    def focus_filter(self) -> None:
        self.kernel_dock.show()
        self.kernels.filter.setFocus()
        self.kernels.filter.selectAll()

    def focus_source(self) -> None:
        self.source.table.setFocus()

    def focus_sass(self) -> None:
        self.code_tabs.setCurrentWidget(self.sass)
        self.sass.table.setFocus()

    def focus_ptx(self) -> None:
        """Raise the PTX tab (in the SASS pane's place) and give it the keyboard."""
        self.code_tabs.setCurrentWidget(self.ptx)
        self.ptx.table.setFocus()

    def about(self) -> QDialog:
        """Help > About: the versions of kernelscope and of what it runs on."""
        from .dialogs.about import AboutDialog

        dialog = AboutDialog(self.workers, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def user_guide(self) -> QDialog:
        """Help > User Guide, in a window of its own (one: raised when it is open)."""
        from .dialogs.user_guide import UserGuideDialog

        guide = self.findChild(UserGuideDialog)
        if guide is None:
            guide = UserGuideDialog(self.workers, self)
            guide.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        guide.show()
        guide.raise_()
        guide.activateWindow()
        return guide

    # ---- layout -------------------------------------------------------------------------
    def _restore_layout(self) -> None:
        geometry = self.settings.value("window/geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        state = self.settings.value("window/state")
        # a layout saved by an older kernelscope (another version) may hide the code: not
        # restored, nor its splitter
        if isinstance(state, QByteArray) and self.restoreState(state, LAYOUT_VERSION):
            splitter = self.settings.value("window/splitter")
            if isinstance(splitter, QByteArray):
                self.splitter.restoreState(splitter)

    def reset_layout(self) -> None:
        size = self.size()  # the docks' first sizes widened a smaller window: they give way
        self.restoreState(self._default_state, LAYOUT_VERSION)
        self.resize(size)
        self.hot_dock.raise_()
        self.splitter.setSizes([self.width() // 2, self.width() // 2])
        if self.context.dock_room is not None:
            self.context.dock_room.make_room()

    def closeEvent(self, event: QCloseEvent) -> None:
        """Stop what is running (an export commits first) and end the worker threads."""
        if not self.workers.closed:  # once, however often the window is closed
            self.loader.cancel()
            for feature in self.features:
                feature.close()
            self.workers.shutdown()
            app = QApplication.instance()
            if isinstance(app, QApplication):
                app.focusChanged.disconnect(self._on_focus)
        if self._save_layout:
            self.settings.setValue("window/geometry", self.saveGeometry())
            self.settings.setValue("window/state", self.saveState(LAYOUT_VERSION))
            self.settings.setValue("window/splitter", self.splitter.saveState())
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
