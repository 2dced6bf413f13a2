"""Sharing: the open profile as one HTML file (File > Share as Web Page...)."""

from .feature import ShareFeature

__all__ = ["ShareFeature"]
