"""Reading an ``.ncu-rep`` without NVIDIA's reader: the report's container and the parts of
each profiled launch that the kernel list, per-instruction numbers and embedded sources need.

Why: ``ncu_report`` parses a whole launch on first access (every metric and every section
definition, ~1 MB for a ``--set full`` launch: 15-40 ms, with the GIL held) and keeps ~10 MB
of memory per parsed launch; its per-instance accessors cost ~1 us a call. The kernel list
needs ~20 numbers per launch, the Source view's numbers ~40 instanced metrics. Decoding those
straight from the file costs ~1 ms per launch and no memory that stays.

The container is documented by NVIDIA ("Report File Format", version 7, in the Nsight Compute
Customization Guide): ``NVR\\0``, a size-prefixed file header, then blocks of a size-prefixed
block header (counts of source and result entries, the string table, the payload size) and a
payload of size-prefixed protobuf 2 messages (``ProfileSource``: a module's cubin, embedded
source files and functions; ``ProfileResult``: one launch). The message definitions ship with
Nsight Compute (``extras/FileFormat``); the field numbers below are the ones this module
decodes, and ``tests/test_report_format.py`` checks every value against ``ncu_report`` on
every report in ``tests/data``:

* ``ProfileResult``: 5 mangled name, 6 function name, 7 demangled name, 13 metrics
  (``ProfileMetricResult``: 1 string-table index of its name, 2 value, 3 instances of
  (1 correlation id, 2 value)), 16 range index, 17 sections (1 identifier), 19 rule results.
* ``ProfileMetricValue``: one of 1 string, 2 float, 3 double, 4 uint32, 5 uint64.
* ``RuleResult``: 1 identifier, 2 name, 3 body (items of 1 message (1 text, 2 type,
  4 title) and 10 speedup estimation (1 type, 2 value)), 4 section identifier, 5 source
  markers (1 kind, 2 line, 3 address, 4 message, 5 type, 6 file).
* ``ProfileSource``: 1 module id, 8 embedded files (1 path, 2 text), 9 functions (1 name,
  2 address); a later entry with the same module id adds functions.

``DecodedAction`` and ``DecodedMetric`` answer the part of ncu_report's ``IAction`` and
``IMetric`` that ``report.ReportReader`` calls, so the reader has one code path for both.

What was not seen in a real report (another container version, several string tables or
ranges, an unknown value type or rule message type, a compressed ``.ncu-repz``) raises
``Unsupported``: the caller then reads the report with ``ncu_report`` as before. What needs
NVIDIA's logic stays with ``ncu_report``: the line table (``source_info``), SASS text, metric
units and descriptions.
"""

from __future__ import annotations

import contextlib
import math
import mmap
import os
import struct
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

MAGIC = b"NVR\0"
VERSION = 7
_EDGE = 4096  # bytes of each result's start and end that identify it (ReportFile.identify)

# ncu_report's numbers for a rule message's type (what ``report._RULE_KIND`` names), by the
# number stored in the file: 1 info, 2 warning, 4 optimisation (all three seen in real
# reports). Anything else is Unsupported.
_RULE_MESSAGE_TYPE = {1: 1, 2: 3, 4: 2}
# The same for a source marker's message type (only 2 seen).
_MARKER_TYPE = {2: 2}
Value = float | int | str
Buffer = bytes | memoryview
# a launch's plain fields, its metrics' spans by name index, its rules' and sections' spans
Span = tuple[int, int]
_Walked = tuple[dict[int, Any], dict[int, Span], list[Span], list[Span]]


class Unsupported(Exception):
    """Something this decoder does not know: read the report with ncu_report instead."""


@dataclass(frozen=True)
class _Entry:
    offset: int  # of the message in the file
    size: int  # 0 when the file ends before the message does


@dataclass(frozen=True)
class SourceModule:
    """A ``ProfileSource``: one loaded module's embedded files and its functions."""

    files: dict[str, str]
    functions: frozenset[tuple[str, int]]  # (name, load address)

    @property
    def addresses(self) -> frozenset[int]:
        return frozenset(a for _, a in self.functions)


