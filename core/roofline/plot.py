"""What a drawn roofline shows, whatever draws it (``png`` with Pillow, ``svg`` as markup): the
axes' decades, the ceilings as segments in data coordinates, and the points in the order they
are drawn, with their colours and sizes. One geometry, so that ``roofline --png`` and the
shared page's SVG show the same plot."""

from __future__ import annotations

import colorsys
import math
from dataclasses import dataclass

from ..errors import KernelscopeError
from .model import LEVEL_LABEL, PRECISION_LABEL, Roofline, RooflinePoint, relevant_precisions

LEVEL_COLOUR = {"dram": (31, 119, 180), "l2": (44, 160, 44), "l1": (255, 127, 14)}
# distinct hues around the colour wheel (golden-angle steps)
POINT_COLOURS = [
    tuple(round(255 * c) for c in colorsys.hsv_to_rgb((0.0 + 0.381966 * i) % 1.0, 0.75, 0.85))
    for i in range(16)
]
LABELLED = 14  # kernels in the legend: the ones with the largest share of the time
LEGEND = "filled: DRAM   green ring: L2   orange ring: L1   area: share of time"

Rgb = tuple[int, ...]


def si(value: float, unit: str) -> str:
    for scale, prefix in ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "K")):
        if value >= scale:
            return f"{value / scale:.3g} {prefix}{unit}"
    return f"{value:.3g} {unit}"


@dataclass(frozen=True)
class Ceiling:
    """A roof from (x0, y0) to (x1, y1) in data coordinates (FLOP/byte, FLOP/s)."""

    key: str  # a level ("dram") or a precision ("fp32")
    x0: float
    y0: float
    x1: float
    y1: float
    label: str


@dataclass(frozen=True)
class PlotPoint:
    point: RooflinePoint
    colour: Rgb
    radius: float  # in the plot's pixels at scale 1
    label: str  # for the legend ("" past the first LABELLED)
    intensities: list[tuple[str, float]]  # (level, FLOP/byte) of each level drawn


@dataclass(frozen=True)
class RooflinePlot:
    title: str
    x_decades: tuple[int, int]  # log10 of the x axis' ends
    y_decades: tuple[int, int]
    memory: list[Ceiling]  # diagonals, one per level
    compute: list[Ceiling]  # flat roofs, one per precision
    points: list[PlotPoint]  # largest share first (drawn first)
    hidden: int  # points not in the legend

    def fx(self, ai: float) -> float:
        """Where ``ai`` lies along the x axis, 0..1."""
        x0, x1 = self.x_decades
        return (math.log10(ai) - x0) / (x1 - x0)

    def fy(self, flops: float) -> float:
        """Where ``flops`` lies up the y axis, 0..1."""
        y0, y1 = self.y_decades
        return (math.log10(flops) - y0) / (y1 - y0)


@dataclass(frozen=True)
class Frame:
    """The plot's box in an image ``size`` pixels big, drawn at ``scale`` (the PNG's
    supersampling), and where values land in it: the one layout the PNG and the SVG draw."""

    plot: RooflinePlot
    size: tuple[int, int]
    scale: int = 1

    @property
    def width(self) -> int:
        return self.size[0] * self.scale

    @property
    def height(self) -> int:
        return self.size[1] * self.scale

    @property
    def left(self) -> int:
        return 80 * self.scale

    @property
    def right(self) -> int:
        return self.width - 290 * self.scale  # the legend's room beside the plot

    @property
    def top(self) -> int:
        return 50 * self.scale

    @property
    def bottom(self) -> int:
        return self.height - 60 * self.scale

    def x(self, ai: float) -> float:
        return self.left + self.plot.fx(ai) * (self.right - self.left)

    def y(self, flops: float) -> float:
        return self.bottom - self.plot.fy(flops) * (self.bottom - self.top)

    def x_ticks(self) -> list[tuple[float, str]]:
        """(x, label) of each decade of arithmetic intensity."""
        x0, x1 = self.plot.x_decades
        return [(self.x(10.0**e), f"{10.0**e:g}") for e in range(x0, x1 + 1)]

    def y_ticks(self) -> list[tuple[float, str]]:
        """(y, label) of each decade of FLOP/s."""
        y0, y1 = self.plot.y_decades
        return [(self.y(10.0**e), si(10.0**e, "")) for e in range(y0, y1 + 1)]

    def legend_row(self, i: int) -> tuple[float, float]:
        """Where the legend's ``i``-th entry starts (its marker's left edge, its middle)."""
        return self.right + 20 * self.scale, self.top + (10 + 22 * i) * self.scale


