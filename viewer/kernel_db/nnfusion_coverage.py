"""The Kernel DB panel's Coverage tab: for an ONNX model, every kernel NNFusion will look up
in the open DB, the row that serves it or why none does, and building what is missing.

Everything here is ``core.kernel_db`` run on the window's lanes (``kernel_db_jobs``): the
coverage on the ``db`` lane (it reads the DB and the ONNX; ResNet-50 takes ~2 s), finding
the open workspace's model on ``open``, writing the model copy NNFusion needs on
``export``, and "Build missing" (TVM) and "Check with NNFusion" (the real compiler) on
``build``, with progress and Cancel. Bad input stays in the tab: a model NNFusion would
crash on, operators kernelscope does not follow, weights as graph inputs (with the offer to
write the initializer copy from the open workspace), a GPU without times.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import (
    QModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from kernelscope.core.errors import Cancelled, KernelscopeError

from ..widgets.busy import BusyIndicator
from ..widgets.file_dialogs import browse_row, open_file_name
from ..widgets.rows_model import sort_by_role
from ..workers.jobs import Job, JobContext, JobFn, Latest, Workers
from .jobs import (
    CheckResult,
    CoverageResult,
    check_with_nnfusion,
    coverage_of,
    workspace_model,
    write_nnfusion_copy,
)
from .nnfusion_coverage_model import STATUS, CoverageModel
from .nnfusion_coverage_text import (
    built_text,
    checked_text,
    coverage_lines,
    error_lines,
    line,
    needs_folding,
)

if TYPE_CHECKING:
    from kernelscope.core.kernel_db import BuildMissingReport, Coverage
    from kernelscope.core.nnfusion import InitializerModel

MODEL_FILTER = "ONNX models (*.onnx);;All files (*)"
# The status box: (text, statuses shown); the first is the default.
FILTERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("What a DB can serve", ("covered", "wrong", "flagged", "missing")),
    ("All lookups", ("covered", "wrong", "flagged", "missing", "nnfusion")),
    ("Missing", ("missing",)),
    ("Covered", ("covered",)),
    ("Kept from NNFusion", ("flagged",)),
    ("Served by a row computing something else", ("wrong",)),
    ("NNFusion's own kernels", ("nnfusion",)),
)


class CoverageView(QWidget):
    error = Signal(str, object)  # title, exception: the window's error dialog
    coverage_shown = Signal(object)  # the Coverage now on screen, or None
    db_changed = Signal()  # Build missing wrote rows
    entry_requested = Signal(str, str)  # key, kernel name: show that DB entry
    finished = Signal(str)  # a long job ended: what the result line says

    def __init__(self, workers: Workers) -> None:
        super().__init__()
        self.setObjectName("nnfusion_coverage")
        self._workers = workers
        self._db: Path | None = None
        self._product: str | None = None
        self._workspace: Path | None = None  # of the open document
        self._allow_ambiguous = False
        self.coverage: Coverage | None = None
        self.job: Job | None = None  # Build missing / Check with NNFusion / writing a copy
        self._offer: Path | None = None  # the model the banner offers a copy of
        self._computing = Latest(workers, "db", "computing NNFusion coverage", self)
        self._finding = Latest(workers, "open", "finding the workspace's model", self)
        self.model = CoverageModel(self)
        self.proxy = sort_by_role(QSortFilterProxyModel(self), self.model)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(self._build_model_row())
        layout.addLayout(self._build_banner())
        layout.addLayout(self._build_summary())
        layout.addWidget(self._build_table(), 1)
        layout.addLayout(self._build_actions())
        self._computing.result.connect(self._on_coverage)
        self._computing.failed.connect(self._on_coverage_failed)
        self._finding.result.connect(lambda path, _: self.set_model(path))
        self._finding.failed.connect(self._on_find_failed)
        self._show(None)

    # ---- construction -------------------------------------------------------------------
    def _build_model_row(self) -> QHBoxLayout:
        self.model_edit = QLineEdit()
        self.model_edit.setPlaceholderText("the ONNX model NNFusion compiles")
        self.model_edit.setClearButtonEnabled(True)
        self.model_edit.returnPressed.connect(
            lambda: self.set_model(self.model_edit.text().strip() or None)
        )
        row, browse = browse_row(self.model_edit, self._model_to_open, then=self.refresh)
        browse.setToolTip("Choose the ONNX model NNFusion compiles")
        self.workspace_button = QPushButton("Workspace's model")
        self.workspace_button.setToolTip(
            "The model of the open workspace: its NNFusion copy when one was written, else "
            "the ONNX it was built from"
        )
        self.workspace_button.clicked.connect(self.use_workspace_model)
        row.insertWidget(0, QLabel("Model:"))
        row.addWidget(self.workspace_button)
        return row

    def _build_banner(self) -> QHBoxLayout:
        self.banner = QLabel()
        self.banner.setObjectName("nnfusion_coverage_banner")
        self.banner.setWordWrap(True)
        self.banner.setTextFormat(Qt.TextFormat.RichText)
        self.banner.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.offer_button = QPushButton()
        self.offer_button.setObjectName("nnfusion_offer_copy")
        self.offer_button.clicked.connect(self.write_copy)
        row = QHBoxLayout()
        row.addWidget(self.banner, 1)
        row.addWidget(self.offer_button, 0, Qt.AlignmentFlag.AlignTop)
        return row

    def _build_summary(self) -> QHBoxLayout:
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.filter_box = QComboBox()
        self.filter_box.setToolTip("Which lookups to list")
        for text, statuses in FILTERS:
            self.filter_box.addItem(text, statuses)
        self.filter_box.currentIndexChanged.connect(self._fill_table)
        row = QHBoxLayout()
        row.addWidget(self.summary, 1)
        row.addWidget(self.filter_box)
        return row

    def _build_table(self) -> QTableView:
        self.table = QTableView()
        self.table.setObjectName("nnfusion_coverage_table")
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setWordWrap(False)
        self.table.setAlternatingRowColors(True)
        self.table.sortByColumn(STATUS, Qt.SortOrder.AscendingOrder)  # what needs doing first
        chars = self.fontMetrics().horizontalAdvance("0")
        for column, width in enumerate((9, 11, 24, 6, 30, 8, 48)):
            self.table.setColumnWidth(column, chars * width)
        self.table.setToolTip("Double-click a row to see the DB entry that serves it")
        self.table.doubleClicked.connect(self._on_double_click)
        return self.table

    def _on_double_click(self, index: QModelIndex) -> None:
        row = self.model.item(self.proxy.mapToSource(index).row()).row
        if row is not None:  # a pattern copy is listed as the row it copies
            self.entry_requested.emit(
                row.twin_of or row.key, row.kernel_name.removesuffix(" [CUDA]")
            )

    def _build_actions(self) -> QHBoxLayout:
        self.build_button = QPushButton("Build missing")
        self.build_button.setToolTip(
            "Build every missing kernel NNFusion would take from the DB as a single-operator "
            "TVM kernel and export it into the DB"
        )
        self.build_button.clicked.connect(self.build_missing)
        self.check_button = QPushButton("Check with NNFusion")
        self.check_button.setToolTip(
            "Compile the model with the real NNFusion ($KERNELSCOPE_NNFUSION) and this DB: "
            "which rows it used, and whether it looked up what is listed here"
        )
        self.check_button.clicked.connect(self.check)
        self.busy_strip = BusyIndicator("nnfusion_coverage_busy", text=False)
        self.busy_strip.cancel_requested.connect(self.cancel)
        self.result = QLabel()
        self.result.setObjectName("nnfusion_coverage_result")
        self.result.setWordWrap(True)
        self.result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        row = QHBoxLayout()
        row.addWidget(self.build_button)
        row.addWidget(self.check_button)
        row.addWidget(self.busy_strip)
        row.addWidget(self.result, 1)
        return row

    # ---- inputs -------------------------------------------------------------------------
    @property
    def model_path(self) -> Path | None:
        text = self.model_edit.text().strip()
        return Path(text).expanduser() if text else None

    @property
    def busy(self) -> bool:
        return self._computing.busy or self._finding.busy or self.job is not None

    def set_db(self, path: Path, refresh: bool = False) -> None:
        """The DB the coverage is of; ``refresh``: its rows changed, compute again."""
        if path != self._db or refresh:
            self._db = path
            self.refresh()

    def set_product(self, name: str | None) -> None:
        if name != self._product:
            self._product = name
            self.refresh()

    def set_workspace(self, workspace: Path | None) -> None:
        """The open document's workspace: its model, and the copy of a model it was built
        from, are offered."""
        self._workspace = workspace
        self._update_buttons()
        if self._offer is not None:  # the offer depends on it
            self.refresh()

    def set_allow_ambiguous(self, allow: bool) -> None:
        """Build missing exports kernels NNFusion could also pick for another computation."""
        self._allow_ambiguous = allow

    def _model_to_open(self) -> str:
        """Browse…'s choice, starting from the model shown or the workspace's folder."""
        start = str(self.model_path or (self._workspace.parent if self._workspace else ""))
        return open_file_name(self, "ONNX model", start, MODEL_FILTER)

    def use_workspace_model(self) -> None:
        workspace = self._workspace
        if workspace is not None:
            self._finding.submit(lambda context: workspace_model(workspace))

    def _on_find_failed(self, exc: BaseException, context: object) -> None:
        self.error.emit("Cannot find the workspace's model", exc)

    def set_model(self, path: str | Path | None) -> None:
        """Show the coverage of this model (None: none)."""
        self.model_edit.setText(str(path) if path else "")
        self.refresh()

    def refresh(self) -> None:
        """Compute the coverage again (the model, DB, GPU or the DB's rows changed)."""
        model, db, product = self.model_path, self._db, self._product
        if model is None or db is None:
            self._computing.cancel()
            self._show(None)
            return
        self._computing.submit(lambda context: coverage_of(model, db, product), model)

    # ---- showing ------------------------------------------------------------------------
    def _on_coverage(self, result: CoverageResult, model: Path) -> None:
        self._show(result.coverage, result.note)

    def _on_coverage_failed(self, exc: BaseException, model: Path) -> None:
        from kernelscope.core.kernel_db import WeightsAsInputs

        self._show(None)
        if isinstance(exc, WeightsAsInputs):
            self._show_banner_offer(model, exc)
        elif isinstance(exc, KernelscopeError):
            self._set_banner(error_lines(exc))
        else:
            self.error.emit("Cannot compute the coverage", exc)

    def _show(self, coverage: Coverage | None, note: str = "") -> None:
        self.coverage = coverage
        self._offer = None
        self.offer_button.hide()
        if coverage is None:
            self.model.set_items([], None)
            self.summary.setText(
                "Choose the ONNX model NNFusion compiles to see what it looks up in this DB."
                if self.model_path is None
                else ""
            )
            self._set_banner([])
        else:
            self.summary.setText(coverage.summary_line().split(": ", 1)[-1])
            self._fill_table()
            self._coverage_banner(coverage, note)
        self._update_buttons()
        self.coverage_shown.emit(coverage)

    def _fill_table(self) -> None:
        coverage = self.coverage
        if coverage is None:
            return
        shown = set(self.filter_box.currentData() or ())
        items = [i for i in coverage.items if i.status in shown]
        self.model.set_items(items, coverage.settings.flags.product_name)

    def _coverage_banner(self, coverage: Coverage, note: str) -> None:
        lines = coverage_lines(coverage, note)
        self._set_banner(lines)
        if needs_folding(coverage):  # offer the copy that needs none
            self._show_banner_offer(Path(coverage.model), None, lines)

    def _show_banner_offer(
        self,
        model: Path,
        exc: KernelscopeError | None = None,
        lines: list[str] | None = None,
    ) -> None:
        """Offer the copy of ``model`` NNFusion should compile, written from the open
        workspace (it must be a build of that model: the digest is checked)."""
        self._offer = model
        lines = list(lines or [])
        if exc is not None:
            lines.append(line("bad", exc.message))
        if self._workspace is None:
            lines.append(
                line(
                    "",
                    "Open (or build) the workspace built from this model to write the copy "
                    "NNFusion needs: weights as initializers, biases broadcast.",
                )
            )
            self.offer_button.hide()
        else:
            self.offer_button.setText(f"Write the NNFusion copy from {self._workspace.name}")
            self.offer_button.setToolTip(
                f"Write {model.stem}-nnfusion.onnx next to {self._workspace.name}: its weights "
                "as initializers holding the values of that build, its biases broadcast"
            )
            self.offer_button.show()
        self._set_banner(lines)
        self._update_buttons()

    def _set_banner(self, lines: list[str]) -> None:
        self.banner.setText("".join(f"<div>{line}</div>" for line in lines))
        self.banner.setVisible(bool(lines))

    def _update_buttons(self) -> None:
        idle = self.job is None
        counts = self.coverage.counts() if self.coverage is not None else {}
        wanted = counts.get("missing", 0) + (
            counts.get("flagged", 0) if self._allow_ambiguous else 0
        )
        self.build_button.setEnabled(idle and wanted > 0)
        self.check_button.setEnabled(idle and self.coverage is not None)
        self.offer_button.setEnabled(idle)
        self.workspace_button.setEnabled(self._workspace is not None)

    # ---- long jobs ----------------------------------------------------------------------
    def build_missing(self) -> Job | None:
        """Build what is missing with TVM and export it (``build`` lane)."""
        from kernelscope.core.kernel_db import build_missing, default_missing_workspace

        coverage, product, allow = self.coverage, self._product, self._allow_ambiguous
        if coverage is None or self.job is not None:
            return None
        model, db = Path(coverage.model), coverage.db_path

        def run(context: JobContext) -> BuildMissingReport:
            return build_missing(
                model,
                db,
                default_missing_workspace(model, db),
                product_name=product,
                allow_ambiguous=allow,
                progress=context.progress,
                cancel=context.cancel,
            )

        job = self._start("build", run, "building the missing kernels", "Building…")
        job.returned.connect(self._on_built)
        return job

    def _on_built(self, report: BuildMissingReport) -> None:
        self._finish(built_text(report))
        self._show(report.after)
        self.db_changed.emit()

    def check(self) -> Job | None:
        """Compile the model with the real NNFusion and compare (``build`` lane)."""
        coverage, product = self.coverage, self._product
        if coverage is None or self.job is not None:
            return None

        def run(context: JobContext) -> CheckResult:
            return check_with_nnfusion(coverage, product, context.cancel)

        job = self._start(
            "build", run, "compiling with NNFusion", "NNFusion is compiling…", dialog=False
        )
        job.returned.connect(self._on_checked)
        job.errored.connect(self._on_check_failed)
        return job

    def _on_check_failed(self, exc: BaseException) -> None:
        """NNFusion could not compile the model: say so here, with its log's last lines."""
        if isinstance(exc, KernelscopeError) and not isinstance(exc, Cancelled):
            self._set_banner(error_lines(exc))

    def _on_checked(self, result: CheckResult) -> None:
        self._finish(checked_text(result))

    def write_copy(self) -> Job | None:
        """Write the NNFusion copy of the offered model from the open workspace (``export``
        lane), then show its coverage."""
        workspace, model = self._workspace, self._offer
        if workspace is None or model is None or self.job is not None:
            return None

        def run(context: JobContext) -> InitializerModel:
            return write_nnfusion_copy(workspace, model)

        job = self._start("export", run, "writing the NNFusion model", "Writing the copy…")
        job.returned.connect(self._on_copy_written)
        return job

    def _on_copy_written(self, written: InitializerModel) -> None:
        self._finish(f"Wrote {written.path.name}: " + "; ".join(written.changes() or ["as it was"]))
        self.set_model(written.path)

    def cancel(self) -> None:
        if self.job is not None:
            self.job.cancel()

    def stop(self) -> None:
        """The window closes: drop what is on its way."""
        self._computing.cancel()
        self._finding.cancel()
        self.cancel()

    def _start(self, lane: str, fn: JobFn, name: str, text: str, *, dialog: bool = True) -> Job:
        """Start a long job; its failure is said on the result line and, unless it says its
        own ``KernelscopeError`` in the tab (``dialog=False``), in the window's dialog."""
        job = self._workers.start(lane, fn, name)
        self.job = job
        self.result.setText(text)
        self.busy_strip.start(text, cancellable=True)
        job.progress.connect(self._on_progress)
        job.errored.connect(lambda exc: self._on_failed(name, exc, dialog))
        job.finished.connect(lambda: self._on_finished(job))
        self._update_buttons()
        return job

    def _on_progress(self, step: str, fraction: float, message: str) -> None:
        self.busy_strip.set_progress(fraction, message)
        self.result.setText(message)

    def _on_failed(self, name: str, exc: BaseException, dialog: bool) -> None:
        if isinstance(exc, Cancelled):
            self._finish("Cancelled: the DB is as it was.")
            return
        text = exc.message if isinstance(exc, KernelscopeError) else str(exc)
        self._finish(f"Failed: {text}")
        if dialog or not isinstance(exc, KernelscopeError):
            self.error.emit(f"{name[0].upper()}{name[1:]} failed", exc)

    def _finish(self, text: str) -> None:
        self.result.setText(text)

    def _on_finished(self, job: Job) -> None:
        if self.job is job:
            self.job = None
            self.busy_strip.stop()
            self._update_buttons()
            self.finished.emit(self.result.text())
