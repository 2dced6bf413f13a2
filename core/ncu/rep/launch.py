"""What kernelscope reads of one profiled launch of an ``.ncu-rep``, whoever reads it.

Two readers answer it: ``decoded.DecodedLaunch`` decodes the launch straight from the file
(~1-3 ms a launch, nothing kept), ``nvidia.NvidiaLaunch`` asks NVIDIA's ``ncu_report``. Both
give the same answers (``tests/ncu/test_report_format.py`` checks every value on every report in
tests/data); ``report.ReportReader`` picks one per launch and works on this interface only.

``ReportLaunch`` is what both answer: names, launch-level metrics, per-instruction metrics,
rules, rule markers and sections. ``CodeLaunch`` adds what needs NVIDIA's logic and only its
reader answers: the line table, SASS text and the embedded source files of the launch's
module (the decoder gives those per module, ``container.ReportFile.modules``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING, Protocol

from ..detail_metrics import MetricRecord, SourceMarker, Value
from ..records import Location, RuleResult

if TYPE_CHECKING:  # numpy loads with the first per-instruction table, not the kernel list
    import numpy as np

# The speedup estimation's type as Nsight Compute numbers it (in the file and in ncu_report).
SPEEDUP_TYPE = {1: "local", 2: "global"}
# (correlation ids as uint64, values as float64) of one per-instruction metric
PerPc = tuple["np.ndarray", "np.ndarray"]


class NameBase(IntEnum):
    """Which of a launch's names (the numbers of ncu_report's ``IAction.NameBase``)."""

    FUNCTION = 0
    DEMANGLED = 1
    MANGLED = 2


@dataclass(frozen=True)
class MetricText:
    """NVIDIA's unit and description of a metric, as its reader gives them."""

    unit: str
    description: str


# metric name -> NVIDIA's text of it (or None): the same in every launch, and not in the file
Texts = Callable[[str], MetricText | None]


class ReportLaunch(Protocol):
    """One launch's names and numbers. A reader that meets data it does not know may raise
    ``wire.Unsupported`` from any method (the caller then asks NVIDIA's reader); NVIDIA's
    reader raises ``RuntimeError`` on damaged data (``nvidia.DAMAGED``)."""

    def name(self, base: NameBase = NameBase.FUNCTION) -> str | None:
        """The launch's function name (None when the report lacks it)."""
        ...

    def has_metric(self, name: str) -> bool: ...

    def scalar(self, name: str) -> Value | None:
        """A metric's value as the kernel list reads it: its first instance's, else its
        own; None when the launch lacks it."""
        ...

    def record(self, name: str) -> MetricRecord | None:
        """A metric as the Details view keeps it (value, NVIDIA's unit, instances)."""
        ...

    def description(self, name: str) -> str:
        """NVIDIA's description of a metric the launch has ("" when there is none)."""
        ...

    def total(self, name: str) -> Value | None:
        """A per-instruction metric's own value (the sum over its instructions); None when
        the metric has no instances or no own value."""
        ...

    def per_pc(self, names: Sequence[str]) -> dict[str, PerPc]:
        """The per-instruction metrics among ``names``: name -> (PCs, values), in the
        report's order (a PC may repeat: the last value counts)."""
        ...

    def rules(self) -> list[RuleResult]:
        """The rule results that have a message."""
        ...

    def markers(self, function_start: int | None) -> list[SourceMarker]:
        """The rules' markers in the source or the SASS (offsets from ``function_start``)."""
        ...

    def sections(self) -> list[str] | None:
        """The identifiers of the sections profiled; None when the reader cannot say."""
        ...


class CodeLaunch(ReportLaunch, Protocol):
    """A launch as NVIDIA's reader has it: with its module's line table and SASS."""

    def source_info(self, pc: int) -> Location | None:
        """The (file, line) recorded for an absolute PC of the launch's module."""
        ...

    def sass(self, pc: int) -> str:
        """The SASS instruction at an absolute PC ("" where there is none)."""
        ...

    def source_files(self) -> dict[str, str]:
        """The source files embedded for the launch's module: path -> text ("" if not)."""
        ...


def record_value(v: object) -> Value:
    """A stored value as a ``MetricRecord`` keeps it: NaN and what is not a number or text
    is None."""
    if isinstance(v, float):
        return None if math.isnan(v) else v
    return v if isinstance(v, int | str) else None


_URL_RE = re.compile(r"@url:([^:@]+):([^@]+)@")
_LINK_RE = re.compile(r"@\w+:[^:@]*:([^@]+)@")


def plain_rule_text(message: str) -> str:
    """Rule text as the CSV export prints it: ``@section:Id:Label@`` -> ``Label``,
    ``@url:Text:https://...@`` -> ``Text (https://...)``."""
    return _LINK_RE.sub(r"\1", _URL_RE.sub(r"\1 (\2)", message))
