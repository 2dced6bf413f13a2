"""The Details pane: why the selected kernel is slow, as Nsight Compute's Details page says it,
following the one selection.

Speed of light with the per-unit breakdown, warp stall reasons for the whole kernel and for
the selected source line and SASS instruction (every reason, from the per-instruction
samples), the rules with their estimated speedups and source markers that jump to the line or
instruction they name, occupancy with its limiter and curves, memory workload, pipe
utilisation and the opcode mix, launch and scheduler statistics. Every number's tooltip is
NVIDIA's description of its metric. A section the report lacks says so, with the ``ncu``
flag that collects it.

The numbers come from ``view.read_details`` on the document lane and are kept per kernel,
so going back to a kernel shows it at once. Nothing is read while the pane is hidden. The
occupancy curves are pyqtgraph plots, made once the plotting library has loaded in the
background (``widgets.plot_loader``); everything else is painted by ``RowChart``.
"""

from __future__ import annotations

import contextlib
import html
import os
from types import ModuleType
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from kernelscope.core.ncu import (
    DetailMetric,
    KernelDetails,
    RuleResult,
    SourceMarker,
    StallBreakdown,
    stall_breakdown,
)
from kernelscope.core.view import KernelView, Selection, ViewDocument, read_details
from kernelscope.core.workspace import never_launched_why

from ..widgets.bars import ChartRow, RowChart
from ..widgets.messages import error_html
from ..widgets.plot_loader import load_plots
from ..widgets.rich_text import RichText
from ..widgets.shown import ShownGate
from ..workers.jobs import Job, Latest, Workers

if TYPE_CHECKING:
    from ..widgets.plots import CurvePlot

_KIND_ORDER = {"ERR": 0, "WRN": 1, "OPT": 2, "INF": 3}
_MARKER_LINKS = 16  # source markers linked per message; the rest are counted


# ---- tooltips and rows -------------------------------------------------------------------------
def metric_tooltip(m: DetailMetric, source: str = "report") -> str:
    """The metric's own description (NVIDIA's), its name, and whether launches disagree."""
    parts = [f"<b>{html.escape(m.label)}</b>: {html.escape(m.text())}"]
    if m.description:
        parts.append(html.escape(m.description).replace("\n", "<br>"))
    elif source != "report":
        parts.append("<i>CSV exports carry no metric descriptions; open the .ncu-rep for them</i>")
    parts.append(f"<code>{html.escape(m.name)}</code>")
    if m.varies:
        parts.append("<i>the kernel's launches disagree: the first launch's value is shown</i>")
    return "<br>".join(parts)


def _number(m: DetailMetric) -> float | None:
    return float(m.value) if isinstance(m.value, int | float) else None


def metric_rows(
    metrics: list[DetailMetric],
    source: str,
    *,
    bars: str = "percent",
    zeros: bool = True,
) -> list[ChartRow]:
    """``bars``: "percent" (a bar for % values, of 100), "relative" (every number against the
    largest), or "none". Without ``zeros``, the rows at 0 become one line that names them."""
    numbers = [v for m in metrics if (v := _number(m)) is not None]
    top = max(numbers, default=0.0)
    rows = []
    nothing = []
    for m in metrics:
        v = _number(m)
        if v == 0 and not zeros:
            nothing.append(m)
            continue
        fraction = None
        if v is not None and bars == "percent" and m.unit == "%":
            fraction = v / 100.0
        elif v is not None and bars == "relative":
            fraction = v / top if top > 0 else 0.0
        rows.append(
            ChartRow(
                label=_pretty(m.label),
                text=m.text(),
                fraction=fraction,
                tooltip=metric_tooltip(m, source),
                dim=v == 0,
            )
        )
    if nothing:
        names = "<br>".join(html.escape(_pretty(m.label)) for m in nothing)
        rows.append(
            ChartRow(
                label=f"{len(nothing)} more at 0",
                text=nothing[0].text(),
                tooltip=f"<b>At 0:</b><br>{names}",
                dim=True,
            )
        )
    return rows


