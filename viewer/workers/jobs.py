"""Every long job of the window runs here, off the GUI thread: one ``Job`` type with progress,
Cancel and results delivered on the GUI thread, and ``Latest``, where the newest request wins.

Why not superqt's ``create_worker``: importing it imports all of superqt's widgets and qtpy,
about 0.4 s of start-up on this kind of machine for ~100 lines of code; the shape is the same
(``progress``, ``returned``, ``errored``, ``finished``, cancel by flag).

Jobs run on named *lanes*, each a ``ThreadPoolExecutor``:

* ``document``: one thread, every read of the open document (a kernel's first load, hot
  lines, Details, export facts, a comparison), each waiting for the session's profile thread
  (``core.view.session``), so that a newer request queued behind it replaces an older one;
* ``db``: one thread, the Kernel DB panel's queries (a sqlite3 connection belongs to the
  thread that opened it, and one thread it stays);
* ``highlight``: colouring a whole Kernel DB entry's source (pygments needs ~0.4 ms a
  line), so that the entry shows at once and its colours follow;
* ``open``, ``build``, ``export``, ``tune``: reading a report, building, writing the DB,
  tuning.

A job is a function of a ``JobContext`` (``progress``, ``cancel``, ``send`` for results along
the way); it never touches a widget. Its signals reach the GUI thread through a queued
connection to the ``Job`` object, which lives there.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal

from kernelscope.core.errors import Cancelled, KernelscopeError

log = logging.getLogger(__name__)

THREAD_PREFIX = "kernelscope-job"
LANES = {"document": 1, "db": 1, "highlight": 1, "open": 4, "build": 1, "export": 1, "tune": 1}


@dataclass
class JobContext:
    """What a job function gets: report progress, poll ``cancel``, ``send`` partial results."""

    cancel: threading.Event = field(default_factory=threading.Event)
    _job: Job | None = None

    def progress(self, step: str, fraction: float | None, message: str) -> None:
        if self._job is not None:
            self._job._progress_from_worker.emit(
                step, -1.0 if fraction is None else fraction, message
            )

    def send(self, value: object) -> None:
        if self._job is not None:
            self._job._sent_from_worker.emit(value)


JobFn = Callable[[JobContext], Any]


class Job(QObject):
    """One function call on a worker thread. Signals arrive on the GUI thread; ``finished``
    comes last, after ``returned`` or ``errored`` (a ``Cancelled`` when stopped before it
    started). Any exception reaches ``errored``, bug or not: nothing below kills the window;
    an unexpected one is also logged with its traceback (``_log_failure``)."""

    progress = Signal(str, float, str)  # step, fraction (-1 when unknown), message
    sent = Signal(object)  # a partial result (JobContext.send)
    returned = Signal(object)
    errored = Signal(object)
    finished = Signal()

    _progress_from_worker = Signal(str, float, str)
    _sent_from_worker = Signal(object)
    _done_from_worker = Signal(bool, object)  # ok, value or exception

    def __init__(self, fn: JobFn, name: str, workers: Workers) -> None:
        super().__init__(workers)
        self.name = name
        self.context = JobContext(_job=self)
        self._fn = fn
        self._workers = workers
        self._future: Future[None] | None = None
        self.done = False
        queued = Qt.ConnectionType.QueuedConnection
        self._progress_from_worker.connect(self._on_progress, queued)
        self._sent_from_worker.connect(self._on_sent, queued)
        self._done_from_worker.connect(self._on_done, queued)

    def cancel(self) -> None:
        """Ask the job to stop (it polls ``context.cancel``); a job still queued never runs."""
        self.context.cancel.set()
        if self._future is not None and self._future.cancel():
            self._done_from_worker.emit(False, Cancelled(self.name))

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the function returned (closing a dialog mid-build); False on timeout.
        Its signals still arrive through the event loop afterwards."""
        if self._future is None:
            return True
        try:
            self._future.result(timeout)
        except TimeoutError:
            return False
        except Exception:  # cancelled before it ran; _run itself never raises
            pass
        return True

    # ---- worker thread ----------------------------------------------------------------------
    def _run(self) -> None:
        try:
            if self.context.cancel.is_set():
                raise Cancelled(self.name)
            value = self._fn(self.context)
        except BaseException as exc:  # any failure, bug or not, must reach the GUI
            _log_failure(self.name, exc)
            self._done_from_worker.emit(False, exc)
        else:
            self._done_from_worker.emit(True, value)

    # ---- GUI thread -------------------------------------------------------------------------
    def _on_progress(self, step: str, fraction: float, message: str) -> None:
        if not self.done and not self._workers.closed:
            self.progress.emit(step, fraction, message)

    def _on_sent(self, value: object) -> None:
        if not self.done and not self._workers.closed:
            self.sent.emit(value)

    def _on_done(self, ok: bool, value: object) -> None:
        if self.done:
            return
        self.done = True
        if not self._workers.closed:
            if ok:
                self.returned.emit(value)
            else:
                self.errored.emit(value)
            self.finished.emit()
        self._workers._forget(self)


