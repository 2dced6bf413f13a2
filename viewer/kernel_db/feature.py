"""The Kernel DB in the window: its dock, the exports (File > Export...) and their progress."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt

from kernelscope.core.view import ProfileSession

from ..actions import ActionState
from ..feature import Feature, WindowContext
from ..widgets.busy import BusyIndicator
from .export_summary import summary_box
from .export_worker import ExportController
from .panel import KernelDbPanel

if TYPE_CHECKING:  # core.kernel_db (sqlite-utils, 0.3 s) loads when the DB is first used
    from kernelscope.core.kernel_db import ExportReport


class KernelDbFeature(Feature):
    def install(self, ctx: WindowContext) -> None:
        self.ctx = ctx
        self.panel = KernelDbPanel(ctx.settings, ctx.workers, ctx.code.cuda)
        # the tallest bottom panels scroll when the window is low: the code keeps its lines
        self.dock = ctx.add_dock(
            "Kernel DB",
            self.panel,
            Qt.DockWidgetArea.BottomDockWidgetArea,
            scroll=True,
            tabbed=True,
        )
        self.exporter = ExportController(ctx.workers, ctx.window)
        self.export_busy = BusyIndicator("export_busy")
        ctx.add_status_widget(self.export_busy)
        ctx.add_action("export", self.export_selected)
        ctx.add_action("export_all", self.export_all)
        ctx.add_action("choose_db", self.panel.choose_db)
        ctx.add_action("export_options", self.panel.edit_export_options)
        ctx.add_action("nnfusion_command", lambda: self.show_tab("command"))
        ctx.add_action("nnfusion_coverage", lambda: self.show_tab("coverage"))
        self.exporter.running_changed.connect(self._on_export_running)
        self.exporter.progress.connect(self.export_busy.set_progress)
        self.exporter.exported.connect(self._on_exported)
        self.exporter.failed.connect(ctx.show_error)
        self.panel.error.connect(ctx.show_error)
        self.dock.visibilityChanged.connect(
            lambda visible: self.panel.ensure_loaded() if visible else None
        )
        self.panel.reexport_requested.connect(self.export_selected)
        ctx.session_opened.connect(self._on_session)

    @property
    def busy(self) -> bool:
        return self.panel.busy or self.exporter.running

    def action_state(self, state: ActionState) -> ActionState:
        return dataclasses.replace(state, exporting=self.exporter.running)

    def close(self) -> None:
        self.panel.close_db()  # an export commits first

    def export_selected(self, kernels: list[str] | None = None) -> bool:
        """Export these kernels (the kernel list's selection when not given)."""
        names = kernels if kernels is not None else self.ctx.code.kernels.selected_names()
        options = self.panel.export_options()
        return self.exporter.start(self.ctx.selection.session, self.panel.path, names, options)

    def export_all(self) -> bool:
        options = self.panel.export_options()
        return self.exporter.start(self.ctx.selection.session, self.panel.path, None, options)

    def show_tab(self, tab: str) -> None:
        """Raise the Kernel DB dock on a tab: "entries", "command" or "coverage"."""
        self.ctx.raise_dock(self.dock)
        self.panel.show_tab(tab)

    def _on_session(self, session: ProfileSession) -> None:
        self.panel.set_document(session.document)

    def _on_export_running(self, running: bool) -> None:
        if running:
            self.export_busy.start(f"Exporting to {self.panel.path.name}…")
        else:
            self.export_busy.stop()
        self.ctx.update_actions()

    def _on_exported(self, report: ExportReport) -> None:
        self.ctx.raise_dock(self.dock)
        self.panel.exported(report)
        box = summary_box(self.ctx.window, report)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