def stall_rows(breakdown: StallBreakdown, scope: str) -> list[ChartRow]:
    """Every stall reason with samples, largest first, its bar against the largest."""
    top = breakdown.reasons[0].samples if breakdown.reasons else 0.0
    return [
        ChartRow(
            label=_pretty(s.reason),
            text=f"{s.samples:,.0f}  {100 * s.share:.1f}%",
            fraction=s.samples / top if top else 0.0,
            tooltip=(
                f"<b>{html.escape(_pretty(s.reason))}</b>: {s.samples:,.0f} of the "
                f"{breakdown.total:,.0f} warp samples of {scope}<br>"
                f"{html.escape(s.description)}<br><code>{html.escape(s.label)}</code>"
            ),
        )
        for s in breakdown.reasons
    ]


def _pretty(label: str) -> str:
    """``long_scoreboard`` -> ``Long Scoreboard``; labels with capitals stay as they are."""
    if label.islower() and " " not in label:
        return label.replace("_", " ").title()
    return label


# ---- sections ----------------------------------------------------------------------------------
class Section(QWidget):
    """A titled, collapsible part of the pane, with a note line (what is missing, the flag)."""

    def __init__(self, key: str, title: str) -> None:
        super().__init__()
        self.setObjectName(f"details_{key}")
        self.key = key
        self.button = QToolButton()
        self.button.setText(title)
        self.button.setCheckable(True)
        self.button.setChecked(True)
        self.button.setArrowType(Qt.ArrowType.DownArrow)
        self.button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.button.setAutoRaise(True)
        font = self.button.font()
        font.setBold(True)
        self.button.setFont(font)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.note.setObjectName(f"details_{key}_note")
        self.note.hide()
        self.body = QWidget()
        self.body_layout = QVBoxLayout(self.body)
        self.body_layout.setContentsMargins(14, 0, 2, 6)
        self.body_layout.setSpacing(2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.button)
        layout.addWidget(self.body)
        self.body_layout.addWidget(self.note)
        self._captions: list[tuple[RowChart, QLabel]] = []
        self.button.toggled.connect(self._on_toggled)

    def _on_toggled(self, open_: bool) -> None:
        self.body.setVisible(open_)
        self.button.setArrowType(Qt.ArrowType.DownArrow if open_ else Qt.ArrowType.RightArrow)

    def set_note(self, text: str) -> None:
        self.note.setText(text)
        self.note.setVisible(bool(text))

    def chart(self, caption: str = "", *, keep: bool = False) -> tuple[RowChart, QLabel | None]:
        """A new chart in the body, under an optional caption (hidden while the chart has no
        rows, unless ``keep``: then it says why)."""
        label = self._caption(caption) if caption else None
        chart = RowChart()
        self.body_layout.addWidget(chart)
        if label is not None and not keep:
            self._captions.append((chart, label))
        return chart, label

    def kept_chart(self, caption: str) -> tuple[RowChart, QLabel]:
        """A new chart under a caption that stays when the chart is empty, to say why."""
        label = self._caption(caption)
        chart = RowChart()
        self.body_layout.addWidget(chart)
        return chart, label

    def _caption(self, text: str) -> QLabel:
        label = QLabel(text)
        label.setWordWrap(True)
        font = label.font()
        font.setItalic(True)
        label.setFont(font)
        self.body_layout.addWidget(label)
        return label

    def tidy(self) -> None:
        """Hide the captions of empty charts (a no-op for those that stay as they are)."""
        for chart, label in self._captions:
            label.setVisible(bool(chart.rows))


