"""Compare mode in the window: its widgets placed (the header above the code, the side-by-side
view in a stack with the source pane, the opcode table under the SASS, the "Side by Side"
button in the source pane's header) and File > Compare With..., Set as Baseline, Stop
Comparing. A TVM workspace and a torch.compile run folder go to ``torch_runs`` instead."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from PySide6.QtWidgets import QStackedWidget

from kernelscope.core.view import ProfileSession

from ..actions import ActionState
from ..details import DetailsFeature
from ..feature import Feature, WindowContext
from ..torch_runs import TorchRunsFeature
from ..widgets.file_dialogs import OPEN_FILTER, existing_folder, open_file_names
from .mode import CompareMode


class CompareFeature(Feature):
    def install(self, ctx: WindowContext) -> None:
        self.ctx = ctx
        code = ctx.code
        self.mode = CompareMode(
            ctx.selection,
            ctx.workers,
            code.cuda,
            source=code.source,
            sass=code.sass,
            kernels=code.kernels,
            hot=code.hot,
            parent=ctx.window,
        )
        self.code_stack = QStackedWidget()
        self.code_stack.setObjectName("source_stack")
        code.splitter.replaceWidget(0, self.code_stack)
        self.code_stack.addWidget(code.source)
        self.code_stack.addWidget(self.mode.diff_pane)
        # the source takes more of a change in width than the SASS (whose lines are short)
        code.splitter.setStretchFactor(0, 3)
        code.splitter.setStretchFactor(1, 2)
        self._code_sizes: list[int] = []  # the splitter's before side by side took more room
        code.code_layout.insertWidget(0, self.mode.bar)
        code.sass.add_below(self.mode.opcodes)
        code.source.header.addWidget(self.mode.split)
        ctx.add_action("compare_with", self.compare_with, submenu=self.mode.profiles_menu)
        ctx.add_action("compare_with_folder", self.compare_with_folder)
        ctx.add_action("set_baseline", self.set_baseline)
        ctx.add_action("stop_comparing", self.stop)
        self.mode.side_by_side_changed.connect(self._show_side_by_side)
        self.mode.controller.failed.connect(ctx.show_error)
        self.mode.controller.ended.connect(lambda why: ctx.show_message(why, 15000))
        self.mode.changed.connect(ctx.update_actions)
        details = ctx.feature(DetailsFeature)
        self.mode.controller.diff_ready.connect(
            lambda diff: details.set_baseline(self.mode.controller.baseline_session, diff)
        )

    @property
    def busy(self) -> bool:
        return self.mode.busy

    def action_state(self, state: ActionState) -> ActionState:
        return dataclasses.replace(state, comparing=self.mode.active)

    @property
    def baseline_session(self) -> ProfileSession | None:
        """The baseline's session while comparing, else None."""
        return self.mode.controller.baseline_session if self.mode.active else None

    def compare_with(self) -> None:
        """Choose a baseline for the open profile: a report, CSV exports or a workspace."""
        paths = open_file_names(
            self.ctx.window, "Compare with (baseline)", self.mode.start_folder(), OPEN_FILTER
        )
        if paths:
            self.compare_with_paths(paths)

    def compare_with_folder(self) -> None:
        """Choose a baseline folder: a workspace, or a torch.compile run folder against the
        TVM build shown (and a TVM workspace against the run shown)."""
        folder = existing_folder(
            self.ctx.window,
            "Compare with (a workspace or torch.compile run folder)",
            self.mode.start_folder(),
        )
        if folder:
            self.compare_with_paths([folder])

    def compare_with_paths(self, paths: list[str] | list[Path]) -> None:
        """Open ``paths`` as the baseline of the profile shown (or of the next one opened); a
        TVM workspace and a torch.compile run folder, one shown and one chosen, give the
        TVM-against-Inductor table instead."""
        chosen = [Path(p) for p in paths]
        document = self.ctx.selection.document
        shown = document.workspace_path if document is not None else None
        if len(chosen) != 1 or shown is None:
            self.mode.compare_with(chosen)
            return
        self.ctx.feature(TorchRunsFeature).compare(shown, chosen, otherwise=self.mode.compare_with)

    def set_baseline(self) -> None:
        """The profile shown becomes the baseline of the next one opened."""
        self.mode.controller.set_baseline()
        document = self.ctx.selection.document
        if document is not None:
            self.ctx.show_message(
                f"{document.title} is the baseline: open another profile to compare it", 10000
            )

    def stop(self) -> None:
        """Leave compare mode."""
        self.mode.controller.stop()

    def _show_side_by_side(self, on: bool) -> None:
        """Compare mode's two sources in place of the source pane (they want more room than
        one source), or the source pane again."""
        splitter = self.ctx.code.splitter
        if on:
            self._code_sizes = splitter.sizes()
            total = sum(self._code_sizes)
            self.code_stack.setCurrentWidget(self.mode.diff_pane)
            splitter.setSizes([total * 62 // 100, total - total * 62 // 100])
        else:
            self.code_stack.setCurrentWidget(self.ctx.code.source)
            if self._code_sizes:
                splitter.setSizes(self._code_sizes)
