"""The kernel list: one row per kernel, fixed columns plus the profile's kernel metrics."""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from kernelscope.core.ncu import TIME_US, KernelSummary
from kernelscope.core.view import ViewDocument
from kernelscope.core.workspace import TUNED_TIMES_NOTE, never_launched_why

from ..widgets.formatting import format_dims, format_number, format_us
from ..widgets.roles import BarRole
from ..widgets.rows_model import Column, RowsModel
from ..widgets.sorting import SortLastRole


def _static_columns() -> list[Column[KernelSummary]]:
    return [
        _column("Kernel", lambda s: s.name, lambda s: s.name),
        _column("Fused ops", lambda s: len(s.ops), lambda s: ", ".join(_short(o) for o in s.ops)),
        _column("Grid", lambda s: math.prod(s.grid), lambda s: format_dims(s.grid)),
        _column("Block", lambda s: math.prod(s.block), lambda s: format_dims(s.block)),
        _column("Registers", lambda s: s.registers or 0, lambda s: format_number(s.registers)),
        # the build's counts: blank, not 0, for a report opened without its workspace
        _column(
            "SASS",
            lambda s: s.sass_instructions or 0,
            lambda s: format_number(s.sass_instructions),
            True,
        ),
        _column("Lines", lambda s: s.source_lines or 0, lambda s: format_number(s.source_lines)),
        _column("Top stall", lambda s: s.top_stall, lambda s: s.top_stall),
    ]


def tuned_column() -> Column[KernelSummary]:
    """Where the schedule came from, for a build with a tuning database: the record's speedup
    over the default schedule ("record" when the default was not measured), blank: default."""

    def gain(s: KernelSummary) -> float:
        t = s.tuned
        if t is None:
            return 0.0
        return t.default_us / t.best_us if t.best_us and t.default_us else 1.0

    def text(s: KernelSummary) -> str:
        if s.tuned is None:
            return ""
        if s.tuned.default_kept:
            return "default kept"
        g = gain(s)
        return f"{g:.2f}×" if s.tuned.best_us and s.tuned.default_us else "record"

    return _column(TUNED, gain, text)


def tuned_text(s: KernelSummary) -> str:
    """The tooltip line of a kernel built from a tuning record ("" for one that was not)."""
    t = s.tuned
    if t is None:
        return ""
    if t.default_kept:
        said = t.kept_text()
    else:
        best = f", best {format_us(t.best_us * 1e3)} µs" if t.best_us is not None else ""
        default = (
            f" against the default schedule's {format_us(t.default_us * 1e3)} µs"
            if t.default_us is not None
            else " (the default schedule was not measured)"
        )
        said = f"built from a tuning record: {t.trials} trials{best}{default}"
    return f"{said} ({TUNING_CLOCK})"


# the tooltip's words for TUNED_TIMES_NOTE, beside the Time column
TUNING_CLOCK = (
    "the tuning's times, at the GPU's boost clock: not comparable with the Time column's, "
    "profiled at base clocks"
)


TUNED = "Tuned"
ATEN = "aten."  # the prefix of a torch.compile run's operators
# What the build's columns mean (the profile's columns say it with their metric's description).
_STATIC_TIPS = {
    "Kernel": "The kernel's name, as TVM wrote it",
    "Fused ops": "The operators fused into this kernel (Relax's for TVM, ATen's for Inductor)",
    "Grid": "Blocks per launch (x×y×z)",
    "Block": "Threads per block (x×y×z)",
    "Registers": "Registers per thread (the build's cubin, else launch__registers_per_thread)",
    "SASS": "SASS instructions in the kernel (the build's; blank for a report opened alone)",
    "Lines": "Lines of the kernel's .cu file (the build's; blank for a report opened alone)",
    "Top stall": "The stall reason with most warp samples over the whole kernel",
    TUNED: "Built from a tuning record (Build's Tuning records): the default schedule's time "
    "over the record's; 'record' when the default was not measured; 'default kept' when no "
    "candidate beat the default schedule; blank: default schedule.\nThe times in each row's "
    "tooltip are the tuning's: " + TUNED_TIMES_NOTE + ".",
}


def _column(
    title: str,
    value: Callable[[KernelSummary], Any],
    text: Callable[[KernelSummary], str],
    bar: bool = False,
) -> Column[KernelSummary]:
    """A kernel-list column; ``bar``: a number, right aligned, with a bar scaled to the
    column's largest value (the kernel list's ``number`` columns all have one)."""
    return Column(title, value, text, number=bar)


def _metric_column(name: str) -> Column[KernelSummary]:
    return _column(
        name,
        lambda s: s.metrics.get(name, 0.0),
        lambda s: format_number(s.metrics.get(name)),
        True,
    )


def _short(op: str) -> str:
    return op.removeprefix("relax.")


