"""The Kernel DB feature: its dock (entries, the NNFusion command line and coverage), the
exports and their options."""

from .feature import KernelDbFeature

__all__ = ["KernelDbFeature"]
