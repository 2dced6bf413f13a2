"""Build & Profile in the window: File > Build & Profile... (Ctrl+B), and a model opened
(File > Open, a drop, the welcome page) opens the dialog with it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt

from kernelscope.core.view import is_model

from ..feature import Feature, WindowContext
from ..timeline import TimelineFeature

if TYPE_CHECKING:  # core.build loads when the dialog first opens
    from .build_dialog import BuildDialog


class BuildProfileFeature(Feature):
    def install(self, ctx: WindowContext) -> None:
        self.ctx = ctx
        ctx.add_action("build", self.build_and_profile)
        ctx.add_opener(is_model, self.build_and_profile)

    def build_and_profile(self, model: Path | None = None) -> BuildDialog:
        """The Build & Profile dialog, for ``model`` or else the open workspace's."""
        from .build_dialog import BuildDialog  # core.build on first use only

        ctx = self.ctx
        session = ctx.selection.session
        workspace = session.workspace if session is not None and model is None else None
        dialog = BuildDialog(
            ctx.workers, ctx.window, model, settings=ctx.settings, workspace=workspace
        )
        timeline = ctx.feature(TimelineFeature)
        dialog.finished.connect(lambda result: timeline.reload_hosts())  # hosts it added
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.finished_document.connect(ctx.open_path)
        dialog.import_requested.connect(ctx.choose_file)
        dialog.open()
        return dialog
