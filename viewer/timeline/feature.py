"""The Timeline in the window: its dock, File > Measure Timeline and the timeline files it opens."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from kernelscope.core.view import ProfileSession, ViewDocument

from ..feature import Feature, WindowContext
from .panel import TimelinePanel, is_timeline


class TimelineFeature(Feature):
    def install(self, ctx: WindowContext) -> None:
        self.ctx = ctx
        self.panel = TimelinePanel(ctx.settings, ctx.workers)
        self.dock = ctx.add_dock(
            "Timeline",
            self.panel,
            Qt.DockWidgetArea.BottomDockWidgetArea,
            scroll=True,
            tabbed=True,
        )
        ctx.add_action("measure_timeline", self.measure)
        ctx.add_action("timeline", self.show)
        ctx.add_opener(is_timeline, self.panel.open_file)
        self.panel.error.connect(ctx.show_error)
        self.panel.shown.connect(self.show)
        self.panel.profiled.connect(self._open_profiled_call)
        ctx.session_opened.connect(self._on_session)

    @property
    def busy(self) -> bool:
        return self.panel.busy

    def show(self) -> None:
        self.ctx.raise_dock(self.dock)

    def measure(self) -> None:
        self.show()
        self.panel.measure()

    def reload_hosts(self) -> None:
        """The SSH hosts were changed elsewhere (Build & Profile): the host list again."""
        self.panel.reload_hosts()

    def _on_session(self, session: ProfileSession) -> None:
        self.panel.set_workspace(session.workspace)

    def _open_profiled_call(self, workspace: str, kernel: str) -> None:
        """Open the workspace whose newest report is the call just profiled, at its kernel."""
        ctx = self.ctx

        def select(document: ViewDocument) -> None:
            ctx.document_opened.disconnect(select)
            if any(s.name == kernel for s in document.summaries):
                ctx.selection.show(kernel)

        ctx.document_opened.connect(select)
        ctx.open_path(Path(workspace))
