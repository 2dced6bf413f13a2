"""Reading ``.ncu-rep`` reports: the numbers from the file itself (``report_format``), what
needs NVIDIA's logic through NVIDIA's ``ncu_report`` module.

Costs measured on the H200 fixtures (2 CPU cores): ``ncu_report`` parses a launch ("action")
on first access, 15-40 ms and ~10 MB that stay per launch; its first action costs ~0.1 s, its
first ``sass_by_pc`` ~0.4 s (a disassembler) and each action's first ``sass_by_pc`` or
``source_info`` another 5-150 ms (its module's code and line table). So:

* the kernel list, per-instruction metrics, the Details metrics, rules, markers, sections and
  embedded sources are decoded from the file (``report_format.DecodedAction``, ~1-3 ms a
  launch, nothing kept), and only units and descriptions of metrics (NVIDIA's metric
  database, not in the file) are asked of ncu_report;
* the line table (``source_info``) and SASS text come from ncu_report, through ONE action per
  loaded module: an action answers for every function of its module (checked against each
  launch's own action on every report in tests/data), so a 60-launch report of 5 kernels
  parses one action, not 60;
* a report the decoder does not know (``report_format.Unsupported``), or a launch it cannot
  decode, is read through ncu_report alone, as before.

Per-PC metrics each have their own instance list (their own set of PCs); they are joined by
correlation id (the absolute PC), never by instance index.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

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
from .report_format import DecodedAction, DecodedMetric, MetricText, ReportFile, Unsupported

if TYPE_CHECKING:  # numpy loads with the first per-instruction table, not the kernel list
    import numpy as np

# ncu_report's rule message types as the details CSV prints them.
_RULE_KIND = {1: "INF", 2: "OPT", 3: "WRN", 4: "ERR"}
_SPEEDUP_TYPE = {1: "local", 2: "global"}
# Instanced per-PC metrics read for the Source view (group metrics are computed from these).
_PC_METRICS = [m for m in SOURCE_METRICS if not m.key.startswith("group:")]
_PC_KEYS = [m.key for m in _PC_METRICS]
_INSTRUCTION_BYTES = 16  # every SASS instruction since Volta
# From this many launches read at once, their line tables come from a child (line_child)
# that loads NVIDIA's reader while this process decodes: ~0.2 s of its set-up overlapped.
_LINE_CHILD_FROM = 16
_MAX_FUNCTION_BYTES = 64 << 20  # a stop for damaged reports
# What ncu_report raises on damaged data: SWIG turns the C++ reader's exceptions into
# RuntimeError. Anything else (an AttributeError after an API change, a TypeError of ours) is
# a bug and propagates.
DAMAGED = RuntimeError

_log = logging.getLogger(__name__)
T = TypeVar("T")


def _import_ncu_report() -> Any:
    """NVIDIA's reader: installed in this Python, or the one Nsight Compute comes with."""
    try:
        import ncu_report
    except ImportError:
        from ..toolchain import ncu_report_dir  # only where the import failed

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
        _import_ncu_report()


class NeedsReader(KernelscopeError):
    """The data asked for needs NVIDIA's reader, which this reader may not load."""