class DetailsPane(QWidget):
    """Follows ``selection``: its kernel's Details, its line's and instruction's stalls."""

    def __init__(self, selection: Selection, workers: Workers) -> None:
        super().__init__()
        self.setObjectName("details_pane")
        self.selection = selection
        self.workers = workers
        self._latest = Latest(workers, "document", "reading a kernel's details", self)
        self._latest.result.connect(self._on_details)
        self._latest.failed.connect(self._on_failed)
        self._cache: dict[tuple[str, int | None], KernelDetails] = {}
        self.details: KernelDetails | None = None  # what the pane shows
        self._wanted: tuple[str, int | None] | None = None  # what it should show
        self.gate = ShownGate(self.refresh)  # reads only while its tab is on screen
        self._plots: ModuleType | None = None
        self._plots_job: Job | None = None
        self._curve_plots: list[CurvePlot] = []
        self._build()
        selection.document_changed.connect(self._on_document)
        selection.kernel_changed.connect(self._on_kernel)
        selection.launch_changed.connect(self._on_launch_selected)
        selection.selection_changed.connect(self._on_selection)

    # ---- construction ---------------------------------------------------------------------
    def _build(self) -> None:
        self.launch_box = QComboBox()
        self.launch_box.setToolTip("All launches of the kernel combined, or one launch")
        self.launch_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.launch_box.hide()
        self.launch_box.currentIndexChanged.connect(self._on_launch_chosen)
        self.title = QLabel("Details")
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        font = self.title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.title.setFont(font)
        self.title.setWordWrap(True)
        # a kernel name is one long word: cut at the pane's edge (the whole name is the
        # tooltip), not widening the pane past its dock
        self.title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.banner = QLabel()  # the sections the report lacks, with the flags
        self.banner.setObjectName("details_missing")
        self.banner.setWordWrap(True)
        self.banner.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.banner.setFrameShape(QFrame.Shape.StyledPanel)
        self.banner.hide()
        self.message = QLabel()  # no profile, not launched, an error
        self.message.setObjectName("details_message")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.sections: dict[str, Section] = {}
        s = self._section("sol", "GPU Speed Of Light Throughput")
        self.sol_rows, _ = s.chart()
        self.sol_compute, _ = s.chart("Compute (SM) units, % of peak")
        self.sol_memory, _ = s.chart("Memory units, % of peak")
        s = self._section("warp_state", "Warp State: stall reasons")
        self.warp_rows, _ = s.chart()
        self.warp_kernel, self.warp_kernel_caption = s.kept_chart("Whole kernel")
        self.line_stalls, self.line_caption = s.kept_chart("Selected line")
        self.insn_stalls, self.insn_caption = s.kept_chart("Selected instruction")
        s = self._section("rules", "Rules: estimated speedups")
        # one document for every rule: a label per rule, shown and hidden as kernels change,
        # relays out the whole window each time (25 ms a label)
        self.rules_text = RichText()
        self.rules_text.setObjectName("details_rules")
        self.rules_text.link_activated.connect(self._on_link)
        self.rules_html = ""
        s.body_layout.addWidget(self.rules_text)
        self._rules: list[RuleResult] = []  # as shown, sorted
        self._rule_markers: dict[int, list[tuple[int, SourceMarker]]] = {}
        self._expanded: set[tuple[str, str, str]] = set()  # rules whose whole text is shown
        s = self._section("occupancy", "Occupancy")
        self.occupancy_rows, _ = s.chart()
        self.curves_box = QWidget()
        self.curves_layout = QVBoxLayout(self.curves_box)
        self.curves_layout.setContentsMargins(0, 0, 0, 0)
        self.curves_note = QLabel()
        self.curves_layout.addWidget(self.curves_note)
        s.body_layout.addWidget(self.curves_box)
        s = self._section("memory", "Memory Workload")
        self.memory_rows, _ = s.chart()
        self.memory_table, _ = s.chart("Bytes, hit rates and sectors per request")
        s = self._section("compute", "Compute Workload: pipes")
        self.compute_rows, _ = s.chart()
        self.pipes, _ = s.chart("Pipe utilisation, % of peak")
        s = self._section("instructions", "Instruction Mix")
        self.instruction_rows, _ = s.chart()
        self.opcodes, _ = s.chart("Executed warp instructions by opcode")
        s = self._section("launch", "Launch Statistics")
        self.launch_rows, _ = s.chart()
        s = self._section("scheduler", "Scheduler Statistics")
        self.scheduler_rows, _ = s.chart()
        s = self._section("source", "Source Counters")
        self.source_rows, _ = s.chart()

        self.content = QWidget()
        self.content.setObjectName("details_content")
        self.content.setBackgroundRole(self.backgroundRole())
        content = QVBoxLayout(self.content)
        content.setContentsMargins(6, 4, 6, 6)
        content.setSpacing(4)
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.launch_box, 0, Qt.AlignmentFlag.AlignTop)
        content.addLayout(top)
        content.addWidget(self.summary)
        content.addWidget(self.banner)
        content.addWidget(self.message)
        for section in self.sections.values():
            content.addWidget(section)
        content.addStretch(1)
        self.scroll_area = QScrollArea()  # not `scroll`: QWidget.scroll() is a method
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        # narrower than a chart's numbers need (RowChart.minimumSizeHint): scroll sideways
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.scroll_area.setWidget(self.content)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.scroll_area)
        self.setMinimumWidth(280)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Expanding)
        self._show_message("Open a report or a profiled workspace to see a kernel's Details.")

    def _section(self, key: str, title: str) -> Section:
        section = Section(key, title)
        self.sections[key] = section
        return section

    # ---- state ------------------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        """Details or the plotting library are on their way."""
        return self._latest.busy or self._plots_job is not None

    def _on_document(self) -> None:
        self._cache.clear()
        self._latest.cancel()
        self.details = None
        self._wanted = None
        self.refresh()

    def _on_kernel(self) -> None:
        self.launch_box.blockSignals(True)
        self.launch_box.clear()
        self.launch_box.hide()
        self.launch_box.blockSignals(False)
        self.refresh()

    def refresh(self) -> None:
        """Show the selected kernel's Details (from the cache, else asked for); while hidden,
        only remember to."""
        if not self.gate.due():
            return
        document, kernel = self.selection.document, self.selection.kernel
        if document is None:
            self._show_message("Open a report or a profiled workspace to see a kernel's Details.")
            return
        if not document.has_profile:
            self._show_message(
                f"{document.title} has no Nsight Compute profile: the Details come from one. "
                "Profile the workspace (File ▸ Build & Profile, or <code>kernelscope profile "
                "WORKSPACE</code>) or open a report."
            )
            return
        if kernel is None:
            self._latest.cancel()
            self._show_message("Select a kernel to see its Details.")
            return
        if not document.launched(kernel.name):
            self._latest.cancel()
            why = never_launched_why(())
            with contextlib.suppress(KeyError):  # the build says why (a KV cache's kernel)
                why = never_launched_why(document.summary(kernel.name).about)
            self._show_message(
                f"<b>{html.escape(kernel.name)}</b> is never launched: {html.escape(why)}, so "
                "there is nothing to measure."
            )
            return
        self._request(document, kernel.name, self._chosen_launch())

    def _chosen_launch(self) -> int | None:
        """The launch box's choice; before it is filled, the launch the selection names (a
        row of the step ledger), if any."""
        if not self.launch_box.count():
            return self.selection.launch
        data = self.launch_box.currentData()
        return int(data) if isinstance(data, int) else None

    def _on_launch_selected(self) -> None:
        """Another pane chose one launch of the kernel shown: show that launch."""
        index = self.launch_box.findData(self.selection.launch)
        if self.launch_box.count() and index >= 0:
            self.launch_box.setCurrentIndex(index)  # asks for it (``_on_launch_chosen``)
        else:
            self.launch_box.blockSignals(True)
            self.launch_box.clear()
            self.launch_box.blockSignals(False)
            self.refresh()

    def _request(self, document: ViewDocument, kernel: str, launch: int | None) -> None:
        key = (kernel, launch)
        self._wanted = key
        cached = self._cache.get(key)
        if cached is not None:
            self._latest.cancel()
            self._show(cached)
            return
        self.title.setText(f"{html.escape(kernel)} <i>(reading…)</i>")
        session = self.selection.open_session()
        self._latest.submit(lambda context: read_details(session, kernel, launch), (document, key))

    def keep(self, document: ViewDocument, kernel: str, details: KernelDetails) -> None:
        """A kernel's Details read ahead (``warm_ahead``), shown from here when it is chosen."""
        if document is self.selection.document:
            self._cache.setdefault((kernel, None), details)

    def _on_details(
        self, details: KernelDetails, context: tuple[ViewDocument, tuple[str, int | None]]
    ) -> None:
        document, key = context
        if document is not self.selection.document:
            return
        self._cache[key] = details
        if key == self._wanted:
            self._show(details)

    def _on_failed(self, error: BaseException, context: object) -> None:
        self._show_message(error_html("Cannot read the Details", error))

    def _on_launch_chosen(self, index: int) -> None:
        document, kernel = self.selection.document, self.selection.kernel
        if index >= 0 and document is not None and kernel is not None:
            self._request(document, kernel.name, self._chosen_launch())

    # ---- showing ----------------------------------------------------------------------------
    def _show_message(self, text: str) -> None:
        self.details = None
        self.title.setText("Details")
        self.title.setToolTip("")
        self.summary.clear()
        self.banner.hide()
        self.message.setText(text)
        self.message.show()
        for section in self.sections.values():
            section.hide()

    def _show(self, d: KernelDetails) -> None:
        self.details = d
        self.message.hide()
        self.title.setText(html.escape(d.kernel))
        self.title.setToolTip(d.kernel)
        self._fill_launch_box(d)
        launches = len(d.launch_ids)
        duration = d.metric("gpu__time_duration.sum")
        if self._chosen_launch() is not None:
            what = f"launch {d.launch_ids[0]}"
        else:
            what = f"{launches} launch{'es' * (launches != 1)}" + " combined" * (launches > 1)
        source = {"report": "report", "raw": "raw CSV page", "details": "details CSV page"}
        self.summary.setText(
            f"{html.escape(d.device or 'GPU')} · {what} · "
            f"{duration.text() if duration else '-'} · from the {source.get(d.source, d.source)}"
            + self._model_lines(d.kernel)
        )
        missing = d.missing_sections
        if missing:
            flags = " ".join(dict.fromkeys(f for v in d.views for f in v.flags))
            self.banner.setText(
                f"<b>Not in this report:</b> {', '.join(missing)}.<br>Collect them with "
                f"<code>ncu {flags}</code> (or <code>--set full</code>)."
            )
            self.banner.show()
        else:
            self.banner.hide()
        src = d.source
        views = {v.key: v for v in d.views}
        for key, section in self.sections.items():
            view = views.get(key)
            section.set_note(view.note if view is not None else "")
            section.show()
        sol = views["sol"]
        self.sol_rows.set_rows(metric_rows(sol.rows, src))
        self.sol_compute.set_rows(metric_rows(sol.groups.get("compute", []), src, zeros=False))
        self.sol_memory.set_rows(metric_rows(sol.groups.get("memory", []), src, zeros=False))
        warp = views["warp_state"]
        self.warp_rows.set_rows(metric_rows(warp.rows, src))
        stalls = warp.groups.get("stalls", [])
        self.warp_kernel.set_rows(metric_rows(stalls, src, bars="relative"))
        self.warp_kernel_caption.setText(
            "Whole kernel: cycles per issued instruction spent in each state"
            if stalls
            else "Whole kernel: no Warp State section in the report"
        )
        self._fill_rules(d)
        occupancy = views["occupancy"]
        self.occupancy_rows.set_rows(metric_rows(occupancy.rows, src))
        self._fill_curves(d)
        memory = views["memory"]
        self.memory_rows.set_rows(metric_rows(memory.rows, src))
        self.memory_table.set_rows(metric_rows(memory.groups.get("memory", []), src, bars="none"))
        compute = views["compute"]
        self.compute_rows.set_rows(metric_rows(compute.rows, src))
        self.pipes.set_rows(metric_rows(compute.groups.get("pipes", []), src, zeros=False))
        instructions = views["instructions"]
        self.instruction_rows.set_rows(metric_rows(instructions.rows, src))
        self.opcodes.set_rows(
            metric_rows(instructions.groups.get("opcodes", []), src, bars="relative")
        )
        self.launch_rows.set_rows(metric_rows(views["launch"].rows, src))
        self.scheduler_rows.set_rows(metric_rows(views["scheduler"].rows, src))
        self.source_rows.set_rows(metric_rows(views["source"].rows, src))
        for section in self.sections.values():
            section.tidy()
        self._on_selection()

    def _model_lines(self, kernel: str) -> str:
        """The model lines the kernel's operators came from, under the summary ("" for none)."""
        document = self.selection.document
        lines: tuple[str, ...] = ()
        with contextlib.suppress(KeyError):
            lines = document.summary(kernel).model_lines if document is not None else ()
        return "".join(f"<br>model line: <code>{html.escape(ln)}</code>" for ln in lines)

    def _fill_launch_box(self, d: KernelDetails) -> None:
        ids = list(d.launch_ids)
        document = self.selection.document
        with contextlib.suppress(KeyError):  # every launch, also when one was asked for
            if document is not None:
                ids = [x.id for x in document.summary(d.kernel).launches] or ids
        if self.launch_box.count() or len(ids) < 2:
            return
        self.launch_box.blockSignals(True)
        self.launch_box.addItem(f"All {len(ids)} launches", None)
        for launch in ids:
            self.launch_box.addItem(f"Launch {launch}", launch)
        self.launch_box.setCurrentIndex(max(0, self.launch_box.findData(self.selection.launch)))
        self.launch_box.blockSignals(False)
        self.launch_box.show()

    # ---- warp stalls of the selection ------------------------------------------------------------
    def _on_selection(self) -> None:
        kernel = self.selection.kernel
        if self.details is None or kernel is None or kernel.name != self.details.kernel:
            return
        sampled = any(kernel.instruction_metrics)
        if not self.details.view("warp_state").groups.get("stalls") and sampled:
            whole = stall_breakdown(kernel.instruction_metrics)
            self.warp_kernel.set_rows(stall_rows(whole, "the whole kernel"))
            self.warp_kernel_caption.setText(
                f"Whole kernel: {whole.total:,.0f} warp samples over its instructions"
            )
        if not sampled:
            for chart in (self.line_stalls, self.insn_stalls):
                chart.set_rows([])
            self.line_caption.setText(
                "The profile has no per-instruction warp samples: collect them with "
                "<code>--section SourceCounters --section WarpStateStats</code>."
            )
            self.insn_caption.hide()
            return
        self.insn_caption.show()
        line = self.selection.line
        if line:
            indices = kernel.instructions_at(self.selection.file, line)
            rows = [kernel.instruction_metrics[i] for i in indices]
            breakdown = stall_breakdown(rows)
            name = os.path.basename(self.selection.file)
            scope = f"line {line} ({len(indices)} instructions)"
            self.line_stalls.set_rows(stall_rows(breakdown, scope))
            self.line_caption.setText(
                f"Line {line} of {html.escape(name)}: {breakdown.total:,.0f} warp samples over "
                f"{len(indices)} instruction{'s' * (len(indices) != 1)}"
                if breakdown.total
                else f"Line {line} of {html.escape(name)}: no warp samples"
            )
        else:
            self.line_stalls.set_rows([])
            self.line_caption.setText("Select a source line to see all its stall reasons.")
        index = self.selection.focus_instruction()  # for a line: its hottest instruction
        if index >= 0:
            insn = kernel.instructions[index]
            breakdown = stall_breakdown([kernel.instruction_metrics[index]])
            self.insn_stalls.set_rows(stall_rows(breakdown, f"the instruction at {insn.offset:#x}"))
            text = html.escape(insn.text.split(";")[0][:48])
            which = "Its hottest instruction" if self.selection.picked == "line" else "Instruction"
            self.insn_caption.setText(
                f"{which} {insn.offset:#06x} <code>{text}</code>: "
                + (f"{breakdown.total:,.0f} warp samples" if breakdown.total else "no warp samples")
            )
        else:
            self.insn_stalls.set_rows([])
            self.insn_caption.setText("Select a SASS instruction to see all its stall reasons.")

    # ---- rules ------------------------------------------------------------------------------
    def _fill_rules(self, d: KernelDetails) -> None:
        rules = sorted(
            d.rules,
            key=lambda r: (_KIND_ORDER.get(r.kind, 9), -(r.speedup_pct or 0.0), r.rule),
        )
        self._rules = rules
        self._rule_markers = self._markers_by_rule(rules, d.markers)
        self._render_rules()
        self.sections["rules"].set_note("" if rules else "The report holds no rule results.")

    @staticmethod
    def _markers_by_rule(
        rules: list[RuleResult], markers: list[SourceMarker]
    ) -> dict[int, list[tuple[int, SourceMarker]]]:
        """Each marker under the first shown result of its rule (and section, when one
        matches), with its index in ``KernelDetails.markers``."""
        out: dict[int, list[tuple[int, SourceMarker]]] = {}
        for j, m in enumerate(markers):
            same = [i for i, r in enumerate(rules) if r.rule == m.rule]
            exact = [i for i in same if rules[i].section == m.section]
            target = next(iter(exact or same), None)
            if target is not None:
                out.setdefault(target, []).append((j, m))
        return out

    def _render_rules(self) -> None:
        self.rules_html = "<br><br>".join(self._rule_html(i) for i in range(len(self._rules)))
        self.rules_text.set_html(self.rules_html)

    @staticmethod
    def _rule_key(rule: RuleResult) -> tuple[str, str, str]:
        return rule.rule, rule.section, rule.title

    def _rule_html(self, i: int) -> str:
        """A rule's title, estimated speedup, message (its first sentence until expanded)
        and source markers, as links."""
        rule, markers = self._rules[i], self._rule_markers.get(i, [])
        title = rule.title or rule.rule
        head = f"<b>[{rule.kind}] {html.escape(title)}</b>"
        if rule.title:  # the rule's own identifier too, as ncu --print-rule-details names it
            head += f' <span style="color: gray">{html.escape(rule.rule)}</span>'
        if rule.speedup_pct is not None:
            scope = f" ({rule.speedup_type})" if rule.speedup_type else ""
            head += f" — est. speedup <b>{rule.speedup_pct:.1f}%</b>{scope}"
        message = rule.message
        short = _first_sentence(message)
        if self._rule_key(rule) in self._expanded:
            text = html.escape(message) + (f' <a href="less:{i}">less</a>' if short else "")
        else:
            text = html.escape(short or message) + (f' <a href="more:{i}">more…</a>' * bool(short))
        parts = [head, text.replace("\n", "<br>")]
        by_message: dict[str, list[tuple[int, SourceMarker]]] = {}
        for j, m in markers:
            by_message.setdefault(m.message, []).append((j, m))
        for message, group in by_message.items():
            links = [
                f'<a href="marker:{j}">{html.escape(self._marker_text(m))}</a>'
                for j, m in group[:_MARKER_LINKS]
            ]
            more = len(group) - _MARKER_LINKS
            tail = f" and {more} more" if more > 0 else ""
            parts.append(f"▸ {', '.join(links)}{tail}: <i>{html.escape(message)}</i>")
        return "<br>".join(parts)

    @staticmethod
    def _marker_text(m: SourceMarker) -> str:
        if m.offset is not None:
            return f"SASS {m.offset:#06x}"
        if m.file and m.line:
            return f"{os.path.basename(m.file)}:{m.line}"
        return m.rule

    def _on_link(self, link: str) -> None:
        kind, _, n = link.partition(":")
        if kind in ("more", "less") and n.isdigit() and int(n) < len(self._rules):
            key = self._rule_key(self._rules[int(n)])
            if kind == "more":
                self._expanded.add(key)
            else:
                self._expanded.discard(key)
            self._render_rules()
        else:
            self.jump_to_marker(link)

    def jump_to_marker(self, link: str) -> bool:
        """Go to the line or instruction a rule's source marker names (``marker:N``)."""
        d, kernel = self.details, self.selection.kernel
        if d is None or kernel is None or kernel.name != d.kernel or not link.startswith("marker:"):
            return False
        try:
            m = d.markers[int(link.removeprefix("marker:"))]
        except (ValueError, IndexError):
            return False
        if m.offset is not None:
            index = kernel.offset_index.get(m.offset)
            if index is None:
                return False
            self.selection.select_instruction(index)
            return True
        if m.file and m.line:
            self.selection.show(kernel.name, file=_file_of(kernel, m.file), line=m.line)
            return True
        return False

    # ---- occupancy curves ------------------------------------------------------------------------
    def _fill_curves(self, d: KernelDetails) -> None:
        curves = d.view("occupancy").curves
        self.curves_box.setVisible(bool(curves))
        if not curves:
            return
        if self._plots is None:
            self.curves_note.setText("Loading the plots…")
            self.curves_note.show()
            if self._plots_job is None:
                self._plots_job = load_plots(self.workers, self._on_plots, self._on_plots_failed)
            return
        self.curves_note.hide()
        while len(self._curve_plots) < len(curves):
            plot = self._plots.CurvePlot()
            self.curves_layout.addWidget(plot)
            self._curve_plots.append(plot)
        for i, plot in enumerate(self._curve_plots):
            plot.setVisible(i < len(curves))
            if i < len(curves):
                plot.set_curve(curves[i])

    def _on_plots(self, module: ModuleType) -> None:
        self._plots = module
        self._plots_job = None
        if self.details is not None:
            self._fill_curves(self.details)

    def _on_plots_failed(self, error: BaseException) -> None:
        self._plots_job = None
        self.curves_note.setText(f"The occupancy curves need pyqtgraph: {error}")


def _first_sentence(text: str) -> str:
    """The message's first sentence when there is more after it, else ""."""
    end = text.find(". ")
    return text[: end + 1] if 0 < end < len(text) - 3 else ""


def _file_of(kernel: KernelView, recorded: str) -> str:
    """The kernel's file a marker names: the same recorded path, else the same file name."""
    if recorded in kernel.files:
        return recorded
    name = os.path.basename(recorded)
    return next((f for f in kernel.files if os.path.basename(f) == name), kernel.main_file)
