"""The main window: source and SASS side by side; kernel list, hot lines and kernel DB in docks.

The window gets finished data: opening a document, a kernel's first load, hot lines, DB
queries and exports all run as jobs (``workers.jobs``) and arrive through signals; what is on
screen stays until the newest requested result is ready. The panes follow one Qt-free
``Selection``. Actions are declared in ``actions.ACTIONS`` and enabled in ``update_actions``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QSettings, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QBoxLayout,
    QComboBox,
    QDialog,
    QDockWidget,
    QLabel,
    QMainWindow,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.inductor import VERSUS_HEADER, Versus, format_versus, versus_pair
from kernelscope.core.view import ProfileSession, Selection, ViewDocument, is_model

from .actions import ACTIONS, MENUS, ActionState
from .code.code_pane import CodePane, CodeTable
from .code.highlight import (
    Highlighter,
    cuda_highlighter,
    is_dark,
    ptx_highlighter,
    sass_highlighter,
)
from .code.metric_columns import MetricColumns
from .code.ptx_pane import PtxPane
from .code.sass_pane import SassPane
from .code.search_bar import SearchBar
from .code.source_pane import SourcePane
from .compare import CompareMode
from .details.details_pane import DetailsPane
from .details.headroom_panel import HeadroomPanel
from .details.roofline_panel import RooflinePanel
from .details.warm_ahead import WarmAhead
from .dialogs.error_dialog import error_box
from .dock_room import DockRoom, scrolling
from .kernel_db.export_summary import summary_box
from .kernel_db.export_worker import ExportController
from .kernel_db.panel import KernelDbPanel
from .palette_choice import PaletteMenu
from .panels.hot_lines_panel import HotLinesPanel
from .panels.kernel_list import KernelList
from .panels.welcome import WelcomePage
from .recent import RecentFilesMenu
from .selection import KernelLoader
from .steps import install_steps_pane
from .timeline.panel import TimelinePanel, is_timeline
from .torch_runs.versus_dialog import VersusDialog
from .widgets.busy import BusyIndicator
from .widgets.file_dialogs import existing_folder, open_file_names, save_file_name
from .widgets.formatting import format_dims
from .workers.jobs import Latest, Workers
from .workers.open_worker import open_job

if TYPE_CHECKING:  # core.kernel_db (sqlite-utils, 0.3 s) loads when the DB is first used
    from kernelscope.core.kernel_db import ExportReport
    from kernelscope.core.tuning import TunedGain

    from .build_profile.build_dialog import BuildDialog
    from .tuning.gain_dialog import GainDialog

OPEN_FILTER = (
    "kernelscope inputs (manifest.json *.ncu-rep *.csv *.onnx *.nsys-rep *.sqlite);;"
    "Workspaces (manifest.json);;Nsight Compute reports (*.ncu-rep *.csv);;Models (*.onnx);;"
    "Timelines (*.json *.nsys-rep *.sqlite);;All files (*)"
)

# saveState's version: raised when an older saved layout must not be restored (2: issue 30,
# layouts that left the code panes no room)
LAYOUT_VERSION = 2


class MainWindow(QMainWindow):
    document_opened = Signal(object)  # the ViewDocument now shown (after an open)

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
        self.versus = Latest(self.workers, "open", "comparing TVM with torch.compile", self)
        self.versus_dialog: VersusDialog | None = None
        self.exporter = ExportController(self.workers, self)
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
        self.db_panel = KernelDbPanel(self.settings, self.workers, cuda)
        self.timeline_panel = TimelinePanel(self.settings, self.workers)
        self.kernel_dock = self._dock("Kernels", self.kernels, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.hot_dock = self._dock("Hot lines", self.hot, Qt.DockWidgetArea.BottomDockWidgetArea)
        # the tallest bottom panels scroll when the window is low: the code keeps its lines
        self.db_dock = self._dock(
            "Kernel DB", self.db_panel, Qt.DockWidgetArea.BottomDockWidgetArea, scroll=True
        )
        self.timeline_dock = self._dock(
            "Timeline", self.timeline_panel, Qt.DockWidgetArea.BottomDockWidgetArea, scroll=True
        )
        self.tabifyDockWidget(self.hot_dock, self.db_dock)
        self.tabifyDockWidget(self.db_dock, self.timeline_dock)
        # why a kernel is slow (issue 10): Details and the roofline on the right, the headroom
        # list with the other lists at the bottom; each reads only while it is shown
        self.details_pane = DetailsPane(self.selection, self.workers)
        self.roofline_panel = RooflinePanel(self.selection, self.workers)
        self.headroom_panel = HeadroomPanel(self.selection, self.workers)
        # a first click on a kernel costs what a second does: its data read ahead when idle
        self.warm_ahead = WarmAhead(self.selection, self.workers, self.details_pane, self.hot, self)
        right = Qt.DockWidgetArea.RightDockWidgetArea
        self.details_dock = self._dock("Details", self.details_pane, right)
        self.roofline_dock = self._dock("Roofline", self.roofline_panel, right)
        self.tabifyDockWidget(self.details_dock, self.roofline_dock)
        # closed until asked for (toolbar, Ctrl+4/5, View): the code panes keep their width
        self.details_dock.hide()
        self.roofline_dock.hide()
        self.headroom_dock = self._dock(
            "Headroom", self.headroom_panel, Qt.DockWidgetArea.BottomDockWidgetArea
        )
        self.tabifyDockWidget(self.db_dock, self.headroom_dock)
        self.steps_pane, self.steps_dock = install_steps_pane(self)
        self.hot_dock.raise_()
        # the code keeps its room: a dock beside it with no room left goes below it
        self.dock_room = DockRoom(self, [d for d in self._docks() if d is not self.kernel_dock])
        self._compose_compare_mode(cuda)
        self.open_busy = BusyIndicator("open_busy")
        self.export_busy = BusyIndicator("export_busy")
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
        self.recent = RecentFilesMenu(self.settings, self)
        self.palette_menu = PaletteMenu(self.settings, self)
        self.palette_menu.changed.connect(self._on_palette)
        self._actions: dict[str, QAction] = {}
        self._build_actions()
        self._connect()
        self.update_actions()
        self.resize(1500, 900)
        self.splitter.setSizes([800, 700])
        self.resizeDocks([self.kernel_dock], [380], Qt.Orientation.Horizontal)
        self.resizeDocks([self.details_dock], [440], Qt.Orientation.Horizontal)
        self.resizeDocks([self.hot_dock], [220], Qt.Orientation.Vertical)
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

    # ---- construction -------------------------------------------------------------------
    def _compose_compare_mode(self, cuda: Highlighter) -> None:
        """Compare mode (a baseline and its deltas) and its widgets in the window: the header
        above the code, the side-by-side view in a stack with the source pane (one of them
        shows), the opcode table under the SASS, the "Side by Side" button in the source
        pane's header."""
        self.compare = CompareMode(
            self.selection,
            self.workers,
            cuda,
            source=self.source,
            sass=self.sass,
            kernels=self.kernels,
            hot=self.hot,
            parent=self,
        )
        self.code_stack = QStackedWidget()
        self.code_stack.setObjectName("source_stack")
        self.splitter.replaceWidget(0, self.code_stack)
        self.code_stack.addWidget(self.source)
        self.code_stack.addWidget(self.compare.diff_pane)
        # the source takes more of a change in width than the SASS (whose lines are short)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self._code_sizes: list[int] = []  # the splitter's before side by side took more room
        central = self.code_area.layout()
        assert isinstance(central, QBoxLayout)
        central.insertWidget(0, self.compare.bar)
        self.sass.add_below(self.compare.opcodes)
        self.source.header.addWidget(self.compare.split)
        self.compare.side_by_side_changed.connect(self._show_side_by_side)
        self.compare.controller.failed.connect(self.show_error)
        self.compare.controller.ended.connect(lambda why: self.statusBar().showMessage(why, 15000))

    def _show_side_by_side(self, on: bool) -> None:
        """Compare mode's two sources in place of the source pane (they want more room than
        one source), or the source pane again."""
        if on:
            self._code_sizes = self.splitter.sizes()
            total = sum(self._code_sizes)
            self.code_stack.setCurrentWidget(self.compare.diff_pane)
            self.splitter.setSizes([total * 62 // 100, total - total * 62 // 100])
        else:
            self.code_stack.setCurrentWidget(self.source)
            if self._code_sizes:
                self.splitter.setSizes(self._code_sizes)

    def _dock(
        self, title: str, widget: QWidget, area: Qt.DockWidgetArea, *, scroll: bool = False
    ) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(f"dock_{widget.objectName()}")
        dock.setWidget(scrolling(widget) if scroll else widget)
        self.addDockWidget(area, dock)
        return dock

    def _build_actions(self) -> None:
        """Menus, toolbar and the kernel list's context menu, from the table in its order."""
        menus = {title: self.menuBar().addMenu(title) for title in MENUS}
        sections = dict.fromkeys(MENUS, 0)
        for dock in self._docks():  # View's first section
            menus["&View"].addAction(dock.toggleViewAction())
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
            slot = getattr(self, spec.slot)
            action.triggered.connect(lambda checked=False, slot=slot: slot())
            self.addAction(action)
            self._actions[spec.id] = action
            if spec.menu:
                menu = menus[spec.menu]
                if spec.section != sections[spec.menu]:
                    menu.addSeparator()
                    sections[spec.menu] = spec.section
                menu.addAction(action)
                if spec.id == "open":
                    menu.addMenu(self.recent)
                if spec.id == "compare_with":
                    menu.addMenu(self.compare.profiles_menu)
                if spec.id == "reset_layout":
                    menu.addMenu(self.palette_menu)
            if spec.toolbar is not None:
                if spec.toolbar != toolbar_section:
                    toolbar.addSeparator()
                    toolbar_section = spec.toolbar
                    if spec.toolbar == 1:  # the metric that navigation and heat follow
                        toolbar.addWidget(QLabel(" Metric: "))
                        toolbar.addWidget(self.metric_box)
                toolbar.addAction(action)
            if spec.context:
                self.kernels.table.addAction(action)
            if spec.headroom:
                self.headroom_panel.table.addAction(action)

    def _docks(self) -> tuple[QDockWidget, ...]:
        return (
            self.kernel_dock,
            self.hot_dock,
            self.db_dock,
            self.timeline_dock,
            self.details_dock,
            self.roofline_dock,
            self.headroom_dock,
            self.steps_dock,
        )

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
        self.versus.result.connect(self._on_versus)
        self.versus.failed.connect(lambda e, _c: self.show_error("Cannot compare", e))
        self.loader.partial.connect(self._on_opened)  # a report's kernel list, the rest to come
        self.loader.failed.connect(self._on_open_failed)
        self.loader.busy_changed.connect(self._on_open_busy)
        self.open_busy.cancel_requested.connect(self.loader.cancel)
        self.kernel_loader.failed.connect(self.show_error)
        self.exporter.running_changed.connect(self._on_export_running)
        self.exporter.progress.connect(self.export_busy.set_progress)
        self.exporter.exported.connect(self._on_exported)
        self.exporter.failed.connect(self.show_error)
        self.db_panel.error.connect(self.show_error)
        self.db_dock.visibilityChanged.connect(
            lambda visible: self.db_panel.ensure_loaded() if visible else None
        )
        self.db_panel.reexport_requested.connect(self.export_selected)
        self.timeline_panel.error.connect(self.show_error)
        self.timeline_panel.shown.connect(self.show_timeline)
        self.timeline_panel.profiled.connect(self._open_profiled_call)
        self.details_dock.visibilityChanged.connect(self.details_pane.set_shown)
        self.roofline_dock.visibilityChanged.connect(self.roofline_panel.set_shown)
        self.headroom_dock.visibilityChanged.connect(self.headroom_panel.set_shown)
        self.recent.open_requested.connect(self.open_path)
        self.compare.changed.connect(self.update_actions)
        self.compare.controller.diff_ready.connect(
            lambda diff: self.headroom_panel.set_baseline(
                self.compare.controller.baseline_session, diff
            )
        )
        self.welcome.open_requested.connect(self.open_path)
        self.welcome.open_chosen.connect(self.choose_file)
        self.welcome.build_chosen.connect(self.build_and_profile)
        self.welcome.error.connect(self.show_error)
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        app.focusChanged.connect(self._on_focus)

    # ---- enabled states -----------------------------------------------------------------
    def action_state(self) -> ActionState:
        document = self.selection.document
        return ActionState(
            document=document is not None,
            workspace=document is not None and document.workspace_path is not None,
            kernel=self.selection.kernel is not None,
            kernels_chosen=bool(self.kernels.selected_names()),
            branch=self.selection.branch_target() is not None,
            exporting=self.exporter.running,
            profile=document is not None and document.has_profile,
            comparing=self.compare.active,
        )

    def update_actions(self) -> None:
        state = self.action_state()
        for spec in ACTIONS:
            self._actions[spec.id].setEnabled(spec.enabled(state))

    # ---- opening ------------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        """Something asked for is not on screen yet: a document, a kernel, hot lines, a DB
        listing or an export (not a DB entry's colours, which follow it; ``workers.idle``
        says when every job is done)."""
        return (
            self.loader.busy
            or self.versus.busy
            or self.selection.loading
            or self.hot.busy
            or self.db_panel.busy
            or self.exporter.running
            or self.timeline_panel.busy
            or self.details_pane.busy
            or self.roofline_panel.busy
            or self.headroom_panel.busy
            or self.steps_pane.busy
            or self.compare.busy
            or self.welcome.busy
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
        """Start opening a workspace or report in the background (a newer call wins); a model
        opens Build & Profile. False when there is nothing to open."""
        if is_model(path):
            self.build_and_profile(Path(path))
            return True
        if not str(path):
            return False
        if is_timeline(path):
            self.timeline_panel.open_file(path)
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
        self.db_panel.set_document(document)
        self.timeline_panel.set_workspace(session.workspace)
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

    def build_and_profile(self, model: Path | None = None) -> BuildDialog:
        from .build_profile.build_dialog import BuildDialog  # core.build on first use only

        session = self.selection.session
        workspace = session.workspace if session is not None and model is None else None
        dialog = BuildDialog(self.workers, self, model, settings=self.settings, workspace=workspace)
        dialog.finished.connect(lambda result: self.timeline_panel.reload_hosts())
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.finished_document.connect(self.open_path)
        dialog.import_requested.connect(self.choose_file)
        dialog.open()
        return dialog

    # ---- tuning -------------------------------------------------------------------------
    def tune(self, kernels: list[str] | None = None) -> None:
        """Tune dialog for these kernels: the Headroom list's selection when its context menu
        asked (it has the focus), else the kernel list's."""
        from .tuning.tune_dialog import TuneDialog  # core.tuning on first use only

        document = self.selection.document
        if document is None or document.workspace_path is None:
            return
        if kernels is None:
            headroom = self.headroom_panel
            kernels = (
                headroom.selected_names()
                if headroom.table.hasFocus()
                else self.kernels.selected_names()
            )
        dialog = TuneDialog(
            self.workers,
            document.workspace_path,
            kernels,
            self,
            settings=self.settings,
            savings_us=self.headroom_panel.savings_us(),
        )
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.build_requested.connect(self.build_with_records)
        dialog.gain_requested.connect(self.build_tuned)
        dialog.open()

    def build_with_records(self, folder: str) -> None:
        """Build & Profile, set to rebuild the open workspace's model with ``folder``'s
        tuning records."""
        self.build_and_profile().use_tuning_records(Path(folder))

    def build_tuned(self, database: str | None = None) -> GainDialog | None:
        """Build & Profile Tuned for the open workspace: with ``database`` (Tune's records)
        it starts at once; from the menu it waits for its fields (records: WS/tuning)."""
        from .tuning.gain_dialog import GainDialog  # core.tuning on first use only

        document = self.selection.document
        if document is None or document.workspace_path is None:
            return None
        folder = Path(database) if database else None
        dialog = GainDialog(
            self.workers, document.workspace_path, folder, self, settings=self.settings
        )
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.gain_ready.connect(self.show_gain)
        dialog.open()
        if folder is not None:
            dialog.start_when_ready()
        return dialog

    def show_gain(self, gain: TunedGain) -> None:
        """Open the tuned run, then compare it with the untuned workspace (its newest report,
        the one ``see_gain`` measured against) as compare mode's baseline."""

        def compare(document: ViewDocument) -> None:
            self.document_opened.disconnect(compare)
            self.compare_with_paths([gain.untuned])

        self.compare.controller.stop()
        self.document_opened.connect(compare)
        self.open_path(gain.tuned)

    # ---- compare mode -------------------------------------------------------------------
    def compare_with(self) -> None:
        """Choose a baseline for the open profile: a report, CSV exports or a workspace."""
        paths = open_file_names(
            self, "Compare with (baseline)", self.compare.start_folder(), OPEN_FILTER
        )
        if paths:
            self.compare_with_paths(paths)

    def compare_with_folder(self) -> None:
        """Choose a baseline folder: a workspace, or a torch.compile run folder against the
        TVM build shown (and a TVM workspace against the run shown)."""
        folder = existing_folder(
            self,
            "Compare with (a workspace or torch.compile run folder)",
            self.compare.start_folder(),
        )
        if folder:
            self.compare_with_paths([folder])

    def compare_with_paths(self, paths: list[str] | list[Path]) -> None:
        """Open ``paths`` as the baseline of the profile shown (or of the next one opened); a
        TVM workspace and a torch.compile run folder, one shown and one chosen, give the
        TVM-against-Inductor table instead."""
        chosen = [Path(p) for p in paths]
        document = self.selection.document
        shown = document.workspace_path if document is not None else None
        if len(chosen) != 1 or shown is None:
            self.compare.compare_with(chosen)
            return
        self.versus.submit(lambda _ctx: versus_pair(shown, chosen[0]), chosen)

    def _on_versus(self, versus: Versus | None, chosen: list[Path]) -> None:
        if versus is None:  # two profiles of one compiler: the ordinary comparison
            self.compare.compare_with(chosen)
            return
        dialog = VersusDialog(
            versus, list(VERSUS_HEADER), format_versus(versus), self.workers, self
        )
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.versus_dialog = dialog
        dialog.open()

    def set_baseline(self) -> None:
        """The profile shown becomes the baseline of the next one opened."""
        self.compare.controller.set_baseline()
        document = self.selection.document
        if document is not None:
            self.statusBar().showMessage(
                f"{document.title} is the baseline: open another profile to compare it", 10000
            )

    def stop_comparing(self) -> None:
        self.compare.controller.stop()

    # ---- timeline -----------------------------------------------------------------------
    def show_timeline(self) -> None:
        self.timeline_dock.show()
        self.timeline_dock.raise_()

    def measure_timeline(self) -> None:
        self.show_timeline()
        self.timeline_panel.measure()

    def _open_profiled_call(self, workspace: str, kernel: str) -> None:
        """Open the workspace whose newest report is the call just profiled, at its kernel."""

        def select(document: ViewDocument) -> None:
            self.document_opened.disconnect(select)
            if any(s.name == kernel for s in document.summaries):
                self.selection.show(kernel)

        self.document_opened.connect(select)
        self.open_path(workspace)

    # ---- kernel DB ----------------------------------------------------------------------
    def export_selected(self, kernels: list[str] | None = None) -> bool:
        """Export these kernels (the kernel list's selection when not given)."""
        names = kernels if kernels is not None else self.kernels.selected_names()
        options = self.db_panel.export_options()
        return self.exporter.start(self.selection.session, self.db_panel.path, names, options)

    def export_all(self) -> bool:
        options = self.db_panel.export_options()
        return self.exporter.start(self.selection.session, self.db_panel.path, None, options)

    def export_options(self) -> None:
        self.db_panel.edit_export_options()

    def show_db_tab(self, tab: str) -> None:
        """Raise the Kernel DB dock on a tab: "entries", "command" or "coverage"."""
        self.db_dock.show()
        self.db_dock.raise_()
        self.db_panel.show_tab(tab)

    def show_nnfusion_command(self) -> None:
        self.show_db_tab("command")

    def show_nnfusion_coverage(self) -> None:
        self.show_db_tab("coverage")

    def choose_db(self) -> None:
        self.db_panel.choose_db()

    def _on_export_running(self, running: bool) -> None:
        if running:
            self.export_busy.start(f"Exporting to {self.db_panel.path.name}…")
        else:
            self.export_busy.stop()
        self.update_actions()

    def _on_exported(self, report: ExportReport) -> None:
        self.db_dock.show()
        self.db_dock.raise_()
        self.db_panel.exported(report)
        box = summary_box(self, report)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    # ---- sharing ------------------------------------------------------------------------
    def share_web_page(self, path: Path | None = None) -> QDialog | None:
        """File > Share as Web Page…: the open document as one HTML file (``path``, else
        asked for), with the kernels selected in the list when there are several, else the
        ten slowest, and compare mode's baseline; written off the GUI thread by the dialog."""
        from .dialogs.share_dialog import ShareDialog  # core.share on first use only

        session, document = self.selection.session, self.selection.document
        if session is None or document is None:
            return None
        if path is None:
            stem = Path(document.title.split(" — ")[-1]).stem or "kernelscope"
            chosen = save_file_name(self, "Share as Web Page", f"{stem}.html", "Web pages (*.html)")
            if not chosen:
                return None
            path = Path(chosen)
        selected = self.kernels.selected_names()
        compare = self.compare.controller
        dialog = ShareDialog(
            self.workers,
            session,
            path,
            kernels=selected if len(selected) > 1 else None,
            baseline=compare.baseline_session if self.compare.active else None,
            parent=self,
        )
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

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

    # ---- action slots -------------------------------------------------------------------
    def open_search(self) -> None:
        self.search_bar.open()

    def find_next(self) -> None:
        self.search_bar.search(False)

    def find_previous(self) -> None:
        self.search_bar.search(True)

    def _find(self, pattern: str, regex: bool, case: bool, backwards: bool) -> None:
        found = self._search_pane.find_text(pattern, regex=regex, case=case, backwards=backwards)
        self.search_bar.show_result(found)

    def next_hot_line(self) -> None:
        self._step_hot(False)

    def previous_hot_line(self) -> None:
        self._step_hot(True)

    def _step_hot(self, backwards: bool) -> None:
        if not self._search_pane.step_hot(backwards):
            self.statusBar().showMessage(f"no line has any {self.selection.metric}", 5000)

    def follow_branch(self) -> None:
        self.sass.follow_branch()

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

    def show_pane(self, pane: str) -> QWidget:
        """Raise the dock of a pane ("details", "roofline", "headroom") and return the pane."""
        dock, widget = {
            "details": (self.details_dock, self.details_pane),
            "roofline": (self.roofline_dock, self.roofline_panel),
            "headroom": (self.headroom_dock, self.headroom_panel),
        }[pane]
        self.dock_room.place(dock)  # below the code when the window has no room beside it
        dock.show()
        dock.raise_()
        return widget

    def show_details(self) -> None:
        self.show_pane("details")

    def show_roofline(self) -> None:
        self.show_pane("roofline")

    def show_headroom(self) -> None:
        self.show_pane("headroom")

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
        self.dock_room.make_room()

    def closeEvent(self, event: QCloseEvent) -> None:
        """Stop what is running (an export commits first) and end the worker threads."""
        if not self.workers.closed:  # once, however often the window is closed
            self.loader.cancel()
            self.db_panel.close_db()
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
