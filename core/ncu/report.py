"""Reading ``.ncu-rep`` reports: one reader over the two readers of ``rep`` (the numbers
decoded from the file itself, what needs NVIDIA's logic through NVIDIA's ``ncu_report``), which
it asks through one interface (``rep.launch.ReportLaunch``).

What comes from where (costs: ``rep.nvidia`` and ``rep.decoded``):

* the kernel list, per-instruction metrics, the Details metrics, rules, markers, sections and
  embedded sources are decoded from the file (``rep.decoded.DecodedLaunch``, ~1-3 ms a
  launch, nothing kept), and only units and descriptions of metrics (NVIDIA's metric
  database, not in the file) are asked of ncu_report;
* the line table (``source_info``) is decoded from the cubin of the launch's module, which
  the report embeds (``cubin_lines``), whatever workspace built it;
* SASS text, and the line table of a cubin that does not decode (built without -lineinfo,
  another format), come from ncu_report, through ONE launch per loaded module: a launch
  answers for every function of its module (checked against each launch's own on every
  report in tests/data), so a 60-launch report of 5 kernels parses one launch, not 60;
* a report the decoder does not know (``rep.wire.Unsupported``), or a launch it cannot
  decode, is read through ncu_report alone, as before.

Per-PC metrics each have their own instance list (their own set of PCs); they are joined by
correlation id (the absolute PC), never by instance index.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from ..errors import KernelscopeError
from .cubin_lines import cubin_lines
from .detail_metrics import BREAKDOWNS, LaunchMetrics, MetricRecord
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
from .records import InstructionTable, Launch, Location
from .rep.container import ReportFile
from .rep.decoded import DecodedLaunch, Layout, read_launch, read_name
from .rep.launch import MetricText, NameBase, PerPc, ReportLaunch
from .rep.nvidia import DAMAGED, NvidiaLaunch, NvidiaReport, load_reader_first
from .rep.wire import Unsupported

if TYPE_CHECKING:  # numpy loads with the first per-instruction table, not the kernel list
    import numpy as np

# Instanced per-PC metrics read for the Source view (group metrics are computed from these).
_PC_METRICS = [m for m in SOURCE_METRICS if not m.key.startswith("group:")]
_PC_KEYS = [m.key for m in _PC_METRICS]
_TOTAL_KEYS = [m.key for m in _PC_METRICS if m.kind is not Kind.CATEGORY]  # a totals row's
_INSTRUCTION_BYTES = 16  # every SASS instruction since Volta
# From this many launches read at once, their line tables come from a child (line_child)
# that loads NVIDIA's reader while this process decodes: ~0.2 s of its set-up overlapped.
_LINE_CHILD_FROM = 16
_MAX_FUNCTION_BYTES = 64 << 20  # a stop for damaged reports

_log = logging.getLogger(__name__)
T = TypeVar("T")


class NeedsReader(KernelscopeError):
    """The data asked for needs NVIDIA's reader, which this reader may not load."""


