"""One launch decoded from its ``ProfileResult`` message (``container.ReportFile.result``):
kernelscope's ``ReportLaunch`` without NVIDIA's reader.

Why: ``ncu_report`` parses a whole launch on first access (every metric and every section
definition, ~1 MB for a ``--set full`` launch: 15-40 ms, with the GIL held) and keeps ~10 MB
of memory per parsed launch; its per-instance accessors cost ~1 us a call. The kernel list
needs ~20 numbers per launch, the Source view's numbers ~40 instanced metrics. Decoding those
straight from the file costs ~1 ms per launch and no memory that stays.

The field numbers decoded (from the message definitions in Nsight Compute's
``extras/FileFormat``; ``tests/ncu/test_report_format.py`` checks every value against
``ncu_report`` on every report in ``tests/data``):

* ``ProfileResult``: 5 mangled name, 6 function name, 7 demangled name, 13 metrics
  (``ProfileMetricResult``: 1 string-table index of its name, 2 value, 3 instances of
  (1 correlation id, 2 value)), 16 range index, 17 sections (1 identifier), 19 rule results.
* ``RuleResult``: 1 identifier, 2 name, 3 body (items of 1 message (1 text, 2 type,
  4 title) and 10 speedup estimation (1 type, 2 value)), 4 section identifier, 5 source
  markers (1 kind, 2 line, 3 address, 4 message, 5 type, 6 file).

What was not seen in a real report (a launch outside the first range, an unknown value type
or rule message type) raises ``Unsupported``: the caller then asks ``ncu_report``. Units and
descriptions of metrics are NVIDIA's metric database, not in the file: they come from the
``Texts`` the launch is given.
"""

from __future__ import annotations

import math
import os
import struct
import sys
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..detail_metrics import MetricRecord, SourceMarker
from ..records import RuleResult
from .container import ReportFile
from .launch import SPEEDUP_TYPE, NameBase, PerPc, Texts, plain_rule_text, record_value
from .wire import Buffer, Span, Unsupported, Value, fields, text, value, varint

if TYPE_CHECKING:
    import numpy as np

# A rule message's type as the file stores it: 1 info, 2 warning, 4 optimisation (all three
# seen in real reports). Anything else is Unsupported.
_RULE_KIND = {1: "INF", 2: "WRN", 4: "OPT"}
# The same for a source marker's message type (only 2 seen).
_MARKER_KIND = {2: "OPT"}


# Rule results decoded, by their bytes: a kernel's launches mostly repeat their rules word for
# word (half the decoding of a launch's kernel-list data), and the results are never changed.
_DECODED_RULES: dict[bytes, list[RuleResult]] = {}
_RULES_KEPT = 4096

_CHUNK = 1 << 16  # bytes read at a time while a launch's message is walked
_MARGIN = 24  # bytes past a field's start the walk reads unchecked (tag, length, name index)
_HEAD = 256  # bytes of a section definition read for its identifier


@dataclass(frozen=True)
class Layout:
    """Where a launch's fields are in its message (kept per launch; the message is not): its
    plain fields, each metric's span by name index, its rules' spans, its sections'
    identifiers, and the parts of the message its buffer leaves out.

    The metric spans are two arrays indexed by the metric's string-table index (the end is 0
    where the launch lacks the metric): ~18 KB a ``--set full`` launch, where a dict of
    tuples took ~400 KB (200 MB kept for a 500-launch report).

    ``cut``: (start, end) in the message of each part the buffer lacks, in order; the spans
    are offsets in what is left (``read_launch``). Those parts are the section definitions
    (field 17), 70 % of a ``--set full`` launch's bytes, of which only each identifier is
    read (None where a section has none)."""

    plain: dict[int, Any]
    starts: array[int]
    ends: array[int]
    rules: list[Span]
    sections: list[str | None]
    cut: tuple[Span, ...] = ()

    def metric(self, name_id: int) -> Span | None:
        """The span of the metric with this string-table index, None when there is none."""
        end = self.ends[name_id]
        return (self.starts[name_id], end) if end else None


def layout(buf: Buffer, names: int) -> Layout:
    """Walk a launch's whole message once to find its fields; ``names``: how many names the
    report's string table has."""
    return _walk(buf, len(buf), names, None)[1]


