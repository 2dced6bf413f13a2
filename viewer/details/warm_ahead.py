"""Kernels looked at before they are clicked: a first click then costs what a second does.

What a kernel switch waits for the first time a kernel is shown is its view read from the
profile (instructions, SASS, sources), its Details and its hot lines, each a job on the
document lane (~10-50 ms of CPU a kernel, measured on the 60-launch benchmark reports), and
on a loaded 2-core machine twice that on the clock. Once the window is idle on a document,
this reads them ahead, one kernel a job, the longest-running kernels first and at most
``MAX_KERNELS`` of them (each view stays in memory, as a visited kernel's does), and hands
the view to the selection and the Details and hot lines to their panes, which keep them
(the Details also while their pane is closed: ~5 ms a kernel, and the pane shows them at
once when it is opened). Compare mode does the same for its comparisons
(``compare.controller``).

A click asks the job in flight to stop between its steps; the next one starts when the
window is idle again. Nothing is read for a document without a profile, or while the
window has other work.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject

from kernelscope.core.errors import Cancelled, KernelscopeError
from kernelscope.core.ncu import HotLine, KernelDetails
from kernelscope.core.view import KernelView, Selection, ViewDocument, hot_lines, read_details

from ..panels.hot_lines_panel import HotLinesPanel
from ..workers.jobs import Job, JobContext, Workers
from .details_pane import DetailsPane

MAX_KERNELS = 12
_log = logging.getLogger(__name__)


class WarmAhead(QObject):
    def __init__(
        self,
        selection: Selection,
        workers: Workers,
        details: DetailsPane,
        hot: HotLinesPanel,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.selection = selection
        self._workers = workers
        self._details = details
        self._hot = hot
        self._document: ViewDocument | None = None
        self._queue: list[str] = []
        self._job: Job | None = None
        selection.document_changed.connect(self._on_document)
        selection.kernel_requested.connect(self._on_requested)
        workers.idle.connect(self._next)

    @property
    def pending(self) -> list[str]:
        """The kernels still to be read ahead, in order."""
        return list(self._queue)

    def _on_document(self) -> None:
        if self._job is not None:
            self._job.cancel()
        document = self.selection.document
        self._document = document
        self._queue = []
        if document is None or not document.has_profile:
            return
        ranked = sorted(document.summaries, key=lambda s: -(s.duration_ns or 0.0))
        self._queue = [s.name for s in ranked if document.launched(s.name)][:MAX_KERNELS]

    def _on_requested(self, document: ViewDocument, name: str) -> None:
        """A click: the job in flight stops at its next step (the clicked kernel stays in the
        queue: a pane that is closed did not read its part)."""
        if self._job is not None:
            self._job.cancel()

    def _next(self) -> None:
        document = self._document
        if self._job is not None or document is None or not self._queue:
            return
        if document is not self.selection.document or self.selection.loading:
            return
        name = self._queue.pop(0)
        metric = self.selection.metric
        session = self.selection.open_session()

        def look(context: JobContext) -> tuple[KernelView, KernelDetails | None, list[HotLine]]:
            view = session.kernel(name)
            _stop_if_asked(context)
            try:
                found = read_details(session, name)
            except KernelscopeError:
                found = None  # the pane says why when the kernel is shown
            _stop_if_asked(context)
            return view, found, list(hot_lines(session, metric, name))

        job = self._workers.start("document", look, "looking at kernels ahead")
        job.returned.connect(lambda value: self._on_looked(document, name, metric, *value))
        job.errored.connect(lambda error: self._on_error(document, name, error))
        job.finished.connect(self._on_finished)
        self._job = job

    def _on_looked(
        self,
        document: ViewDocument,
        name: str,
        metric: str,
        view: KernelView,
        details: KernelDetails | None,
        rows: list[HotLine],
    ) -> None:
        if document is not self.selection.document:
            return
        self.selection.kernel_loaded(document, view)  # kept: showing it needs no job
        if details is not None:
            self._details.keep(document, name, details)
        self._hot.keep(document, metric, name, rows)

    def _on_error(self, document: ViewDocument, name: str, error: BaseException) -> None:
        if not isinstance(error, Cancelled):  # shown, if it recurs, when the kernel is
            _log.info("looking at %s ahead failed: %s", name, error)
        elif document is self._document:
            self._queue.insert(0, name)  # stopped by a click: later

    def _on_finished(self) -> None:
        self._job = None


def _stop_if_asked(context: JobContext) -> None:
    if context.cancel.is_set():
        raise Cancelled("looking at kernels ahead")
