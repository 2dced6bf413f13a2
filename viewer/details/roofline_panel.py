"""The roofline panel: every kernel of the model (or the selected kernel's launches) on a
log-log roofline with the device's ceilings; clicking a point selects its kernel.

The points and ceilings are ``view.read_roofline`` (the same numbers as ``kernelscope
roofline``), computed once per document on the document lane when the panel is first shown;
the plot is pyqtgraph, loaded in the background the first time (``widgets.plot_loader``).
"""

from __future__ import annotations

import html
from types import ModuleType
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from kernelscope.core.roofline import Roofline
from kernelscope.core.view import Selection, read_roofline

from ..widgets.messages import error_html
from ..widgets.plot_loader import load_plots
from ..widgets.shown import ShownGate
from ..workers.jobs import Job, Latest, Workers

if TYPE_CHECKING:
    from ..widgets.plots import RooflinePlot

WHOLE_MODEL, ONE_KERNEL = 0, 1


class RooflinePanel(QWidget):
    def __init__(self, selection: Selection, workers: Workers) -> None:
        super().__init__()
        self.setObjectName("roofline_panel")
        self.selection = selection
        self.workers = workers
        self.roof: Roofline | None = None
        self.plot: RooflinePlot | None = None
        self._latest = Latest(workers, "document", "placing kernels on the roofline", self)
        self._latest.result.connect(self._on_roofline)
        self._latest.failed.connect(self._on_failed)
        self._plots_job: Job | None = None
        self.gate = ShownGate(self.refresh)  # reads only while its tab is on screen
        self.scope = QComboBox()
        self.scope.addItems(["Whole model", "Selected kernel's launches"])
        self.scope.setToolTip("One point per kernel, or one per launch of the selected kernel")
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.caption.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.note = QLabel()
        self.note.setObjectName("roofline_note")
        self.note.setWordWrap(True)
        self.note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.note.hide()
        # one short line (the plot keeps the height of a bottom dock), the rest its tooltip
        self.legend = QLabel("● DRAM  ■ L2  ▼ L1 · size: share of time · click: select")
        self.legend.setToolTip(
            "● DRAM  ■ L2  ▼ L1: arithmetic intensity at each memory level; a point's size is "
            "its share of the model's time. Click a point to select its kernel."
        )
        self.placeholder = QLabel()
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setWordWrap(True)
        top = QHBoxLayout()
        top.addWidget(self.scope)
        top.addWidget(self.caption, 1)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(2, 2, 2, 2)
        self._layout.addLayout(top)
        self._layout.addWidget(self.note)
        self._layout.addWidget(self.legend)
        self._layout.addWidget(self.placeholder, 1)
        self.scope.currentIndexChanged.connect(self._draw)
        selection.document_changed.connect(self._on_document)
        selection.kernel_changed.connect(self._on_kernel)
        self._say("Open a report or a profiled workspace to see its kernels on the roofline.")

    @property
    def busy(self) -> bool:
        return self._latest.busy or self._plots_job is not None

    def _on_document(self) -> None:
        self._latest.cancel()
        self.roof = None
        self.refresh()

    def _on_kernel(self) -> None:
        if self.roof is None:
            return
        if self.scope.currentIndex() == ONE_KERNEL:
            self._draw()
        elif self.plot is not None:
            kernel = self.selection.kernel
            self.plot.select(kernel.name if kernel else None)

    def refresh(self) -> None:
        """Place the document's kernels (once per document); nothing while hidden."""
        if not self.gate.due():
            return
        document = self.selection.document
        if document is None:
            self._say("Open a report or a profiled workspace to see its kernels on the roofline.")
            return
        if not document.has_profile:
            self._say(
                f"{html.escape(document.title)} has no Nsight Compute profile: the roofline "
                "comes from one. Profile the workspace or open a report."
            )
            return
        if self.plot is None and self._plots_job is None:
            self._plots_job = load_plots(self.workers, self._on_plots, self._on_plots_failed)
        if self.roof is None:
            self.placeholder.setText("Placing the kernels on the roofline…")
            session = self.selection.open_session()
            self._latest.submit(lambda context: read_roofline(session), document)
        else:
            self._draw()

    def _on_roofline(self, roof: Roofline, document: object) -> None:
        if document is self.selection.document:
            self.roof = roof
            self._draw()

    def _on_failed(self, error: BaseException, document: object) -> None:
        self._say(error_html("Cannot place the kernels on the roofline", error))

    def _on_plots(self, module: ModuleType) -> None:
        self._plots_job = None
        if self.plot is None:
            self.plot = module.RooflinePlot()
            self.plot.setObjectName("roofline_plot")
            self.plot.kernel_clicked.connect(self._on_point_clicked)
            self._layout.addWidget(self.plot, 1)
            self.plot.hide()
        self._draw()

    def _on_plots_failed(self, error: BaseException) -> None:
        self._plots_job = None
        self._say(f"The roofline needs pyqtgraph: {html.escape(str(error))}")

    def _on_point_clicked(self, kernel: str) -> None:
        if self.scope.currentIndex() == WHOLE_MODEL:
            self.selection.show(kernel)

    def _say(self, text: str) -> None:
        self.placeholder.setText(text)
        self.placeholder.show()
        self.note.hide()
        self.legend.hide()
        self.caption.clear()
        if self.plot is not None:
            self.plot.hide()

    def _draw(self) -> None:
        roof = self.roof
        if roof is None or self.plot is None:
            return
        kernel = self.selection.kernel
        one = self.scope.currentIndex() == ONE_KERNEL
        if one and kernel is None:
            self._say("Select a kernel to see its launches on the roofline.")
            return
        points = roof.points
        if one and kernel is not None:
            points = [p for p in roof.launches if p.kernel == kernel.name]
        shown = [p for p in points if p.plottable]
        c = roof.ceilings
        device = c.device or "GPU"
        self.caption.setText(
            f"{html.escape(device)}: {len(shown)} of {len(points)} "
            f"{'launches' if one else 'kernels'} on the roofline; ceilings from the "
            f"{c.source or 'report'}"
        )
        notes = [roof.note] if roof.note else []
        left = len(points) - len(shown)
        if left and not roof.note:
            notes.append(
                f"{left} without a point: kernels that only move data have no arithmetic "
                "intensity (no floating-point work)"
            )
        self.note.setText(html.escape("; ".join(notes)))
        self.note.setVisible(bool(notes))
        if not shown:
            self.placeholder.setText("Nothing to plot.")
            self.placeholder.show()
            self.legend.hide()
            self.plot.hide()
            return
        self.placeholder.hide()
        self.legend.show()
        self.plot.show()
        # the caption names the GPU: a title only for one kernel's launches (height is short)
        title = f"Launches of {kernel.name}" if one and kernel else ""
        self.plot.set_points(
            roof, points, selected=kernel.name if kernel and not one else None, title=title
        )
