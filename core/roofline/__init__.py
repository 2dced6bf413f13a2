"""Where a kernel stands against the GPU's limits: roofline points from a profile's FLOP and
byte counters, the device's ceilings, the analytic cost of the TVM operators a kernel was fused
from, and the headroom list (the microseconds each kernel could save)."""

from .headroom import Headroom, HeadroomRow, headroom, operator_bound_us
from .model import (
    LEVEL_LABEL,
    LEVELS,
    PRECISION_LABEL,
    Roofline,
    RooflinePoint,
    relevant_precisions,
    roofline,
)
from .nominal import nominal_ceilings
from .opcost import describe, kernel_cost
from .png import render_png
from .svg import render_svg

__all__ = [
    "LEVELS",
    "LEVEL_LABEL",
    "PRECISION_LABEL",
    "Headroom",
    "HeadroomRow",
    "Roofline",
    "RooflinePoint",
    "describe",
    "headroom",
    "kernel_cost",
    "nominal_ceilings",
    "operator_bound_us",
    "relevant_precisions",
    "render_png",
    "render_svg",
    "roofline",
]
