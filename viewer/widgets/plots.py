"""The window's plots, drawn with pyqtgraph: occupancy curves and the roofline.

pyqtgraph was chosen over matplotlib and QtCharts (phase 1's measurements: 0.85-0.93 s to
import and draw the first plot and +46 MB, against 1.95-2.5 s and +70 MB for matplotlib's Qt
backend; QtCharts is not in PySide6-Essentials). Its import still takes a second (it copies
every name of QtCore, QtGui and QtWidgets), so nothing imports this module at start-up: the
panes load it through ``plot_loader`` when a plot is first shown, on a worker thread.

Both plots take their colours from the widget's palette (light or dark) and follow changes.
"""

from __future__ import annotations

import colorsys
import math
from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QWidget

from kernelscope.core.ncu import OccupancyCurve
from kernelscope.core.roofline import (
    LEVEL_LABEL,
    LEVELS,
    PRECISION_LABEL,
    Roofline,
    RooflinePoint,
    relevant_precisions,
)

from .formatting import format_us

pg.setConfigOptions(antialias=True)

# the memory levels' colours, as kernelscope roofline --png draws them
LEVEL_COLOUR = {"dram": QColor(31, 119, 180), "l2": QColor(44, 160, 44), "l1": QColor(255, 127, 14)}
LEVEL_SYMBOL = {"dram": "o", "l2": "s", "l1": "t"}


def point_colour(i: int) -> QColor:
    """Distinct hues around the colour wheel (golden-angle steps), as the PNG's."""
    r, g, b = colorsys.hsv_to_rgb((0.381966 * i) % 1.0, 0.75, 0.85)
    return QColor(round(255 * r), round(255 * g), round(255 * b))


def si(value: float, unit: str = "") -> str:
    for scale, prefix in ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "K")):
        if abs(value) >= scale:
            return f"{value / scale:.3g} {prefix}{unit}".strip()
    return f"{value:.3g} {unit}".strip()


class SiLogAxis(pg.AxisItem):
    """A log axis labelled ``1 T``, ``100 G`` instead of ``1e+12``; over more than two
    decades only the decades are labelled (the 2..9 ticks would overlap)."""

    def __init__(self, orientation: str) -> None:
        super().__init__(orientation)
        self.enableAutoSIPrefix(False)

    def logTickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:
        few = len(values) <= 12
        return [
            si(10.0 ** float(v) * scale) if few or abs(v - round(v)) < 1e-6 else "" for v in values
        ]


class _Themed(pg.PlotWidget):
    """A plot that paints with its palette's colours (background, axes, text)."""

    def __init__(self, parent: QWidget | None = None, **kwargs: object) -> None:
        super().__init__(parent, background=None, **kwargs)
        item = self.plotItem
        item.setMenuEnabled(False, False)  # drops the view box's menu
        # pyqtgraph still makes its "Plot Options" menu and their form as windows that
        # outlive the plot: they go with it now
        item.ctrlMenu.setParent(self, item.ctrlMenu.windowFlags())
        form = item.ctrl.transformGroup.parentWidget()
        if form is not None and form.parentWidget() is None:
            form.setParent(self)
            form.hide()
        item.hideButtons()
        self.apply_palette()

    def colours(self) -> tuple[QColor, QColor, QColor]:
        """(background, text, grid) of the widget's palette."""
        palette = self.palette()
        background = palette.color(QPalette.ColorRole.Base)
        text = palette.color(QPalette.ColorRole.Text)
        grid = QColor(text)
        grid.setAlpha(40)
        return background, text, grid

    def apply_palette(self) -> None:
        background, text, _ = self.colours()
        self.setBackground(background)
        for name in ("left", "bottom", "top", "right"):
            axis = self.plotItem.getAxis(name)
            axis.setPen(pg.mkPen(text))
            axis.setTextPen(pg.mkPen(text))
        self.plotItem.titleLabel.setAttr("color", text.name())

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        # (pyqtgraph's constructor changes the palette before the plot item exists)
        if event.type() == QEvent.Type.PaletteChange and self.plotItem is not None:
            self.apply_palette()
            self.redraw()

    def redraw(self) -> None:
        """Draw again with the current palette (subclasses)."""


