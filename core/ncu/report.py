"""Reading ``.ncu-rep`` reports through NVIDIA's ``ncu_report`` module.

Costs measured on the H200 fixtures (2 CPU cores): loading a report is ~10 ms, but the first
access to each launch ("action") parses it, 15-40 ms per launch; the first ``sass_by_pc`` of a
report initialises a disassembler, ~0.4 s. So the kernel list touches each action once for a
handful of metrics, per-instruction metrics are read only for the launch asked for, and SASS
text only when asked for separately.

Per-PC metrics each have their own instance list (their own set of PCs); they are joined by
correlation id (the absolute PC), never by instance index.
"""

from __future__ import annotations

import logging
import math
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import KernelscopeError
from .detail_metrics import BREAKDOWNS, LaunchMetrics, MetricRecord, SourceMarker
from .metrics import (
    ENUM_LABELS,
    INT_FIELDS,
    METRIC_FIELDS,
    NOT_ISSUED_SUFFIX,
    SOURCE_METRICS,
    STALL_PREFIX,
    STALLS_ALL,
    STALLS_NOT_ISSUED,
    Kind,
)
from .records import InstructionTable, Launch, Location, RuleResult

# ncu_report's rule message types as the details CSV prints them.
_RULE_KIND = {1: "INF", 2: "OPT", 3: "WRN", 4: "ERR"}
_SPEEDUP_TYPE = {1: "local", 2: "global"}
# Instanced per-PC metrics read for the Source view (group metrics are computed from these).
_PC_METRICS = [m for m in SOURCE_METRICS if not m.key.startswith("group:")]
_INSTRUCTION_BYTES = 16  # every SASS instruction since Volta
_MAX_FUNCTION_BYTES = 64 << 20  # a stop for damaged reports
# What ncu_report raises on damaged data: SWIG turns the C++ reader's exceptions into
# RuntimeError. Anything else (an AttributeError after an API change, a TypeError of ours) is
# a bug and propagates.
_DAMAGED = RuntimeError

_log = logging.getLogger(__name__)


def _import_ncu_report() -> Any:
    try:
        import ncu_report
    except ImportError as exc:
        raise KernelscopeError(
            "reading .ncu-rep files needs NVIDIA's ncu_report module",
            hint="pip install ncu-report (or export CSVs with ncu -i REPORT --csv)",
        ) from exc
    return ncu_report


