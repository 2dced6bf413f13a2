"""Compare mode's state and jobs: the baseline document, the comparison of the shown document
against it, each kernel's comparison and the ranking of changed lines.

Everything that reads a profile runs on the ``document`` lane (a ``Comparison`` reads both
profiles, and they are not thread-safe); opening a baseline file runs on the ``open`` lane like
any open. The newest request wins. Results are finished values (``core.compare``): the window
only reads them.

Once the comparison is made, the matched kernels are compared one after the other in the
background (longest first, one job at a time, so that a kernel asked for waits for one at
most): switching kernels then finds each one compared.

A baseline is chosen in one of two ways: *Compare with…* opens a file as the baseline of the
document shown; *Set as baseline* keeps the document shown as the baseline of the next one
opened. Either way, every document opened while a baseline is set is compared with it, until
compare mode is left (``stop``) — or until, after a comparison, a profile of another model
is opened (``ViewDocument.other_model``): that ends compare mode (``ended`` says why) instead
of comparing one model with another nobody chose.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal

from kernelscope.core.compare import (
    INSTRUCTIONS,
    Comparison,
    KernelComparison,
    KernelDelta,
    LineChange,
    ProfileDiff,
)
from kernelscope.core.errors import KernelscopeError
from kernelscope.core.ncu import INST_EXECUTED, resolve_metric_name
from kernelscope.core.view import (
    SASS_COUNT,
    ProfileSession,
    Selection,
    ViewDocument,
    compare_documents,
)

from ..workers.jobs import Job, JobContext, JobFn, Latest, Workers
from ..workers.open_worker import open_job

TOP_LINES = 50  # lines in "biggest regressions" / "biggest improvements"


def metric_key(label: str) -> str | None:
    """The comparison's name for a metric the window offers (a label, or the SASS count)."""
    return INSTRUCTIONS if label == SASS_COUNT else resolve_metric_name(label)


def instruction_metric(label: str) -> str:
    """What an instruction row compares for that metric: an instruction's own count is 1, so
    the SASS count compares executions there."""
    key = metric_key(label)
    return INST_EXECUTED if key in (None, INSTRUCTIONS) else key