# ---- occupancy curves ------------------------------------------------------------------------
CURVE_AXIS = {
    "launch__occupancy_per_register_count": "registers per thread",
    "launch__occupancy_per_block_size": "threads per block",
    "launch__occupancy_per_shared_mem_size": "shared memory per block (bytes)",
}


class CurvePlot(_Themed):
    """Warps per SM against one launch parameter, with this kernel's value marked. Its items
    are made once and given new data on each kernel switch (making them again costs ~20 ms
    a plot)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMinimumHeight(150)
        self.setMaximumHeight(190)
        item = self.plotItem
        item.setMouseEnabled(False, False)
        item.showGrid(x=True, y=True, alpha=0.15)
        self.curve: OccupancyCurve | None = None
        self._line = item.plot([], [])
        self._marker = pg.InfiniteLine(0.0, angle=90, movable=False)
        item.addItem(self._marker)
        self._dot = item.plot([], [], pen=None, symbol="o")
        self._titles: tuple[str, ...] = ()  # title and axis labels drawn, and their colour
        self.redraw()

    def set_curve(self, curve: OccupancyCurve) -> None:
        self.curve = curve
        self.redraw()

    def redraw(self) -> None:
        item = self.plotItem
        _, text, _ = self.colours()
        highlight = self.palette().color(QPalette.ColorRole.Highlight)
        self._line.setPen(pg.mkPen(highlight, width=2))
        self._marker.setPen(pg.mkPen(text, width=1, style=Qt.PenStyle.DashLine))
        self._dot.setSymbolBrush(highlight)
        curve = self.curve
        if curve is None or not curve.points:
            self._line.setData([], [])
            self._dot.setData([], [])
            self._marker.hide()
            return
        xs = np.array([x for x, _ in curve.points])
        ys = np.array([y for _, y in curve.points])
        self._line.setData(xs, ys)
        titles = (curve.label, CURVE_AXIS.get(curve.metric, ""), text.name())
        if titles != self._titles:
            self._titles = titles
            item.setTitle(curve.label, size="9pt")
            item.setLabel("bottom", titles[1], color=text.name())
            item.setLabel("left", "warps", color=text.name())
        tip = f"{curve.label}: the warps per SM the occupancy allows at each value"
        if curve.current is None:
            self._marker.hide()
            self._dot.setData([], [])
        else:
            at = float(np.interp(curve.current, xs, ys))
            self._marker.setValue(curve.current)
            self._marker.show()
            self._dot.setData([curve.current], [at])
            tip += f"; this kernel: {curve.current:g} → {at:g} warps"
        self.setToolTip(tip)


# ---- the roofline ----------------------------------------------------------------------------
class RooflinePlot(_Themed):
    """Achieved FLOP/s against arithmetic intensity, log-log, with the device's ceilings.

    One point per kernel (or per launch of one kernel) at each memory level: DRAM filled,
    L2 and L1 hollow, joined by a thin line; its size by the share of the model's time.
    Clicking a point emits ``kernel_clicked``; hovering shows its numbers."""

    kernel_clicked = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            parent,
            axisItems={"bottom": SiLogAxis("bottom"), "left": SiLogAxis("left")},
        )
        self.plotItem.getAxis("bottom").setLogMode(True)
        self.plotItem.getAxis("left").setLogMode(True)
        self.plotItem.showGrid(x=True, y=True, alpha=0.15)
        # a frame on the right, and room there: labels at the right edge stay whole
        self.plotItem.showAxis("right")
        self.plotItem.getAxis("right").setStyle(showValues=False)
        self.setMinimumSize(300, 150)
        self._roof: Roofline | None = None
        self._points: list[RooflinePoint] = []
        self._selected: str | None = None
        self._title = ""
        self.spots: dict[str, tuple[float, float]] = {}  # kernel -> its DRAM point (log10)
        self._scatters: list[tuple[pg.ScatterPlotItem, str, object]] = []  # item, kernel, pen
        self._label: pg.TextItem | None = None  # the selected kernel's name
        self._range: tuple[float, float, float, float] | None = None  # log10 x0, x1, y0, y1
        self.plotItem.vb.sigResized.connect(self._fit_range)

    def set_points(
        self,
        roof: Roofline,
        points: Sequence[RooflinePoint],
        *,
        selected: str | None = None,
        title: str = "",
    ) -> None:
        self._roof, self._points, self._selected, self._title = roof, list(points), selected, title
        self.redraw()

    def select(self, kernel: str | None) -> None:
        """Mark another kernel's points (their outline and name), without drawing again."""
        if kernel == self._selected:
            return
        self._selected = kernel
        _, text, _ = self.colours()
        for scatter, owner, pen in self._scatters:
            scatter.setPen(pg.mkPen(text, width=2.5) if owner == kernel else pen)
        self._place_label(kernel)

    def _place_label(self, kernel: str | None) -> None:
        spot = self.spots.get(kernel) if kernel else None
        if self._label is None or spot is None:
            if self._label is not None:
                self._label.hide()
            return
        self._label.setText(_short(kernel or ""))
        # on the side of the point with room for it: to the left in the right half
        (x0, x1), _ = self.plotItem.vb.viewRange()
        right_half = x1 > x0 and (spot[0] - x0) / (x1 - x0) > 0.5
        self._label.setAnchor((1.15, 1.1) if right_half else (-0.15, 1.1))
        self._label.setPos(*spot)
        self._label.show()

    def point_position(self, kernel: str) -> QPoint | None:
        """Where on the widget the kernel's DRAM point is drawn (for clicks)."""
        spot = self.spots.get(kernel)
        if spot is None:
            return None
        scene = self.plotItem.vb.mapViewToScene(QPointF(*spot))
        return self.mapFromScene(scene)

    def redraw(self) -> None:
        item = self.plotItem
        item.clear()
        self.spots = {}
        self._scatters = []
        self._label = None
        self._range = None
        roof = self._roof
        shown = [p for p in self._points if p.plottable]
        if roof is None or not shown:
            return
        c = roof.ceilings
        _, text, _ = self.colours()
        precisions = relevant_precisions(shown)
        peaks = {p: c.compute[p] for p in precisions if c.compute.get(p)}
        levels = [lv for lv in LEVELS if lv in c.bandwidth]
        intensities = [i for q in shown for lv in LEVELS if (i := q.intensity(lv))]
        flops = [q.flops_per_s for q in shown]
        x0, x1 = min(intensities) / 4, max(intensities) * 4
        y0, y1 = min(flops) / 4, max(flops) * 2
        if peaks and levels:
            top = max(peaks.values())
            ridge = top / min(c.bandwidth[lv] for lv in levels)
            x0, x1 = min(x0, ridge / 4), max(x1, ridge * 8)
            y1 = max(y1, top)
            self._ceilings(peaks, {lv: c.bandwidth[lv] for lv in levels}, x0, x1, y0, text)
        item.setTitle(self._title, size="10pt")
        item.setLabel("bottom", "arithmetic intensity (FLOP/byte)", color=text.name())
        item.setLabel("left", "FLOP/s", color=text.name())
        self._scatter(shown, text)
        self._label = pg.TextItem("", color=text, anchor=(-0.15, 1.1))
        item.addItem(self._label)
        self._range = (math.log10(x0), math.log10(x1), math.log10(y0), math.log10(y1))
        self._fit_range()
        one_each = len({q.kernel for q in shown}) == len(shown)
        self._place_label(self._selected if one_each else None)  # once the range is set

    def _fit_range(self) -> None:
        """The view's range: the points and roofs, and above the highest roof a line of
        text's height in pixels (its name stands there) whatever the plot's height (a short
        plot in a bottom dock cut it off)."""
        if self._range is None:
            return
        x0, x1, b, a = self._range  # log10: the range's bottom, the highest roof (or point)
        height = self.plotItem.vb.height()
        room = min(0.45, 1.6 * self.fontMetrics().height() / height) if height > 0 else 0.3
        top = max(a + 0.3, (a - room * b) / (1 - room))  # (top - a) = room * (top - b)
        self.plotItem.vb.setRange(xRange=(x0, x1), yRange=(b, top), padding=0)

    def _ceilings(
        self,
        peaks: dict[str, float],
        bandwidth: dict[str, float],
        x0: float,
        x1: float,
        y0: float,
        text: QColor,
    ) -> None:
        """Memory diagonals up to the highest compute roof; compute roofs from the fastest
        level's ridge point on."""
        item = self.plotItem
        top = max(peaks.values())
        log = math.log10
        for lv, bw in bandwidth.items():
            a = max(x0, y0 / bw)
            b = min(x1, top / bw)
            colour = LEVEL_COLOUR[lv]
            item.plot([log(a), log(b)], [log(bw * a), log(bw * b)], pen=pg.mkPen(colour, width=2))
            # under its line (which rises to the right), so that the text never crosses it
            label = pg.TextItem(f"{LEVEL_LABEL[lv]} {si(bw, 'B/s')}", color=colour, anchor=(0, 0))
            at = a * (b / a) ** 0.3  # 30% of the way along the line, in log space
            label.setPos(log(at), log(bw * at))
            item.addItem(label)
        fastest = max(bandwidth.values())
        for p, peak in peaks.items():
            start = max(x0, peak / fastest)
            item.plot([log(start), log(x1)], [log(peak), log(peak)], pen=pg.mkPen(text, width=2))
            label = pg.TextItem(f"{PRECISION_LABEL[p]} {si(peak, 'FLOP/s')}", color=text)
            # the highest roof's name above it, the others' under theirs: two roofs a factor
            # of two apart (FP16, FP32) had their names on top of each other
            label.setAnchor((1, 1) if peak == top else (1, 0))
            label.setPos(log(x1), log(peak))
            item.addItem(label)

    def _scatter(self, shown: list[RooflinePoint], text: QColor) -> None:
        item = self.plotItem
        log = math.log10
        order = sorted(shown, key=lambda q: -q.share)
        top_share = max((q.share for q in order), default=0.0) or 1.0
        per_kernel = len({q.kernel for q in order}) == len(order)
        for i, q in enumerate(order):
            colour = point_colour(i)
            size = 8 + 28 * math.sqrt(max(q.share, 0.0) / top_share)
            y = log(q.flops_per_s)
            xs = {lv: log(v) for lv in LEVELS if (v := q.intensity(lv))}
            if len(xs) > 1:
                item.plot(
                    [min(xs.values()), max(xs.values())], [y, y], pen=pg.mkPen(colour, width=1)
                )
            selected = q.kernel == self._selected and per_kernel
            for lv, x in xs.items():
                filled = lv == "dram"
                normal = pg.mkPen(colour if filled else LEVEL_COLOUR[lv], width=1 if filled else 2)
                pen = pg.mkPen(text, width=2.5) if selected else normal
                scatter = pg.ScatterPlotItem(
                    [x],
                    [y],
                    size=size if filled else size * 0.8,
                    symbol=LEVEL_SYMBOL[lv],
                    pen=pen,
                    brush=pg.mkBrush(colour) if filled else pg.mkBrush(None),
                    data=[q.kernel],
                    hoverable=True,
                    tip=lambda x, y, data, q=q, lv=lv: _tip(q, lv, per_kernel),
                )
                scatter.sigClicked.connect(self._on_clicked)
                item.addItem(scatter)
                if per_kernel:
                    self._scatters.append((scatter, q.kernel, normal))
            if xs:
                self.spots.setdefault(q.kernel, (xs.get("dram", next(iter(xs.values()))), y))

    def _on_clicked(self, scatter: pg.ScatterPlotItem, points: list, event: object) -> None:
        if len(points):
            self.kernel_clicked.emit(str(points[0].data()))


def _tip(q: RooflinePoint, level: str, per_kernel: bool) -> str:
    intensity = q.intensity(level) or 0.0
    who = q.kernel if per_kernel else f"{q.kernel}, launch {q.launch_ids[0]}"
    lines = [
        who,
        f"{si(q.flops_per_s, 'FLOP/s')} at {intensity:.3g} FLOP/byte ({LEVEL_LABEL[level]})",
        f"{format_us(q.duration_ns)} µs, {100 * q.share:.1f}% of the model's time",
        f"bound by {q.bound}",
    ]
    if q.roofline_time_ns:
        lines.append(f"roofline time {format_us(q.roofline_time_ns)} µs")
    return "\n".join(lines)


def _short(kernel: str) -> str:
    name = kernel.removesuffix("_kernel")
    return name if len(name) <= 40 else name[:37] + "…"
