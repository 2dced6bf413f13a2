"""The window's features, in the order they are installed (``feature.Feature``): a new
feature is one more entry. The order is the order of their docks (View's first section, the
tabs at the bottom) and of their status-bar widgets; a feature that uses another at install
time comes after it."""

from __future__ import annotations

from collections.abc import Callable

from .build_profile import BuildProfileFeature
from .compare import CompareFeature
from .details import DetailsFeature
from .feature import Feature
from .kernel_db import KernelDbFeature
from .share import ShareFeature
from .steps import StepsFeature
from .timeline import TimelineFeature
from .torch_runs import TorchRunsFeature
from .tuning import TuningFeature

FEATURES: tuple[Callable[[], Feature], ...] = (
    KernelDbFeature,
    TimelineFeature,
    DetailsFeature,
    StepsFeature,
    TorchRunsFeature,
    CompareFeature,
    TuningFeature,
    BuildProfileFeature,
    ShareFeature,
)
