"""Tuning in the window: File > Tune... (also in the kernel and Headroom lists' context menus)
and Build & Profile Tuned..., whose result opens compared with the untuned workspace."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt

from kernelscope.core.view import ViewDocument

from ..build_profile import BuildProfileFeature
from ..compare import CompareFeature
from ..details import DetailsFeature
from ..feature import Feature, WindowContext

if TYPE_CHECKING:  # core.tuning loads when a tuning dialog first opens
    from kernelscope.core.tuning import TunedGain

    from .gain_dialog import GainDialog


class TuningFeature(Feature):
    def install(self, ctx: WindowContext) -> None:
        self.ctx = ctx
        ctx.add_action("tune", self.tune)
        ctx.add_action("build_tuned", self.build_tuned)

    def tune(self, kernels: list[str] | None = None) -> None:
        """Tune dialog for these kernels: the Headroom list's selection when its context menu
        asked (it has the focus), else the kernel list's."""
        from .tune_dialog import TuneDialog  # core.tuning on first use only

        ctx = self.ctx
        document = ctx.selection.document
        if document is None or document.workspace_path is None:
            return
        details = ctx.feature(DetailsFeature)
        if kernels is None:
            kernels = details.chosen_in_headroom()
        if kernels is None:
            kernels = ctx.code.kernels.selected_names()
        dialog = TuneDialog(
            ctx.workers,
            document.workspace_path,
            kernels,
            ctx.window,
            settings=ctx.settings,
            savings_us=details.savings_us(),
        )
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.build_requested.connect(self.build_with_records)
        dialog.gain_requested.connect(self.build_tuned)
        dialog.open()

    def build_with_records(self, folder: str) -> None:
        """Build & Profile, set to rebuild the open workspace's model with ``folder``'s
        tuning records."""
        self.ctx.feature(BuildProfileFeature).build_and_profile().use_tuning_records(Path(folder))

    def build_tuned(self, database: str | None = None) -> GainDialog | None:
        """Build & Profile Tuned for the open workspace: with ``database`` (Tune's records)
        it starts at once; from the menu it waits for its fields (records: WS/tuning)."""
        from .gain_dialog import GainDialog  # core.tuning on first use only

        ctx = self.ctx
        document = ctx.selection.document
        if document is None or document.workspace_path is None:
            return None
        folder = Path(database) if database else None
        dialog = GainDialog(
            ctx.workers, document.workspace_path, folder, ctx.window, settings=ctx.settings
        )
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.gain_ready.connect(self.show_gain)
        dialog.open()
        if folder is not None:
            dialog.start_when_ready()
        return dialog

    def show_gain(self, gain: TunedGain) -> None:
        """Open the tuned run, then compare it with the untuned workspace (its newest report,
        the one ``see_gain`` measured against) as compare mode's baseline."""
        ctx = self.ctx
        compare = ctx.feature(CompareFeature)

        def compared(document: ViewDocument) -> None:
            ctx.document_opened.disconnect(compared)
            compare.compare_with_paths([gain.untuned])

        compare.stop()
        ctx.document_opened.connect(compared)
        ctx.open_path(gain.tuned)
