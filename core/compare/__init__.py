"""Comparing two profiles of one model, across builds: kernels matched by name, structure
(the workspaces' manifests) and source, per-kernel and per-launch time deltas with a noise
band, per-line deltas over aligned sources, per-opcode and per-instruction SASS deltas, and the
lines that regressed or improved most."""

from .lines import align_lines
from .matching import KernelIdentity, match_kernels
from .noise import NOISE, NoiseModel, is_sampled
from .normalise import line_key, loose_key, source_similarity
from .records import (
    BASE_ONLY,
    CHANGED,
    FASTER,
    NAME,
    NEW_ONLY,
    NO_TIME,
    ONLY_BASE,
    ONLY_NEW,
    SAME,
    SIMILAR_STRUCTURE,
    SLOWER,
    SOURCE,
    STRUCTURE,
    UNMATCHED,
    WITHIN_NOISE,
    InstructionRow,
    KernelComparison,
    KernelDelta,
    KernelMatch,
    LaunchDelta,
    LineChange,
    LineRow,
    OpcodeDelta,
    ProfileDiff,
    Side,
    TimeDelta,
)
from .sass import align_instructions, opcode_deltas
from .session import Comparison, count_passes, open_comparison, workspace_misfit

__all__ = [
    "BASE_ONLY",
    "CHANGED",
    "FASTER",
    "NAME",
    "NEW_ONLY",
    "NOISE",
    "NO_TIME",
    "ONLY_BASE",
    "ONLY_NEW",
    "SAME",
    "SIMILAR_STRUCTURE",
    "SLOWER",
    "SOURCE",
    "STRUCTURE",
    "UNMATCHED",
    "WITHIN_NOISE",
    "Comparison",
    "InstructionRow",
    "KernelComparison",
    "KernelDelta",
    "KernelIdentity",
    "KernelMatch",
    "LaunchDelta",
    "LineChange",
    "LineRow",
    "NoiseModel",
    "OpcodeDelta",
    "ProfileDiff",
    "Side",
    "TimeDelta",
    "align_instructions",
    "align_lines",
    "count_passes",
    "is_sampled",
    "line_key",
    "loose_key",
    "match_kernels",
    "opcode_deltas",
    "open_comparison",
    "source_similarity",
    "workspace_misfit",
]