class ReportReader:
    """One opened ``.ncu-rep``; launches are numbered in report order (Nsight's result IDs).

    ``decode=False`` reads everything through ncu_report (what the tests compare against);
    ``nvidia=False`` never loads ncu_report (a long-lived process, the window: what needs it
    raises ``NeedsReader``, and a child process reads it)."""

    def __init__(
        self, path: str | os.PathLike[str], *, decode: bool = True, nvidia: bool = True
    ) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise KernelscopeError(f"{self.path}: no such file")
        if self.path.stat().st_size == 0:
            raise KernelscopeError(f"{self.path} is empty")
        self.warnings: list[str] = []
        self._described: set[str] = set()
        self._file: ReportFile | None = None
        self._ctx: Any = None
        # (range, action) of every launch; actions are parsed on first use (15-40 ms each)
        self._index: list[tuple[int, int]] = []
        self._actions: dict[int, Any] = {}
        self._lookups: dict[int, Any] = {}  # module -> the action that answers for it
        self._locations: dict[tuple[str, int], dict[int, Location | None]] = {}
        self._nvidia: dict[str, MetricText | None] = {}  # NVIDIA's unit, description
        self._may_load = nvidia
        if nvidia:  # a process that may read with NVIDIA's reader: before numpy, if need be
            load_reader_first(unless_pip=True)
        if decode:
            try:
                self._file = ReportFile(self.path)
            except Unsupported as exc:
                _log.info("%s: read with ncu_report only: %s", self.path, exc)
        if self._file is None:
            self._load()
        elif not len(self._file):
            raise _no_launches(self.path)

    def _load(self) -> None:
        """Open the report with ncu_report (on first need when the file was decoded)."""
        if self._ctx is not None:
            return
        if not self._may_load:
            raise NeedsReader(
                f"{self.path}: this needs NVIDIA's report reader, which runs in a child process",
                hint="the report is read in the background; try again when it is",
            )
        ncu_report = _import_ncu_report()
        _log.info("loading %s with ncu_report", self.path)
        try:
            self._ctx = ncu_report.load_report(str(self.path))
        except (DAMAGED, OSError) as exc:
            raise KernelscopeError(f"{self.path}: ncu_report cannot read it: {exc}") from exc
        for r in range(self._ctx.num_ranges()):
            rng = self._ctx.range_by_idx(r)
            if rng is not None:
                self._index.extend((r, i) for i in range(rng.num_actions()))
        if not self._index:
            raise _no_launches(self.path)

    def __len__(self) -> int:
        return len(self._file) if self._file is not None else len(self._index)

    def _ncu_action(self, launch_id: int) -> Any:
        """The launch's ncu_report action (parsed on first use), or None when it lacks it."""
        a = self._actions.get(launch_id)
        if a is None:
            self._load()
            if launch_id >= len(self._index):
                return None
            r, i = self._index[launch_id]
            rng = self._ctx.range_by_idx(r)
            a = rng.action_by_idx(i) if rng is not None else None
            if a is not None:
                self._actions[launch_id] = a
                self._read_texts(a)
        return a

    def _read_texts(self, a: Any) -> None:
        """NVIDIA's unit and description of each metric of a freshly parsed action, read
        before anything else is asked of it: with the reader that comes with Nsight Compute
        2025.3 (not the pip one), ``IMetric.unit`` segfaults once ``source_info`` has been
        called on the action (seen on the H200 host)."""
        for name in a.metric_names():
            if self._nvidia.get(name) is None:
                m = a.metric_by_name(name)
                if m is not None:
                    self._nvidia[name] = MetricText(m.unit() or "", m.description() or "")

    def _action(self, launch_id: int) -> Any:
        """The launch decoded from the file (a ``DecodedAction``), else its ncu_report
        action; None when the report lacks it."""
        if self._file is None:
            return self._ncu_action(launch_id)
        try:
            return self._file.action(launch_id, lambda name: self._nvidia_metric(launch_id, name))
        except Unsupported as exc:
            _log.info("%s: launch %d read with ncu_report: %s", self.path, launch_id, exc)
            return self._ncu_action(launch_id)

    def _decoded(self, launch_id: int, fn: Callable[[Any], T]) -> T:
        """``fn`` of the launch's action (None when the report lacks it); of its ncu_report
        action when decoding fails."""
        a = self._action(launch_id)
        if isinstance(a, DecodedAction):
            try:
                return fn(a)
            except Unsupported as exc:
                _log.info("%s: launch %d read with ncu_report: %s", self.path, launch_id, exc)
                a = self._ncu_action(launch_id)
        return fn(a)

    def _lookup(self, launch_id: int, start: int | None) -> Any:
        """The ncu_report action that answers ``source_info`` and ``sass_by_pc`` for this
        launch: the first one asked for of the launch's module (the one module that has a
        function at ``start``), else the launch's own."""
        module = self._file.module_of(start) if self._file is not None else None
        if module is None:
            return self._ncu_action(launch_id)
        a = self._lookups.get(module)
        if a is None:
            a = self._ncu_action(launch_id)
            if a is not None:
                self._lookups[module] = a
        return a

    def _nvidia_metric(self, launch_id: int, name: str) -> MetricText | None:
        """NVIDIA's unit and description of this metric (the same in every launch), as read
        when an action was parsed (``_read_texts``); parsing this launch's when no action
        parsed yet has the metric."""
        if name not in self._nvidia:
            self._ncu_action(launch_id)
        return self._nvidia.get(name)

    def launches(self) -> list[Launch]:
        """Every launch's kernel-list data, in report order, up to the first damaged one."""
        out = []
        for i in range(len(self)):
            launch = self.launch(i)
            if launch is None:
                self.warnings.append(
                    f"{self.path}: launch {i} is incomplete (truncated report?); "
                    f"{i} of {len(self)} launches kept"
                )
                break
            out.append(launch)
        return out

    def launch(self, launch_id: int) -> Launch | None:
        """One launch's kernel-list data; None when the report's data for it is damaged (a
        truncated report: no action, no name or duration, or ncu_report failing on it)."""
        try:
            return self._decoded(launch_id, lambda a: self._launch(launch_id, a))
        except DAMAGED as exc:
            _log.info("%s: launch %d unreadable: %s", self.path, launch_id, exc)
            return None

    def _launch(self, i: int, a: Any) -> Launch | None:
        if a is None:
            return None
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
        """Embedded source files (``--import-source yes``): from the file, every module's;
        through ncu_report, from the launches needed to find ``path`` (None: from the first
        readable launch), already-parsed launches first (every launch carries the files of
        its module, so this usually reads one launch)."""
        out: dict[str, str] = {}
        if self._file is not None:
            try:
                for module in self._file.modules:
                    for p, text in module.files.items():
                        if text or p not in out:
                            out[p] = text
                return out
            except Unsupported as exc:
                _log.info("%s: sources read with ncu_report: %s", self.path, exc)
        order = list(self._actions) + [i for i in range(len(self)) if i not in self._actions]
        for i in order:
            try:
                action = self._ncu_action(i)
                files = dict(action.source_files()) if action is not None else {}
            except DAMAGED as exc:  # a truncated launch
                _log.info("%s: no sources from launch %d: %s", self.path, i, exc)
                continue
            for p, text in files.items():
                if text or p not in out:
                    out[p] = text
            if path is None or out.get(path):
                break
        return out

    def instructions(
        self, launch_id: int, start: int | None, *, lines: bool = True
    ) -> InstructionTable | None:
        """Per-instruction metrics of one launch; None when it has none (no SourceCounters).

        ``lines=False``: the launch's totals alone, as one row (offset 0, no location): each
        per-instruction metric's own value, which is the sum over its instructions (checked
        for every count metric of every report in tests/data). What a kernel list's totals
        need, with no per-instruction decoding and no ncu_report."""
        if not lines:
            return self._decoded(launch_id, _totals_row)
        return self._table(launch_id, start, self._decoded(launch_id, _per_pc_arrays))

    def instructions_many(
        self, launches: Sequence[tuple[int, int | None]]
    ) -> dict[int, InstructionTable | None]:
        """``instructions`` of many launches: (launch ID, function start) -> table. When their
        line tables would first load NVIDIA's reader here, a child reads them
        (``line_child``) while this process decodes the numbers, and this process never
        loads it."""
        import numpy as np

        from .aggregate import unique_sorted

        child = None
        if (
            self._file is not None
            and self._ctx is None
            and self._may_load
            and len(launches) >= _LINE_CHILD_FROM
        ):
            from .line_child import LineChild

            child = LineChild(self.path)
        try:
            decoded = {lid: (start, self._decoded(lid, _per_pc_arrays)) for lid, start in launches}
            if child is not None:
                wanted: dict[tuple[str, int], tuple[int, set[int]]] = {}
                for lid, (start, per_pc) in decoded.items():
                    if not per_pc:
                        continue
                    pcs = unique_sorted(np.concatenate([ids for ids, _ in per_pc.values()]))
                    first = int(pcs[0]) if start is None else start
                    key = self._location_key(lid, first)
                    known = self._locations.get(key, {})
                    missing = wanted.setdefault(key, (lid, set()))[1]
                    missing.update(pc for pc in pcs.astype(np.int64).tolist() if pc not in known)
                asked = [(key, lid, sorted(todo)) for key, (lid, todo) in wanted.items() if todo]
                found = child.lines([(lid, todo) for _, lid, todo in asked]) if asked else []
                for (key, _, todo), locations in zip(asked, found, strict=True):
                    self._locations.setdefault(key, {}).update(zip(todo, locations, strict=True))
            return {lid: self._table(lid, first, pcs) for lid, (first, pcs) in decoded.items()}
        finally:
            if child is not None:
                child.close()

    def _table(
        self, launch_id: int, start: int | None, per_pc: dict[str, tuple[np.ndarray, np.ndarray]]
    ) -> InstructionTable | None:
        import numpy as np

        from .aggregate import unique_sorted

        if not per_pc:
            return None
        pcs = unique_sorted(np.concatenate([ids for ids, _ in per_pc.values()])).astype(np.int64)
        if start is None:
            start = int(pcs[0])
        locations = self._lines(launch_id, start, pcs.tolist())
        numbers: dict[str, np.ndarray] = {}
        categories: dict[str, list[str | None]] = {}
        for metric in _PC_METRICS:
            found = per_pc.get(metric.key)
            if found is None:
                continue
            rows, values = _last_per_pc(pcs, *found)
            if metric.kind is Kind.CATEGORY:
                labels = ENUM_LABELS.get(metric.key, {})
                col: list[str | None] = [None] * len(pcs)
                for row, v in zip(rows.tolist(), values.tolist(), strict=True):
                    if metric.key.endswith("evict_type") and not v:
                        continue  # 0 = no explicit policy; the Source page leaves it empty
                    col[row] = labels.get(int(v), str(int(v)))
                categories[metric.key] = col
                continue
            arr = np.full(len(pcs), np.nan)
            arr[rows] = values
            numbers[metric.key] = arr
        _add_stall_groups(numbers, len(pcs))
        return InstructionTable(pcs - start, locations, numbers, categories)

    def _location_key(self, launch_id: int, start: int) -> tuple[str, int]:
        """Whose line table a launch's PCs are in: its module's, else its own."""
        module = self._file.module_of(start) if self._file is not None else None
        return ("module", module) if module is not None else ("launch", launch_id)

    def _lines(self, launch_id: int, start: int, pcs: list[int]) -> list[Location | None]:
        """The recorded (file, line) of each PC, through the module's lookup action; kept per
        module, since a kernel's launches share their PCs."""
        known = self._locations.setdefault(self._location_key(launch_id, start), {})
        todo = [pc for pc in pcs if pc not in known]
        if todo:
            a = self._lookup(launch_id, start)
            for pc in todo:
                si = a.source_info(pc)
                known[pc] = (si.file_name(), si.line()) if si is not None else None
        return [known[pc] for pc in pcs]

    def metrics(self, launch_id: int, names: Iterable[str]) -> LaunchMetrics:
        """Launch-level metrics by name (the Details view's), with NVIDIA's descriptions, the
        sections the launch was profiled with and the rules' source markers. The parts of a
        SOL breakdown (a string metric listing metric names) are read too."""
        wanted = list(dict.fromkeys(names))
        return self._decoded(launch_id, lambda a: self._metrics(a, wanted))

    def _metrics(self, a: Any, names: list[str]) -> LaunchMetrics:
        if a is None:
            raise DAMAGED("the report lacks this launch")
        values: dict[str, MetricRecord] = {}
        descriptions: dict[str, str] = {}
        todo = list(names)
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
        if hasattr(a, "sections"):  # ncu_report 2026.1+, or decoded from the file
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
        a = self._lookup(launch_id, start)
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


