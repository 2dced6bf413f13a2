"""The Timeline pane's plot (pyqtgraph, imported with this module, which the pane imports when
it first shows a timeline): each call of the pass as a bar at its start, as wide as it ran
and as tall as its time, coloured by the Relax operator it was fused around; the chosen
call outlined. A click chooses the call under the mouse. The colours, background and axes
follow the window's palette (light or dark)."""

from __future__ import annotations

import html
from collections.abc import Callable
from operator import attrgetter

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPointF, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QLabel, QMenu, QVBoxLayout, QWidget

from kernelscope.core.timeline import Share, Timeline, TimelineCall, TimelineSummary

# A qualitative palette readable on light and dark backgrounds (Tableau 10), by operator
# type's (or kernel's) share of the pass: the costliest gets the first colour.
COLOURS = (
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
)  # fmt: skip
OTHER = "#8c8c8c"  # operator types past the palette, and calls without a known operator
LEGEND = 6  # entries named under the plot; the rest are "other" there


def by_operator(summary: TimelineSummary) -> bool:
    """Colour by operator type when the calls have one (a workspace's), else by kernel (an
    Nsight Systems trace of another program)."""
    return any(s.name != "(unknown)" for s in summary.op_shares)


def colour_key(summary: TimelineSummary) -> Callable[[TimelineCall], str]:
    if by_operator(summary):
        return lambda c: c.op_type or "(unknown)"
    return lambda c: c.name


def coloured_shares(summary: TimelineSummary) -> list[Share]:
    """The shares the calls are coloured by: of the operator types, else of the kernels."""
    return summary.op_shares if by_operator(summary) else summary.kernel_shares


def colours(shares: list[Share]) -> dict[str, str]:
    """Each operator type's (or kernel's) colour, the costliest first (``coloured_shares``)."""
    names = [s.name for s in shares if s.name != "(unknown)"]
    return {name: COLOURS[i] if i < len(COLOURS) else OTHER for i, name in enumerate(names)}


class TimelinePlot(QWidget):
    call_clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("timeline_plot")
        before = set(QApplication.topLevelWidgets())
        self.plot = pg.PlotWidget()
        # pyqtgraph makes its context menus without a parent: they would outlive the plot
        for widget in set(QApplication.topLevelWidgets()) - before:
            if isinstance(widget, QMenu):
                widget.setParent(self, widget.windowFlags())
        self.plot.setMenuEnabled(False)
        self.plot.hideButtons()
        self.plot.setLabel("bottom", "time in the forward pass (µs)")
        self.plot.setLabel("left", "call time (µs)")
        self.plot.setMouseEnabled(x=True, y=False)
        self.legend = QLabel()
        self.legend.setObjectName("timeline_legend")
        self.legend.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.legend)
        self.timeline: Timeline | None = None
        self.summary: TimelineSummary | None = None
        self.colours: dict[str, str] = {}
        self.bars: list[pg.BarGraphItem] = []  # one item per colour
        self.chosen: pg.BarGraphItem | None = None
        self.chosen_index: int | None = None
        self.plot.scene().sigMouseClicked.connect(self._on_click)
        self._restyle()

    def set_timeline(self, timeline: Timeline | None, summary: TimelineSummary | None) -> None:
        self.timeline, self.summary = timeline, summary
        self.plot.clear()
        self.bars, self.chosen = [], None
        self.chosen_index = None
        if timeline is None or summary is None or not timeline.calls:
            self.legend.clear()
            return
        shares = coloured_shares(summary)
        self.colours = colours(shares)
        calls = timeline.calls
        n = len(calls)
        starts = np.fromiter(map(attrgetter("start_us"), calls), float, count=n)
        times = np.fromiter(map(attrgetter("duration_us"), calls), float, count=n)
        # each call's colour as a number; one bar item per colour, drawn with one brush (a
        # brush and pen per bar made a million-call trace's plot take a minute)
        palette = list(dict.fromkeys([*self.colours.values(), OTHER]))
        slot = {colour: i for i, colour in enumerate(palette)}
        of_key: dict[str, int] = {}
        for k in set(keys := list(map(colour_key(summary), calls))):
            of_key[k] = slot[self.colours.get(k, OTHER)]
        codes = np.fromiter(map(of_key.__getitem__, keys), int, count=n)
        for i, colour in enumerate(palette):
            chosen = codes == i
            if chosen.any():
                x0, width = starts[chosen], times[chosen]
                bars = pg.BarGraphItem(
                    x0=x0, width=width, height=width, brush=pg.mkBrush(colour), pen=pg.mkPen(None)
                )
                self.bars.append(bars)
                self.plot.addItem(bars)
        self.plot.enableAutoRange()
        self._legend(shares)

    def choose(self, index: int | None) -> None:
        """Outline call ``index`` (None: none)."""
        self.chosen_index = index
        if self.chosen is not None:
            self.plot.removeItem(self.chosen)
            self.chosen = None
        if self.timeline is None or index is None or not 0 <= index < len(self.timeline.calls):
            return
        call = self.timeline.calls[index]
        pen = pg.mkPen(self.palette().color(QPalette.ColorRole.Text), width=2)
        self.chosen = pg.BarGraphItem(
            x0=[call.start_us], width=[call.duration_us], height=[call.duration_us],
            brush=pg.mkBrush(None), pen=pen,
        )  # fmt: skip
        self.plot.addItem(self.chosen)

    def call_at(self, x: float) -> int | None:
        """The call running at ``x`` µs, else the one nearest to it."""
        if self.timeline is None or not self.timeline.calls:
            return None
        calls = self.timeline.calls
        inside = [c for c in calls if c.start_us <= x <= c.end_us]
        if inside:
            return inside[0].index
        return min(calls, key=lambda c: min(abs(c.start_us - x), abs(c.end_us - x))).index

    def _on_click(self, event: object) -> None:
        pos = event.scenePos()  # type: ignore[attr-defined]
        view = self.plot.getPlotItem().vb
        if not view.sceneBoundingRect().contains(pos):
            return
        point: QPointF = view.mapSceneToView(pos)
        index = self.call_at(point.x())
        if index is not None:
            self.call_clicked.emit(index)

    def _legend(self, listed: list[Share]) -> None:
        shares = {s.name: s.share for s in listed}
        shown = list(self.colours.items())[:LEGEND]
        items = [
            f'<span style="color:{colour}">■</span>&nbsp;{html.escape(name)} '
            f"{100 * shares.get(name, 0.0):.0f}%"
            for name, colour in shown
        ]
        if len(self.colours) > LEGEND or "(unknown)" in shares:
            items.append(f'<span style="color:{OTHER}">■</span>&nbsp;other')
        self.legend.setText("&nbsp;&nbsp; ".join(items))

    def _restyle(self) -> None:
        palette = self.palette()
        text = palette.color(QPalette.ColorRole.Text)
        self.plot.setBackground(palette.color(QPalette.ColorRole.Base))
        for name in ("bottom", "left"):
            axis = self.plot.getAxis(name)
            axis.setPen(pg.mkPen(QColor(text)))
            axis.setTextPen(pg.mkPen(QColor(text)))
        if self.timeline is not None:
            index = self.chosen_index
            self.set_timeline(self.timeline, self.summary)
            self.choose(index)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self._restyle()
        super().changeEvent(event)
