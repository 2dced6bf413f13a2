"""The ``.ncu-rep`` container: its header, blocks and string table, where each launch's result
message is, the loaded modules (cubin, embedded source files, functions), and what identifies a
report's content (its cache key).

The container is documented by NVIDIA ("Report File Format", version 7, in the Nsight Compute
Customization Guide): ``NVR\\0``, a size-prefixed file header, then blocks of a size-prefixed
block header (1 count of source entries, 2 count of result entries, 4 the string table, 5 the
payload size, 7 range results) and a payload of size-prefixed protobuf 2 messages
(``ProfileSource``: a module's cubin, embedded source files and functions; ``ProfileResult``:
one launch, decoded by ``decoded``). The message definitions ship with Nsight Compute
(``extras/FileFormat``). Decoded here:

* ``ProfileSource``: 1 module id, 4 the module's cubin (an ELF file), 8 embedded files
  (1 path, 2 text), 9 functions (1 name, 2 address); a later entry with the same module id
  adds functions.

What was not seen in a real report (another container version, several string tables or
ranges, a compressed ``.ncu-repz``) raises ``Unsupported``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from .wire import Unsupported, fields, text

MAGIC = b"NVR\0"
VERSION = 7
_EDGE = 4096  # bytes of each result's start and end that identify it (ReportFile.identify)


@dataclass(frozen=True)
class _Block:
    header: tuple[int, int]  # (offset, size) of its header message
    sources: int  # how many of ``ReportFile._sources`` come before its own
    results: int  # how many of ``ReportFile._results`` come before its own
    counts: tuple[int, int]  # its source and result entries
    payload: tuple[int, int]  # (offset, size)


@dataclass(frozen=True)
class _Entry:
    offset: int  # of the message in the file
    size: int  # 0 when the file ends before the message does


@dataclass(frozen=True)
class SourceModule:
    """A ``ProfileSource``: one loaded module's embedded files and its functions."""

    files: dict[str, str]
    functions: frozenset[tuple[str, int]]  # (name, load address)
    cubin_at: tuple[int, int] | None = None  # (offset, size) of its cubin in the file

    @property
    def addresses(self) -> frozenset[int]:
        return frozenset(a for _, a in self.functions)


