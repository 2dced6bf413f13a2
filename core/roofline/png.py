"""The roofline as a PNG, without Qt (``kernelscope roofline --png``).

Drawn with Pillow: core must not load Qt, and Pillow is small (about 9 MB resident, 0.1 s to
import and draw here) where matplotlib costs 2 s and 70 MB. Lines and markers are drawn at
twice the size and scaled down, which anti-aliases them. The window's roofline is a
pyqtgraph plot of the same ``Roofline`` value.
"""

from __future__ import annotations

import colorsys
import math
from pathlib import Path

from ..errors import KernelscopeError
from .model import LEVEL_LABEL, PRECISION_LABEL, Roofline, relevant_precisions

_SCALE = 2  # supersampling factor
_LIGHT = {
    "bg": (255, 255, 255),
    "fg": (30, 30, 30),
    "grid": (225, 225, 225),
    "muted": (120, 120, 120),
}
_DARK = {"bg": (30, 31, 34), "fg": (225, 225, 225), "grid": (60, 62, 66), "muted": (150, 150, 150)}
_LEVEL_COLOUR = {"dram": (31, 119, 180), "l2": (44, 160, 44), "l1": (255, 127, 14)}
# distinct hues around the colour wheel (golden-angle steps)
_POINT_COLOURS = [
    tuple(round(255 * c) for c in colorsys.hsv_to_rgb((0.0 + 0.381966 * i) % 1.0, 0.75, 0.85))
    for i in range(16)
]
_LABELLED = 14  # kernels in the legend: the ones with the largest share of the time


def _si(value: float, unit: str) -> str:
    for scale, prefix in ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "K")):
        if value >= scale:
            return f"{value / scale:.3g} {prefix}{unit}"
    return f"{value:.3g} {unit}"


def render_png(
    roof: Roofline,
    path: str | Path,
    *,
    kernel: str | None = None,
    size: tuple[int, int] = (1200, 700),
    dark: bool = False,
) -> Path:
    """Write the roofline of every kernel (or one kernel's launches) to ``path``."""
    from PIL import Image, ImageDraw, ImageFont

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
    colours = _DARK if dark else _LIGHT
    s = _SCALE
    width, height = size[0] * s, size[1] * s
    image = Image.new("RGB", (width, height), colours["bg"])
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=13 * s)
    small = ImageFont.load_default(size=11 * s)
    left, right, top, bottom = 80 * s, width - 290 * s, 50 * s, height - 60 * s

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

    def X(ai: float) -> float:
        return left + (math.log10(ai) - x0) / (x1 - x0) * (right - left)

    def Y(f: float) -> float:
        return bottom - (math.log10(f) - y0) / (y1 - y0) * (bottom - top)

    # grid and axes
    for e in range(x0, x1 + 1):
        x = X(10.0**e)
        draw.line([(x, top), (x, bottom)], fill=colours["grid"], width=s)
        draw.text(
            (x, bottom + 8 * s), f"{10.0**e:g}", font=small, fill=colours["muted"], anchor="mt"
        )
    for e in range(y0, y1 + 1):
        y = Y(10.0**e)
        draw.line([(left, y), (right, y)], fill=colours["grid"], width=s)
        draw.text(
            (left - 8 * s, y), _si(10.0**e, ""), font=small, fill=colours["muted"], anchor="rm"
        )
    draw.rectangle([left, top, right, bottom], outline=colours["fg"], width=s)
    draw.text(
        ((left + right) / 2, height - 22 * s),
        "arithmetic intensity (FLOP/byte)",
        font=font,
        fill=colours["fg"],
        anchor="mm",
    )
    draw.text((left - 70 * s, top - 30 * s), "FLOP/s", font=font, fill=colours["fg"])
    title = f"Roofline: {c.device or 'GPU'}" + (f", {kernel}" if kernel else "")
    draw.text(((left + right) / 2, 20 * s), title, font=font, fill=colours["fg"], anchor="mm")

    # ceilings: memory diagonals up to the highest compute roof, compute roofs from the DRAM
    # ridge point on
    top_peak = max(peaks.values())
    xmin, xmax = 10.0**x0, 10.0**x1
    for lv in levels:
        bw = c.bandwidth[lv]
        a = max(xmin, 10.0**y0 / bw)
        b = min(xmax, top_peak / bw)
        draw.line([(X(a), Y(bw * a)), (X(b), Y(bw * b))], fill=_LEVEL_COLOUR[lv], width=2 * s)
        at = math.sqrt(a * b) / 3  # a third of the way along the line, in log space
        draw.text(
            (X(at) + 8 * s, Y(bw * at) + 4 * s),
            f"{LEVEL_LABEL[lv]} {_si(bw, 'B/s')}",
            font=small,
            fill=_LEVEL_COLOUR[lv],
            anchor="ls",
        )
    for p, peak in peaks.items():
        start = max(xmin, peak / c.bandwidth[levels[0]])
        draw.line([(X(start), Y(peak)), (right, Y(peak))], fill=colours["fg"], width=2 * s)
        draw.text(
            (right - 6 * s, Y(peak) - 4 * s),
            f"{PRECISION_LABEL[p]} {_si(peak, 'FLOP/s')}",
            font=small,
            fill=colours["fg"],
            anchor="rs",
        )

    # points: one per kernel, its area by its share of the model's time; DRAM filled,
    # L2 and L1 hollow, joined by a thin line
    order = sorted(shown, key=lambda q: -q.share)
    for i, q in enumerate(order):
        colour = _POINT_COLOURS[i % len(_POINT_COLOURS)]
        r = (4 + 14 * math.sqrt(max(q.share, 0.0))) * s
        y = Y(q.flops_per_s)
        xs = [(lv, X(i)) for lv in levels if (i := q.intensity(lv))]
        if len(xs) > 1:
            draw.line(
                [(min(x for _, x in xs), y), (max(x for _, x in xs), y)], fill=colour, width=s
            )
        for lv, x in xs:
            box = [x - r, y - r, x + r, y + r]
            if lv == "dram":
                draw.ellipse(box, fill=colour, outline=colours["fg"], width=s)
            else:
                draw.ellipse(box, outline=_LEVEL_COLOUR[lv], width=2 * s)
        if i < _LABELLED:  # legend on the right, largest share first
            ly = top + (10 + 22 * i) * s
            lx = right + 20 * s
            draw.ellipse([lx, ly - 6 * s, lx + 12 * s, ly + 6 * s], fill=colour)
            label = f"launch {q.launch_ids[0]}" if kernel else _name(q.kernel)
            text = f"{label}  {100 * q.share:.0f}%"
            draw.text((lx + 20 * s, ly), text, font=small, fill=colours["fg"], anchor="lm")
    hidden = len(order) - _LABELLED
    if hidden > 0:
        ly = top + (10 + 22 * _LABELLED) * s
        draw.text(
            (right + 20 * s, ly), f"+ {hidden} more", font=small, fill=colours["muted"], anchor="lm"
        )
    legend = "filled: DRAM   green ring: L2   orange ring: L1   area: share of time"
    draw.text((left, top - 12 * s), legend, font=small, fill=colours["muted"], anchor="ls")
    out = Path(path)
    image.resize(size, Image.Resampling.LANCZOS).save(out)
    return out


def _name(kernel: str) -> str:
    name = kernel.removesuffix("_kernel")
    return name if len(name) <= 34 else name[:31] + "..."