class KernelListModel(RowsModel[KernelSummary]):
    """One row per kernel; ``KeyRole`` gives its name (None for a kernel only the baseline
    has: there is nothing to open). Every ``number`` column draws a bar."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(_static_columns(), parent)
        self._max: list[float] = []
        self._unlaunched: frozenset[str] = frozenset()
        self._document: ViewDocument | None = None
        self._own = 0  # rows of the document; compare mode adds the baseline's own after them
        self._baseline_only: set[int] = set()  # id() of those rows
        self.tuned_shown = False  # the Tuned column is there (a build with tuning records)
        self._step: str | None = None  # a report of an LLM's steps: the one step shown
        self._comparison: tuple[Sequence[Column[KernelSummary]], Sequence[KernelSummary]] = (
            (),
            (),
        )
        self.ops_shown = False  # the Fused ops column is beside the time (ATen's operators)

    def set_document(self, document: ViewDocument | None) -> None:
        self._document = document
        self._step = None
        self.set_comparison([])

    def set_step(self, step: str | None) -> None:
        """Show the kernels of one profiled step (``ViewDocument.steps``), with their numbers
        over that step's launches; None: the whole report."""
        self._step = step
        self.set_comparison(*self._comparison)

    def set_comparison(
        self, columns: Sequence[Column[KernelSummary]], extra_rows: Sequence[KernelSummary] = ()
    ) -> None:
        """Compare mode: ``columns`` right after the kernel's name, and ``extra_rows`` for
        kernels only the baseline has (they have no key: there is nothing to open); no
        columns: the document alone."""
        document = self._document
        self._comparison = (columns, extra_rows)
        self.beginResetModel()
        self._unlaunched = document.never_launched if document else frozenset()
        # kernels the model never launches last (dimmed), also in program order
        rows = list(document.summaries) if document else []
        if document is not None and self._step in document.steps:
            rows = list(document.steps[self._step])
        self.rows = sorted(rows, key=lambda s: s.name in self._unlaunched)
        self._own = len(self.rows)
        self.tuned_shown = any(r.tuned is not None for r in self.rows)
        # ATen's operators beside the time (Inductor's names abbreviate them); a TVM kernel's
        # name is made of its fused operators already: the column would repeat it
        self.ops_shown = any(op.startswith(ATEN) for r in self.rows for op in r.ops)
        self.rows += extra_rows
        self._baseline_only = {id(r) for r in extra_rows}
        static = _static_columns()
        names = document.kernel_metric_names if document else ()
        # compared, "New µs" is the time per pass: the profile's total would repeat it
        metrics = [_metric_column(m) for m in names if not (columns and m == TIME_US)]
        # name first, then the time (or the comparison), then which kernels came from a
        # tuning record (a build with one), then the rest of what the profile measured and the
        # build facts
        # (compared: the record's speedup beside the measured change and ratio or speedup)
        lead = list(columns[:2]) if columns else metrics[:1]
        rest = [*columns[2:], *metrics] if columns else metrics[1:]
        tuned = [tuned_column()] if self.tuned_shown else []
        # the operators of a torch.compile run beside the time: after the profile's other
        # metrics they were off-screen
        ops = [static[1]] if self.ops_shown else []
        facts = static[1:] if not ops else static[2:]
        self.columns = [static[0], *lead, *tuned, *ops, *rest, *facts]
        self._max = [
            max((float(c.value(r)) for r in self.rows), default=0.0) if c.number else 0.0
            for c in self.columns
        ]
        self.endResetModel()

    def row_of(self, name: str) -> int:
        for i, r in enumerate(self.rows):
            if r.name == name:
                return i
        return -1

    def header_tip(self, section: int) -> str | None:
        title = self.columns[section].title
        document = self._document
        if document is not None and title in document.kernel_metric_names:
            return document.metric_description(title) or None
        return _STATIC_TIPS.get(title)

    def key(self, row: KernelSummary, number: int) -> str | None:
        return None if number >= self._own else row.name

    def tooltip(self, row: KernelSummary, column: int) -> str:
        tip = _tooltip(row)
        if row.name in self._unlaunched:
            tip += f"<br><i>never launched: {html.escape(never_launched_why(row.about))}</i>"
        return tip

    def role_data(self, row: KernelSummary, column: int, role: int) -> Any:
        if role == BarRole and self.columns[column].number:
            top = self._max[column]
            return float(self.columns[column].value(row)) / top if top > 0 else 0.0
        if role == SortLastRole:
            return row.name in self._unlaunched
        if role == Qt.ItemDataRole.ForegroundRole:
            if id(row) in self._baseline_only:
                return QColor(Qt.GlobalColor.gray)
            if row.name in self._unlaunched:
                return QApplication.palette().color(
                    QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text
                )
        return None


def _tooltip(row: KernelSummary) -> str:
    lines = [f"<b>{row.name}</b>"]
    if row.ops:
        lines.append("Fused operators:<br>" + "<br>".join(f"• {op}" for op in row.ops))
    if row.model_lines:
        lines.append(
            "Model lines:<br>" + "<br>".join(f"• {html.escape(ln)}" for ln in row.model_lines)
        )
    if row.grid:
        lines.append(f"grid {format_dims(row.grid)}, block {format_dims(row.block)}")
    if row.tuned is not None:
        lines.append(tuned_text(row))
    lines += [html.escape(line) for line in row.about]
    return "<br>".join(lines)
