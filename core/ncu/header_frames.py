"""The header frames NVIDIA's reader does not give, from the workspace's line table.

``ncu_report`` answers a report's instructions with their line in the kernel's own file only;
for an instruction inlined from a header, the workspace's SASS line table (``nvdisasm -g -gi``)
knows the header line too. ``header_frames`` gives those, for ``InstructionTable.inlined``,
only when the workspace's instructions outside inlined code sit on the very lines the report
records for them (the same build): otherwise numbers would land on wrong lines.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from ..workspace import KernelSass
from .records import InstructionTable, Location


def header_frames(
    table: InstructionTable, sass: KernelSass, embedded: Callable[[str | None], list[str]]
) -> list[Location | None] | None:
    """Each instruction's header frame (file named as the report records it, line), None
    where it has none; None when there are none at all or the workspace is another build.
    ``embedded(own_file)``: the paths of the source files the report carries (asked before the
    walk)."""
    by_offset = {i.offset: i for i in sass.instructions}
    own_file = next((loc[0] for loc in table.locations if loc is not None), None)
    recorded = embedded(own_file)
    names: dict[str, str] = {}  # a header's recorded name, once per header
    inlined: list[Location | None] = []
    for offset, loc in zip(table.offsets.tolist(), table.locations, strict=True):
        insn = by_offset.get(int(offset))
        if insn is None or insn.file is None or insn.line is None:
            inlined.append(None)
            continue
        if not insn.inlined_at:
            if loc is not None and insn.line != loc[1]:
                return None  # a different build of this kernel
            inlined.append(None)
            continue
        # nvdisasm prints a location only when the innermost frame changes, so its call
        # site can lag behind; the report's is exact and stays in table.locations.
        name = names.get(insn.file)
        if name is None:
            name = recorded_name(insn.file, recorded) or os.path.normpath(insn.file)
            names[insn.file] = name
        inlined.append((name, insn.line))
    return inlined if any(inlined) else None


def recorded_name(path: str, recorded: Sequence[str]) -> str | None:
    """The report's own name for a file the workspace knows by another path: the one
    recorded file whose path ends like it (3, then 2, then 1 trailing parts); None when
    none or several do."""
    parts = os.path.normpath(path).split(os.sep)
    for n in (3, 2, 1):
        tail = os.sep.join(parts[-n:])
        matches = [e for e in recorded if os.path.normpath(e).endswith(os.sep + tail)]
        if len(matches) == 1:
            return matches[0]
    return None
