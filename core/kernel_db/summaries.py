"""What an export keeps of a profile beside each kernel: its mean time, the Nsight Compute
version, and a line summary (totals, stall reasons, hottest lines) so that a library entry
keeps why it was fast or slow. The CLI (``export-db --profile``) and the window both gather
these through ``profile_facts``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..ncu import INST_EXECUTED, SAMPLES, Profile
from .export import KernelMetrics, KernelTimes

# How many stall reasons a stored summary keeps, for the kernel and for each line.
_KERNEL_STALLS = 5
_LINE_STALLS = 3


@dataclass(frozen=True)
class ProfileFacts:
    """The arguments ``export_workspace`` takes from a profile."""

    times: KernelTimes  # kernel -> (device name, mean ns)
    ncu_version: str | None
    line_summaries: KernelMetrics  # kernel -> ``profile_line_summaries`` entry


def profile_facts(profile: Profile, kernels: Sequence[str] | None = None) -> ProfileFacts:
    """Times, version and line summaries of these kernels (all when None) of a profile."""
    times, version = profile_times(profile)
    if kernels is not None:
        times = {k: v for k, v in times.items() if k in set(kernels)}
    return ProfileFacts(times, version, profile_line_summaries(profile, kernels))


def profile_times(profile: Profile) -> tuple[dict[str, tuple[str, float]], str | None]:
    """Mean time per kernel (``KernelSummary.mean_ns``) and the Nsight Compute version."""
    times = {
        k.name: (k.device_name, mean) for k in profile.kernels() if (mean := k.mean_ns) is not None
    }
    version = next((v for n, v in profile.session.items() if "version" in n.lower()), None)
    return times, version


def profile_line_summaries(
    profile: Profile, kernels: Sequence[str] | None = None, top: int = 10
) -> dict[str, dict[str, Any]]:
    """Per kernel: totals, dominant stall reasons and the hottest lines of its own file (the
    ranking of ``kernelscope hot --kernel``), as stored in ``ks_entries.metrics``. Kernels
    without per-instruction data are left out."""
    wanted = set(kernels) if kernels is not None else None
    out: dict[str, dict[str, Any]] = {}
    for k in profile.kernels():
        if wanted is not None and k.name not in wanted:
            continue
        totals = profile.totals(k.name)
        if not totals.values:
            continue
        out[k.name] = {
            "profile": profile.name,
            "launches": len(k.launches),
            "samples": totals.get(SAMPLES),
            "inst_executed": totals.get(INST_EXECUTED),
            "stalls": [[r, round(share, 4)] for r, _, share in totals.stalls(_KERNEL_STALLS)],
            "hot_lines": [
                {
                    "line": h.line,
                    "samples": h.value,
                    "share": round(h.share, 4),
                    "inst_executed": h.metrics.get(INST_EXECUTED),
                    "stalls": [[r, round(share, 4)] for r, _, share in h.stalls[:_LINE_STALLS]],
                }
                for h in profile.hot_lines(metric=SAMPLES, top=top, kernel=k.name)
            ],
        }
    return out


def describe_line_summary(metrics: Mapping[str, Any] | None) -> list[str]:
    """``profile_line_summaries``' entry for one kernel in words, one line per item."""
    if not metrics:
        return []

    def stalls(pairs: Sequence[Sequence[Any]]) -> str:
        return ", ".join(f"{r} {share:.0%}" for r, share in pairs[:3]) or "no stall samples"

    samples, instructions = metrics.get("samples", 0), metrics.get("inst_executed", 0)
    lines = [
        f"{metrics.get('profile', 'profile')}: {samples:,.0f} warp-stall samples, "
        f"{instructions:,.0f} instructions; {stalls(metrics.get('stalls', []))}"
    ]
    for h in metrics.get("hot_lines", []):
        lines.append(f"line {h['line']}: {h['share']:.1%} of samples ({stalls(h['stalls'])})")
    return lines