# ---- wire format ----------------------------------------------------------------------------
def _varint(buf: Buffer, i: int) -> tuple[int, int]:
    b = buf[i]
    if b < 0x80:
        return b, i + 1
    result = b & 0x7F
    shift = 7
    i += 1
    while True:
        b = buf[i]
        i += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, i
        shift += 7
        if shift > 63:
            raise Unsupported("a varint longer than 10 bytes")


def _fields(buf: Buffer, start: int = 0, end: int | None = None) -> Iterable[tuple[int, int, Any]]:
    """(field, wire type, value): an int for varints, (start, end) for length-delimited
    fields, the raw bytes for fixed32/fixed64."""
    i = start
    end = len(buf) if end is None else end
    while i < end:
        key, i = _varint(buf, i)
        field, wire = key >> 3, key & 7
        if wire == 0:
            value, i = _varint(buf, i)
            yield field, wire, value
        elif wire == 2:
            n, i = _varint(buf, i)
            if i + n > end:
                raise Unsupported("a field runs past its message")
            yield field, wire, (i, i + n)
            i += n
        elif wire == 1:
            yield field, wire, buf[i : i + 8]
            i += 8
        elif wire == 5:
            yield field, wire, buf[i : i + 4]
            i += 4
        else:
            raise Unsupported(f"wire type {wire}")
    if i != end:
        raise Unsupported("a message ends inside a field")


_DOUBLE = struct.Struct("<d")
_FLOAT = struct.Struct("<f")


def _value(buf: Buffer, start: int, end: int) -> Value | None:
    """A ``ProfileMetricValue``: one field, the common shapes decoded without a loop."""
    if end > start:
        tag = buf[start]
        if tag in (0x28, 0x20):
            v, i = _varint(buf, start + 1)
            if i == end:
                return v
        elif tag == 0x19 and end == start + 9:
            return float(_DOUBLE.unpack_from(buf, start + 1)[0])
        elif tag == 0x15 and end == start + 5:
            return float(_FLOAT.unpack_from(buf, start + 1)[0])
    out: Value | None = None
    for field, wire, v in _fields(buf, start, end):
        if field == 1 and wire == 2:
            out = _text(buf, v)
        elif field == 2 and wire == 5:
            out = _FLOAT.unpack(v)[0]
        elif field == 3 and wire == 1:
            out = _DOUBLE.unpack(v)[0]
        elif field in (4, 5) and wire == 0:
            out = v
        else:
            raise Unsupported(f"metric value field {field} (wire type {wire})")
    return out


def _text(buf: Buffer, span: tuple[int, int]) -> str:
    return str(buf[span[0] : span[1]], "utf-8", errors="replace")


class _Metric:
    """A ``ProfileMetricResult``: its value, and where its instances are (decoded on demand:
    the kernel list needs the first instance of a few metrics only)."""

    __slots__ = ("buf", "value", "has_value", "first", "end")

    def __init__(self, buf: Buffer, start: int, end: int) -> None:
        self.buf = buf
        self.value: Value | None = None
        self.has_value = False
        self.first = end  # where the instances (field 3) begin
        self.end = end
        i = start
        while i < end:
            if buf[i] == 0x1A:  # field 3: the instances, up to the end or a last field 4
                self.first = i
                return
            key, i = _varint(buf, i)
            field, wire = key >> 3, key & 7
            if wire == 2:
                n, i = _varint(buf, i)
                if field == 2:
                    self.value = _value(buf, i, i + n)
                    self.has_value = True
                elif field != 1:
                    raise Unsupported(f"metric field {field}")
                i += n
            elif wire == 0 and field in (1, 4):
                _, i = _varint(buf, i)
            else:
                raise Unsupported(f"metric field {field} (wire type {wire})")

    @property
    def instanced(self) -> bool:
        return self.first < self.end

    def instance(self, i: int) -> tuple[tuple[Value | None, Value | None], int]:
        """(correlation id, value) of the instance whose tag is at ``i``, and where the next
        field begins."""
        buf = self.buf
        n, j = _varint(buf, i + 1)
        end = j + n
        if n >= 4 and buf[j] == 0x0A and buf[j + 1] < 0x80:  # 0a A <id> 12 B <value>
            k = j + 2 + buf[j + 1]
            if k + 1 < end and buf[k] == 0x12 and k + 2 + buf[k + 1] == end:
                return (_value(buf, j + 2, k), _value(buf, k + 2, end)), end
        ident = value = None
        for field, wire, v in _fields(buf, j, end):
            if field == 1 and wire == 2:
                ident = _value(buf, *v)
            elif field == 2 and wire == 2:
                value = _value(buf, *v)
            else:
                raise Unsupported(f"metric instance field {field}")
        return (ident, value), end

    def instances(self) -> tuple[list[int], int]:
        """Where each instance's tag is, walked one by one, and where the instances end."""
        buf, i, out = self.buf, self.first, []
        while i < self.end and buf[i] == 0x1A:
            out.append(i)
            n, i = _varint(buf, i + 1)
            i += n
        return out, i

    def tail_ok(self, i: int) -> bool:
        """Whether the fields after the instances (from ``i``) hold no further instance."""
        return all(field != 3 for field, _, _ in _fields(self.buf, i, self.end))


