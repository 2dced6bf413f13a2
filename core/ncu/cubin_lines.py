"""A kernel's line table from the cubin a report embeds, without NVIDIA's reader or nvdisasm.

Every report holds the cubin of each module it profiled (``rep.container.ReportFile.cubin``),
and a cubin built with ``-lineinfo`` carries what NVIDIA's reader answers ``source_info``
from: ``.debug_line``, a DWARF (version 2) line program mapping each function's instruction
offsets to (source file, line). Each sequence's function is the symbol its
``DW_LNE_set_address`` is relocated against (``.rela.debug_line``).

Inlined code: at the address of an inlined instruction the program has several rows, the
call site in the kernel's own file first, then the inlined header line (nvdisasm's "inlined
at" frames, tied together by NVIDIA's extended opcode 0x90, which this skips). NVIDIA's
reader answers with the first row at an address, and so does this. File paths are the line
program's folder and name joined and normalised (``.`` and ``x/..`` parts), as NVIDIA's
reader gives them.
``tests/ncu/test_cubin_lines.py`` checks every instruction of every report in tests/data
against ``ncu_report``'s ``source_info``.

Why: the line table came from the workspace that built a report where its cubin was the
workspace's, else from NVIDIA's reader (2.5x the time of the kernel list): a report profiled
before a rebuild, or built on another machine, paid for the reader. Decoding the report's own
cubin costs milliseconds, whatever workspace comes with it.

What does not decode (another ELF or DWARF form, a cubin without line info) gives None and
the caller asks NVIDIA's reader.
"""

from __future__ import annotations

import posixpath
import struct
from dataclasses import dataclass

from .records import Location


class _Bad(Exception):
    """A cubin this decoder does not read."""


@dataclass(frozen=True)
class _Section:
    name: str
    kind: int
    offset: int
    size: int
    link: int
    info: int


def sections(elf: bytes) -> list[_Section] | None:
    """A 64-bit little-endian ELF file's sections in file order; None for what is not one."""
    if len(elf) < 64 or elf[:4] != b"\x7fELF" or elf[4] != 2 or elf[5] != 1:
        return None
    try:
        shoff = struct.unpack_from("<Q", elf, 0x28)[0]
        size, count, names_at = struct.unpack_from("<HHH", elf, 0x3A)
        headers = [struct.unpack_from("<IIQQQQII", elf, shoff + k * size) for k in range(count)]
        names = headers[names_at][4]
        out = []
        for name_off, kind, _, _, off, length, link, info in headers:
            start = names + name_off
            name = elf[start : elf.index(b"\0", start)].decode("latin-1")
            out.append(_Section(name, kind, off, length, link, info))
        return out
    except (struct.error, ValueError, IndexError):
        return None


def cubin_lines(cubin: bytes) -> dict[str, dict[int, Location | None]] | None:
    """Per function (its mangled name), instruction offset -> (file, line) as the report's
    ``source_info`` gives it; None when the cubin cannot be read so (see the module)."""
    found = sections(cubin)
    if found is None:
        return None
    try:
        return _lines(cubin, found)
    except (_Bad, struct.error, ValueError, IndexError, UnicodeDecodeError):
        return None


def _lines(elf: bytes, found: list[_Section]) -> dict[str, dict[int, Location | None]] | None:
    by_name = {s.name: s for s in found}
    if ".debug_line" not in by_name or ".symtab" not in by_name:
        return None  # no -lineinfo
    symbols = _symbols(elf, found, by_name[".symtab"])
    out: dict[str, dict[int, Location | None]] = {}
    for function, rows in _program(elf, found, by_name, ".debug_line", symbols).items():
        text = by_name.get(f".text.{function}")
        if text is None:
            continue
        located = [(offset, (name, line) if name else None) for offset, name, line in rows]
        out[function] = dict(zip(range(0, text.size, 16), _expand(located, text.size), strict=True))
    return out