def read_launch(
    file: ReportFile, i: int, where: Layout | None = None
) -> tuple[Buffer, Layout] | None:
    """Launch ``i``'s message without its section definitions, and its layout (``where``,
    when already known, saves the walk); None when the file does not hold all of it.

    Why: a ``--set full`` launch is ~1 MB, 55-70 % of it the definitions of its sections,
    which nothing here reads but their identifiers: what a decoded launch holds is then
    ~40 % of its message."""
    size = file.result_size(i)
    if not size:
        return None
    if where is not None:
        pieces, at = [], 0
        for a, b in where.cut:
            pieces.append(file.result_part(i, at, a - at))
            at = b
        pieces.append(file.result_part(i, at, size - at))
        buf = b"".join(pieces)
        if len(buf) + sum(b - a for a, b in where.cut) != size:
            raise Unsupported("a launch's message changed size")
        return buf, where
    return _walk(bytearray(), size, len(file.names), lambda at, n: file.result_part(i, at, n))


def read_name(file: ReportFile, i: int) -> str | None:
    """Launch ``i``'s kernel name (``DecodedLaunch.name()``, field 6) from the start of its
    message alone: the names come before its metrics. None when the file does not hold the
    launch or its message has no name before them."""
    size = file.result_size(i)
    have = 512
    while size:
        head = file.result_part(i, 0, min(size, have))
        j = 0
        while j < len(head):
            try:
                key, k = varint(head, j)
                field, wire = key >> 3, key & 7
                if field == 13 or wire not in (0, 2):
                    return None  # the metrics (or a field the header does not have) first
                n, k = varint(head, k)
            except IndexError:
                break  # a varint cut by the end of what was read
            if wire == 0:
                j = k
                continue
            if k + n > len(head):
                break
            if field == 6:
                return text(head, (k, k + n))
            j = k + n
        if len(head) >= size or have >= _HEAD_NAME:
            return None
        have *= 4
    return None


# Bytes of a message's start read for its name, at most (names are tens to hundreds of bytes).
_HEAD_NAME = 1 << 16


def _walk(
    buf: Buffer, size: int, names: int, read: Callable[[int, int], bytes] | None
) -> tuple[Buffer, Layout]:
    """The walk over a message of ``size`` bytes. ``read`` None: ``buf`` is all of it.
    Else ``buf`` is an empty bytearray, filled as the walk goes with ``read(offset, n)``
    (``n`` bytes of the message from ``offset``), section definitions left out."""
    if size >= 1 << 32:
        raise Unsupported("a launch of 4 GB or more")
    plain: dict[int, Any] = {}
    starts = array("I", [0]) * names  # each metric's span by its name's index (``Layout``)
    ends = array("I", [0]) * names
    rules: list[Span] = []
    sections: list[str | None] = []
    cut: list[Span] = []
    skipped = 0  # bytes of the message left out before the buffer's end
    step = _CHUNK  # what to read next at least: less after a section, likely another one
    i = 0
    try:
        while True:
            have = len(buf)
            more = have + skipped < size
            if more and i + _MARGIN >= have:
                _extend(buf, read, have + skipped, max(i + _MARGIN, have + step) - have)
                continue
            if i >= have:
                break
            limit = have - _MARGIN if more else have
            # field 13, the metrics: the hot path (thousands a launch, one after the other),
            # each one's span kept by its name's index (its first field; a later metric of
            # the same name wins)
            while i < limit and buf[i] == 0x6A:
                length = buf[i + 1]
                if length < 0x80:
                    i += 2
                elif buf[i + 2] < 0x80:
                    length = (length & 0x7F) | (buf[i + 2] << 7)
                    i += 3
                else:
                    length, i = varint(buf, i + 1)
                if buf[i] != 0x08:
                    raise Unsupported("a metric without its name first")
                name_id = buf[i + 1]
                if name_id >= 0x80:
                    low = buf[i + 2]
                    name_id = (name_id & 0x7F) | (low << 7) if low < 0x80 else varint(buf, i + 1)[0]
                starts[name_id] = i
                i += length
                ends[name_id] = i
            if i >= limit:
                continue
            key, k = varint(buf, i)
            field, wire = key >> 3, key & 7
            if wire == 2:
                length, k = varint(buf, k)
                j = k + length
                if j + skipped > size:
                    raise Unsupported("a field runs past its message")
                if field == 17 and isinstance(buf, bytearray) and read is not None:
                    first = buf[k + 1] if k + 1 < have and buf[k] == 0x0A else 0x80
                    if j <= have or (first < 0x80 and k + 2 + first <= have):  # id read
                        sections.append(_section_id(buf, k, min(j, have)))
                    else:
                        head = _section_head(read, k + skipped, length)
                        sections.append(_section_id(head, 0, len(head)))
                    del buf[i:j]
                    if cut and cut[-1][1] == i + skipped:
                        cut[-1] = (cut[-1][0], j + skipped)
                    else:
                        cut.append((i + skipped, j + skipped))
                    skipped += j - i
                    step = _HEAD
                    continue
                step = _CHUNK
                if j > have and field in (5, 6, 7):
                    _extend(buf, read, have + skipped, j - have)
                if field == 19:
                    rules.append((k, j))
                elif field == 17:
                    sections.append(_section_id(buf, k, j))
                elif field in (5, 6, 7):
                    plain[field] = text(buf, (k, j))
                i = j
            elif wire == 0:
                v, i = varint(buf, k)
                plain[field] = v
            elif wire == 1:
                i = k + 8
            elif wire == 5:
                i = k + 4
            else:
                raise Unsupported(f"wire type {wire}")
        if i != len(buf):
            raise Unsupported("a metric runs past its launch")
    except (IndexError, OverflowError) as exc:  # a cut message, a name outside the table
        raise Unsupported(f"a metric the launch cannot hold: {exc}") from exc
    if plain.get(16, 0):
        raise Unsupported("a launch outside the first range")
    return buf, Layout(plain, starts, ends, rules, sections, tuple(cut))