class ReportReader:
    """One opened ``.ncu-rep``; launches are numbered in report order (Nsight's result IDs).

    ``decode=False`` reads everything through ncu_report (what the tests compare against);
    ``nvidia=False`` never loads ncu_report (a long-lived process, the window: what needs it
    raises ``NeedsReader``, and a child process reads it). The line tables come from the
    cubins the report embeds (``cubin_lines``) where they decode, else from ncu_report."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        decode: bool = True,
        nvidia: bool = True,
    ) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise KernelscopeError(f"{self.path}: no such file")
        if self.path.stat().st_size == 0:
            raise KernelscopeError(f"{self.path} is empty")
        self.warnings: list[str] = []
        self._described: set[str] = set()
        self._file: ReportFile | None = None
        self._layouts: dict[int, Layout] = {}  # where each decoded launch's fields are
        self._totals: dict[int, InstructionTable | None] = {}  # read with launches(totals=)
        self._ctx: NvidiaReport | None = None  # NVIDIA's reader, loaded on first need
        self._actions: dict[int, NvidiaLaunch] = {}  # the launches it parsed (15-40 ms each)
        self._lookups: dict[int, NvidiaLaunch] = {}  # module -> the launch that answers for it
        self._locations: dict[tuple[str, int], dict[int, Location | None]] = {}
        self._may_load = nvidia
        self._cubins: dict[int, dict[str, dict[int, Location | None]] | None] = {}  # by module
        self._lined: dict[int, dict[int, Location | None] | None] = {}  # by launch
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

    def _load(self) -> NvidiaReport:
        """The report opened with ncu_report (on first need when the file was decoded)."""
        if self._ctx is not None:
            return self._ctx
        if not self._may_load:
            raise NeedsReader(
                f"{self.path}: this needs NVIDIA's report reader, which runs in a child process",
                hint="the report is read in the background; try again when it is",
            )
        _log.info("loading %s with ncu_report", self.path)
        self._ctx = NvidiaReport(self.path)
        if not len(self._ctx):
            raise _no_launches(self.path)
        return self._ctx

    def __len__(self) -> int:
        return len(self._file) if self._file is not None else len(self._load())

    def _nvidia_launch(self, launch_id: int) -> NvidiaLaunch | None:
        """The launch as ncu_report has it (parsed on first use), or None when it lacks it."""
        a = self._actions.get(launch_id)
        if a is None:
            a = self._load().launch(launch_id)
            if a is not None:
                self._actions[launch_id] = a
        return a

    def _action(self, launch_id: int) -> ReportLaunch | None:
        """The launch decoded from the file, else as ncu_report has it; None when the report
        lacks it."""
        if self._file is None:
            return self._nvidia_launch(launch_id)
        try:
            return self._decoded_launch(self._file, launch_id)
        except Unsupported as exc:
            _log.info("%s: launch %d read with ncu_report: %s", self.path, launch_id, exc)
            return self._nvidia_launch(launch_id)

    def _decoded_launch(self, file: ReportFile, launch_id: int) -> DecodedLaunch | None:
        read = read_launch(file, launch_id, self._layouts.get(launch_id))
        if read is None:
            return None
        buf, self._layouts[launch_id] = read
        return DecodedLaunch(buf, file.ids, read[1], lambda name: self._text(launch_id, name))

    def _decoded(self, launch_id: int, fn: Callable[[ReportLaunch | None], T]) -> T:
        """``fn`` of the launch (None when the report lacks it); of ncu_report's launch when
        decoding fails."""
        a = self._action(launch_id)
        if isinstance(a, DecodedLaunch):
            try:
                return fn(a)
            except Unsupported as exc:
                _log.info("%s: launch %d read with ncu_report: %s", self.path, launch_id, exc)
                a = self._nvidia_launch(launch_id)
        return fn(a)

    def _lookup(self, launch_id: int, start: int | None) -> NvidiaLaunch | None:
        """The ncu_report launch that answers ``source_info`` and ``sass`` for this launch:
        the first one asked for of the launch's module (the one module that has a function
        at ``start``), else the launch's own."""
        module = self._file.module_of(start) if self._file is not None else None
        if module is None:
            return self._nvidia_launch(launch_id)
        a = self._lookups.get(module)
        if a is None:
            a = self._nvidia_launch(launch_id)
            if a is not None:
                self._lookups[module] = a
        return a

    def _text(self, launch_id: int, name: str) -> MetricText | None:
        """NVIDIA's unit and description of this metric (the same in every launch), as read
        when a launch was parsed (``NvidiaReport.texts``); parsing this launch when none
        parsed yet has the metric."""
        if self._ctx is None or name not in self._ctx.texts:
            self._nvidia_launch(launch_id)
        return self._ctx.texts.get(name) if self._ctx is not None else None

    def launches(self, *, totals: bool = False) -> list[Launch]:
        """Every launch's kernel-list data, in report order, up to the first damaged one.
        ``totals``: each launch's totals row too (``instructions(lines=False)``), decoded
        while its message is read and kept for that call: what a first look needs, with one
        read of each message instead of two (0.2 s of a 500-launch report)."""
        out = []
        for i in range(len(self)):
            launch = self.launch(i, totals=totals)
            if launch is None:
                self.warnings.append(
                    f"{self.path}: launch {i} is incomplete (truncated report?); "
                    f"{i} of {len(self)} launches kept"
                )
                break
            out.append(launch)
        return out

    def names(self) -> list[str] | None:
        """Each launch's kernel name, read from the start of its message alone (``read_name``),
        in report order, up to the first that has none; None where the report is read with
        ncu_report (no file of its own)."""
        if self._file is None:
            return None
        out = []
        for i in range(len(self._file)):
            name = read_name(self._file, i)
            if name is None:
                break
            out.append(name)
        return out

    def launch(self, launch_id: int, *, totals: bool = False) -> Launch | None:
        """One launch's kernel-list data; None when the report's data for it is damaged (a
        truncated report: no launch, no name or duration, or ncu_report failing on it).
        ``totals``: its totals row too, kept for ``instructions(lines=False)``."""
        try:
            if totals:
                launch, self._totals[launch_id] = self._decoded(
                    launch_id, lambda a: (_launch(launch_id, a), _totals_row(a))
                )
                return launch
            return self._decoded(launch_id, lambda a: _launch(launch_id, a))
        except DAMAGED as exc:
            _log.info("%s: launch %d unreadable: %s", self.path, launch_id, exc)
            return None

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
                a = self._nvidia_launch(i)
                files = a.source_files() if a is not None else {}
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
            if launch_id in self._totals:
                return self._totals.pop(launch_id)
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
            and not all(self._cubin_table(lid, start) is not None for lid, start in launches)
        ):
            from .line_child import LineChild

            # the launch that answers for each module, known now where every start is
            lookup: dict[tuple[str, int], int] = {}
            for lid, start in launches if all(s is not None for _, s in launches) else []:
                if start is not None:
                    lookup.setdefault(self._location_key(lid, start), lid)
            child = LineChild(self.path, launches=sorted(lookup.values()))
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
                    missing = wanted.setdefault(key, (lookup.get(key, lid), set()))[1]
                    missing.update(pc for pc in pcs.astype(np.int64).tolist() if pc not in known)
                asked = [(key, lid, sorted(todo)) for key, (lid, todo) in wanted.items() if todo]
                found = child.lines([(lid, todo) for _, lid, todo in asked]) if asked else []
                for (key, _, todo), locations in zip(asked, found, strict=True):
                    self._locations.setdefault(key, {}).update(zip(todo, locations, strict=True))
            return {lid: self._table(lid, first, pcs) for lid, (first, pcs) in decoded.items()}
        finally:
            if child is not None:
                child.close()

    def instructions_combined(
        self, launches: Sequence[tuple[int, int | None]]
    ) -> tuple[InstructionTable | None] | None:
        """The table of several launches of one kernel (launch ID, function start), their
        per-PC arrays combined before one table is made (``aggregate.combine_per_pc``):
        ``(table,)``, the same as combining their tables. None where that cannot be done:
        launches of other starts or modules, a PC twice in a metric, or lines that would
        need NVIDIA's reader (``instructions_many`` reads those)."""
        from .aggregate import combine_per_pc

        first, start = launches[0]
        if self._file is None or start is None or any(s != start for _, s in launches):
            return None
        if len({self._location_key(lid, start) for lid, _ in launches}) != 1:
            return None
        if self._cubin_table(first, start) is None:
            return None
        per_pc = [p for lid, _ in launches if (p := self._decoded(lid, _per_pc_arrays))]
        if not per_pc:
            return (None,)
        combined = combine_per_pc(per_pc)
        return None if combined is None else (self._table(first, start, combined),)

    def _table(
        self, launch_id: int, start: int | None, per_pc: dict[str, PerPc]
    ) -> InstructionTable | None:
        import numpy as np

        from .aggregate import unique_sorted

        if not per_pc:
            return None
        pcs = unique_sorted(np.concatenate([ids for ids, _ in per_pc.values()])).astype(np.int64)
        if start is None:
            start = int(pcs[0])
        locations = self._lines(launch_id, start, pcs.tolist())
        numbers = _numbers_per_pc(pcs, per_pc)
        categories: dict[str, list[str | None]] = {}
        for metric in _PC_METRICS:
            found = per_pc.get(metric.key)
            if found is None or (metric.kind is not Kind.CATEGORY and metric.key in numbers):
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
        """The recorded (file, line) of each PC, through the module's lookup launch; kept per
        module, since a kernel's launches share their PCs."""
        known = self._locations.setdefault(self._location_key(launch_id, start), {})
        todo = [pc for pc in pcs if pc not in known]
        built = self._cubin_table(launch_id, start) if todo else None
        if built is not None and all(pc - start in built for pc in todo):
            known.update((pc, built[pc - start]) for pc in todo)
            todo = []
        if todo:
            a = self._lookup(launch_id, start)
            if a is None:
                raise DAMAGED("the report lacks this launch")
            for pc in todo:
                known[pc] = a.source_info(pc)
        return [known[pc] for pc in pcs]

    def _cubin_table(self, launch_id: int, start: int | None) -> dict[int, Location | None] | None:
        """The launch's line table (offset -> location) decoded from the cubin of its module
        in the report (``cubin_lines``, once per module), None when there is none."""
        if launch_id not in self._lined:
            self._lined[launch_id] = self._decode_cubin_table(launch_id, start)
        return self._lined[launch_id]

    def _decode_cubin_table(
        self, launch_id: int, start: int | None
    ) -> dict[int, Location | None] | None:
        file = self._file
        module = file.module_of(start) if file is not None else None
        if file is None or module is None:
            return None
        if module not in self._cubins:
            cubin = file.cubin(module)
            self._cubins[module] = cubin_lines(cubin) if cubin is not None else None
        functions = self._cubins[module]
        if not functions:
            return None
        try:
            a = self._decoded_launch(file, launch_id)
        except Unsupported as exc:
            _log.info("%s: launch %d has no decoded name: %s", self.path, launch_id, exc)
            return None
        name = (a.name(NameBase.MANGLED) or a.name()) if a is not None else None
        return functions.get(name) if name else None

    def metrics(self, launch_id: int, names: Iterable[str]) -> LaunchMetrics:
        """Launch-level metrics by name (the Details view's), with NVIDIA's descriptions, the
        sections the launch was profiled with and the rules' source markers. The parts of a
        SOL breakdown (a string metric listing metric names) are read too."""
        wanted = list(dict.fromkeys(names))
        return self._decoded(launch_id, lambda a: self._metrics(a, wanted))

    def _metrics(self, a: ReportLaunch | None, names: list[str]) -> LaunchMetrics:
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
            record = a.record(name)
            if record is None:
                continue
            values[name] = record
            if name not in self._described:  # the same text in every launch: read it once
                self._described.add(name)
                text = a.description(name)
                if text:
                    descriptions[name] = text
            if name in breakdowns and isinstance(record.value, str):
                todo.extend(p for p in record.value.split(",") if p and p not in values)
        sections = a.sections()
        start = a.scalar("launch__function_pcs")
        return LaunchMetrics(
            values=values,
            sections=sections,
            markers=a.markers(int(start) if isinstance(start, int | float) else None),
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
            text = a.sass(start + offset)
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


def _launch(i: int, a: ReportLaunch | None) -> Launch | None:
    """A launch's kernel-list data; None when it lacks its name or duration."""
    if a is None:
        return None
    name = a.name()
    if name is None or not a.has_metric("gpu__time_duration.sum"):
        return None
    launch = Launch(
        id=i,
        name=name,
        demangled=a.name(NameBase.DEMANGLED) or name,
        mangled=a.name(NameBase.MANGLED) or "",
    )
    for metric, fname in METRIC_FIELDS.items():
        v = a.scalar(metric)
        if isinstance(v, float | int):
            setattr(launch, fname, round(v) if fname in INT_FIELDS else float(v))
    launch.grid = _dim3(a, "launch__grid_dim_")
    launch.block = _dim3(a, "launch__block_dim_")
    dev = a.scalar("launch__device_id")
    launch.device = int(dev) if isinstance(dev, int | float) else None
    launch.device_name = str(a.scalar("device__attribute_display_name") or "")
    major = a.scalar("device__attribute_compute_capability_major")
    minor = a.scalar("device__attribute_compute_capability_minor")
    if major is not None and minor is not None:
        launch.cc = f"{int(major)}.{int(minor)}"
    start = a.scalar("launch__function_pcs")
    launch.function_start = int(start) if isinstance(start, int | float) else None
    launch.rules = a.rules()
    launch.has_source_metrics = a.has_metric("inst_executed")
    return launch


def _per_pc_arrays(a: ReportLaunch | None) -> dict[str, PerPc]:
    """The per-PC metrics of a launch: (PCs, values) arrays by metric key."""
    return a.per_pc(_PC_KEYS) if a is not None else {}


def _totals_row(a: ReportLaunch | None) -> InstructionTable | None:
    """``ReportReader.instructions(lines=False)``: one row of the launch's own values of its
    per-instruction metrics (categories left out)."""
    import numpy as np

    if a is None:
        return None
    values: dict[str, float] = {}
    for key in _TOTAL_KEYS:
        value = a.total(key)
        if isinstance(value, int | float):
            values[key] = float(value)
    if not values:
        return None
    for group, stalls in _TOTAL_STALLS:
        # _add_stall_groups for one row of numbers (none NaN), without numpy's per-call cost
        # (half of a first look's time per launch); the stall keys in the row's order
        parts = [values[k] for k in stalls if k in values]
        if parts:
            values[group] = sum(parts)
    # each metric's column a view of one row: the rows of a column array, made in C
    row = np.array(list(values.values())).reshape(-1, 1)
    numbers = dict(zip(values, row, strict=True))
    return InstructionTable(np.zeros(1, dtype=np.int64), [None], numbers)


def _numbers_per_pc(pcs: np.ndarray, per_pc: dict[str, PerPc]) -> dict[str, np.ndarray]:
    """The numeric per-PC metrics of a launch as columns over ``pcs`` (NaN where a metric has
    no value), all at once: one search of every metric's PCs, one scatter into a matrix whose
    rows are the columns (~0.6 ms a launch less than metric by metric, for ~65 of them).
    Where a metric's PCs do not strictly increase (a repeated PC: its last value counts,
    ``_last_per_pc``), nothing is returned: the caller goes metric by metric."""
    import numpy as np

    from .aggregate import rising_runs

    keys = [m.key for m in _PC_METRICS if m.kind is not Kind.CATEGORY and m.key in per_pc]
    if not keys:
        return {}
    counts = [len(per_pc[k][0]) for k in keys]
    ids = np.concatenate([per_pc[k][0] for k in keys]).astype(np.int64)
    values = np.concatenate([per_pc[k][1] for k in keys])
    if not rising_runs(ids, counts):
        return {}
    matrix = np.full((len(keys), len(pcs)), np.nan)
    matrix[np.repeat(np.arange(len(keys)), counts), np.searchsorted(pcs, ids)] = values
    return dict(zip(keys, matrix, strict=True))


def _is_stall(key: str, not_issued: bool) -> bool:
    """Whether a metric is one of the stall reasons summed in a "Warp Stall Sampling"
    column (the not-issued one, or the other)."""
    return key.startswith(STALL_PREFIX) and key.endswith(NOT_ISSUED_SUFFIX) == not_issued


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


def _dim3(a: ReportLaunch, prefix: str) -> tuple[int, int, int] | None:
    dims = []
    for axis in "xyz":
        v = a.scalar(prefix + axis)
        if not isinstance(v, int | float):
            return None
        dims.append(int(v))
    return (dims[0], dims[1], dims[2])


def _add_stall_groups(numbers: dict[str, np.ndarray], n: int) -> None:
    """The Source page's "Warp Stall Sampling" columns: sums over the stall reasons."""
    import numpy as np

    for key, not_issued in ((STALLS_ALL, False), (STALLS_NOT_ISSUED, True)):
        cols = [v for k, v in numbers.items() if _is_stall(k, not_issued)]
        if cols:
            numbers[key] = np.nansum(np.vstack(cols), axis=0)
            numbers[key][np.all(np.isnan(np.vstack(cols)), axis=0)] = np.nan


# A totals row's two "Warp Stall Sampling" sums: each one's stall reasons, in the row's order.
_TOTAL_STALLS = [
    (group, [k for k in _TOTAL_KEYS if _is_stall(k, not_issued)])
    for group, not_issued in ((STALLS_ALL, False), (STALLS_NOT_ISSUED, True))
]
