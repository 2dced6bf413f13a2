"""The Steps pane: the step ledger of an LLM's profile (``kernelscope steps``) in a dock."""

from .feature import StepsFeature

__all__ = ["StepsFeature"]