def _extend(buf: Buffer, read: Callable[[int, int], bytes] | None, at: int, n: int) -> None:
    """Up to ``n`` more bytes of the message, from ``at``, onto the buffer being filled."""
    piece = read(at, n) if read is not None else b""
    if not piece or not isinstance(buf, bytearray):
        raise Unsupported("a launch's message ends before its size")
    buf += piece  # in place: the walk's buffer


def _section_head(read: Callable[[int, int], bytes], at: int, length: int) -> bytes:
    """The start of a section definition (at ``at``, ``length`` bytes) that holds its
    identifier: its first field, when that is the identifier (as in every report seen),
    else all of it."""
    head = read(at, min(length, _HEAD))
    if len(head) < length and not (
        len(head) > 2 and head[0] == 0x0A and head[1] < 0x80 and 2 + head[1] <= len(head)
    ):
        head = read(at, length)
    return head


def _section_id(buf: Buffer, start: int, end: int) -> str | None:
    """The identifier of the section definition from ``start`` to ``end`` (field 1, the
    first one met, as NVIDIA's reader has it); None when it has none or is damaged before
    it."""
    try:
        for field, wire, v in fields(buf, start, end):
            if field == 1 and wire == 2:
                return sys.intern(text(buf, v))
    except (Unsupported, IndexError):
        return None
    return None


Instance = tuple[Value | None, Value | None]  # (correlation id, value)


