"""What is within run-to-run noise, from the same workspace profiled twice on an H200.

Durations: the spread of one launch's ``gpu__time_duration`` grows with the square root of its
duration, as if time were counted in independent ticks: variance = ``c`` x duration. Fitted
over the 46 launches of two run-to-run pairs (tests/data/compare/cnn3_b8_run1/run2: c = 1.3 ns;
squeezenet b1 run1/run2: c = 4.0 ns; launch to launch within one report: 3.1 and 4.5 ns),
clocks locked to base as kernelscope's profiler does: ``c = 4 ns`` (a 2.3 us kernel varies by
+-0.1 us, a 90 us one by +-0.6 us). Because variances add, the model holds for a kernel's sum
over launches as well. A kernel profiled at least three times on both sides with one launch
configuration also brings its own launch-to-launch spread, used when it is wider.

Sampled counts (warp-state samples, stall reasons): Poisson, variance = the count; checked on
the same pairs, (new - base) / sqrt(new + base) over 4,053 source lines has a standard
deviation of 0.98 and 1.01.

Everything else (instructions executed, sectors, thread counts) is counted exactly: 0 of
8,250 source lines differed between the runs; any change is real.

A delta is within noise when it is at most ``k`` = 3 standard deviations of the difference.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SAMPLED_PREFIXES = ("smsp__pcsamp_", "group:smsp__pcsamp_")


def is_sampled(metric: str) -> bool:
    """Whether a per-instruction metric comes from PC sampling (and so varies run to run)."""
    return metric.startswith(SAMPLED_PREFIXES)


@dataclass(frozen=True)
class NoiseModel:
    duration_c_ns: float = 4.0  # variance of a duration of t ns is duration_c_ns * t ns^2
    k: float = 3.0  # standard deviations of the difference that count as noise

    def duration_band(
        self,
        base_ns: float,
        new_ns: float,
        base_passes: int = 1,
        new_passes: int = 1,
        base_launches: Sequence[float] = (),
        new_launches: Sequence[float] = (),
    ) -> float:
        """Half-width (ns) of the noise band around a per-pass time delta.

        ``base_ns``/``new_ns`` are the sums over all profiled launches; the delta compared is of
        the per-pass values (sum / passes). ``*_launches`` are the launch durations, given when
        every launch of the kernel has the same configuration.
        """
        var = self._sum_variance(base_ns, base_launches) / base_passes**2
        var += self._sum_variance(new_ns, new_launches) / new_passes**2
        return self.k * math.sqrt(var)

    def _sum_variance(self, total_ns: float, launches: Sequence[float]) -> float:
        var = self.duration_c_ns * max(total_ns, 0.0)
        if len(launches) >= 3:
            mean = sum(launches) / len(launches)
            s2 = sum((x - mean) ** 2 for x in launches) / (len(launches) - 1)
            var = max(var, len(launches) * s2)
        return var

    def count_band(
        self, metric: str, base: float, new: float, base_passes: int = 1, new_passes: int = 1
    ) -> float:
        """Half-width of the noise band around a per-pass delta of a per-instruction metric
        (0 for exactly counted metrics)."""
        if not is_sampled(metric):
            return 0.0
        var = max(base, 0.0) / base_passes**2 + max(new, 0.0) / new_passes**2
        return self.k * math.sqrt(var)

    def describe(self) -> str:
        """What "within noise" means, for people (the CLI's tables, the window's header)."""
        return (
            f"Within noise: |delta| <= {self.k:g} standard deviations, a duration of t varying "
            f"by sqrt({self.duration_c_ns:g} ns x t) (the same build profiled twice on an H200)."
        )


NOISE = NoiseModel()
