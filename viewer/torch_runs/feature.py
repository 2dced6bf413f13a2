"""torch.compile runs in the window: a TVM workspace and a torch.compile run folder, one shown
and one chosen as the baseline, compared operator group by group (TVM against Inductor)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.inductor import (
    VERSUS_HEADER,
    StepsVersus,
    Versus,
    format_versus,
    open_versus_steps,
    versus_pair,
)

from ..feature import Feature, WindowContext
from ..workers.jobs import Latest
from .versus_dialog import VersusDialog

Otherwise = Callable[[list[Path]], None]


class TorchRunsFeature(Feature):
    def install(self, ctx: WindowContext) -> None:
        self.ctx = ctx
        self.versus = Latest(ctx.workers, "open", "comparing TVM with torch.compile", ctx.window)
        self.dialog: VersusDialog | None = None  # the last one shown
        self.versus.result.connect(self._on_versus)
        self.versus.failed.connect(lambda e, _r: ctx.show_error("Cannot compare", e))

    @property
    def busy(self) -> bool:
        return self.versus.busy

    def compare(self, shown: Path, chosen: list[Path], *, otherwise: Otherwise) -> None:
        """The TVM-against-Inductor table of ``shown`` and ``chosen`` when one is a TVM
        workspace and the other a torch.compile run folder; else ``otherwise(chosen)`` (two
        profiles of one compiler: the ordinary comparison)."""
        self.versus.submit(lambda _ctx: _compare(shown, chosen[0]), (chosen, otherwise))

    def _on_versus(
        self, found: tuple[Versus, StepsVersus | None] | None, request: tuple[list[Path], Otherwise]
    ) -> None:
        chosen, otherwise = request
        if found is None:
            otherwise(chosen)
            return
        versus, steps = found
        dialog = VersusDialog(
            versus,
            list(VERSUS_HEADER),
            format_versus(versus),
            self.ctx.workers,
            self.ctx.window,
            steps=steps,
        )
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.dialog = dialog
        dialog.open()


def _compare(shown: Path, chosen: Path) -> tuple[Versus, StepsVersus | None] | None:
    """I/O: the per-group comparison of a TVM workspace and a torch.compile run folder (None
    when the two are not that pair) and, when both were profiled step by step (an LLM and
    its twin), the comparison per step too."""
    versus = versus_pair(shown, chosen)
    if versus is None:
        return None
    try:
        steps = open_versus_steps(versus.tvm_workspace.path, versus.run.path)
    except KernelscopeError:
        steps = None  # not both profiled with steps: the per-group table says so in its notes
    return versus, steps
