"""SASS of a cubin, per kernel, with each instruction's source line (``nvdisasm -c -g -gi``).

nvdisasm prints, before a run of instructions, comment lines naming where they come from::

    //## File "/ws/src/kernels/softmax_kernel.cu", line 12
    //## File "/inc/crt/math_functions.hpp", line 42 inlined at "/ws/src/kernels/k.cu", line 9

and each instruction as ``/*0040*/  IMAD R1, R2, R3, R4 ;``. With ``-gi`` the innermost frame
comes first and the call sites follow in ``inlined at`` clauses.

nvdisasm prints a location only when the innermost frame changes (its JSON output too), so for
a run of instructions inlined from one header line the call site shown is that of the first
of them, even where the line table moves the call site on; a profile's own line table (and
with it the viewer once a report is attached) has the exact call site.

With ``-gp`` nvdisasm also prints the PTX line of each run of instructions, as a location in
the file ``.nv_debug_ptx_txt`` (ptxas's copy of the PTX in the cubin, whose line numbers are
those of nvcc's ``.ptx``): ``parse_ptx_lines`` reads those, ``parse_nvdisasm`` skips them, so
one ``nvdisasm -c -g -gi -gp`` run gives both tables.
"""

from __future__ import annotations

import re

from ..workspace import KernelSass, SassInstruction

_LABEL_RE = re.compile(r"^\s*(?P<label>\.L_\w+):\s*$")
_LOC_RE = re.compile(r'^\s*//## File "(?P<file>[^"]*)", line (?P<line>\d+)(?P<rest>.*)$')
_INLINED_RE = re.compile(r'inlined at "(?P<file>[^"]*)", line (?P<line>\d+)')
_INSN_RE = re.compile(
    r"^\s*/\*(?P<off>[0-9a-fA-F]{4,})\*/\s*(?P<text>.*?)\s*;?\s*(?:/\*.*\*/)?\s*$"
)
_SECTION_RE = re.compile(r'^\s*\.section\s+"?\.text\.(?P<name>[^",\s]+)')
PTX_TEXT = ".nv_debug_ptx_txt"  # the file nvdisasm -gp names for PTX lines


def parse_nvdisasm(text: str) -> dict[str, KernelSass]:
    """Split ``nvdisasm -c -g -gi`` output into per-kernel instruction lists.

    nvdisasm prints an inlined location as a group of consecutive ``//##`` lines, innermost
    frame first (with its ``inlined at`` chain), then the outer frame on its own; the whole
    group describes the instructions that follow it.
    """
    kernels: dict[str, KernelSass] = {}
    current: KernelSass | None = None
    location: tuple[str | None, int | None, list[tuple[str, int]]] = (None, None, [])
    group: list[tuple[str, int, list[tuple[str, int]]]] = []
    pending_labels: list[str] = []
    for raw in text.splitlines():
        section = _SECTION_RE.match(raw)
        if section:
            current = kernels.setdefault(section.group("name"), KernelSass())
            location, group, pending_labels = (None, None, []), [], []
            continue
        if current is None:
            continue
        m = _LOC_RE.match(raw)
        if m and m.group("file") == PTX_TEXT:
            continue
        if m:
            inlined = [(f, int(n)) for f, n in _INLINED_RE.findall(m.group("rest"))]
            group.append((m.group("file"), int(m.group("line")), inlined))
            continue
        m = _INSN_RE.match(raw)
        if m:
            if group:
                location = _group_location(group)
                group = []
            offset = int(m.group("off"), 16)
            for label in pending_labels:
                current.labels[label] = offset
            pending_labels = []
            current.instructions.append(
                SassInstruction(
                    offset=offset,
                    text=" ".join(m.group("text").rstrip(" ;").split()),
                    file=location[0],
                    line=location[1],
                    inlined_at=list(location[2]),
                )
            )
            continue
        m = _LABEL_RE.match(raw)
        if m:
            pending_labels.append(m.group("label"))
    return kernels


def parse_ptx_lines(text: str) -> dict[str, dict[int, int]]:
    """Per kernel, instruction offset -> the PTX line it was assembled from, from
    ``nvdisasm -gp`` output (printed when it changes; kernels without any are left out)."""
    kernels: dict[str, dict[int, int]] = {}
    current: dict[int, int] | None = None
    line: int | None = None
    for raw in text.splitlines():
        section = _SECTION_RE.match(raw)
        if section:
            current, line = kernels.setdefault(section.group("name"), {}), None
            continue
        if current is None:
            continue
        m = _LOC_RE.match(raw)
        if m and m.group("file") == PTX_TEXT:
            line = int(m.group("line"))
            continue
        m = _INSN_RE.match(raw)
        if m and line is not None:
            current[int(m.group("off"), 16)] = line
    return {name: lines for name, lines in kernels.items() if lines}


def _group_location(
    group: list[tuple[str, int, list[tuple[str, int]]]],
) -> tuple[str | None, int | None, list[tuple[str, int]]]:
    outer = group[-1]
    for file, line, inlined in group:
        if inlined and inlined[-1] == (outer[0], outer[1]):
            return file, line, inlined
    return outer
