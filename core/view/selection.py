"""The one selection every pane follows: document, kernel, file, line, instructions, metric.

Qt-free, with psygnal signals (napari's evented models): the panes change this object and
redraw when it signals, and never talk to each other. Correlation happens here: choosing a
source line selects the instructions it produced (inlined frames too), choosing an
instruction selects its source line, switching to the header it was inlined from when the
shown file has none of its frames. The kernel's PTX (``KernelView.ptx``) joins in: a source
line or instruction highlights its PTX rows, a PTX row its source line and the SASS
instructions assembled from it.

Loading a kernel may read a report, so the selection never does it: ``show()`` of a kernel it
has not received yet emits ``kernel_requested(document, name)``, whoever loads kernels
(the window's worker, a test's plain function) answers with ``kernel_loaded``, and the
selection moves then, unless a newer ``show()`` came first (the newest request wins).
"""

from __future__ import annotations

from dataclasses import dataclass

from psygnal import Signal

from ..errors import KernelscopeError
from ..ncu import first_and_hottest
from .document import SASS_COUNT, KernelView, ViewDocument
from .session import ProfileSession


@dataclass(frozen=True)
class _Request:
    document: ViewDocument
    kernel: str
    file: str | None
    line: int | None
    instruction: int | None
    launch: int | None


