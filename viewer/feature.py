"""Feature units (Spyder's plugin shape): what a feature of the window may use, and what it gives.

Each feature of the window (the Kernel DB, compare mode, tuning, the timeline...) is one folder
whose package exports one ``Feature``. The window makes a ``WindowContext`` and installs each
feature of ``features.FEATURES`` into it, in order: the feature makes its panes and docks
(``add_dock``), gives the handlers of its actions (``add_action``; what each action says, its
shortcut, menu and enabled state stay declared in ``actions.ACTIONS``), its status-bar widgets,
the paths it opens, and connects its errors to ``show_error``. The window then says what is
busy (any feature ``busy``) and what is enabled (``action_state``) by asking each one.

A feature uses another one only through what that one's package exports, found with
``ctx.feature(Kind)`` (the window's list decides which are there; features installed earlier
are found at install time, later ones when an action runs).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QSettings, Qt, SignalInstance
from PySide6.QtWidgets import QBoxLayout, QDockWidget, QMainWindow, QMenu, QSplitter, QWidget

from kernelscope.core.view import Selection

from .actions import ActionState
from .code.highlight import Highlighter
from .code.sass_pane import SassPane
from .code.source_pane import SourcePane
from .dock_room import DockRoom, scrolling
from .panels.hot_lines_panel import HotLinesPanel
from .panels.kernel_list import KernelList
from .workers.jobs import Workers


class Feature:
    """One feature of the window. ``install`` puts it in; the rest has defaults."""

    def install(self, ctx: WindowContext) -> None:
        raise NotImplementedError

    @property
    def busy(self) -> bool:
        """Something this feature was asked for is not on screen yet."""
        return False

    def action_state(self, state: ActionState) -> ActionState:
        """``state`` with what this feature knows filled in (``dataclasses.replace``)."""
        return state

    def close(self) -> None:
        """The window closes: commit or stop what must not be left half done."""


F = TypeVar("F", bound=Feature)


@dataclass(frozen=True)
class CodeView:
    """The window's own panes a feature may show things in, through their public methods."""

    source: SourcePane
    sass: SassPane
    kernels: KernelList
    hot: HotLinesPanel
    cuda: Highlighter  # the source's colours (they follow View > Palette)
    splitter: QSplitter  # the source (left) and the SASS/PTX tabs (right)
    code_layout: QBoxLayout  # the code area: the splitter, the search bar below


@dataclass
class _Dock:
    dock: QDockWidget
    area: Qt.DockWidgetArea
    tabbed: bool
    size: int | None


@dataclass
class _Handler:
    run: Callable[[], object]
    submenu: QMenu | None


class WindowContext:
    """What a feature may use of the window (``Feature.install`` gets it)."""

    def __init__(
        self,
        window: QMainWindow,
        *,
        selection: Selection,
        workers: Workers,
        settings: QSettings,
        code: CodeView,
        document_opened: SignalInstance,
        session_opened: SignalInstance,
        open_path: Callable[[str | Path], bool],
        choose_file: Callable[[], None],
        show_error: Callable[[str, BaseException], None],
        update_actions: Callable[[], None],
    ) -> None:
        self.window = window  # the parent of a feature's dialogs
        self.selection, self.workers, self.settings, self.code = selection, workers, settings, code
        self.document_opened = document_opened  # (ViewDocument) once a document is shown
        self.session_opened = session_opened  # (ProfileSession) a new document opened
        self.open_path, self.choose_file = open_path, choose_file
        self.show_error, self.update_actions = show_error, update_actions
        self.features: list[Feature] = []
        self.docks: list[_Dock] = []
        self.handlers: dict[str, _Handler] = {}
        self.context_menus: dict[str, QWidget] = {}
        self.openers: list[tuple[Callable[[str | Path], bool], Callable[[Path], object]]] = []
        self.dock_room: DockRoom | None = None  # made once every dock is in

    # ---- what a feature adds ------------------------------------------------------------------
    def add_dock(
        self,
        title: str,
        widget: QWidget,
        area: Qt.DockWidgetArea,
        *,
        scroll: bool = False,
        tabbed: bool = False,
        size: int | None = None,
    ) -> QDockWidget:
        """A dock named after ``widget`` (``dock_<objectName>``: the saved layout's key).
        ``scroll``: its widget scrolls when the window is low; ``tabbed``: a tab beside the
        area's first tabbed dock; ``size``: its first width (side) or height (bottom)."""
        window = self.window
        dock = QDockWidget(title, window)
        dock.setObjectName(f"dock_{widget.objectName()}")
        dock.setWidget(scrolling(widget) if scroll else widget)
        window.addDockWidget(area, dock)
        if tabbed:
            first = next((d for d in self.docks if d.area == area and d.tabbed), None)
            if first is not None:
                window.tabifyDockWidget(first.dock, dock)
        self.docks.append(_Dock(dock, area, tabbed, size))
        return dock

    def add_action(
        self, id: str, handler: Callable[[], object], *, submenu: QMenu | None = None
    ) -> None:
        """The handler of ``actions.ACTIONS``' action ``id``; ``submenu`` follows it in its
        menu."""
        if id in self.handlers:
            raise ValueError(f"two handlers for the action {id!r}")
        self.handlers[id] = _Handler(handler, submenu)

    def add_context_menu(self, name: str, widget: QWidget) -> None:
        """``widget``'s context menu gets the actions whose ``context`` names ``name``."""
        self.context_menus[name] = widget

    def add_opener(
        self, accepts: Callable[[str | Path], bool], open: Callable[[Path], object]
    ) -> None:
        """Paths ``accepts`` says yes to (File > Open, a drop, the command line) go to
        ``open`` instead of being opened as a profile."""
        self.openers.append((accepts, open))

    def add_status_widget(self, widget: QWidget) -> None:
        """A widget on the right of the status bar (a progress strip)."""
        self.window.statusBar().addPermanentWidget(widget)

    # ---- what a feature uses ------------------------------------------------------------------
    def feature(self, kind: type[F]) -> F:
        """The installed feature of that class (raises KeyError where the window has none)."""
        for feature in self.features:
            if isinstance(feature, kind):
                return feature
        raise KeyError(kind.__name__)

    def show_message(self, text: str, ms: int) -> None:
        self.window.statusBar().showMessage(text, ms)

    def raise_dock(self, dock: QDockWidget, *, make_room: bool = False) -> None:
        """Show ``dock`` on top of its tabs; ``make_room``: below the code when the window
        has no room beside it."""
        if make_room and self.dock_room is not None:
            self.dock_room.place(dock)
        dock.show()
        dock.raise_()
