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

The duration band belongs to the GPU it was measured on (``NoiseModel.gpu``): a comparison
applies it only to reports of that GPU (``for_devices``). For reports of any other GPU (or
reports that do not name theirs) no band is known, and a conservative default is used and
said: a delta of up to ``UNKNOWN_GPU_SHARE`` of the kernel's time counts as noise (15 %: on an
H100, an unchanged kernel was profiled 13.8 % apart, and the H200's band, applied there, called
it faster), or the H200's band where that is wider. Sampled and exact counts do not depend on
the GPU.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

SAMPLED_PREFIXES = ("smsp__pcsamp_", "group:smsp__pcsamp_")
BAND_GPU = "NVIDIA H200"  # the GPU the duration band was measured on (its device name)
UNKNOWN_GPU_SHARE = 0.15  # the conservative band elsewhere, a share of a kernel's time


def is_sampled(metric: str) -> bool:
    """Whether a per-instruction metric comes from PC sampling (and so varies run to run)."""
    return metric.startswith(SAMPLED_PREFIXES)


@dataclass(frozen=True)
class NoiseModel:
    duration_c_ns: float = 4.0  # variance of a duration of t ns is duration_c_ns * t ns^2
    k: float = 3.0  # standard deviations of the difference that count as noise
    gpu: str = BAND_GPU  # the GPU ``duration_c_ns`` was measured on
    # Set by ``for_devices`` for reports of other GPUs than ``gpu``: the GPUs they name (none:
    # they name none), and the share of a kernel's time that counts as noise on them.
    other_gpus: tuple[str, ...] = ()
    share: float = 0.0

    def for_devices(self, devices: Iterable[str]) -> NoiseModel:
        """This model for reports of ``devices`` (their GPUs' names): as it is where they
        are all ``gpu``; else with no band known for them, the conservative default."""
        named = tuple(dict.fromkeys(d for d in devices if d))
        if named and set(named) == {self.gpu}:
            return replace(self, other_gpus=(), share=0.0)
        others = tuple(d for d in named if d != self.gpu)
        return replace(self, other_gpus=others, share=UNKNOWN_GPU_SHARE)

    @property
    def band_known(self) -> bool:
        """Whether the duration band was measured on the GPU of the reports compared."""
        return not self.share

    def unknown_band_note(self) -> str:
        """What a comparison of reports of another GPU says first ("" where the band is
        known)."""
        if self.band_known:
            return ""
        return (
            f"no noise band is known for {self._unknown()} (kernelscope's was measured on an "
            f"{self.gpu}): a time delta of up to {self._share()} of the kernel's time counts "
            "as noise, a conservative default"
        )

    def _unknown(self) -> str:
        return " and ".join(self.other_gpus) or "the GPU of these reports (they name none)"

    def _share(self) -> str:
        return f"{self.share * 100:.0f} %"

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
        floor = self.share * max(base_ns / base_passes, new_ns / new_passes, 0.0)
        return max(self.k * math.sqrt(var), floor)

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
        band = (
            f"{self.k:g} standard deviations, a duration of t varying by "
            f"sqrt({self.duration_c_ns:g} ns x t) (the same build profiled twice on an "
            f"{self.gpu})"
        )
        if self.band_known:
            return f"Within noise: |delta| <= {band}."
        return (
            f"Within noise: |delta| <= {self._share()} of the kernel's time or {band}, "
            f"whichever is wider; no band is known for {self._unknown()}, so the "
            f"{self._share()} is a conservative default."
        )


NOISE = NoiseModel()
