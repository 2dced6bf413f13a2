"""The roofline as a PNG, without Qt (``kernelscope roofline --png``).

Drawn with Pillow: core must not load Qt, and Pillow is small (about 9 MB resident, 0.1 s to
import and draw here) where matplotlib costs 2 s and 70 MB. Lines and markers are drawn at
twice the size and scaled down, which anti-aliases them. What is drawn is ``plot``'s geometry,
as the shared page's SVG (``svg``); the window's roofline is a pyqtgraph plot of the same
``Roofline`` value.
"""

from __future__ import annotations

import math
from pathlib import Path

from .model import Roofline
from .plot import LABELLED, LEGEND, LEVEL_COLOUR, Frame, roofline_plot

_SCALE = 2  # supersampling factor
_LIGHT = {
    "bg": (255, 255, 255),
    "fg": (30, 30, 30),
    "grid": (225, 225, 225),
    "muted": (120, 120, 120),
}
_DARK = {"bg": (30, 31, 34), "fg": (225, 225, 225), "grid": (60, 62, 66), "muted": (150, 150, 150)}


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

    plot = roofline_plot(roof, kernel)
    colours = _DARK if dark else _LIGHT
    s = _SCALE
    frame = Frame(plot, size, s)
    width, height = frame.width, frame.height
    image = Image.new("RGB", (width, height), colours["bg"])
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=13 * s)
    small = ImageFont.load_default(size=11 * s)
    left, right, top, bottom = frame.left, frame.right, frame.top, frame.bottom
    X, Y = frame.x, frame.y

    # grid and axes
    for x, label in frame.x_ticks():
        draw.line([(x, top), (x, bottom)], fill=colours["grid"], width=s)
        draw.text((x, bottom + 8 * s), label, font=small, fill=colours["muted"], anchor="mt")
    for y, label in frame.y_ticks():
        draw.line([(left, y), (right, y)], fill=colours["grid"], width=s)
        draw.text((left - 8 * s, y), label, font=small, fill=colours["muted"], anchor="rm")
    draw.rectangle([left, top, right, bottom], outline=colours["fg"], width=s)
    draw.text(
        ((left + right) / 2, height - 22 * s),
        "arithmetic intensity (FLOP/byte)",
        font=font,
        fill=colours["fg"],
        anchor="mm",
    )
    draw.text((left - 70 * s, top - 30 * s), "FLOP/s", font=font, fill=colours["fg"])
    draw.text(((left + right) / 2, 20 * s), plot.title, font=font, fill=colours["fg"], anchor="mm")

    for c in plot.memory:
        colour = LEVEL_COLOUR[c.key]
        draw.line([(X(c.x0), Y(c.y0)), (X(c.x1), Y(c.y1))], fill=colour, width=2 * s)
        at = math.sqrt(c.x0 * c.x1) / 3  # a third of the way along the line, in log space
        bw = c.y0 / c.x0
        draw.text(
            (X(at) + 8 * s, Y(bw * at) + 4 * s), c.label, font=small, fill=colour, anchor="ls"
        )
    for c in plot.compute:
        draw.line([(X(c.x0), Y(c.y0)), (right, Y(c.y0))], fill=colours["fg"], width=2 * s)
        draw.text(
            (right - 6 * s, Y(c.y0) - 4 * s), c.label, font=small, fill=colours["fg"], anchor="rs"
        )

    # points: one per kernel, its area by its share of the model's time; DRAM filled,
    # L2 and L1 hollow, joined by a thin line
    for i, q in enumerate(plot.points):
        r = q.radius * s
        y = Y(q.point.flops_per_s)
        xs = [(lv, X(ai)) for lv, ai in q.intensities]
        if len(xs) > 1:
            draw.line(
                [(min(x for _, x in xs), y), (max(x for _, x in xs), y)], fill=q.colour, width=s
            )
        for lv, x in xs:
            box = [x - r, y - r, x + r, y + r]
            if lv == "dram":
                draw.ellipse(box, fill=q.colour, outline=colours["fg"], width=s)
            else:
                draw.ellipse(box, outline=LEVEL_COLOUR[lv], width=2 * s)
        if q.label:  # legend on the right, largest share first
            lx, ly = frame.legend_row(i)
            draw.ellipse([lx, ly - 6 * s, lx + 12 * s, ly + 6 * s], fill=q.colour)
            draw.text((lx + 20 * s, ly), q.label, font=small, fill=colours["fg"], anchor="lm")
    if plot.hidden > 0:
        lx, ly = frame.legend_row(LABELLED)
        draw.text(
            (lx, ly),
            f"+ {plot.hidden} more",
            font=small,
            fill=colours["muted"],
            anchor="lm",
        )
    draw.text((left, top - 12 * s), LEGEND, font=small, fill=colours["muted"], anchor="ls")
    out = Path(path)
    image.resize(size, Image.Resampling.LANCZOS).save(out)
    return out