class StoredMetric:
    """A ``ProfileMetricResult``: its value, and where its instances are (decoded on demand:
    the kernel list needs the first instance of a few metrics only)."""

    __slots__ = ("buf", "value", "has_value", "first", "end", "_instances")

    def __init__(self, buf: Buffer, start: int, end: int) -> None:
        self.buf = buf
        self.value: Value | None = None
        self.has_value = False
        self.first = end  # where the instances (field 3) begin
        self.end = end
        self._instances: list[Instance] | None = None
        i = start
        while i < end:
            key = buf[i]
            if key == 0x1A:  # field 3: the instances, up to the end or a last field 4
                self.first = i
                return
            # the usual fields with varints of one or two bytes inline: the name index
            # (field 1), the value (field 2)
            if key == 0x08 and buf[i + 1] < 0x80:
                i += 2
                continue
            if key == 0x08 and buf[i + 2] < 0x80:
                i += 3
                continue
            if key == 0x12 and buf[i + 1] < 0x80:
                n = buf[i + 1]
                self.value = value(buf, i + 2, i + 2 + n)
                self.has_value = True
                i += 2 + n
                continue
            key, i = varint(buf, i)
            field, wire = key >> 3, key & 7
            if wire == 2:
                n, i = varint(buf, i)
                if field == 2:
                    self.value = value(buf, i, i + n)
                    self.has_value = True
                elif field != 1:
                    raise Unsupported(f"metric field {field}")
                i += n
            elif wire == 0 and field in (1, 4):
                _, i = varint(buf, i)
            else:
                raise Unsupported(f"metric field {field} (wire type {wire})")

    @property
    def instanced(self) -> bool:
        """Whether it has instances, without decoding them."""
        return self.first < self.end

    def instance(self, i: int) -> tuple[Instance, int]:
        """(correlation id, value) of the instance whose tag is at ``i``, and where the next
        field begins."""
        return _instance(self.buf, i)

    def instances(self) -> list[Instance]:
        """Every instance, decoded once (none when the metric is not instanced)."""
        if self._instances is None:
            where, stop = self.walk()
            if not self.tail_ok(stop):
                raise Unsupported("instances after another field")
            self._instances = [self.instance(i)[0] for i in where]
        return self._instances

    def walk(self) -> tuple[list[int], int]:
        """Where each instance's tag is, walked one by one, and where the instances end."""
        buf, i, out = self.buf, self.first, []
        while i < self.end and buf[i] == 0x1A:
            out.append(i)
            n, i = varint(buf, i + 1)
            i += n
        return out, i

    def tail_ok(self, i: int) -> bool:
        """Whether the fields after the instances (from ``i``) hold no further instance."""
        return all(field != 3 for field, _, _ in fields(self.buf, i, self.end))

    def value_type(self) -> type | None:
        """The type of its own value, else of its first instance's: what its values are
        read as (``ncu_report``'s ``IMetric.kind``)."""
        if self.has_value and self.value is not None:
            return type(self.value)
        if self.instanced:
            v = self.instance(self.first)[0][1]
            return type(v) if v is not None else None
        return None


def _instance(buf: Buffer, i: int) -> tuple[Instance, int]:
    """``StoredMetric.instance``."""
    n, j = varint(buf, i + 1)
    end = j + n
    if n >= 4 and buf[j] == 0x0A and buf[j + 1] < 0x80:  # 0a A <id> 12 B <value>
        k = j + 2 + buf[j + 1]
        if k + 1 < end and buf[k] == 0x12 and k + 2 + buf[k + 1] == end:
            return (value(buf, j + 2, k), value(buf, k + 2, end)), end
    ident = found = None
    for field, wire, v in fields(buf, j, end):
        if field == 1 and wire == 2:
            ident = value(buf, *v)
        elif field == 2 and wire == 2:
            found = value(buf, *v)
        else:
            raise Unsupported(f"metric instance field {field}")
    return (ident, found), end


def _head(buf: Buffer, start: int, end: int) -> tuple[Value | None, bool, int]:
    """(own value, whether it has one, where its instances begin: ``end`` when it has none)
    of the metric stored from ``start`` to ``end``: ``StoredMetric``'s answer, its usual
    shape (``08 <name> 12 <n> <value>``, then instances or nothing) read inline, without an
    object per lookup (the kernel list reads ~80 metrics of every launch)."""
    i = start + 2 if buf[start + 1] < 0x80 else start + 3 if buf[start + 2] < 0x80 else 0
    if i and i < end:
        if buf[i] == 0x12 and buf[i + 1] < 0x80:
            j = i + 2 + buf[i + 1]
            if j < end and buf[j] == 0x1A:
                return value(buf, i + 2, j), True, j
            if _ends(buf, j, end):
                return value(buf, i + 2, j), True, end
        elif buf[i] == 0x1A:
            return None, False, i
    m = StoredMetric(buf, start, end)
    return m.value, m.has_value, m.first


def _ends(buf: Buffer, i: int, end: int) -> bool:
    """Whether a metric's fields end at ``i``: nothing follows, or its usual last field
    (4, a zero)."""
    return i == end or (i + 2 == end and buf[i] == 0x20 and buf[i + 1] == 0)