def _expand(rows: list[tuple[int, Location | None]], size: int) -> list[Location | None]:
    """Each 16-byte instruction's entry from (offset, entry) rows in program order: a row
    holds from its offset until the next row's; of several rows at one offset, the first
    (the outermost frame: see the module). None before the first row."""
    out: list[Location | None] = [None] * (size // 16)
    firsts: dict[int, Location | None] = {}
    for offset, value in rows:
        firsts.setdefault(offset, value)
    ordered = sorted(firsts.items())
    for k, (offset, value) in enumerate(ordered):
        end = ordered[k + 1][0] if k + 1 < len(ordered) else size
        for i in range(offset // 16, min(end, size) // 16):
            out[i] = value
    return out


def _symbols(elf: bytes, found: list[_Section], symtab: _Section) -> list[str]:
    """Each symbol's name (a section symbol's: its section's name)."""
    strtab = found[symtab.link]
    out = []
    for at in range(symtab.offset, symtab.offset + symtab.size, 24):
        name_off, info, _, shndx = struct.unpack_from("<IBBH", elf, at)
        if info & 0xF == 3 and shndx < len(found):  # STT_SECTION
            out.append(found[shndx].name)
            continue
        start = strtab.offset + name_off
        out.append(elf[start : elf.index(b"\0", start)].decode("latin-1"))
    return out


def _relocations(
    elf: bytes,
    found: list[_Section],
    by_name: dict[str, _Section],
    section: str,
    symbols: list[str],
) -> dict[int, tuple[str, int]]:
    """Offset in ``section`` -> (function, addend) of its relocations."""
    rela = by_name.get(f".rela{section}")
    out: dict[int, tuple[str, int]] = {}
    if rela is None:
        return out
    for at in range(rela.offset, rela.offset + rela.size, 24):
        offset, info, addend = struct.unpack_from("<QQq", elf, at)
        name = symbols[info >> 32]
        out[offset] = (name.removeprefix(".text."), addend)
    return out


_Row = tuple[int, str, int]  # (offset in its function, file name or "", line)


def _program(
    elf: bytes,
    found: list[_Section],
    by_name: dict[str, _Section],
    section: str,
    symbols: list[str],
) -> dict[str, list[_Row]]:
    """The rows of a DWARF line program section, per function."""
    sec = by_name[section]
    data = elf[sec.offset : sec.offset + sec.size]
    relocated = _relocations(elf, found, by_name, section, symbols)
    out: dict[str, list[_Row]] = {}
    at = 0
    while at < len(data):
        (length,) = struct.unpack_from("<I", data, at)
        if length >= 0xFFFFFFF0:
            raise _Bad("64-bit DWARF")
        end = at + 4 + length
        _unit(data, at + 4, end, relocated, out)
        at = end
    return out


def _unit(
    data: bytes,
    at: int,
    end: int,
    relocated: dict[int, tuple[str, int]],
    out: dict[str, list[_Row]],
) -> None:
    """One line program unit (DWARF 2-4) from ``at`` (after its length) to ``end``."""
    (version,) = struct.unpack_from("<H", data, at)
    if not 2 <= version <= 4:
        raise _Bad(f"DWARF line program version {version}")
    (header_length,) = struct.unpack_from("<I", data, at + 2)
    program = at + 6 + header_length
    p = at + 6
    min_length = data[p]
    p += 2 if version >= 4 else 1  # version 4: maximum operations per instruction
    line_base = struct.unpack_from("<b", data, p + 1)[0]
    line_range, opcode_base = data[p + 2], data[p + 3]
    lengths = data[p + 4 : p + 3 + opcode_base]
    p += 3 + opcode_base
    directories = [""]
    while data[p]:
        text, p = _string(data, p)
        directories.append(text)
    p += 1
    files: list[str] = [""]
    while data[p]:
        name, p = _string(data, p)
        folder, p = _uleb(data, p)
        _, p = _uleb(data, p)
        _, p = _uleb(data, p)
        files.append(_join(directories[folder] if folder < len(directories) else "", name))
    p = program
    address, file, line = 0, 1, 1
    rows: list[_Row] | None = None

    def emit() -> None:
        if rows is not None:
            rows.append((address, files[file] if 0 < file < len(files) else "", line))

    while p < end:
        op = data[p]
        p += 1
        if op >= opcode_base:
            adjusted = op - opcode_base
            address += adjusted // line_range * min_length
            line += line_base + adjusted % line_range
            emit()
        elif op == 0:
            size, p = _uleb(data, p)
            sub = data[p]
            if sub == 1:  # end_sequence
                address, file, line, rows = 0, 1, 1, None
            elif sub == 2:  # set_address: the function from its relocation
                target = relocated.get(p + 1)
                if target is None:
                    raise _Bad("an address without its relocation")
                function, addend = target
                address = addend + int.from_bytes(data[p + 1 : p + size], "little")
                rows = out.setdefault(function, [])
            p += size
        elif op == 1:
            emit()
        elif op == 2:
            step, p = _uleb(data, p)
            address += step * min_length
        elif op == 3:
            delta, p = _sleb(data, p)
            line += delta
        elif op == 4:
            file, p = _uleb(data, p)
        elif op == 8:
            address += (255 - opcode_base) // line_range * min_length
        elif op == 9:
            address += struct.unpack_from("<H", data, p)[0]
            p += 2
        else:  # column, negate_stmt, basic_block, prologue/epilogue, isa: operands skipped
            for _ in range(lengths[op - 1]):
                _, p = _uleb(data, p)


def _join(folder: str, name: str) -> str:
    """A file's path from its line program's folder and name, normalised as NVIDIA's reader
    gives it: ``.`` parts left out and ``x/..`` collapsed (nvcc's include folders read
    ``/usr/local/cuda/bin/../targets/...``; the reader names ``/usr/local/cuda/targets/...``)."""
    path = name if not folder or name.startswith("/") else f"{folder.rstrip('/')}/{name}"
    return posixpath.normpath(path)


def _string(data: bytes, p: int) -> tuple[str, int]:
    end = data.index(b"\0", p)
    return data[p:end].decode("utf-8"), end + 1


def _uleb(data: bytes, p: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[p]
        p += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, p


def _sleb(data: bytes, p: int) -> tuple[int, int]:
    value, shift = 0, 0
    while True:
        byte = data[p]
        p += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            if byte & 0x40:
                value -= 1 << shift
            return value, p