def roofline_plot(roof: Roofline, kernel: str | None = None) -> RooflinePlot:
    """The plot of every kernel (or one kernel's launches); a ``KernelscopeError`` when there
    is nothing to plot or no ceiling to draw."""
    points = roof.launches if kernel else roof.points
    if kernel:
        points = [p for p in points if p.kernel == kernel]
    shown = [p for p in points if p.plottable]
    if not shown:
        if roof.note:
            raise KernelscopeError(f"nothing to plot: {roof.note}")
        raise KernelscopeError(
            "nothing to plot: no kernel has both floating-point work and DRAM traffic",
            hint="kernels that only move data have no arithmetic intensity",
        )
    c = roof.ceilings
    if "dram" not in c.bandwidth or not c.compute:
        raise KernelscopeError("the profile has no device ceilings to draw", hint=roof.note)
    precisions = relevant_precisions(shown)
    peaks = {p: c.compute[p] for p in precisions if c.compute.get(p)}
    levels = [lv for lv in ("dram", "l2", "l1") if lv in c.bandwidth]
    intensities = [i for q in shown for lv in levels if (i := q.intensity(lv))]
    ridge = max(peaks.values()) / min(c.bandwidth[lv] for lv in levels)
    x0 = math.floor(math.log10(0.5 * min([*intensities, ridge])))
    x1 = math.ceil(math.log10(max([*intensities, ridge]))) + 1
    y_values = [q.flops_per_s for q in shown]
    y0 = math.floor(math.log10(min(y_values))) - 1
    y1 = math.ceil(math.log10(2 * max(peaks.values())))

    # memory diagonals up to the highest compute roof, compute roofs from the DRAM ridge on
    top_peak = max(peaks.values())
    xmin, xmax = 10.0**x0, 10.0**x1
    memory = []
    for lv in levels:
        bw = c.bandwidth[lv]
        a = max(xmin, 10.0**y0 / bw)
        b = min(xmax, top_peak / bw)
        memory.append(Ceiling(lv, a, bw * a, b, bw * b, f"{LEVEL_LABEL[lv]} {si(bw, 'B/s')}"))
    compute = []
    for p, peak in peaks.items():
        start = max(xmin, peak / c.bandwidth[levels[0]])
        label = f"{PRECISION_LABEL[p]} {si(peak, 'FLOP/s')}"
        compute.append(Ceiling(p, start, peak, xmax, peak, label))

    order = sorted(shown, key=lambda q: -q.share)
    plotted = []
    for i, q in enumerate(order):
        label = ""
        if i < LABELLED:
            name = f"launch {q.launch_ids[0]}" if kernel else _name(q.kernel)
            label = f"{name}  {100 * q.share:.0f}%"
        plotted.append(
            PlotPoint(
                q,
                POINT_COLOURS[i % len(POINT_COLOURS)],
                4 + 14 * math.sqrt(max(q.share, 0.0)),
                label,
                [(lv, ai) for lv in levels if (ai := q.intensity(lv))],
            )
        )
    title = f"Roofline: {c.device or 'GPU'}" + (f", {kernel}" if kernel else "")
    return RooflinePlot(
        title, (x0, x1), (y0, y1), memory, compute, plotted, max(0, len(order) - LABELLED)
    )


def _name(kernel: str) -> str:
    name = kernel.removesuffix("_kernel")
    return name if len(name) <= 34 else name[:31] + "..."