class ReportReader:
    """One opened ``.ncu-rep``; launches are numbered in report order (Nsight's result IDs)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise KernelscopeError(f"{self.path}: no such file")
        if self.path.stat().st_size == 0:
            raise KernelscopeError(f"{self.path} is empty")
        ncu_report = _import_ncu_report()
        try:
            self._ctx = ncu_report.load_report(str(self.path))
        except (_DAMAGED, OSError) as exc:
            raise KernelscopeError(f"{self.path}: ncu_report cannot read it: {exc}") from exc
        self.warnings: list[str] = []
        self._described: set[str] = set()
        # (range, action) of every launch; actions are parsed on first use (15-40 ms each)
        self._index: list[tuple[int, int]] = []
        self._actions: dict[int, Any] = {}
        for r in range(self._ctx.num_ranges()):
            rng = self._ctx.range_by_idx(r)
            if rng is not None:
                self._index.extend((r, i) for i in range(rng.num_actions()))
        if not self._index:
            raise KernelscopeError(
                f"{self.path} is not a readable Nsight Compute report (no profiled launches)",
                hint="is it truncated or another kind of file? Open it in ncu-ui to check",
            )

    def __len__(self) -> int:
        return len(self._index)

    def _action(self, launch_id: int) -> Any:
        """The launch's action (parsed on first use), or None when the report lacks it."""
        a = self._actions.get(launch_id)
        if a is None:
            r, i = self._index[launch_id]
            rng = self._ctx.range_by_idx(r)
            a = rng.action_by_idx(i) if rng is not None else None
            if a is not None:
                self._actions[launch_id] = a
        return a

    def launches(self) -> list[Launch]:
        """Every launch's kernel-list data, in report order, up to the first damaged one."""
        out = []
        for i in range(len(self._index)):
            launch = self.launch(i)
            if launch is None:
                self.warnings.append(
                    f"{self.path}: launch {i} is incomplete (truncated report?); "
                    f"{i} of {len(self._index)} launches kept"
                )
                break
            out.append(launch)
        return out

    def launch(self, launch_id: int) -> Launch | None:
        """One launch's kernel-list data; None when the report's data for it is damaged (a
        truncated report: no action, no name or duration, or ncu_report failing on it)."""
        try:
            a = self._action(launch_id)
            return self._launch(launch_id, a) if a is not None else None
        except _DAMAGED as exc:
            _log.info("%s: launch %d unreadable: %s", self.path, launch_id, exc)
            return None

    def _launch(self, i: int, a: Any) -> Launch | None:
        name = a.name()
        if name is None or a.metric_by_name("gpu__time_duration.sum") is None:
            return None
        launch = Launch(id=i, name=name, demangled=a.name(1) or name, mangled=a.name(2) or "")
        for metric, fname in METRIC_FIELDS.items():
            v = _scalar(a, metric)
            if isinstance(v, float | int):
                setattr(launch, fname, round(v) if fname in INT_FIELDS else float(v))
        launch.grid = _dim3(a, "launch__grid_dim_")
        launch.block = _dim3(a, "launch__block_dim_")
        dev = _scalar(a, "launch__device_id")
        launch.device = int(dev) if isinstance(dev, int | float) else None
        launch.device_name = str(_scalar(a, "device__attribute_display_name") or "")
        major = _scalar(a, "device__attribute_compute_capability_major")
        minor = _scalar(a, "device__attribute_compute_capability_minor")
        if major is not None and minor is not None:
            launch.cc = f"{int(major)}.{int(minor)}"
        start = _scalar(a, "launch__function_pcs")
        launch.function_start = int(start) if isinstance(start, int | float) else None
        launch.rules = _rules(a)
        launch.has_source_metrics = a.metric_by_name("inst_executed") is not None
        return launch

    def sources_for(self, path: str | None) -> dict[str, str]:
        """Embedded source files (``--import-source yes``) from the launches needed to find
        ``path`` (None: from the first readable launch): already-parsed launches first, since
        parsing one costs 15-40 ms. Every launch carries the files of its module, so this
        usually reads one launch."""
        out: dict[str, str] = {}
        order = list(self._actions) + [i for i in range(len(self._index)) if i not in self._actions]
        for i in order:
            try:
                action = self._action(i)
                files = dict(action.source_files()) if action is not None else {}
            except _DAMAGED as exc:  # a truncated launch
                _log.info("%s: no sources from launch %d: %s", self.path, i, exc)
                continue
            for p, text in files.items():
                if text or p not in out:
                    out[p] = text
            if path is None or out.get(path):
                break
        return out

    def instructions(self, launch_id: int, start: int | None) -> InstructionTable | None:
        """Per-instruction metrics of one launch; None when it has none (no SourceCounters)."""
        a = self._action(launch_id)
        if a is None:
            return None
        per_pc: dict[str, dict[int, float | int]] = {}
        for metric in _PC_METRICS:
            values = _per_pc(a, metric.key)
            if values:
                per_pc[metric.key] = values
        if not per_pc:
            return None
        pcs = np.array(sorted({pc for v in per_pc.values() for pc in v}), dtype=np.int64)
        if start is None:
            start = int(pcs[0])
        locations: list[Location | None] = []
        for pc in pcs.tolist():
            si = a.source_info(pc)
            locations.append((si.file_name(), si.line()) if si is not None else None)
        index = {pc: i for i, pc in enumerate(pcs.tolist())}
        numbers: dict[str, np.ndarray] = {}
        categories: dict[str, list[str | None]] = {}
        for metric in _PC_METRICS:
            found = per_pc.get(metric.key)
            if found is None:
                continue
            if metric.kind is Kind.CATEGORY:
                labels = ENUM_LABELS.get(metric.key, {})
                col: list[str | None] = [None] * len(pcs)
                for pc, v in found.items():
                    if metric.key.endswith("evict_type") and not v:
                        continue  # 0 = no explicit policy; the Source page leaves it empty
                    col[index[pc]] = labels.get(int(v), str(int(v)))
                categories[metric.key] = col
                continue
            arr = np.full(len(pcs), np.nan)
            arr[[index[pc] for pc in found]] = list(found.values())
            numbers[metric.key] = arr
        _add_stall_groups(numbers, len(pcs))
        return InstructionTable(pcs - start, locations, numbers, categories)

    def metrics(self, launch_id: int, names: Iterable[str]) -> LaunchMetrics:
        """Launch-level metrics by name (the Details view's), with NVIDIA's descriptions, the
        sections the launch was profiled with and the rules' source markers. The parts of a
        SOL breakdown (a string metric listing metric names) are read too."""
        a = self._action(launch_id)
        values: dict[str, MetricRecord] = {}
        descriptions: dict[str, str] = {}
        todo = list(dict.fromkeys(names))
        breakdowns = set(BREAKDOWNS.values())
        while todo:
            name = todo.pop(0)
            if name in values:
                continue
            m = a.metric_by_name(name)
            if m is None:
                continue
            record = _record(m)
            values[name] = record
            if name not in self._described:  # the same text in every launch: read it once
                self._described.add(name)
                text = m.description()
                if text:
                    descriptions[name] = text
            if name in breakdowns and isinstance(record.value, str):
                todo.extend(p for p in record.value.split(",") if p and p not in values)
        sections = None
        if hasattr(a, "sections"):  # ncu_report 2026.1+
            sections = [s.identifier() for s in a.sections()]
        start = _scalar(a, "launch__function_pcs")
        return LaunchMetrics(
            values=values,
            sections=sections,
            markers=_markers(a, int(start) if isinstance(start, int | float) else None),
            descriptions=descriptions,
        )

    def sass(self, launch_id: int, start: int, count_hint: int = 0) -> dict[int, str]:
        """SASS text by offset, from the function start until the text runs out."""
        a = self._action(launch_id)
        out: dict[int, str] = {}
        if a is None:
            return out
        offset = 0
        while offset < _MAX_FUNCTION_BYTES:
            text = a.sass_by_pc(start + offset)
            if not text:
                if offset >= count_hint * _INSTRUCTION_BYTES:
                    break
            else:
                out[offset] = text
            offset += _INSTRUCTION_BYTES
        return out


