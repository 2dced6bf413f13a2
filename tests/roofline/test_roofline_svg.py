"""The roofline as SVG (the shared page's) draws what ``roofline --png`` draws: one geometry
(``roofline.plot``), the same points, ceilings and legend."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from paths_support import data_path

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.ncu import Profile
from kernelscope.core.roofline import render_svg, roofline
from kernelscope.core.roofline.plot import LABELLED, roofline_plot

MLP = data_path("ncu/mlp/mlp.ncu-rep")
SVG = "{http://www.w3.org/2000/svg}"


def test_svg_has_every_point_and_the_legend_in_order() -> None:
    roof = roofline(Profile.open(MLP))
    plot = roofline_plot(roof)
    root = ET.fromstring(render_svg(roof))  # well-formed XML
    dots = root.findall(f".//{SVG}g/{SVG}circle")
    assert len(dots) == sum(len(p.intensities) for p in plot.points) > 0
    titles = [t.text for t in root.findall(f".//{SVG}g/{SVG}title")]
    assert [t.split(":")[0] for t in titles] == [p.point.kernel for p in plot.points]
    legend = [t.text for t in root.findall(f"{SVG}text") if t.text and t.text.endswith("%")]
    assert legend == [p.label for p in plot.points[:LABELLED]]
    # each legend row one step below the one before (the PNG had them where a comprehension's
    # variable left them)
    ys = [float(t.get("y")) for t in root.findall(f"{SVG}text") if t.text in legend]
    assert ys == sorted(ys) and len(set(ys)) == len(ys)
    assert any(re.match(r"DRAM [\d.]+ TB/s", t.text or "") for t in root.iter(f"{SVG}text"))


def test_svg_escapes_names_and_says_why_nothing_is_plotted() -> None:
    roof = roofline(Profile.open(MLP))
    for p in roof.points:
        p.kernel = "<b>&" + p.kernel
    text = render_svg(roof)
    assert "<b>" not in text and "&lt;b&gt;&amp;" in text
    with pytest.raises(KernelscopeError, match="nothing to plot"):
        render_svg(roofline(Profile.open(data_path("h200/small_cnn_h200.ncu-rep"))))
