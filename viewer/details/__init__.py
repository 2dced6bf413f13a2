"""Why a kernel is slow: the Details, Roofline and Headroom panes and the idle read-ahead."""

from .feature import DetailsFeature

__all__ = ["DetailsFeature"]
