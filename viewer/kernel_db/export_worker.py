"""Export to kernel DB, off the GUI thread, one export at a time.

First the export facts (the profile's mean times and line summaries) are read on the
``document`` lane, where every read of the open document happens; then the workspace's kernels
are written on the ``export`` lane, which opens the workspace itself (a ``Workspace`` is cheap
to open and then belongs to that thread alone). Closing the window waits for a running
export: it is one transaction, so it commits or rolls back, never half. ``ExportOptions``
(chosen in the Kernel DB panel) carry what the CLI's export-db flags say: allow ambiguous
rows, replace older rows of an identifier, and write the model NNFusion should compile.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.view import ProfileSession, read_export_facts

if TYPE_CHECKING:  # core.kernel_db (sqlite-utils) is imported by the first export's jobs
    from kernelscope.core.kernel_db import ExportReport, ProfileFacts

from ..workers.jobs import Job, JobContext, Workers


@dataclass(frozen=True)
class ExportOptions:
    allow_ambiguous: bool = False  # NNFusion may use rows it could run for another computation
    replace: bool = False  # drop older rows of each exported identifier
    nnfusion_model: bool = False  # also write MODEL-nnfusion.onnx next to the workspace


class ExportController(QObject):
    running_changed = Signal(bool)
    progress = Signal(float, str)  # fraction (-1 when unknown), message
    exported = Signal(object)  # ExportReport
    failed = Signal(str, object)  # title, exception

    def __init__(self, workers: Workers, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._workers = workers
        self._job: Job | None = None

    @property
    def running(self) -> bool:
        return self._job is not None

    def start(
        self,
        session: ProfileSession | None,
        db: Path,
        kernels: list[str] | None,
        options: ExportOptions | None = None,
    ) -> bool:
        """Export these kernels (all when None or empty) of the workspace of the document
        ``session`` reads into ``db``. False, with ``failed`` telling why, when there is
        nothing to export."""
        if self._job is not None:
            return False
        document = session.document if session is not None else None
        if session is None or document is None or document.workspace_path is None:
            self.failed.emit(
                "Nothing to export",
                KernelscopeError(
                    "Export to kernel DB needs a build workspace",
                    hint="open a workspace or build a model first; a report alone has no "
                    "kernel sources to export",
                ),
            )
            return False
        known = set(document.workspace_kernels)
        chosen = [k for k in kernels or [] if k in known]
        if kernels and not chosen:
            self.failed.emit(
                "Nothing to export",
                KernelscopeError(
                    f"{', '.join(kernels)} not in the open workspace",
                    hint="open the workspace the entries were exported from",
                ),
            )
            return False
        workspace = document.workspace_path

        def facts(context: JobContext) -> ProfileFacts:
            return read_export_facts(session, chosen or None)

        job = self._workers.start("document", facts, "reading export facts")
        self._run(job)
        chosen_options = options or ExportOptions()
        job.returned.connect(
            lambda found: self._write(workspace, db, chosen, found, chosen_options)
        )
        self.running_changed.emit(True)
        return True

    def _write(
        self,
        workspace: Path,
        db: Path,
        kernels: list[str],
        facts: ProfileFacts,
        options: ExportOptions,
    ) -> None:
        times, version, metrics = facts.times, facts.ncu_version, facts.line_summaries

        def write(context: JobContext) -> ExportReport:
            from kernelscope.core.kernel_db import export_workspace
            from kernelscope.core.nnfusion import nnfusion_copy_path
            from kernelscope.core.workspace import Workspace

            def progress(step: str, fraction: float | None, message: str) -> None:
                verb = {"prepare": "Preparing", "model": "Writing the NNFusion model"}
                context.progress(step, fraction, f"{verb.get(step, 'Writing')} {message}")

            ws = Workspace.open(workspace)
            return export_workspace(
                ws,
                db,
                kernels or None,
                times,
                ncu_version=version,
                replace_identifier=options.replace,
                timeout=5.0,
                progress=progress,
                metrics=metrics,
                allow_ambiguous=options.allow_ambiguous,
                nnfusion_model=nnfusion_copy_path(ws) if options.nnfusion_model else None,
            )

        job = self._workers.start("export", write, "exporting to the kernel DB")
        self._run(job)
        job.returned.connect(self.exported)

    def _run(self, job: Job) -> None:
        self._job = job
        job.progress.connect(lambda step, fraction, text: self.progress.emit(fraction, text))
        job.errored.connect(lambda exc: self.failed.emit("Export to kernel DB failed", exc))
        job.finished.connect(lambda: self._on_finished(job))

    def _on_finished(self, job: Job) -> None:
        if self._job is job:  # the facts job hands over to the write job in its handler
            self._job = None
            self.running_changed.emit(False)
