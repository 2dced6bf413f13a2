"""Compare mode in the window: the controller's results put into the panes.

Each pane shows a comparison through what it offers for it (``CodePane.show_comparison``,
``KernelList.show_comparison``, ``HotLinesPanel.set_changes``); compare mode's own widgets are
placed by the window: the header (``bar``) above the code, the side-by-side view
(``diff_pane``) in place of the source pane while ``side_by_side_changed`` says so, the opcode
table (``opcodes``) under the SASS, the "Side by Side" button (``split``) in the source pane's
header.

* the header (``CompareBar``) above the code: both profiles, GPUs, totals, the kernel shown;
* the kernel list's baseline / new / change / ratio columns (the speedup for a build from
  tuning records) and baseline-only rows;
* the source pane's baseline value and change per line, or, when the two builds' sources
  differ, the side-by-side ``DiffPane`` in its place (a button switches between them);
* the SASS pane's change per instruction where the streams align, and the opcode table;
* the hot-lines panel's "biggest regressions" / "biggest improvements".

What each pane shows of a kernel follows the selection: a kernel's comparison arrives after
the kernel (``CompareController``), and its columns are put in then, or at once when it was
compared before.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMenu, QToolButton, QWidget

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.view import Selection

from ..code.code_models import DeltaColumn
from ..code.highlight import Highlighter
from ..code.sass_pane import SassPane
from ..code.source_pane import SourcePane
from ..panels.hot_lines_panel import HotLinesPanel
from ..panels.kernel_list import KernelList
from ..workers.jobs import Workers
from . import code_columns
from .bar import CompareBar
from .controller import CompareController, instruction_metric, metric_key
from .diff_pane import DiffPane
from .kernel_columns import DELTA_TITLE, compare_columns
from .line_changes import LineChanges
from .opcode_table import OpcodeTable


class CompareMode(QObject):
    changed = Signal()  # compare mode entered, left or its baseline changed
    # the two sources side by side in place of the source pane (True), or the source pane
    side_by_side_changed = Signal(bool)

    def __init__(
        self,
        selection: Selection,
        workers: Workers,
        cuda: Highlighter,
        *,
        source: SourcePane,
        sass: SassPane,
        kernels: KernelList,
        hot: HotLinesPanel,
        parent: QWidget,
    ) -> None:
        super().__init__(parent)
        self.selection = selection
        self.source, self.sass, self.kernels, self.hot = source, sass, kernels, hot
        self.controller = CompareController(selection, workers, self)
        self.bar = CompareBar()
        self.diff_pane = DiffPane(selection, cuda)
        self.showing_side_by_side = False  # the diff pane is in the source pane's place
        # the panes' compare columns by (comparison, metric, file), made once each
        self._columns: dict[tuple[int, str, str], list[DeltaColumn] | None] = {}
        self.opcodes = OpcodeTable()
        self.opcodes.hide()
        self.line_changes = LineChanges(self.controller, self)
        self.side_by_side = True  # wanted whenever the two sources differ
        self.split = QToolButton()
        self.split.setObjectName("compare_side_by_side")
        self.split.setText("Side by Side")
        self.split.setToolTip("Show the baseline's source beside the new one, lines aligned")
        self.split.hide()
        self.profiles_menu = QMenu("Compare with Profile of This &Workspace", parent)
        self.profiles_menu.setObjectName("compare_profiles_menu")
        self.profiles_menu.aboutToShow.connect(self._fill_profiles)
        c = self.controller
        c.changed.connect(self._on_changed)
        c.started.connect(self._on_started)
        c.diff_ready.connect(self._on_diff)
        c.kernel_ready.connect(self._on_kernel_compared)
        self.bar.stop_requested.connect(c.stop)
        self.diff_pane.single_requested.connect(lambda: self._want_side_by_side(False))
        self.split.clicked.connect(lambda: self._want_side_by_side(True))
        self.selection.kernel_changed.connect(self._on_kernel)
        self.selection.file_changed.connect(self._apply_source)
        self.selection.metric_changed.connect(self._on_metric)
        kernels.baseline_only_chosen.connect(self._on_baseline_only)

    # ---- what the window asks ---------------------------------------------------------------
    @property
    def active(self) -> bool:
        """A baseline is set (compared with the document shown, or waiting for one)."""
        return self.controller.baseline is not None or self.controller.opening

    @property
    def busy(self) -> bool:
        return self.controller.busy

    def compare_with(self, paths: list[Path]) -> None:
        self.controller.compare_with(paths)

    def rank_lines_by(self, ranking: str | None) -> None:
        """The hot-lines panel's ranking once comparing: "regressions", "improvements" (or
        None: the hottest lines)."""
        choices = {None: 0, "regressions": 1, "improvements": 2}
        if ranking not in choices:
            raise KernelscopeError(
                f"no ranking {ranking!r}", hint="choose regressions or improvements"
            )
        self.hot.rank_by(choices[ranking])

    def start_folder(self) -> str:
        """Where the file dialog starts: the folder of the open profile (a workspace's
        profiles), else nowhere in particular."""
        document = self.selection.document
        return str(document.path.parent) if document is not None and document.path else ""

    def _fill_profiles(self) -> None:
        """The workspace's other profiles, listed when the menu opens (one small folder
        listing, as the file dialog makes)."""
        menu, session = self.profiles_menu, self.selection.session
        menu.clear()
        others = session.saved_profiles() if session is not None else []
        for path in reversed(others):  # newest first
            action = menu.addAction(path.name)
            action.setToolTip(str(path))
            action.triggered.connect(lambda checked=False, p=path: self.compare_with([p]))
        if not others:
            menu.addAction("No other profile of this workspace").setEnabled(False)

    # ---- the controller's state -----------------------------------------------------------------
    def _on_changed(self) -> None:
        c = self.controller
        if c.baseline is not None and not c.comparing:
            self.bar.show_waiting(c.baseline.title)
        elif c.baseline is None and not c.comparing:
            self.bar.hide()
        self.changed.emit()

    def _on_started(self) -> None:
        c = self.controller
        if c.document is not None and c.baseline is not None:
            self.bar.show_busy(c.document.title, c.baseline.title)

    def _on_diff(self, diff: object) -> None:
        c = self.controller
        self._columns.clear()
        if c.diff is not None and c.baseline is not None:
            tuned = c.document is not None and any(s.tuned for s in c.document.summaries)
            columns = compare_columns(c.diff, c.baseline, speedup=tuned)
            self.kernels.show_comparison(*columns, DELTA_TITLE)
        else:
            self.kernels.show_comparison()
        self.hot.set_changes(self.line_changes if c.diff is not None else None)
        if c.diff is not None:
            self.bar.show_diff(c.diff)
            self._show_kernel_line()

    # ---- the kernel shown -----------------------------------------------------------------------
    def _on_kernel(self) -> None:
        """A kernel was chosen: its row at once, its comparison when it arrives."""
        self._show_kernel_line()
        if self.controller.current is None:
            self._show_comparison()

    def _on_kernel_compared(self, comp: object) -> None:
        self._show_comparison()
        self._show_kernel_line()

    def _show_kernel_line(self) -> None:
        c, kernel = self.controller, self.selection.kernel
        if c.diff is None or kernel is None:
            return
        delta = c.delta_of(kernel.name)
        comp = c.current
        note = ""
        if comp is not None and not comp.sources_identical:
            note = "the sources differ"
        elif comp is not None:
            note = "the same source up to TVM's naming"
        self.bar.show_kernel(kernel.name, delta, note)

    def _on_baseline_only(self, name: str) -> None:
        """A baseline-only kernel chosen in the list: say so in the header (nothing opens)."""
        diff = self.controller.diff
        if diff is None:
            return
        try:
            delta = diff.kernel(name, "base")
        except KeyError:
            return
        self.bar.show_kernel(name, delta, "only in the baseline: nothing to compare it with")

    def _on_metric(self) -> None:
        self._show_comparison()

    def _show_comparison(self) -> None:
        """Columns, side-by-side view and opcode table for the kernel shown."""
        comp = self.controller.current
        self._apply_source()
        kernel = self.selection.kernel
        if not self.sass.shows(kernel):
            return  # the pane shows it next, and the kernel's change comes back here
        if comp is None or kernel is None:
            self.sass.show_comparison(None)
            self.opcodes.hide()
            self.opcodes.show_comparison(None)
            return
        metric = instruction_metric(self.selection.metric)
        key = (id(comp), metric, "")
        if key not in self._columns:
            offsets = [insn.offset for insn in kernel.instructions]
            self._columns[key] = code_columns.instruction_columns(comp, metric, offsets)
        self.sass.show_comparison(self._columns[key])
        if self.opcodes.comparison is not comp:
            self.opcodes.show_comparison(comp)
        self.opcodes.show()

    def _apply_source(self) -> None:
        """The source pane's columns, or the side-by-side view, for the file shown."""
        comp, kernel = self.controller.current, self.selection.kernel
        if not self.source.shows(kernel, self.selection.file):
            return  # the pane shows the new file next, and that comes back here
        metric = metric_key(self.selection.metric)
        own = kernel is not None and self.selection.file == kernel.main_file
        columns = None
        if comp is not None and own and metric is not None:
            key = (id(comp), metric, self.selection.file)
            if key not in self._columns:
                texts = self.source.line_texts()
                self._columns[key] = code_columns.line_columns(comp, metric, texts)
            columns = self._columns[key]
        self.source.show_comparison(columns)
        differ = comp is not None and own and not comp.sources_identical and bool(comp.rows)
        self.split.setVisible(differ and not self.side_by_side)
        self._set_side_by_side(differ and self.side_by_side)
        if differ and self.side_by_side and metric is not None:
            self.diff_pane.show_comparison(comp, metric)

    def _want_side_by_side(self, wanted: bool) -> None:
        self.side_by_side = wanted
        self._apply_source()

    def _set_side_by_side(self, on: bool) -> None:
        if on == self.showing_side_by_side:
            return
        self.showing_side_by_side = on
        if not on:
            self.diff_pane.show_comparison(None, "")
        self.side_by_side_changed.emit(on)
