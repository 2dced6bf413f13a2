"""NVIDIA's report reader, ``ncu_report``, behind kernelscope's ``CodeLaunch``.

Costs measured on the H200 fixtures (2 CPU cores): ``ncu_report`` parses a launch ("action")
on first access, 15-40 ms and ~10 MB that stay per launch; its first action costs ~0.1 s, its
first ``sass_by_pc`` ~0.4 s (a disassembler) and each action's first ``sass_by_pc`` or
``source_info`` another 5-150 ms (its module's code and line table). Keep the launches
``NvidiaReport.launch`` parses.

Where this module tests what ``ncu_report`` has (``hasattr``), it is for its versions:
``IAction.sections`` came with 2026.1.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ...errors import KernelscopeError
from ..detail_metrics import MetricRecord, SourceMarker
from ..records import Location, RuleResult
from .launch import SPEEDUP_TYPE, MetricText, NameBase, PerPc, plain_rule_text, record_value
from .wire import Value

# What ncu_report raises on damaged data: SWIG turns the C++ reader's exceptions into
# RuntimeError. Anything else (an AttributeError after an API change, a TypeError of ours) is
# a bug and propagates.
DAMAGED = RuntimeError
# ncu_report's rule message types as the details CSV prints them.
_RULE_KIND = {1: "INF", 2: "OPT", 3: "WRN", 4: "ERR"}


def import_ncu_report() -> Any:
    """NVIDIA's reader: installed in this Python, or the one Nsight Compute comes with."""
    try:
        import ncu_report
    except ImportError:
        from ...toolchain import ncu_report_dir  # only where the import failed

        folder = ncu_report_dir()
        if folder is not None and str(folder) not in sys.path:
            sys.path.append(str(folder))
        try:
            import ncu_report
        except ImportError as exc:
            raise KernelscopeError(
                "reading .ncu-rep files needs NVIDIA's ncu_report module",
                hint="pip install ncu-report, or install Nsight Compute (its extras/python "
                "holds it); or export CSVs with ncu -i REPORT --csv",
            ) from exc
    return ncu_report


def load_reader_first(*, unless_pip: bool = False) -> None:
    """Import NVIDIA's reader now, before numpy, in a process that will read with it (the
    report-reading children; a ``ReportReader`` that may load it). With numpy imported
    first, the reader that comes with Nsight Compute 2025.3 (extras/python) segfaults in
    ``IMetric.unit`` once ``source_info`` has been called (seen on the H200 host; the pip
    ``ncu_report`` does not). Nothing happens where numpy is already loaded or no reader is
    installed; with ``unless_pip``, nor where the reader is pip's (a package; Nsight
    Compute's is one ``ncu_report.py``): a kernel list then imports no reader it does not
    need."""
    if "numpy" in sys.modules or "ncu_report" in sys.modules:
        return
    if unless_pip:
        import importlib.util

        spec = importlib.util.find_spec("ncu_report")
        if spec is not None and spec.submodule_search_locations:  # pip's: a package
            return
    with contextlib.suppress(KernelscopeError):  # what needs it says so when it runs
        import_ncu_report()


class NvidiaReport:
    """A report loaded with ``ncu_report``; launches are numbered in report order (ranges,
    then actions: Nsight's result IDs). ``texts`` holds NVIDIA's unit and description of
    every metric of the launches parsed so far."""

    def __init__(self, path: str | Path) -> None:
        ncu_report = import_ncu_report()
        try:
            self._ctx = ncu_report.load_report(str(path))
        except (DAMAGED, OSError) as exc:
            raise KernelscopeError(f"{path}: ncu_report cannot read it: {exc}") from exc
        self._index: list[tuple[int, int]] = []  # (range, action) of every launch
        for r in range(self._ctx.num_ranges()):
            rng = self._ctx.range_by_idx(r)
            if rng is not None:
                self._index.extend((r, i) for i in range(rng.num_actions()))
        self.texts: dict[str, MetricText | None] = {}

    def __len__(self) -> int:
        return len(self._index)

    def launch(self, i: int, *, texts: bool = True) -> NvidiaLaunch | None:
        """Launch ``i``, parsed anew (15-40 ms, ~10 MB: keep it); None when the report lacks
        it. ``texts=False``: its metrics' units and descriptions are not read (``texts``;
        80 ms a ``--set full`` launch, twice its parse), for a process that only asks for
        line tables and never for a unit."""
        if i >= len(self._index):
            return None
        r, k = self._index[i]
        rng = self._ctx.range_by_idx(r)
        a = rng.action_by_idx(k) if rng is not None else None
        if a is None:
            return None
        if texts:
            self._read_texts(a)
        return NvidiaLaunch(a)

    def _read_texts(self, a: Any) -> None:
        """NVIDIA's unit and description of each metric of a freshly parsed action, read
        before anything else is asked of it: with the reader that comes with Nsight Compute
        2025.3 (not the pip one), ``IMetric.unit`` segfaults once ``source_info`` has been
        called on the action (seen on the H200 host)."""
        for name in a.metric_names():
            if self.texts.get(name) is None:
                m = a.metric_by_name(name)
                if m is not None:
                    self.texts[name] = MetricText(m.unit() or "", m.description() or "")