def _as(kind: type | None, v: Value | None) -> Value | None:
    """A stored value read as its metric's kind, as ncu_report's typed accessors read it: an
    integer metric's other values as 0, a floating-point one's as NaN."""
    if kind is int:
        return int(v) if isinstance(v, int) else 0
    if kind is float:
        return float(v) if isinstance(v, int | float) else math.nan
    return v


class DecodedLaunch:
    """A launch decoded from the file (a ``ReportLaunch``); ``texts`` gives NVIDIA's units
    and descriptions. The line table and SASS are not here: ask NVIDIA's reader."""

    def __init__(self, buf: Buffer, ids: dict[str, int], where: Layout, texts: Texts) -> None:
        self._buf = buf
        self._ids = ids
        self._where = where
        self._texts = texts

    def name(self, base: NameBase = NameBase.FUNCTION) -> str | None:
        found = self._where.plain.get({0: 6, 1: 7, 2: 5}[base])
        return found if isinstance(found, str) else None

    def metric_by_name(self, name: str) -> StoredMetric | None:
        """The metric as stored, None when the launch lacks it."""
        span = self._span(name)
        return StoredMetric(self._buf, *span) if span is not None else None

    def _span(self, name: str) -> Span | None:
        k = self._ids.get(name)
        return self._where.metric(k) if k is not None else None

    def has_metric(self, name: str) -> bool:
        return self._span(name) is not None

    def scalar(self, name: str) -> Value | None:
        span = self._span(name)
        if span is None:
            return None
        start, end = span
        own, has_own, at = _head(self._buf, start, end)
        if at == end:
            return own if has_own else None
        # its first instance's value: usually its only one, the last field (read at once)
        (_, first), after = _instance(self._buf, at)
        if _ends(self._buf, after, end):
            return first
        return StoredMetric(self._buf, start, end).instances()[0][1]

    def record(self, name: str) -> MetricRecord | None:
        m = self.metric_by_name(name)
        if m is None:
            return None
        found = m.instances() if m.instanced else []
        instances = None
        if len(found) > 1 and all(ident is not None for ident, _ in found):
            kind, id_kind = m.value_type(), type(found[0][0])
            instances = [
                (record_value(_as(id_kind, ident)), record_value(_as(kind, v)))
                for ident, v in found
            ]
        if len(found) == 1:
            v = record_value(found[0][1])
        else:
            v = record_value(m.value) if m.has_value else None
        text = self._texts(name)
        return MetricRecord(value=v, unit=text.unit if text else "", instances=instances)

    def description(self, name: str) -> str:
        text = self._texts(name)
        return text.description if text is not None else ""

    def total(self, name: str) -> Value | None:
        span = self._span(name)
        if span is None:
            return None
        own, has_own, at = _head(self._buf, *span)
        return own if at < span[1] and has_own else None

    def per_pc(self, names: Sequence[str]) -> dict[str, PerPc]:
        """In the file's order, all metrics decoded at once with numpy."""
        found = [(name, m) for name in names if (m := self.metric_by_name(name)) and m.instanced]
        arrays = _instance_arrays([m for _, m in found])
        return dict(zip([name for name, _ in found], arrays, strict=True))

    def rules(self) -> list[RuleResult]:
        out = []
        for start, end in self._where.rules:
            raw = bytes(self._buf[start:end])
            found = _DECODED_RULES.get(raw)
            if found is None:
                if len(_DECODED_RULES) >= _RULES_KEPT:
                    _DECODED_RULES.clear()
                found = _DECODED_RULES[raw] = _rules(self._buf, (start, end))
            out += found
        return out

    def markers(self, function_start: int | None) -> list[SourceMarker]:
        return [m for span in self._where.rules for m in _markers(self._buf, span, function_start)]

    def sections(self) -> list[str]:
        out = []
        for ident in self._where.sections:
            if ident is None:
                raise Unsupported("a section without an identifier")
            out.append(ident)
        return out


