"""File > Share as Web Page... in the window."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog

from ..compare import CompareFeature
from ..feature import Feature, WindowContext
from ..widgets.file_dialogs import save_file_name


class ShareFeature(Feature):
    def install(self, ctx: WindowContext) -> None:
        self.ctx = ctx
        ctx.add_action("share", self.share_web_page)

    def share_web_page(self, path: Path | None = None) -> QDialog | None:
        """The open document as one HTML file (``path``, else asked for), with the kernels
        selected in the list when there are several, else the ten slowest, and compare
        mode's baseline; written off the GUI thread by the dialog."""
        from .share_dialog import ShareDialog  # core.share on first use only

        ctx = self.ctx
        session, document = ctx.selection.session, ctx.selection.document
        if session is None or document is None:
            return None
        if path is None:
            stem = Path(document.title.split(" — ")[-1]).stem or "kernelscope"
            chosen = save_file_name(
                ctx.window, "Share as Web Page", f"{stem}.html", "Web pages (*.html)"
            )
            if not chosen:
                return None
            path = Path(chosen)
        selected = ctx.code.kernels.selected_names()
        dialog = ShareDialog(
            ctx.workers,
            session,
            path,
            kernels=selected if len(selected) > 1 else None,
            baseline=ctx.feature(CompareFeature).baseline_session,
            parent=ctx.window,
        )
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog
