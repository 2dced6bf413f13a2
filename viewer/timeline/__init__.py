"""The Timeline feature: a model's kernel calls in time order, measured or opened."""

from .feature import TimelineFeature

__all__ = ["TimelineFeature"]
