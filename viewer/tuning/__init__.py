"""The tuning feature: Tune (MetaSchedule) and Build & Profile Tuned, with their jobs."""

from .feature import TuningFeature

__all__ = ["TuningFeature"]
