"""Protocol Buffers' wire format, as far as ``.ncu-rep`` messages use it: varints, fields, and
the ``ProfileMetricValue`` message (one field: 1 string, 2 float, 3 double, 4 uint32, 5 uint64).

Decoding works on spans (start, end) of one buffer, so that nothing is copied until a value is
needed. What this does not know (a wire type of groups, a varint over 10 bytes, a field that
runs past its message) raises ``Unsupported``: the report is then read with NVIDIA's reader.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from typing import Any

Value = float | int | str
Buffer = bytes | bytearray | memoryview
Span = tuple[int, int]  # (start, end) of a length-delimited field's payload

DOUBLE = struct.Struct("<d")
FLOAT = struct.Struct("<f")


class Unsupported(Exception):
    """Something this decoder does not know: read the report with ncu_report instead."""


def varint(buf: Buffer, i: int) -> tuple[int, int]:
    """The varint at ``i`` and where the next byte is."""
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


def fields(buf: Buffer, start: int = 0, end: int | None = None) -> Iterable[tuple[int, int, Any]]:
    """(field, wire type, value): an int for varints, a ``Span`` for length-delimited
    fields, the raw bytes for fixed32/fixed64."""
    i = start
    end = len(buf) if end is None else end
    while i < end:
        key, i = varint(buf, i)
        field, wire = key >> 3, key & 7
        if wire == 0:
            value, i = varint(buf, i)
            yield field, wire, value
        elif wire == 2:
            n, i = varint(buf, i)
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


def value(buf: Buffer, start: int, end: int) -> Value | None:
    """A ``ProfileMetricValue``: one field, the common shapes decoded without a loop."""
    if end > start:
        tag = buf[start]
        if tag in (0x28, 0x20):
            v, i = varint(buf, start + 1)
            if i == end:
                return v
        elif tag == 0x19 and end == start + 9:
            return float(DOUBLE.unpack_from(buf, start + 1)[0])
        elif tag == 0x15 and end == start + 5:
            return float(FLOAT.unpack_from(buf, start + 1)[0])
    out: Value | None = None
    for field, wire, v in fields(buf, start, end):
        if field == 1 and wire == 2:
            out = text(buf, v)
        elif field == 2 and wire == 5:
            out = FLOAT.unpack(v)[0]
        elif field == 3 and wire == 1:
            out = DOUBLE.unpack(v)[0]
        elif field in (4, 5) and wire == 0:
            out = v
        else:
            raise Unsupported(f"metric value field {field} (wire type {wire})")
    return out


def text(buf: Buffer, span: Span) -> str:
    """A string field's text (UTF-8; what is not is replaced, never an error)."""
    return str(buf[span[0] : span[1]], "utf-8", errors="replace")
