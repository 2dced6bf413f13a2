"""Build & Profile: the dialog that builds a model (TVM or torch.compile) and profiles it."""

from .feature import BuildProfileFeature

__all__ = ["BuildProfileFeature"]