def _scalar(a: Any, name: str) -> float | int | str | None:
    m = a.metric_by_name(name)
    if m is None:
        return None
    if m.num_instances() > 0:
        v = m.value(0)
    elif m.has_value():
        v = m.value()
    else:
        return None
    return float(v) if isinstance(v, float) and not math.isnan(v) else v


def _base_value(v: Any) -> float | int | str | None:
    if isinstance(v, float):
        return None if math.isnan(v) else v
    return v if isinstance(v, int | str) else None


def _getter(m: Any) -> Any:
    """The typed accessor for a metric's kind (``IMetric.value`` asks the kind every call)."""
    kind = m.kind()
    if kind in (5, 6):
        return m.as_uint64
    if kind in (3, 4):
        return m.as_double
    return m.value


def _record(m: Any) -> MetricRecord:
    """A metric's value in its own (base) unit; instanced ones keep their instances."""
    n = m.num_instances()
    instances = None
    if n > 1 and m.has_correlation_ids():
        ids = m.correlation_ids()
        get, get_id = _getter(m), _getter(ids)
        instances = [(_base_value(get_id(i)), _base_value(get(i))) for i in range(n)]
    if n == 1:
        value = _base_value(m.value(0))
    elif m.has_value():
        value = _base_value(m.value())
    else:
        value = None
    return MetricRecord(value=value, unit=m.unit() or "", instances=instances)


def _markers(a: Any, start: int | None) -> list[SourceMarker]:
    if not hasattr(a, "source_markers"):
        return []
    out = []
    for m in a.source_markers():
        loc = m.get("source_location") or {}
        address = m.get("source_address")
        offset = address - start if address is not None and start is not None else None
        out.append(
            SourceMarker(
                rule=m.get("rule_identifier", ""),
                section=m.get("section_identifier", ""),
                message=plain_rule_text(m.get("message", "")),
                kind=_RULE_KIND.get(m.get("message_type", 0), ""),
                file=loc.get("file_name"),
                line=loc.get("line"),
                offset=offset,
            )
        )
    return out


def _dim3(a: Any, prefix: str) -> tuple[int, int, int] | None:
    dims = []
    for axis in "xyz":
        v = _scalar(a, prefix + axis)
        if not isinstance(v, int | float):
            return None
        dims.append(int(v))
    return (dims[0], dims[1], dims[2])


def _rules(a: Any) -> list[RuleResult]:
    if not hasattr(a, "rule_results_as_dicts"):
        return []
    out = []
    for r in a.rule_results_as_dicts():
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
                speedup_type=_SPEEDUP_TYPE.get(sp.get("type", 0), ""),
                speedup_pct=sp.get("speedup"),
            )
        )
    return out


_URL_RE = re.compile(r"@url:([^:@]+):([^@]+)@")
_LINK_RE = re.compile(r"@\w+:[^:@]*:([^@]+)@")


def plain_rule_text(message: str) -> str:
    """Rule text as the CSV export prints it: ``@section:Id:Label@`` -> ``Label``,
    ``@url:Text:https://...@`` -> ``Text (https://...)``."""
    return _LINK_RE.sub(r"\1", _URL_RE.sub(r"\1 (\2)", message))


def _per_pc(a: Any, name: str) -> dict[int, float | int]:
    m = a.metric_by_name(name)
    if m is None or m.num_instances() == 0 or not m.has_correlation_ids():
        return {}
    ids = m.correlation_ids()
    n = m.num_instances()
    get = m.as_uint64 if m.kind() in (5, 6) else m.as_double
    return {ids.as_uint64(i): get(i) for i in range(n)}


def _add_stall_groups(numbers: dict[str, np.ndarray], n: int) -> None:
    """The Source page's "Warp Stall Sampling" columns: sums over the stall reasons."""
    for key, not_issued in ((STALLS_ALL, False), (STALLS_NOT_ISSUED, True)):
        cols = [
            v
            for k, v in numbers.items()
            if k.startswith(STALL_PREFIX) and k.endswith(NOT_ISSUED_SUFFIX) == not_issued
        ]
        if cols:
            numbers[key] = np.nansum(np.vstack(cols), axis=0)
            numbers[key][np.all(np.isnan(np.vstack(cols)), axis=0)] = np.nan