class CompareController(QObject):
    """See the module docstring. ``comparing`` is true from the moment a comparison is asked
    for; ``diff`` is there once it is made."""

    changed = Signal()  # baseline, comparing or diff changed: actions and header follow
    started = Signal()  # a comparison of the shown document is on its way
    diff_ready = Signal(object)  # ProfileDiff
    kernel_ready = Signal(object)  # KernelComparison of the kernel shown, or None (one side)
    failed = Signal(str, object)  # title, exception
    ended = Signal(str)  # compare mode left by itself: why, for the status bar

    def __init__(self, selection: Selection, workers: Workers, parent: QObject) -> None:
        super().__init__(parent)
        self.selection = selection
        self.baseline: ViewDocument | None = None
        self._baseline_session: ProfileSession | None = None  # what reads ``baseline``
        self.document: ViewDocument | None = None  # the new side of ``comparison``
        self.comparison: Comparison | None = None
        self.diff: ProfileDiff | None = None
        self.current: KernelComparison | None = None  # of the kernel shown, when here
        self._kernels: dict[str, KernelComparison] = {}  # by new kernel name
        self._workers = workers
        self._ahead: Job | None = None  # comparing a kernel before it is asked for
        self._skipped: set[str] = set()  # kernels whose comparison failed ahead
        self._opening = Latest(workers, "open", "opening the baseline", self)
        self._making = Latest(workers, "document", "comparing profiles", self)
        self._kernel = Latest(workers, "document", "comparing a kernel", self)
        self._opening.result.connect(self._on_baseline_opened)
        self._opening.failed.connect(self._on_open_failed)
        self._opening.busy_changed.connect(lambda busy: self.changed.emit())
        self._making.result.connect(self._on_made)
        self._making.failed.connect(self._on_make_failed)
        self._kernel.result.connect(self._on_kernel_compared)
        self._kernel.failed.connect(self._on_kernel_failed)
        selection.document_changed.connect(self._on_document)
        selection.kernel_changed.connect(self._on_kernel)

    # ---- state ------------------------------------------------------------------------------
    @property
    def comparing(self) -> bool:
        """A comparison of the shown document is made or on its way."""
        return self.document is not None

    @property
    def busy(self) -> bool:
        return self._opening.busy or self._making.busy or self._kernel.busy

    @property
    def opening(self) -> bool:
        return self._opening.busy

    @property
    def baseline_session(self) -> ProfileSession | None:
        """What reads ``baseline`` (another pane's baseline-side figures come from it)."""
        return self._baseline_session

    def delta_of(self, kernel: str) -> KernelDelta | None:
        """The row of the shown document's kernel in the comparison, once it is made."""
        if self.diff is None:
            return None
        try:
            return self.diff.kernel(kernel, "new")
        except KeyError:
            return None

    # ---- choosing a baseline ------------------------------------------------------------------
    def compare_with(self, paths: list[Path]) -> None:
        """Open ``paths`` (a report, CSV exports or a workspace) as the baseline of the
        document shown, or of the next one opened when none is."""
        self._opening.submit(open_job(paths), paths)
        self.changed.emit()

    def set_baseline(self, session: ProfileSession | None = None) -> None:
        """The shown document (or ``session``'s) becomes the baseline of the next one opened;
        what was compared before is left."""
        chosen = session or self.selection.session
        if chosen is None:
            return
        self._leave()
        self._set_baseline(chosen)
        self.changed.emit()
        self._start()

    def _set_baseline(self, session: ProfileSession | None) -> None:
        self.baseline = session.document if session is not None else None
        self._baseline_session = session

    def stop(self) -> None:
        """Leave compare mode: no baseline, no comparison; the panes show the document alone."""
        self._opening.cancel()
        self._set_baseline(None)
        self._leave()
        self.changed.emit()

    def _leave(self) -> None:
        was = self.comparing
        self._making.cancel()
        self._kernel.cancel()
        if self._ahead is not None:
            self._ahead.cancel()
            self._ahead = None
        self.document = self.comparison = self.diff = self.current = None
        self._kernels, self._skipped = {}, set()
        if was:
            self.diff_ready.emit(None)
            self.kernel_ready.emit(None)

    def _on_baseline_opened(self, session: ProfileSession, paths: list[Path]) -> None:
        self._leave()
        self._set_baseline(session)
        self.changed.emit()
        self._start()

    def _on_open_failed(self, error: BaseException, paths: list[Path]) -> None:
        self.changed.emit()
        self.failed.emit(f"Cannot open {', '.join(map(str, paths))} as the baseline", error)

    # ---- the comparison -----------------------------------------------------------------------
    def _on_document(self) -> None:
        """A document was opened: compare it with the baseline, if one is set; after a
        comparison, a document of another model ends compare mode."""
        shown, compared, baseline = self.selection.document, self.document, self.baseline
        if shown is not compared:
            self._leave()
            why = None
            if compared is not None and baseline is not None and shown is not None:
                why = baseline.other_model(shown)
            if why is not None and baseline is not None:
                self._set_baseline(None)
                self.ended.emit(f"Stopped comparing with {baseline.title}: {why}")
            self._start()
        self.changed.emit()

    def _start(self) -> None:
        new, base = self.selection.session, self._baseline_session
        if new is None or base is None or new is base:
            return  # the baseline waits for another document
        if not new.has_profile:  # a build without a profile: nothing to compare yet
            return
        self.document = new.document
        self.started.emit()

        def make(context: JobContext) -> tuple[Comparison, ProfileDiff]:
            comparison = compare_documents(base, new)
            return comparison, comparison.summary()

        self._making.submit(make, new.document)

    def _on_made(self, made: tuple[Comparison, ProfileDiff], document: ViewDocument) -> None:
        if document is not self.document:
            return
        self.comparison, self.diff = made
        self.diff_ready.emit(self.diff)
        self.changed.emit()
        self._on_kernel()
        self._compare_ahead()

    def _compare_ahead(self) -> None:
        """Compare the next matched kernel not compared yet (longest first)."""
        comparison, diff = self.comparison, self.diff
        if comparison is None or diff is None or self._ahead is not None:
            return
        done = self._kernels.keys() | self._skipped
        todo = [d for d in diff.matched if d.match.new not in done]
        if not todo:
            return
        delta = max(todo, key=lambda d: max(d.base_per_pass_ns or 0.0, d.new_per_pass_ns or 0.0))
        name = delta.match.new or ""
        job = self._workers.start(
            "document", lambda context: comparison.kernel(delta), "comparing kernels ahead"
        )
        self._ahead = job

        def finished(comp: KernelComparison | None) -> None:
            if self._ahead is not job:
                return  # left compare mode, or another comparison
            self._ahead = None
            if comp is not None:
                self._kernels.setdefault(name, comp)
            else:  # it fails again when asked for, and says why then
                self._skipped.add(name)
            self._compare_ahead()

        job.returned.connect(finished)
        job.errored.connect(lambda error: finished(None))

    def _on_make_failed(self, error: BaseException, document: ViewDocument) -> None:
        if document is self.document:  # a baseline that cannot be compared is no baseline
            self._set_baseline(None)
            self._leave()
            self.changed.emit()
            self.failed.emit("Cannot compare these profiles", error)

    # ---- the kernel shown ---------------------------------------------------------------------
    def _on_kernel(self) -> None:
        kernel, comparison = self.selection.kernel, self.comparison
        self.current = None
        if kernel is None or comparison is None:
            self._kernel.cancel()
            return
        delta = self.delta_of(kernel.name)
        if delta is None or delta.match.base is None:  # only in new: nothing to compare with
            self._kernel.cancel()
            self.kernel_ready.emit(None)
            return
        known = self._kernels.get(kernel.name)
        if known is not None:
            self._kernel.cancel()
            self.current = known
            self.kernel_ready.emit(known)
            return
        self._kernel.submit(lambda context: comparison.kernel(delta), (comparison, kernel.name))

    def _on_kernel_compared(self, comp: KernelComparison, request: tuple[Comparison, str]) -> None:
        comparison, name = request
        if comparison is not self.comparison:
            return
        self._kernels[name] = comp
        if self.selection.kernel is not None and self.selection.kernel.name == name:
            self.current = comp
            self.kernel_ready.emit(comp)

    def _on_kernel_failed(self, error: BaseException, request: tuple[Comparison, str]) -> None:
        if request[0] is self.comparison:
            self.kernel_ready.emit(None)
            self.failed.emit(f"Cannot compare {request[1]}", error)

    # ---- changed lines --------------------------------------------------------------------------
    def line_changes_job(self, metric: str, kernel: str | None, worse: bool) -> JobFn | None:
        """A document-lane job ranking the lines whose ``metric`` grew (``worse``) or shrank
        most, in one kernel or over the model; None outside compare mode."""
        comparison, key = self.comparison, metric_key(metric)
        if comparison is None:
            return None
        if key is None:
            raise KernelscopeError(f"no metric {metric!r} to compare")
        delta = self.delta_of(kernel) if kernel is not None else None
        if kernel is not None and (delta is None or delta.match.base is None):
            return lambda context: []  # only in the new profile: no line changed
        name = delta.match.new if delta is not None else None

        def rank(context: JobContext) -> list[LineChange]:
            ranked = comparison.line_changes(key, TOP_LINES, name, cancel=context.cancel)
            return ranked[0] if worse else ranked[1]

        return rank
