"""Comparing two profiles of one model, across builds: kernels matched by name, structure
(the workspaces' manifests) and source, per-kernel and per-launch time deltas with a noise
band, per-line deltas over aligned sources, per-opcode and per-instruction SASS deltas, and the
lines that regressed or improved most.

What other packages use; the parts (matching, alignment, noise) are in the modules."""

from .reading import ComparedProfile, read_profile
from .records import (
    BASE_ONLY,
    CHANGED,
    FASTER,
    INSTRUCTIONS,
    NEW_ONLY,
    ONLY_BASE,
    ONLY_NEW,
    SAME,
    SLOWER,
    WITHIN_NOISE,
    InstructionRow,
    KernelComparison,
    KernelDelta,
    LineChange,
    LineRow,
    OpcodeDelta,
    ProfileDiff,
    Side,
    TimeDelta,
)
from .session import Comparison, open_comparison

__all__ = [
    "BASE_ONLY",
    "CHANGED",
    "FASTER",
    "INSTRUCTIONS",
    "NEW_ONLY",
    "ONLY_BASE",
    "ONLY_NEW",
    "SAME",
    "SLOWER",
    "WITHIN_NOISE",
    "ComparedProfile",
    "Comparison",
    "InstructionRow",
    "KernelComparison",
    "KernelDelta",
    "LineChange",
    "LineRow",
    "OpcodeDelta",
    "ProfileDiff",
    "Side",
    "TimeDelta",
    "open_comparison",
    "read_profile",
]
