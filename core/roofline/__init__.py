"""Where a kernel stands against the GPU's limits: roofline points from a profile's FLOP and
byte counters, the device's ceilings, the analytic cost of the TVM operators a kernel was fused
from, and the headroom list (the microseconds each kernel could save)."""

from .headroom import Headroom, HeadroomRow, headroom, operator_bound_us, operator_time_ns
from .model import (
    LEVEL_LABEL,
    LEVELS,
    PRECISION_LABEL,
    PRECISIONS,
    ROOFLINE_FLAGS,
    Ceilings,
    Roofline,
    RooflinePoint,
    relevant_precisions,
    roofline,
)
from .nominal import nominal_ceilings
from .opcost import KernelCost, OpCost, describe, kernel_cost, op_cost
from .png import render_png
from .svg import render_svg

__all__ = [
    "LEVELS",
    "LEVEL_LABEL",
    "PRECISIONS",
    "PRECISION_LABEL",
    "ROOFLINE_FLAGS",
    "Ceilings",
    "Headroom",
    "HeadroomRow",
    "KernelCost",
    "OpCost",
    "Roofline",
    "RooflinePoint",
    "describe",
    "headroom",
    "kernel_cost",
    "nominal_ceilings",
    "op_cost",
    "operator_bound_us",
    "operator_time_ns",
    "relevant_precisions",
    "render_png",
    "render_svg",
    "roofline",
]