class Selection:
    document_changed = Signal()
    kernel_changed = Signal()
    file_changed = Signal()
    metric_changed = Signal()
    launch_changed = Signal()  # one launch of the kernel was chosen (``launch``), or none
    # line / instruction / correlated sets changed (one signal: they always move together)
    selection_changed = Signal()
    # (document, kernel name): load it and call kernel_loaded (or kernel_failed)
    kernel_requested = Signal(object, str)
    loading_changed = Signal(bool)  # a requested kernel is on its way (True) or here (False)

    def __init__(self) -> None:
        self.document: ViewDocument | None = None
        # what reads the document's files (its kernels, the feature functions): it waits for
        # the profile thread, so only from a worker (the viewer's document lane), never the GUI
        self.session: ProfileSession | None = None
        self.kernel: KernelView | None = None
        self.file: str = ""
        self.metric: str = SASS_COUNT
        self.line: int = 0  # 1-based line in ``file``; 0 when none
        self.instruction: int = -1  # index into kernel.instructions; -1 when none
        self.lines: set[int] = set()  # lines of ``file`` to highlight
        self.instructions: set[int] = set()  # instructions to highlight
        self.ptx_rows: set[int] = set()  # rows of ``kernel.ptx`` to highlight
        self.ptx_row = -1  # the PTX row to bring into view; -1 when none
        # one launch of ``kernel`` (Nsight Compute's ID), chosen by a pane that lists launches
        # (the step ledger); None: the kernel's launches together
        self.launch: int | None = None
        self.picked = ""  # what was chosen last: "line", "instruction" or "ptx" ("": nothing)
        self._views: dict[str, KernelView] = {}  # kernels of ``document`` received so far
        self._request: _Request | None = None

    @property
    def loading(self) -> bool:
        """A kernel was asked for and has not arrived yet."""
        return self._request is not None

    @property
    def requested_kernel(self) -> str | None:
        return self._request.kernel if self._request else None

    # ---- document and kernel --------------------------------------------------------------
    def set_document(
        self, document: ViewDocument | None, session: ProfileSession | None = None
    ) -> None:
        """Show ``document``; ``session``, the one it was opened with (``open_document``)."""
        self.document = document
        self.session = session
        self.kernel = None
        self.launch = None
        self.file = ""
        self._views = {}
        self._set_request(None)
        self._clear()
        if document is not None and (
            self.metric == SASS_COUNT or self.metric not in document.line_metric_names
        ):
            self.metric = document.line_metric_names[0]  # the profile's first, if any
        self.document_changed.emit()
        self.kernel_changed.emit()
        self.file_changed.emit()
        self.selection_changed.emit()

    def open_session(self) -> ProfileSession:
        """The session of the document shown, for a job on the document lane to read."""
        if self.session is None:
            raise KernelscopeError("no document is open")
        return self.session

    def show(
        self,
        kernel: str,
        *,
        file: str | None = None,
        line: int | None = None,
        instruction: int | None = None,
        launch: int | None = None,
    ) -> None:
        """Go to ``kernel`` (and a file, line or instruction of it, or one of its launches:
        ``launch``, Nsight Compute's ID): at once when the kernel is here, else when it
        arrives. Replaces any request still on its way. Without ``launch``, the kernel shown
        keeps the launch chosen; another kernel has none."""
        if self.document is None:
            return
        if launch is None and self.kernel is not None and self.kernel.name == kernel:
            launch = self.launch  # the kernel shown again (a pane following it): same launch
        request = _Request(self.document, kernel, file, line, instruction, launch)
        view = self._views.get(kernel)
        if view is not None:
            self._set_request(None)
            self._go(view, request)
            return
        self._set_request(request)
        self.kernel_requested.emit(self.document, kernel)

    def kernel_loaded(self, document: ViewDocument, view: KernelView) -> None:
        """A requested kernel arrived; it is shown if it is still the one wanted."""
        if document is not self.document:
            return  # from a document no longer shown
        self._views[view.name] = view
        request = self._request
        if request is not None and request.kernel == view.name:
            self._set_request(None)
            self._go(view, request)

    def kernel_failed(self, document: ViewDocument, name: str) -> None:
        """A requested kernel could not be loaded; what is shown stays."""
        if document is self.document and self.requested_kernel == name:
            self._set_request(None)

    def _set_request(self, request: _Request | None) -> None:
        was = self._request is not None
        self._request = request
        if was != (request is not None):
            self.loading_changed.emit(request is not None)

    def _go(self, view: KernelView, request: _Request) -> None:
        arrived = self.kernel is not view
        launch_moved = request.launch != self.launch
        self.launch = request.launch
        if arrived:
            self.kernel = view
            self.file = view.main_file
            self._clear()
            self.kernel_changed.emit()
            self.file_changed.emit()
            self.selection_changed.emit()
        if request.file is not None:
            self.set_file(request.file)
        if request.line:
            self.select_line(request.line)
        elif arrived and request.file is None and request.instruction is None and view.start_line:
            self.select_line(view.start_line)  # nothing asked: where the kernel opens
        if request.instruction is not None:
            self.select_instruction(request.instruction)
        if launch_moved and not arrived:
            self.launch_changed.emit()

    # ---- within a kernel ------------------------------------------------------------------
    def set_file(self, file: str) -> None:
        if self.kernel is None or file == self.file or file not in self.kernel.files:
            return
        self.file = file
        self._clear()
        self.file_changed.emit()
        self.selection_changed.emit()

    def set_metric(self, metric: str) -> None:
        if metric != self.metric:
            self.metric = metric
            self.metric_changed.emit()

    def select_line(self, line: int) -> None:
        """A source line was chosen: highlight it and every instruction it produced."""
        if self.kernel is None:
            return
        self.line = line
        self.lines = {line}
        self.instructions = set(self.kernel.instructions_at(self.file, line))
        self.instruction = min(self.instructions) if self.instructions else -1
        self.ptx_rows = set(self.kernel.ptx.rows_at(self.file, line))
        self.ptx_row = min(self.ptx_rows, default=-1)
        self.picked = "line"
        self.selection_changed.emit()

    def select_instruction(self, index: int) -> None:
        """An instruction was chosen: show its source line (switching file if needed)."""
        kernel = self.kernel
        if kernel is None or not 0 <= index < len(kernel.instructions):
            return
        line = kernel.line_of(index, self.file)
        if line is None:
            location = kernel.location_of(index)
            if location is not None and location[0] in kernel.files:
                self.file = location[0]
                line = location[1]
                self.file_changed.emit()
        self.instruction = index
        self.line = line or 0
        self.lines = {line} if line else set()
        self.instructions = set(kernel.instructions_at(self.file, line)) if line else set()
        self.instructions.add(index)
        row = kernel.ptx.row_of(index)
        self.ptx_rows = set(kernel.ptx.rows_at(self.file, line)) if line else set()
        self.ptx_rows |= {row} if row is not None else set()
        self.ptx_row = row if row is not None else -1
        self.picked = "instruction"
        self.selection_changed.emit()

    def select_ptx_row(self, row: int) -> None:
        """A PTX row was chosen: show its source line (switching file as for an
        instruction) and highlight the SASS instructions assembled from it."""
        kernel = self.kernel
        if kernel is None or not 0 <= row < len(kernel.ptx.rows):
            return
        ptx = kernel.ptx
        line = ptx.line_of(row, self.file)
        if line is None:
            frames = ptx.rows[row].frames
            own = [loc for loc in frames if loc[0] == kernel.main_file]
            location = own[0] if own else frames[0] if frames else None
            if location is not None and location[0] in kernel.files:
                self.file, line = location
                self.file_changed.emit()
        self.line = line or 0
        self.lines = {line} if line else set()
        self.instructions = set(ptx.instructions[row])
        self.instruction = min(self.instructions, default=-1)
        self.ptx_rows = {*(ptx.rows_at(self.file, line) if line else ()), row}
        self.ptx_row = row
        self.picked = "ptx"
        self.selection_changed.emit()

    def focus_instruction(self) -> int:
        """The instruction to bring into view: the one chosen, or for a chosen line its
        hottest (most warp samples; its first when it has none). -1 for none."""
        kernel = self.kernel
        if kernel is None or self.instruction < 0 or self.picked != "line":
            return self.instruction
        indices = sorted(self.instructions)
        _, hottest = first_and_hottest(indices, [kernel.instruction_metrics[i] for i in indices])
        return self.instruction if hottest is None else hottest

    def branch_target(self) -> int | None:
        """The instruction the selected branch jumps to, if the selection is a branch."""
        kernel = self.kernel
        if kernel is None or self.instruction < 0:
            return None
        offset = kernel.target_offset(self.instruction)
        return kernel.offset_index.get(offset) if offset is not None else None

    def _clear(self) -> None:
        self.picked = ""
        self.line = 0
        self.instruction = -1
        self.lines = set()
        self.instructions = set()
        self.ptx_rows = set()
        self.ptx_row = -1