class NvidiaLaunch:
    """One ``ncu_report`` action as a ``CodeLaunch``."""

    def __init__(self, action: Any) -> None:
        self._a = action

    def name(self, base: NameBase = NameBase.FUNCTION) -> str | None:
        found = self._a.name() if base is NameBase.FUNCTION else self._a.name(int(base))
        return str(found) if found is not None else None

    def has_metric(self, name: str) -> bool:
        return self._a.metric_by_name(name) is not None

    def scalar(self, name: str) -> Value | None:
        m = self._a.metric_by_name(name)
        if m is None:
            return None
        if m.num_instances() > 0:
            return m.value(0)
        return m.value() if m.has_value() else None

    def record(self, name: str) -> MetricRecord | None:
        """Instanced metrics keep their instances, read with the accessor of their kind
        (``IMetric.value`` asks the kind every call)."""
        m = self._a.metric_by_name(name)
        if m is None:
            return None
        n = m.num_instances()
        instances = None
        if n > 1 and m.has_correlation_ids():
            ids = m.correlation_ids()
            get, get_id = _getter(m), _getter(ids)
            instances = [(record_value(get_id(i)), record_value(get(i))) for i in range(n)]
        if n == 1:
            value = record_value(m.value(0))
        elif m.has_value():
            value = record_value(m.value())
        else:
            value = None
        return MetricRecord(value=value, unit=m.unit() or "", instances=instances)

    def description(self, name: str) -> str:
        m = self._a.metric_by_name(name)
        return (m.description() or "") if m is not None else ""

    def total(self, name: str) -> Value | None:
        m = self._a.metric_by_name(name)
        if m is None or not (m.num_instances() > 0 and m.has_correlation_ids()):
            return None
        return m.value() if m.has_value() else None

    def per_pc(self, names: Sequence[str]) -> dict[str, PerPc]:
        """One instance at a time (~1 us a call)."""
        import numpy as np

        out = {}
        for name in names:
            values = self._per_pc(name)
            if values:
                ids = np.fromiter(values.keys(), dtype=np.uint64, count=len(values))
                out[name] = (ids, np.array(list(values.values()), dtype=np.float64))
        return out

    def _per_pc(self, name: str) -> dict[int, float | int]:
        m = self._a.metric_by_name(name)
        if m is None or m.num_instances() == 0 or not m.has_correlation_ids():
            return {}
        ids = m.correlation_ids()
        n = m.num_instances()
        get = m.as_uint64 if m.kind() in (5, 6) else m.as_double
        return {ids.as_uint64(i): get(i) for i in range(n)}

    def rules(self) -> list[RuleResult]:
        if not hasattr(self._a, "rule_results_as_dicts"):
            return []
        out = []
        for r in self._a.rule_results_as_dicts():
            msg = r.get("rule_message") or {}
            if not msg.get("message"):
                continue
            sp = r.get("speedup_estimation") or {}
            out.append(
                RuleResult(
                    rule=r.get("rule_identifier", ""),
                    section=r.get("section_identifier", ""),
                    kind=_RULE_KIND.get(msg.get("type", 0), ""),
                    message=plain_rule_text(msg["message"]),
                    title=msg.get("title", ""),
                    speedup_type=SPEEDUP_TYPE.get(sp.get("type", 0), ""),
                    speedup_pct=sp.get("speedup"),
                )
            )
        return out

    def markers(self, function_start: int | None) -> list[SourceMarker]:
        if not hasattr(self._a, "source_markers"):
            return []
        out = []
        for m in self._a.source_markers():
            loc = m.get("source_location") or {}
            address = m.get("source_address")
            start = function_start
            out.append(
                SourceMarker(
                    rule=m.get("rule_identifier", ""),
                    section=m.get("section_identifier", ""),
                    message=plain_rule_text(m.get("message", "")),
                    kind=_RULE_KIND.get(m.get("message_type", 0), ""),
                    file=loc.get("file_name"),
                    line=loc.get("line"),
                    offset=address - start if address is not None and start is not None else None,
                )
            )
        return out

    def sections(self) -> list[str] | None:
        if not hasattr(self._a, "sections"):  # ncu_report before 2026.1
            return None
        return [s.identifier() for s in self._a.sections()]

    def source_info(self, pc: int) -> Location | None:
        si = self._a.source_info(pc)
        return (si.file_name(), si.line()) if si is not None else None

    def sass(self, pc: int) -> str:
        return self._a.sass_by_pc(pc) or ""

    def source_files(self) -> dict[str, str]:
        return dict(self._a.source_files())


def _getter(m: Any) -> Any:
    """The typed accessor for a metric's kind."""
    kind = m.kind()
    if kind in (5, 6):
        return m.as_uint64
    if kind in (3, 4):
        return m.as_double
    return m.value