class ReportFile:
    """An ``.ncu-rep`` opened without ncu_report. Launches are numbered in file order, which is
    ncu_report's order for the single-range reports this reads (others are Unsupported).

    The file is read with ``os.pread``, piece by piece, never mapped: a mapped report's pages
    count in the reading process's resident memory once touched (all of it after a walk over
    every launch: 550 MB for a 500-launch ``--set full`` report), read ones stay in the
    system's page cache only."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._fd: int | None = os.open(self.path, os.O_RDONLY)
        try:
            self._size = os.fstat(self._fd).st_size
        except OSError:
            self.close()
            raise
        self._table = b""  # the string table: metric names, decoded on first use
        self._names: list[str] | None = None
        self._ids: dict[str, int] | None = None
        self._results: list[_Entry] = []
        self._sources: list[_Entry] = []
        self._blocks: list[_Block] = []
        self._modules: list[SourceModule] | None = None
        try:
            self._index()
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Close the file (decoded launches keep their own copy of their bytes)."""
        fd, self._fd = getattr(self, "_fd", None), None  # None: os.open failed in __init__
        if fd is not None:
            os.close(fd)

    def __del__(self) -> None:
        self.close()

    def _read(self, offset: int, size: int) -> bytes:
        """``size`` bytes from ``offset`` (fewer at the end of the file)."""
        if self._fd is None:
            raise ValueError(f"{self.path}: read after close")
        return os.pread(self._fd, size, offset)

    def __enter__(self) -> ReportFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def names(self) -> list[str]:
        if self._names is None:
            self._names = [text(self._table, s) for _, _, s in fields(self._table)]
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
        update(self._size.to_bytes(8, "little"))
        at = 0
        for entry in self._results:
            self._feed(update, at, entry.offset)
            update(entry.size.to_bytes(8, "little"))
            if entry.size <= 2 * _EDGE:
                update(self._read(entry.offset, entry.size))
            else:
                update(self._read(entry.offset, _EDGE))
                update(self._read(entry.offset + entry.size - _EDGE, _EDGE))
            at = entry.offset + entry.size
        self._feed(update, at, self._size)

    def _feed(self, update: Callable[[bytes | memoryview], object], start: int, end: int) -> None:
        """The bytes from ``start`` to ``end`` fed to ``update`` in pieces of at most 1 MB."""
        while start < end:
            piece = self._read(start, min(end - start, 1 << 20))
            if not piece:
                return
            update(piece)
            start += len(piece)

    def __len__(self) -> int:
        """Launches, complete or not (a truncated report's last ones are cut)."""
        return len(self._results)

    def _u32(self, offset: int) -> int:
        """The little-endian uint32 at ``offset`` (the caller checked it is in the file)."""
        return int.from_bytes(self._read(offset, 4), "little")

    def _index(self) -> None:
        size = self._size
        if self._read(0, 4) != MAGIC:
            raise Unsupported("no NVR magic (a compressed or foreign file)")
        if size < 8:
            raise Unsupported("a file header cut short")
        header_size = self._u32(4)
        header = self._read(8, header_size)
        version = dict((f, v) for f, w, v in fields(header) if w == 0).get(1)
        if version != VERSION:
            raise Unsupported(f"report format version {version}")
        off = self._header_end = 8 + header_size
        seen: bytes | None = None
        while off + 4 <= size:
            n = self._u32(off)
            if off + 4 + n > size:
                break  # a cut block header: a truncated report
            block = self._read(off + 4, n)
            off += 4 + n
            counts = {1: 0, 2: 0, 5: 0}
            for field, wire, v in fields(block):
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
            self._blocks.append(
                _Block(
                    (off - n, n),
                    len(self._sources),
                    len(self._results),
                    (counts[1], counts[2]),
                    (off, counts[5]),
                )
            )
            entry = off
            payload_end = min(off + counts[5], size)
            for k in range(counts[1] + counts[2]):
                whole = entry + 4 <= payload_end
                length = self._u32(entry) if whole else 0
                complete = whole and entry + 4 + length <= payload_end
                item = _Entry(entry + 4, length if complete else 0)
                (self._sources if k < counts[1] else self._results).append(item)
                entry += 4 + length
            off += counts[5]

    def result(self, i: int) -> bytes | None:
        """Launch ``i``'s ``ProfileResult`` message, read from the file (bytes: indexing
        them is twice as fast as a memoryview); None when the file does not hold all of it
        (a truncated report)."""
        entry = self._results[i]
        return self._bytes(entry) if entry.size else None

    def result_size(self, i: int) -> int:
        """The size of launch ``i``'s message; 0 when the file does not hold all of it."""
        return self._results[i].size

    def result_part(self, i: int, start: int, size: int) -> bytes:
        """``size`` bytes of launch ``i``'s message from ``start`` (fewer at its end): what
        reads a message without the parts it does not need (``decoded.read_launch``)."""
        entry = self._results[i]
        return self._read(entry.offset + start, max(0, min(size, entry.size - start)))

    def _bytes(self, entry: _Entry) -> bytes:
        return self._read(entry.offset, entry.size)

    def write_launches(self, dst: str | os.PathLike[str], keep: Iterable[int]) -> list[int]:
        """Write to ``dst`` a report with all of this one but its launches, of which only
        ``keep`` (complete ones; numbered in file order there too, returned in that order).

        What for: NVIDIA's reader reads every launch of a report when it loads it (0.36-0.54
        s for a 60-launch ``--set full`` report on the H200 host, 0.04-0.05 s for 5 of them),
        and a process that only asks it for line tables needs one launch of each module.
        Raises ``Unsupported`` where a module the copy needs is cut short."""
        wanted = {i for i in keep if 0 <= i < len(self._results) and self._results[i].size}
        return self._write(dst, wanted, drop_sources=False)

    def write_without_sources(self, dst: str | os.PathLike[str]) -> list[int]:
        """Write to ``dst`` this report without the source files its modules embed (the
        ``ProfileSource`` field 8 that ``ncu --import-source yes`` fills): its complete
        launches, cubins and functions as they are. What a report made without source
        import holds, for the tests of what is shown then. Raises ``Unsupported`` where a
        module is cut short."""
        wanted = {i for i, e in enumerate(self._results) if e.size}
        return self._write(dst, wanted, drop_sources=True)

    def _write(
        self, dst: str | os.PathLike[str], wanted: set[int], *, drop_sources: bool
    ) -> list[int]:
        written: list[int] = []
        with open(dst, "wb") as out:
            out.write(self._read(0, self._header_end))
            for block in self._blocks:
                mine = range(block.results, block.results + block.counts[1])
                kept = [i for i in mine if i in wanted]
                if len(kept) == len(mine) and not drop_sources:  # all of it: as it is
                    out.write(self._read(block.header[0] - 4, 4 + block.header[1]))
                    out.write(self._read(*block.payload))
                    written += kept
                    continue
                sources = self._sources[block.sources : block.sources + block.counts[0]]
                if not all(e.size for e in sources):
                    raise Unsupported("a module cut short (a truncated report)")
                parts = []
                for e in sources:
                    message = self._bytes(e)
                    if drop_sources:
                        message = bytes(_without(message, {8}))
                    parts.append(len(message).to_bytes(4, "little") + message)
                parts += [
                    self._read(self._results[i].offset - 4, 4 + self._results[i].size) for i in kept
                ]
                payload = b"".join(parts)
                head = _without(self._read(*block.header), {2, 5})  # the counts of results, bytes
                head += _tag(2, 0) + _varint(len(kept)) + _tag(5, 0) + _varint(len(payload))
                out.write(len(head).to_bytes(4, "little") + head + payload)
                written += kept
        return written

    # ---- modules ---------------------------------------------------------------------------
    @property
    def modules(self) -> list[SourceModule]:
        """The loaded modules; entries with the same module id (a later entry adds the
        functions resolved since) are one module."""
        if self._modules is None:
            merged: dict[int | None, tuple[dict[str, str], set[tuple[str, int]]]] = {}
            cubins: dict[int | None, tuple[int, int]] = {}
            for entry in self._sources:
                if entry.size:
                    ident, files, functions, cubin = self._module(entry)
                    known = merged.setdefault(ident, ({}, set()))
                    for path, body in files.items():
                        if body or path not in known[0]:
                            known[0][path] = body
                    known[1].update(functions)
                    if cubin is not None:
                        cubins.setdefault(ident, cubin)
            self._modules = [
                SourceModule(f, frozenset(fn), cubins.get(ident))
                for ident, (f, fn) in merged.items()
            ]
        return self._modules

    def cubin(self, module: int) -> bytes | None:
        """The cubin of module ``module`` (an index into ``modules``) as the report holds it."""
        at = self.modules[module].cubin_at
        return self._read(at[0], at[1]) if at is not None else None

    def _module(
        self, entry: _Entry
    ) -> tuple[int | None, dict[str, str], set[tuple[str, int]], tuple[int, int] | None]:
        buf = self._bytes(entry)
        cubin: tuple[int, int] | None = None
        ident: int | None = None
        files: dict[str, str] = {}
        functions: set[tuple[str, int]] = set()
        for field, wire, v in fields(buf):
            if field == 1 and wire == 0:
                ident = v
            elif field == 4 and wire == 2:
                cubin = (entry.offset + v[0], v[1] - v[0])
            elif field == 8 and wire == 2:
                for f2, w2, file in fields(buf, *v):
                    if f2 != 1 or w2 != 2:
                        raise Unsupported(f"source list field {f2}")
                    parts = {f3: s for f3, w3, s in fields(buf, *file) if w3 == 2}
                    if 1 in parts:
                        files[text(buf, parts[1])] = text(buf, parts[2]) if 2 in parts else ""
            elif field == 9 and wire == 2:
                for f2, w2, fn in fields(buf, *v):
                    if f2 != 1 or w2 != 2:
                        raise Unsupported(f"function list field {f2}")
                    parts = dict((f3, x) for f3, _, x in fields(buf, *fn))
                    if isinstance(parts.get(1), tuple) and isinstance(parts.get(2), int):
                        functions.add((text(buf, parts[1]), parts[2]))
        return ident, files, functions, cubin

    def module_of(self, function_start: int | None) -> int | None:
        """The index of the one module that has a function at this address, else None."""
        if function_start is None:
            return None
        found = [k for k, m in enumerate(self.modules) if function_start in m.addresses]
        return found[0] if len(found) == 1 else None


def _without(message: bytes, skip: set[int]) -> bytearray:
    """``message`` encoded again without its fields numbered in ``skip``."""
    out = bytearray()
    for field, wire, v in fields(message):
        if field in skip:
            continue
        out += _tag(field, wire)
        if wire == 0:
            out += _varint(v)
        elif wire == 2:
            out += _varint(v[1] - v[0]) + message[v[0] : v[1]]
        else:
            out += v
    return out


def _varint(n: int) -> bytes:
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _tag(field: int, wire: int) -> bytes:
    return _varint(field << 3 | wire)
