"""A profile's kernel list: its launches grouped by kernel, in first-launch order."""

from __future__ import annotations

from collections.abc import Sequence

from .records import KernelSummary, Launch


def _weighted(launches: list[Launch], attr: str) -> float | None:
    """A per-launch percentage over several launches, weighted by their durations (a plain
    mean when none has one)."""
    pairs = [(getattr(x, attr), x.duration_ns or 0.0) for x in launches]
    pairs = [(v, w) for v, w in pairs if v is not None]
    if not pairs:
        return None
    total = sum(w for _, w in pairs)
    if total <= 0:
        return sum(v for v, _ in pairs) / len(pairs)
    return sum(v * w for v, w in pairs) / total


def group_kernels(launches: Sequence[Launch]) -> list[KernelSummary]:
    """One summary per kernel: its launches, total time, share of the profile's time, the
    time-weighted throughputs and occupancy, the most registers, the first launch's shape."""
    groups: dict[str, list[Launch]] = {}
    for launch in launches:
        groups.setdefault(launch.name, []).append(launch)
    total = sum(x.duration_ns or 0.0 for x in launches)
    out = []
    for name, group in groups.items():
        durations = [x.duration_ns for x in group if x.duration_ns is not None]
        dur = sum(durations) if durations else None
        regs = [x.registers for x in group if x.registers is not None]
        first = group[0]
        out.append(
            KernelSummary(
                name=name,
                launches=tuple(group),
                duration_ns=dur,
                share=(dur or 0.0) / total if total else 0.0,
                sm_throughput_pct=_weighted(group, "sm_throughput_pct"),
                memory_throughput_pct=_weighted(group, "memory_throughput_pct"),
                achieved_occupancy_pct=_weighted(group, "achieved_occupancy_pct"),
                registers=max(regs) if regs else None,
                grid=first.grid or (),
                block=first.block or (),
            )
        )
    return out