def read_launches(path: str | os.PathLike[str]) -> list[DecodedLaunch | None]:
    """Every launch of a report decoded from the file alone, in report order; None for a
    launch the file does not hold in full. No NVIDIA reader, so no metric units or
    descriptions. Raises ``Unsupported`` for a report the decoder does not know, ``OSError``
    or ``ValueError`` for one it cannot open."""
    with ReportFile(path) as f:
        out: list[DecodedLaunch | None] = []
        names = len(f.names)
        for i in range(len(f)):
            buf = f.result(i)
            out.append(DecodedLaunch(buf, f.ids, layout(buf, names), _no_texts) if buf else None)
        return out


def _no_texts(name: str) -> None:
    return None


def _rule_parts(buf: Buffer, span: Span, part: int) -> tuple[str, str, list[Span]]:
    """A ``RuleResult``'s rule identifier, section and the spans of its field ``part`` (3: the
    body, 5: the source markers), the two readers' shared walk over its fields."""
    ident = section = ""
    spans: list[Span] = []
    for field, wire, v in fields(buf, *span):
        if field == 1 and wire == 2:
            ident = text(buf, v)
        elif field == 4 and wire == 2:
            section = text(buf, v)
        elif field == part and wire == 2:
            spans.append(v)
    return ident, section, spans


def _rules(buf: Buffer, span: Span) -> list[RuleResult]:
    """A ``RuleResult``'s items that have a message (one result per item of its body)."""
    ident, section, bodies = _rule_parts(buf, span, 3)
    items = [s for body in bodies for f, w, s in fields(buf, *body) if f == 1 and w == 2]
    out = []
    for item in items:
        message: dict[int, Any] = {}
        speedup: dict[int, Any] = {}
        for field, wire, v in fields(buf, *item):
            if field == 1 and wire == 2:
                message = {f: (text(buf, x) if w == 2 else x) for f, w, x in fields(buf, *v)}
            elif field == 10 and wire == 2:
                speedup = {
                    f: (struct.unpack("<d", x)[0] if w == 1 else x) for f, w, x in fields(buf, *v)
                }
        words = message.get(1, "")
        if not words:
            continue
        kind = _RULE_KIND.get(message.get(2, 0))
        if kind is None:
            raise Unsupported(f"rule message type {message.get(2)}")
        out.append(
            RuleResult(
                rule=ident,
                section=section,
                kind=kind,
                message=plain_rule_text(words),
                title=message.get(4, ""),
                speedup_type=SPEEDUP_TYPE.get(speedup.get(1, 0), "") if speedup else "",
                speedup_pct=speedup.get(2) if speedup else None,
            )
        )
    return out


def _markers(buf: Buffer, span: Span, start: int | None) -> list[SourceMarker]:
    """A ``RuleResult``'s source markers."""
    ident, section, markers = _rule_parts(buf, span, 5)
    raw: list[dict[int, Any]] = [
        {f: (text(buf, x) if w == 2 else x) for f, w, x in fields(buf, *v)} for v in markers
    ]
    out = []
    for m in raw:
        kind = m.get(1, 0)
        raw_type = m.get(5, 0)
        message_kind = _MARKER_KIND.get(raw_type) if isinstance(raw_type, int) else None
        if kind not in (0, 1) or message_kind is None:
            raise Unsupported(f"a source marker of kind {kind}, type {m.get(5)}")
        address = m.get(3) if kind == 0 else None
        out.append(
            SourceMarker(
                rule=ident,
                section=section,
                message=plain_rule_text(m.get(4, "")),
                kind=message_kind,
                file=m.get(6, "") if kind == 1 else None,
                line=m.get(2) if kind == 1 else None,
                offset=address - start if address is not None and start is not None else None,
            )
        )
    return out


def _instance_arrays(metrics: list[StoredMetric]) -> list[PerPc]:
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
        where, stop = m.walk()
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
    ends = np.cumsum(counts).tolist()
    # slices, not np.split (whose Python overhead was a quarter of this function's time)
    return [(ids[a:b], values[a:b]) for a, b in zip([0, *ends[:-1]], ends, strict=True)]


def _tail_ok(m: StoredMetric, i: int) -> bool:
    """``m.tail_ok(i)``, at once for the usual tail (``_ends``)."""
    return _ends(m.buf, i, m.end) or m.tail_ok(i)


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