def _no_launches(path: Path) -> KernelscopeError:
    return KernelscopeError(
        f"{path} is not a readable Nsight Compute report (no profiled launches)",
        hint="is it truncated or another kind of file? Open it in ncu-ui to check",
    )


def _per_pc_arrays(a: Any) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The per-PC metrics of an action: (PCs, values) arrays by metric key."""
    import numpy as np

    if a is None:
        return {}
    if isinstance(a, DecodedAction):
        return a.per_pc_arrays(_PC_KEYS)
    out = {}
    for key in _PC_KEYS:
        values = _per_pc(a, key)
        if values:
            ids = np.fromiter(values.keys(), dtype=np.uint64, count=len(values))
            out[key] = (ids, np.array(list(values.values()), dtype=np.float64))
    return out


def _totals_row(a: Any) -> InstructionTable | None:
    """``ReportReader.instructions(lines=False)``: one row of the launch's own values of its
    per-instruction metrics (categories left out)."""
    import numpy as np

    if a is None:
        return None
    numbers: dict[str, np.ndarray] = {}
    for metric in _PC_METRICS:
        if metric.kind is Kind.CATEGORY:
            continue
        m = a.metric_by_name(metric.key)
        if m is None or not _has_instances(m) or not m.has_value():
            continue
        value = m.value()
        if isinstance(value, int | float):
            numbers[metric.key] = np.array([float(value)])
    if not numbers:
        return None
    _add_stall_groups(numbers, 1)
    return InstructionTable(np.zeros(1, dtype=np.int64), [None], numbers)


def _has_instances(m: Any) -> bool:
    if isinstance(m, DecodedMetric):
        return m.instanced
    return bool(m.num_instances() > 0 and m.has_correlation_ids())


def _last_per_pc(
    pcs: np.ndarray, ids: np.ndarray, values: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Rows (in ``pcs``) and values of one metric, the last value kept where a PC repeats
    (what a dict by PC keeps)."""
    import numpy as np

    ids = ids.astype(np.int64)
    if len(ids) > 1 and not np.all(ids[1:] > ids[:-1]):
        last = dict(zip(ids.tolist(), values.tolist(), strict=True))
        ids = np.fromiter(last.keys(), dtype=np.int64, count=len(last))
        values = np.fromiter(last.values(), dtype=np.float64, count=len(last))
    return np.searchsorted(pcs, ids), values


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
    import numpy as np

    for key, not_issued in ((STALLS_ALL, False), (STALLS_NOT_ISSUED, True)):
        cols = [
            v
            for k, v in numbers.items()
            if k.startswith(STALL_PREFIX) and k.endswith(NOT_ISSUED_SUFFIX) == not_issued
        ]
        if cols:
            numbers[key] = np.nansum(np.vstack(cols), axis=0)
            numbers[key][np.all(np.isnan(np.vstack(cols)), axis=0)] = np.nan