# ---- the file ---------------------------------------------------------------------------------
class ReportFile:
    """An ``.ncu-rep`` opened without ncu_report. Launches are numbered in file order, which is
    ncu_report's order for the single-range reports this reads (others are Unsupported)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        with open(self.path, "rb") as f:
            try:
                self._map: mmap.mmap | bytes = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            except ValueError:  # an empty file cannot be mapped
                self._map = b""
        self._table = b""  # the string table: metric names, decoded on first use
        self._names: list[str] | None = None
        self._ids: dict[str, int] | None = None
        self._results: list[_Entry] = []
        self._sources: list[_Entry] = []
        self._modules: list[SourceModule] | None = None
        self._walked: dict[int, _Walked] = {}
        self._index()

    def close(self) -> None:
        """Unmap the file (left to the garbage collector while decoded launches use it)."""
        if isinstance(self._map, mmap.mmap):
            with contextlib.suppress(BufferError):
                self._map.close()

    def __enter__(self) -> ReportFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def names(self) -> list[str]:
        if self._names is None:
            self._names = [_text(self._table, s) for _, _, s in _fields(self._table)]
        return self._names

    @property
    def ids(self) -> dict[str, int]:
        """Metric name -> its string-table index."""
        if self._ids is None:
            self._ids = {name: k for k, name in enumerate(self.names)}
        return self._ids

    def identify(self, update: Callable[[bytes | memoryview], object]) -> None:
        """Feed ``update`` (a hash's) with what identifies this report's content: its size,
        every byte outside the launches' results (file and block headers with the string
        table, every module's cubin, embedded sources and function list) and, per result,
        its size and its first and last 4 KB, a tenth of a 74 MB report.

        Why that is enough: ncu writes each result once, when it profiles that launch, and
        its first bytes are the process id and the launch's start and end timestamps (ns),
        its last bytes the launch's context, stream and rule results; another profiling run
        differs in every result's first bytes, and what rewrites a report afterwards (ncu-ui
        resolving sources, merging or cutting reports) changes the modules, the block
        headers or the results' sizes. Not seen: an edit inside a result's metrics that
        keeps its size, which only a byte editor makes."""
        data = self._map
        update(len(data).to_bytes(8, "little"))
        view = memoryview(data)
        at = 0
        for entry in self._results:
            update(view[at : entry.offset])
            update(entry.size.to_bytes(8, "little"))
            if entry.size <= 2 * _EDGE:
                update(view[entry.offset : entry.offset + entry.size])
            else:
                update(view[entry.offset : entry.offset + _EDGE])
                update(view[entry.offset + entry.size - _EDGE : entry.offset + entry.size])
            at = entry.offset + entry.size
        update(view[at:])
        view.release()

    def __len__(self) -> int:
        """Launches, complete or not (a truncated report's last ones are cut)."""
        return len(self._results)

    def _index(self) -> None:
        data = self._map
        size = len(data)
        if data[:4] != MAGIC:
            raise Unsupported("no NVR magic (a compressed or foreign file)")
        (header_size,) = struct.unpack_from("<I", data, 4)
        header = bytes(data[8 : 8 + header_size])
        version = dict((f, v) for f, w, v in _fields(header) if w == 0).get(1)
        if version != VERSION:
            raise Unsupported(f"report format version {version}")
        off = 8 + header_size
        seen: bytes | None = None
        while off + 4 <= size:
            (n,) = struct.unpack_from("<I", data, off)
            if off + 4 + n > size:
                break  # a cut block header: a truncated report
            block = bytes(data[off + 4 : off + 4 + n])
            off += 4 + n
            counts = {1: 0, 2: 0, 5: 0}
            for field, wire, v in _fields(block):
                if wire == 0 and field in counts:
                    counts[field] = v
                elif field == 4 and wire == 2 and v[1] > v[0]:
                    table = block[v[0] : v[1]]
                    if seen is not None and table != seen:  # ncu writes one table
                        raise Unsupported("a second, different string table")
                    if seen is None:
                        seen = self._table = table
                elif field == 7 and wire == 0 and v:
                    raise Unsupported("range results")
            entry = off
            payload_end = min(off + counts[5], size)
            for k in range(counts[1] + counts[2]):
                whole = entry + 4 <= payload_end
                length = struct.unpack_from("<I", data, entry)[0] if whole else 0
                complete = whole and entry + 4 + length <= payload_end
                item = _Entry(entry + 4, length if complete else 0)
                (self._sources if k < counts[1] else self._results).append(item)
                entry += 4 + length
            off += counts[5]

    def _bytes(self, entry: _Entry) -> bytes:
        return bytes(self._map[entry.offset : entry.offset + entry.size])

    # ---- launches ------------------------------------------------------------------------
    def action(self, i: int, nvidia: Nvidia | None = None) -> DecodedAction | None:
        """Launch ``i`` as an ``IAction`` look-alike, or None when the file does not hold all
        of it (a truncated report). ``nvidia(name)`` gives the ncu_report metric that units
        and descriptions come from (they are NVIDIA's metric database, not in the file)."""
        entry = self._results[i]
        if not entry.size:
            return None
        buf = self._bytes(entry)  # a copy: indexing bytes is twice as fast as a memoryview
        walked = self._walked.get(i)
        if walked is None:
            walked = self._walked[i] = self._walk(buf)
        return DecodedAction(buf, self.ids, *walked, nvidia)

    def _walk(self, buf: bytes) -> _Walked:
        """Where a launch's fields are: its plain fields, each metric by name index, its
        rule results and sections (kept per launch, ~0.2 MB; the message is not)."""
        plain: dict[int, Any] = {}
        index: dict[int, tuple[int, int]] = {}
        rules: list[tuple[int, int]] = []
        sections: list[tuple[int, int]] = []
        i = 0
        n = len(buf)
        while i < n:
            key = buf[i]
            if key == 0x6A:  # field 13, a metric: the hot path (thousands per launch)
                length = buf[i + 1]
                if length < 0x80:
                    i += 2
                elif buf[i + 2] < 0x80:
                    length = (length & 0x7F) | (buf[i + 2] << 7)
                    i += 3
                else:
                    length, i = _varint(buf, i + 1)
                if buf[i] != 0x08:
                    raise Unsupported("a metric without its name first")
                name_id = buf[i + 1]
                if name_id >= 0x80:
                    if buf[i + 2] < 0x80:
                        name_id = (name_id & 0x7F) | (buf[i + 2] << 7)
                    else:
                        name_id = _varint(buf, i + 1)[0]
                index[name_id] = (i, i + length)
                i += length
                continue
            key, i = _varint(buf, i)
            field, wire = key >> 3, key & 7
            if wire == 2:
                length, i = _varint(buf, i)
                j = i + length
                if j > n:
                    raise Unsupported("a field runs past its message")
                if field == 19:
                    rules.append((i, j))
                elif field == 17:
                    sections.append((i, j))
                elif field in (5, 6, 7):
                    plain[field] = _text(buf, (i, j))
                i = j
            elif wire == 0:
                value, i = _varint(buf, i)
                plain[field] = value
            elif wire == 1:
                i += 8
            elif wire == 5:
                i += 4
            else:
                raise Unsupported(f"wire type {wire}")
        if i != n:
            raise Unsupported("a metric runs past its launch")
        if plain.get(16, 0):
            raise Unsupported("a launch outside the first range")
        return plain, index, rules, sections

    # ---- modules ---------------------------------------------------------------------------
    @property
    def modules(self) -> list[SourceModule]:
        """The loaded modules; entries with the same module id (a later entry adds the
        functions resolved since) are one module."""
        if self._modules is None:
            merged: dict[int | None, tuple[dict[str, str], set[tuple[str, int]]]] = {}
            for entry in self._sources:
                if entry.size:
                    ident, files, functions = self._module(entry)
                    known = merged.setdefault(ident, ({}, set()))
                    for path, text in files.items():
                        if text or path not in known[0]:
                            known[0][path] = text
                    known[1].update(functions)
            self._modules = [SourceModule(f, frozenset(fn)) for f, fn in merged.values()]
        return self._modules

    def _module(self, entry: _Entry) -> tuple[int | None, dict[str, str], set[tuple[str, int]]]:
        buf = self._bytes(entry)
        ident: int | None = None
        files: dict[str, str] = {}
        functions: set[tuple[str, int]] = set()
        for field, wire, v in _fields(buf):
            if field == 1 and wire == 0:
                ident = v
            elif field == 8 and wire == 2:
                for f2, w2, file in _fields(buf, *v):
                    if f2 != 1 or w2 != 2:
                        raise Unsupported(f"source list field {f2}")
                    parts = {f3: s for f3, w3, s in _fields(buf, *file) if w3 == 2}
                    if 1 in parts:
                        files[_text(buf, parts[1])] = _text(buf, parts[2]) if 2 in parts else ""
            elif field == 9 and wire == 2:
                for f2, w2, fn in _fields(buf, *v):
                    if f2 != 1 or w2 != 2:
                        raise Unsupported(f"function list field {f2}")
                    parts = dict((f3, x) for f3, _, x in _fields(buf, *fn))
                    if isinstance(parts.get(1), tuple) and isinstance(parts.get(2), int):
                        functions.add((_text(buf, parts[1]), parts[2]))
        return ident, files, functions

    def module_of(self, function_start: int | None) -> int | None:
        """The index of the one module that has a function at this address, else None."""
        if function_start is None:
            return None
        found = [k for k, m in enumerate(self.modules) if function_start in m.addresses]
        return found[0] if len(found) == 1 else None


@dataclass(frozen=True)
class MetricText:
    """NVIDIA's unit and description of a metric, as its reader gives them."""

    unit: str
    description: str


Nvidia = Callable[[str], MetricText | None]  # metric name -> NVIDIA's text of it (or None)

# ncu_report's IMetric.kind() for each kind of stored value
_KIND = {str: 2, float: 4, int: 6}


class DecodedMetric:
    """The part of ncu_report's ``IMetric`` that kernelscope calls, from the file."""

    def __init__(self, name: str, m: _Metric, nvidia: Nvidia | None) -> None:
        self._name = name
        self._m = m
        self._nvidia = nvidia
        self._instances: list[tuple[Value | None, Value | None]] | None = None
        self._type = _value_type(m)

    def name(self) -> str:
        return self._name

    @property
    def instanced(self) -> bool:
        """Whether it has instances, without decoding them."""
        return self._m.instanced

    def _all(self) -> list[tuple[Value | None, Value | None]]:
        if self._instances is None:
            where, stop = self._m.instances()
            if not self._m.tail_ok(stop):
                raise Unsupported("instances after another field")
            self._instances = [self._m.instance(i)[0] for i in where]
        return self._instances

    def num_instances(self) -> int:
        return len(self._all()) if self._m.instanced else 0

    def has_value(self) -> bool:
        return self._m.has_value

    def value(self, i: int | None = None) -> Value | None:
        return self._m.value if i is None else self._all()[i][1]

    def as_double(self, i: int) -> float:
        v = self._all()[i][1]
        return float(v) if isinstance(v, int | float) else math.nan

    def as_uint64(self, i: int) -> int:
        v = self._all()[i][1]
        return int(v) if isinstance(v, int) else 0

    def kind(self) -> int:
        return _KIND.get(self._type, 0) if self._type is not None else 0

    def has_correlation_ids(self) -> bool:
        return self._m.instanced and all(ident is not None for ident, _ in self._all())

    def correlation_ids(self) -> _Ids:
        return _Ids([ident for ident, _ in self._all()])

    def unit(self) -> str:
        m = self._nvidia(self._name) if self._nvidia else None
        return m.unit if m is not None else ""

    def description(self) -> str:
        m = self._nvidia(self._name) if self._nvidia else None
        return m.description if m is not None else ""


def _value_type(m: _Metric) -> type | None:
    """The type of the metric's own value, else of its first instance's (what its kind is)."""
    if m.has_value and m.value is not None:
        return type(m.value)
    if m.instanced:
        v = m.instance(m.first)[0][1]
        return type(v) if v is not None else None
    return None


class _Ids:
    def __init__(self, ids: list[Value | None]) -> None:
        self._ids = ids

    def num_instances(self) -> int:
        return len(self._ids)

    def kind(self) -> int:
        return _KIND.get(type(self._ids[0]), 0) if self._ids else 0

    def value(self, i: int) -> Value | None:
        return self._ids[i]

    def as_uint64(self, i: int) -> int:
        v = self._ids[i]
        return int(v) if isinstance(v, int) else 0

    def as_double(self, i: int) -> float:
        v = self._ids[i]
        return float(v) if isinstance(v, int | float) else math.nan


class _Section:
    def __init__(self, identifier: str) -> None:
        self._identifier = identifier

    def identifier(self) -> str:
        return self._identifier


class DecodedAction:
    """The part of ncu_report's ``IAction`` that kernelscope calls for a launch's numbers and
    rules, from the file (``ReportFile.action``); ``per_pc_arrays`` is its fast path for
    per-instruction metrics. The line table and SASS are not here: ask ncu_report."""

    def __init__(
        self,
        buf: bytes,
        ids: dict[str, int],
        plain: dict[int, Any],
        index: dict[int, tuple[int, int]],
        rules: list[tuple[int, int]],
        sections: list[tuple[int, int]],
        nvidia: Nvidia | None,
    ) -> None:
        self._buf = buf
        self._ids = ids
        self._plain = plain
        self._index = index
        self._rules = rules
        self._sections = sections
        self._nvidia = nvidia

    def name(self, base: int = 0) -> str | None:
        """0: the function name, 1: demangled, 2: mangled (``IAction.NameBase``)."""
        return self._plain.get({0: 6, 1: 7, 2: 5}[base])

    def metric_names(self) -> tuple[str, ...]:
        names = {k: name for name, k in self._ids.items()}
        return tuple(names[k] for k in self._index if k in names)

    def _metric(self, name: str) -> _Metric | None:
        k = self._ids.get(name)
        span = self._index.get(k) if k is not None else None
        return _Metric(self._buf, *span) if span is not None else None

    def metric_by_name(self, name: str) -> DecodedMetric | None:
        m = self._metric(name)
        return DecodedMetric(name, m, self._nvidia) if m is not None else None

    def per_pc_arrays(self, names: Sequence[str]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """The instanced metrics among ``names``: name -> (correlation ids (PCs) as uint64,
        values as float64), in the file's order; what ``report._per_pc`` reads one instance
        at a time through ncu_report, as arrays."""
        found = [(name, m) for name in names if (m := self._metric(name)) and m.instanced]
        arrays = _instance_arrays([m for _, m in found])
        return dict(zip([name for name, _ in found], arrays, strict=True))

    def rule_results_as_dicts(self) -> list[dict[str, Any]]:
        return [d for span in self._rules for d in _rule_dicts(self._buf, span)]

    def source_markers(self) -> list[dict[str, Any]]:
        return [d for span in self._rules for d in _marker_dicts(self._buf, span)]

    def sections(self) -> list[_Section]:
        out = []
        for span in self._sections:
            ident = next((v for f, w, v in _fields(self._buf, *span) if f == 1 and w == 2), None)
            if ident is None:
                raise Unsupported("a section without an identifier")
            out.append(_Section(_text(self._buf, ident)))
        return out


class _Incomplete(Exception):
    """A launch whose data the file does not hold in full."""


def _rule_dicts(buf: Buffer, span: tuple[int, int]) -> list[dict[str, Any]]:
    """A ``RuleResult`` as ``IAction.rule_results_as_dicts`` gives it: one dict per item of
    its body (the keys kernelscope reads)."""
    ident = name = section = ""
    items: list[tuple[int, int]] = []
    for field, wire, v in _fields(buf, *span):
        if field == 1 and wire == 2:
            ident = _text(buf, v)
        elif field == 2 and wire == 2:
            name = _text(buf, v)
        elif field == 4 and wire == 2:
            section = _text(buf, v)
        elif field == 3 and wire == 2:
            items.extend(s for f, w, s in _fields(buf, *v) if f == 1 and w == 2)
    out = []
    for item in items:
        message: dict[int, Any] = {}
        speedup: dict[int, Any] = {}
        for field, wire, v in _fields(buf, *item):
            if field == 1 and wire == 2:
                message = {f: (_text(buf, x) if w == 2 else x) for f, w, x in _fields(buf, *v)}
            elif field == 10 and wire == 2:
                speedup = {
                    f: (struct.unpack("<d", x)[0] if w == 1 else x) for f, w, x in _fields(buf, *v)
                }
        text = message.get(1, "")
        kind = _RULE_MESSAGE_TYPE.get(message.get(2, 0), 0 if not text else None)
        if kind is None:
            raise Unsupported(f"rule message type {message.get(2)}")
        d: dict[str, Any] = {
            "rule_identifier": ident,
            "name": name,
            "section_identifier": section,
            "rule_message": {"title": message.get(4, ""), "message": text, "type": kind},
        }
        if speedup:
            d["speedup_estimation"] = {"type": speedup.get(1, 0), "speedup": speedup.get(2)}
        out.append(d)
    return out


def _marker_dicts(buf: Buffer, span: tuple[int, int]) -> list[dict[str, Any]]:
    """A ``RuleResult``'s source markers as ``IAction.source_markers`` gives them."""
    ident = section = ""
    raw = []
    for field, wire, v in _fields(buf, *span):
        if field == 1 and wire == 2:
            ident = _text(buf, v)
        elif field == 4 and wire == 2:
            section = _text(buf, v)
        elif field == 5 and wire == 2:
            raw.append({f: (_text(buf, x) if w == 2 else x) for f, w, x in _fields(buf, *v)})
    out = []
    for m in raw:
        kind = m.get(1, 0)
        raw_type = m.get(5, 0)
        message_type = _MARKER_TYPE.get(raw_type) if isinstance(raw_type, int) else None
        if kind not in (0, 1) or message_type is None:
            raise Unsupported(f"a source marker of kind {kind}, type {m.get(5)}")
        d: dict[str, Any] = {
            "rule_identifier": ident,
            "section_identifier": section,
            "kind": kind,
            "message_type": message_type,
            "message": m.get(4, ""),
        }
        if kind == 0:
            d["source_address"] = m.get(3)
        else:
            d["source_location"] = {"file_name": m.get(6, ""), "line": m.get(2)}
        out.append(d)
    return out


def _instance_arrays(metrics: list[_Metric]) -> list[tuple[np.ndarray, np.ndarray]]:
    """Every instance's (correlation id, value) of these metrics of one launch, decoded with
    numpy, all metrics at once (numpy's cost is per call, not per element).

    An instance is ``1a L 0a A <id> 12 B <value>``. Where every instance has one-byte
    lengths, a metric's instances are found at once: the positions that look like an
    instance's start must form the chain start, start + 2 + L, ... exactly (a look-alike
    inside an instance breaks the chain); else they are walked one by one."""
    import numpy as np

    if not metrics:
        return []
    buf = metrics[0].buf
    lo = min(m.first for m in metrics)
    hi = max(m.end for m in metrics)
    arr = np.frombuffer(buf, dtype=np.uint8)
    window = arr[lo:hi]
    n = len(window)
    look = (window[: n - 4] == 0x1A) & (window[1 : n - 3] < 0x80) & (window[2 : n - 2] == 0x0A)
    look &= (window[3 : n - 1] < 0x80) & ((window[4:] == 0x28) | (window[4:] == 0x20))
    cand = np.flatnonzero(look) + lo
    nxt = cand + 2 + arr[cand + 1]
    # chain breaks: a look-alike whose successor is not the next look-alike
    broken = np.concatenate(([0], np.cumsum(nxt[:-1] != cand[1:]))) if len(cand) else cand
    bounds = np.searchsorted(cand, [(m.first, m.end) for m in metrics]).tolist()
    starts: list[np.ndarray] = []
    for m, (a, b) in zip(metrics, bounds, strict=True):
        chained = (
            b > a
            and int(cand[a]) == m.first
            and int(broken[b - 1]) == int(broken[a])  # no break inside the metric
            and _tail_ok(m, int(nxt[b - 1]))
        )
        if chained:
            starts.append(cand[a:b])
            continue
        where, stop = m.instances()
        if not m.tail_ok(stop):
            raise Unsupported("instances after another field")
        c = np.asarray(where, dtype=np.int64)
        if (arr[c + 1] >= 0x80).any():
            raise Unsupported("an instance longer than 127 bytes")
        starts.append(c)
    counts = [len(c) for c in starts]
    tags = np.concatenate(starts)
    ends = tags + 2 + arr[tags + 1]
    body = tags + 2  # the instance's payload: 0a A <id> 12 B <value>
    id_len = arr[body + 1].astype(np.int64)
    vpos = body + 2 + id_len
    ok = (arr[body] == 0x0A) & (id_len >= 2) & (id_len < 0x80) & (vpos + 3 <= ends)
    vpos = np.where(ok, vpos, body)
    size = ends - vpos - 2
    ok &= (arr[vpos] == 0x12) & (arr[vpos + 1].astype(np.int64) == size)
    ok &= (arr[body + 2] == 0x28) | (arr[body + 2] == 0x20)
    tag = arr[vpos + 2]
    is_int = (tag == 0x28) | (tag == 0x20)
    is_double = (tag == 0x19) & (size == 9)
    is_float = (tag == 0x15) & (size == 5)
    if not (ok & (is_int | is_double | is_float)).all():
        raise Unsupported("a per-instruction metric of another shape")
    ids = _varints(arr, body + 3, id_len - 1)
    values = np.full(len(tags), np.nan)
    if is_int.any():
        values[is_int] = _varints(arr, (vpos + 3)[is_int], (size - 1)[is_int])
    if is_double.any():
        values[is_double] = _fixed(arr, (vpos + 3)[is_double], 8).view("<f8")[:, 0]
    if is_float.any():
        values[is_float] = _fixed(arr, (vpos + 3)[is_float], 4).view("<f4")[:, 0]
    cuts = np.cumsum(counts)[:-1]
    return list(zip(np.split(ids, cuts), np.split(values, cuts), strict=True))


def _tail_ok(m: _Metric, i: int) -> bool:
    """``m.tail_ok(i)``, at once for the usual tail: nothing, or field 4 = 0."""
    tail = m.buf[i : m.end]
    return tail in (b"", b"\x20\x00") or m.tail_ok(i)


def _varints(arr: np.ndarray, pos: np.ndarray, length: np.ndarray) -> np.ndarray:
    """Decode the varints at ``pos`` that are ``length`` bytes long, as uint64: one pass for
    each length there is (PCs all have one; counts a few)."""
    import numpy as np

    out = np.zeros(len(pos), dtype=np.uint64)
    if not len(pos):
        return out
    if length.min() < 1 or length.max() > 10:
        raise Unsupported("a varint of an unexpected length")
    for size in np.flatnonzero(np.bincount(length, minlength=11)).tolist():
        rows = np.flatnonzero(length == size)
        raw = arr[pos[rows, None] + np.arange(size)[None, :]]
        if (raw[:, :-1] < 0x80).any() or (raw[:, -1] >= 0x80).any():
            raise Unsupported("a varint whose length does not match its field")
        low = (raw & 0x7F).astype(np.uint64) << (7 * np.arange(size, dtype=np.uint64))
        out[rows] = low.sum(axis=1, dtype=np.uint64)
    return out


def _fixed(arr: np.ndarray, pos: np.ndarray, size: int) -> np.ndarray:
    import numpy as np

    idx = pos[:, None] + np.arange(size)[None, :]
    return np.ascontiguousarray(arr[idx])
