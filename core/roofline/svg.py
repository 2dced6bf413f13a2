"""The roofline as inline SVG (the shared page's), drawn from ``plot``'s geometry as the PNG is.

Text, grid and frame carry classes (``grid``, ``frame``, ``peak``, ``muted``, ``dot``) instead
of colours, so that the page's style sheet draws them light or dark with the reader's
preference; the levels' and points' colours are the PNG's (inline styles where a style sheet's
text colour would win over an attribute). Every text is escaped.
"""

from __future__ import annotations

import math
from html import escape

from .model import Roofline
from .plot import LABELLED, LEGEND, LEVEL_COLOUR, Frame, Rgb, roofline_plot


def _rgb(c: Rgb) -> str:
    return "#" + "".join(f"{v:02x}" for v in c)


def render_svg(
    roof: Roofline, *, kernel: str | None = None, size: tuple[int, int] = (1200, 700)
) -> str:
    """The roofline of every kernel (or one kernel's launches) as an ``<svg>`` element; a
    ``KernelscopeError`` when there is nothing to plot (as ``render_png``)."""
    plot = roofline_plot(roof, kernel)
    box = Frame(plot, size)
    width, height = size
    left, right, top, bottom = box.left, box.right, box.top, box.bottom
    X, Y = box.x, box.y

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="{escape(plot.title)}">'
    ]

    def text(
        x: float, y: float, body: str, anchor: str = "start", cls: str = "", **attrs: str
    ) -> None:
        extra = "".join(f' {k.replace("_", "-")}="{escape(v)}"' for k, v in attrs.items())
        c = f' class="{cls}"' if cls else ""
        out.append(
            f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}"{c}{extra}>{escape(body)}</text>'
        )

    for x, label in box.x_ticks():
        out.append(f'<line class="grid" x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{bottom}"/>')
        text(x, bottom + 18, label, "middle", "muted")
    for y, label in box.y_ticks():
        out.append(f'<line class="grid" x1="{left}" y1="{y:.1f}" x2="{right}" y2="{y:.1f}"/>')
        text(left - 8, y + 4, label, "end", "muted")
    out.append(
        f'<rect class="frame" x="{left}" y="{top}" width="{right - left}" '
        f'height="{bottom - top}" fill="none"/>'
    )
    text((left + right) / 2, height - 18, "arithmetic intensity (FLOP/byte)", "middle")
    text(left - 70, top - 18, "FLOP/s")
    text((left + right) / 2, 24, plot.title, "middle")
    text(left, top - 12, LEGEND, cls="muted", style="white-space:pre")

    for c in plot.memory:
        colour = _rgb(LEVEL_COLOUR[c.key])
        out.append(
            f'<line x1="{X(c.x0):.1f}" y1="{Y(c.y0):.1f}" x2="{X(c.x1):.1f}" y2="{Y(c.y1):.1f}" '
            f'stroke="{colour}" stroke-width="2"/>'
        )
        at = math.sqrt(c.x0 * c.x1) / 3  # a third of the way along the line, in log space
        text(X(at) + 8, Y(c.y0 / c.x0 * at) + 4, c.label, style=f"fill:{colour}")
    for c in plot.compute:
        out.append(
            f'<line class="peak" x1="{X(c.x0):.1f}" y1="{Y(c.y0):.1f}" x2="{right}" '
            f'y2="{Y(c.y0):.1f}" stroke-width="2"/>'
        )
        text(right - 6, Y(c.y0) - 5, c.label, "end")

    for i, q in enumerate(plot.points):
        colour = _rgb(q.colour)
        y = Y(q.point.flops_per_s)
        xs = [(lv, X(ai)) for lv, ai in q.intensities]
        group = [
            f"<g><title>{escape(q.point.kernel)}: {100 * q.point.share:.1f}% of the time</title>"
        ]
        if len(xs) > 1:
            lo, hi = min(x for _, x in xs), max(x for _, x in xs)
            group.append(
                f'<line x1="{lo:.1f}" y1="{y:.1f}" x2="{hi:.1f}" y2="{y:.1f}" stroke="{colour}"/>'
            )
        for lv, x in xs:
            if lv == "dram":
                group.append(
                    f'<circle class="dot" cx="{x:.1f}" cy="{y:.1f}" r="{q.radius:.1f}" '
                    f'fill="{colour}"/>'
                )
            else:
                group.append(
                    f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{q.radius:.1f}" fill="none" '
                    f'stroke="{_rgb(LEVEL_COLOUR[lv])}" stroke-width="2"/>'
                )
        out.append("".join(group) + "</g>")
        if q.label:
            lx, ly = box.legend_row(i)
            out.append(f'<circle cx="{lx + 6}" cy="{ly}" r="6" fill="{colour}"/>')
            text(lx + 20, ly + 4, q.label)
    if plot.hidden > 0:
        lx, ly = box.legend_row(LABELLED)
        text(lx, ly + 4, f"+ {plot.hidden} more", cls="muted")
    out.append("</svg>")
    return "\n".join(out)
