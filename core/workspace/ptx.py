"""The PTX of a build (``module.ptx``) and which PTX line each SASS instruction came from
(``ptx_lines.json``).

nvcc writes the PTX of the translation unit when it compiles it (``nvcc.compile_unit``);
with ``-lineinfo`` every run of PTX instructions follows a ``.loc FILE LINE COLUMN``
directive naming its source line, inlined code as
``.loc 3 1133 3, function_name $L__info_string0, inlined_at 4 11 3`` (the header line, then
the call site), and the file numbers are declared by ``.file N "path"`` lines at the end of
the module. ptxas keeps that PTX in the cubin and maps every SASS instruction to a PTX line
of it (the ``.nv_debug_line_sass`` section, what ``nvdisasm -gp`` prints): that mapping,
per kernel and instruction offset, is ``ptx_lines.json``. The line numbers are those of
``module.ptx``.

The workspace keeps the PTX as nvcc wrote it, except that the ``.file`` paths of the
workspace's own files are made relative to it (``src/kernels/k.cu``), as in ``sass.json``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from .sass_table import Location

PTX = "module.ptx"
PTX_LINES = "ptx_lines.json"

_FILE_RE = re.compile(r'^(?P<head>\s*\.file\s+(?P<n>\d+)\s+")(?P<path>[^"]*)(?P<tail>".*)$')
_LOC_RE = re.compile(r"^\s*\.loc\s+(?P<f>\d+)\s+(?P<l>\d+)\s+(?P<c>\d+)(?P<rest>.*)$")
_INLINED_RE = re.compile(r"inlined_at\s+(?P<f>\d+)\s+(?P<l>\d+)\s+(?P<c>\d+)")
_ENTRY_RE = re.compile(r"^\s*(?:\.visible\s+|\.weak\s+)?\.entry\s+(?P<name>[\w$]+)")

_Pos = tuple[int, int, int]  # (file number, line, column) as a .loc names it


@dataclass(frozen=True)
class PtxRow:
    """One line of a kernel's PTX as shown: its line number in ``module.ptx``, its text, and
    the source lines it belongs to (innermost first, then each call site it was inlined
    into; empty for directives, labels and braces)."""

    line: int
    text: str
    frames: tuple[Location, ...] = ()


@dataclass(frozen=True)
class PtxKernel:
    """The PTX of one ``.entry``, from its ``.entry`` line to its closing brace, without the
    ``.loc`` directives (their source lines are the rows' ``frames``)."""

    name: str
    rows: tuple[PtxRow, ...]


def parse_ptx(text: str) -> dict[str, PtxKernel]:
    """Split nvcc's PTX into its kernels, each row with the source frames its ``.loc`` gave.

    A ``.loc`` holds for the instructions after it until the next one. An ``inlined_at``
    location is chained further when an earlier ``.loc`` of the same function placed that
    location inside another inlined call (PTX requires it to precede).
    """
    lines = text.splitlines()
    files = {int(m.group("n")): m.group("path") for raw in lines if (m := _FILE_RE.match(raw))}
    kernels: dict[str, PtxKernel] = {}
    name: str | None = None
    rows: list[PtxRow] = []
    frames: tuple[Location, ...] = ()
    parents: dict[_Pos, _Pos] = {}  # a location inlined somewhere -> where
    opened = False  # the function's body brace was seen
    for number, raw in enumerate(lines, start=1):
        if name is None:
            m = _ENTRY_RE.match(raw)
            if m is None:
                continue
            name, rows, frames, parents, opened = m.group("name"), [], (), {}, False
        loc = _LOC_RE.match(raw)
        if loc is not None:
            frames = _frames(loc, files, parents)
            continue
        stripped = raw.strip()
        rows.append(PtxRow(number, raw.rstrip(), frames if _is_instruction(stripped) else ()))
        if raw.startswith("{"):
            opened = True
        elif opened and raw.startswith("}"):
            kernels[name] = PtxKernel(name, tuple(rows))
            name = None
    return kernels


def _frames(
    loc: re.Match[str], files: Mapping[int, str], parents: dict[_Pos, _Pos]
) -> tuple[Location, ...]:
    here: _Pos = (int(loc.group("f")), int(loc.group("l")), int(loc.group("c")))
    chain = [here]
    inlined = _INLINED_RE.search(loc.group("rest"))
    if inlined is not None:
        parent: _Pos = (int(inlined.group("f")), int(inlined.group("l")), int(inlined.group("c")))
        parents[here] = parent
        while parent not in chain:
            chain.append(parent)
            if parent not in parents:
                break
            parent = parents[parent]
    return tuple((files.get(f, f"file {f}"), line) for f, line, _ in chain)


def _is_instruction(stripped: str) -> bool:
    """Whether a PTX line is an instruction (what a ``.loc`` describes), not a directive,
    declaration, label, brace or comment."""
    return bool(stripped) and not (
        stripped.startswith((".", "//", "{", "}", ")")) or stripped.endswith(":")
    )


def relative_file_table(text: str, fix: Callable[[str], str]) -> str:
    """The PTX with each ``.file`` path replaced by ``fix(path)`` (everything else as is)."""

    def line(raw: str) -> str:
        m = _FILE_RE.match(raw)
        return raw if m is None else m.group("head") + fix(m.group("path")) + m.group("tail")

    return "\n".join(line(raw) for raw in text.split("\n"))


def write_ptx_lines(path: Path, kernels: Mapping[str, Mapping[int, int]]) -> None:
    """Per kernel, instruction offset -> line of ``module.ptx``, as two parallel lists."""
    data = {
        name: {"offsets": list(lines), "lines": list(lines.values())}
        for name, lines in kernels.items()
    }
    path.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")


def read_ptx_lines(path: Path) -> dict[str, dict[int, int]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return {name: dict(zip(k["offsets"], k["lines"], strict=True)) for name, k in data.items()}