def _log_failure(name: str, error: BaseException) -> None:
    """Log a job's failure here, on its thread, whoever receives it (``Latest`` drops a
    superseded request's): a bug with its traceback, an expected error as a line, a
    cancellation not at all."""
    if isinstance(error, Cancelled):
        return
    if isinstance(error, KernelscopeError):
        log.info("%s: %s", name, error.message)
    elif isinstance(error, Exception):
        log.error("%s failed", name, exc_info=error)
    else:  # KeyboardInterrupt, SystemExit
        log.warning("%s stopped by %s", name, type(error).__name__)


class Workers(QObject):
    """The window's lanes of worker threads and the jobs running on them.

    ``idle`` is emitted when the last job finished (after its signals were handled, so a job
    started by a handler counts): everything that was asked for is on screen."""

    idle = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._lanes: dict[str, ThreadPoolExecutor] = {}
        self._jobs: list[Job] = []
        self.closed = False

    @property
    def busy(self) -> bool:
        return bool(self._jobs)

    def start(self, lane: str, fn: JobFn, name: str = "job") -> Job:
        """Run ``fn(context)`` on ``lane``; connect to the returned job's signals at once
        (they arrive through the event loop, never before this call returns)."""
        if self.closed:
            raise RuntimeError("the window's workers were shut down")
        executor = self._lanes.get(lane)
        if executor is None:
            executor = self._lanes[lane] = ThreadPoolExecutor(
                LANES[lane], thread_name_prefix=f"{THREAD_PREFIX}-{lane}"
            )
        job = Job(fn, name, self)
        self._jobs.append(job)
        job._future = executor.submit(job._run)
        return job

    def shutdown(self) -> None:
        """Cancel every job and wait for the threads to end (the window closes). Jobs that
        cannot stop (an export committing) finish first; their results are dropped."""
        if self.closed:
            return
        for job in list(self._jobs):
            job.context.cancel.set()
        for executor in self._lanes.values():
            executor.shutdown(wait=True)
        self.closed = True
        self._lanes.clear()

    def _forget(self, job: Job) -> None:
        if job in self._jobs:
            self._jobs.remove(job)
        job.deleteLater()
        if not self._jobs and not self.closed:
            self.idle.emit()


class Latest(QObject):
    """Newest request wins: ``submit`` replaces the request before it (which is cancelled, or
    dropped from its lane's queue when it has not started), and only the newest request's
    outcome is delivered; what is on screen stays until then (a superseded request's failure
    is only logged, by its job). ``context`` travels with the request and comes back with its
    outcome (the paths asked for, the document...)."""

    result = Signal(object, object)  # value, context
    partial = Signal(object, object)  # a result along the way (JobContext.send), context
    failed = Signal(object, object)  # exception, context
    progress = Signal(str, float, str)
    busy_changed = Signal(bool)

    def __init__(
        self, workers: Workers, lane: str, name: str, parent: QObject | None = None
    ) -> None:
        super().__init__(parent or workers)
        self._workers = workers
        self._lane = lane
        self._name = name
        self._generation = 0
        self._job: Job | None = None
        self.context: object = None  # of the request on its way

    @property
    def busy(self) -> bool:
        return self._job is not None

    def submit(self, fn: JobFn, context: object = None) -> None:
        was_busy = self.busy
        if self._job is not None:
            self._job.cancel()
        self._generation += 1
        generation = self._generation
        job = self._workers.start(self._lane, fn, self._name)
        job.returned.connect(lambda value: self._deliver(generation, True, value))
        job.errored.connect(lambda error: self._deliver(generation, False, error))
        job.progress.connect(
            lambda *args: self.progress.emit(*args) if generation == self._generation else None
        )
        job.sent.connect(
            lambda value: (
                self.partial.emit(value, self.context) if generation == self._generation else None
            )
        )
        self._job, self.context = job, context
        if not was_busy:
            self.busy_changed.emit(True)

    def cancel(self) -> None:
        """Drop the request on its way (its job is asked to stop); what is shown stays."""
        if self._job is None:
            return
        self._job.cancel()
        self._generation += 1
        self._job, self.context = None, None
        self.busy_changed.emit(False)

    def _deliver(self, generation: int, ok: bool, value: object) -> None:
        if generation != self._generation:
            return  # stale: a newer request is on its way, or it was cancelled
        context = self.context
        self._job, self.context = None, None
        self.busy_changed.emit(False)
        if ok:
            self.result.emit(value, context)
        else:
            self.failed.emit(value, context)
