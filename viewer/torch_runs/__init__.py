"""torch.compile runs: a TVM build against a torch.compile run folder, operator group by group."""

from .feature import TorchRunsFeature

__all__ = ["TorchRunsFeature"]
