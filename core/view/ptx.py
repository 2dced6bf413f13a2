"""A kernel's PTX as the PTX pane shows it, correlated with its source and its SASS.

Two tables of the build join the three: the ``.loc`` lines of the PTX name the source line of
each PTX row, and ``ptx_lines.json`` (``nvdisasm -gp``) names the PTX line of each SASS
instruction. So a source line selects its PTX rows, a PTX row its SASS instructions, and the
per-row numbers are sums over the instructions assembled from the row, exactly as the
source pane sums over a line's instructions: no value is spread or guessed. PTX exists only
for kernels of a kernelscope build; a ``PtxView`` without rows says why in its ``note``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from ..workspace import Location, PtxRow, SassInstruction, Workspace, frame_index

NO_WORKSPACE = (
    "PTX comes with a kernelscope build: open the workspace this report was profiled from "
    "(or the report through it) to see it"
)
NOT_KEPT = (
    "this workspace was built before kernelscope kept the PTX: build it again "
    "(kernelscope build MODEL -o WORKSPACE) to see it"
)


@dataclass(frozen=True)
class PtxView:
    """One kernel's PTX rows (their frames named as the kernel's files are) and, per row,
    the SASS instructions assembled from it (indices into the kernel's instructions)."""

    rows: Sequence[PtxRow] = ()
    instructions: Sequence[tuple[int, ...]] = ()  # parallel to ``rows``
    row_by_instruction: Mapping[int, int] = field(default_factory=dict)  # the inverse
    note: str = ""  # why there are no rows, when there are none

    @cached_property
    def _line_index(self) -> dict[Location, list[int]]:
        return frame_index(self.rows)

    def rows_at(self, file: str, line: int) -> list[int]:
        """The rows a source line produced (through inlined frames too)."""
        return self._line_index.get((file, line), [])

    def row_of(self, instruction: int) -> int | None:
        """The row SASS instruction ``instruction`` was assembled from."""
        return self.row_by_instruction.get(instruction)

    def line_of(self, row: int, file: str) -> int | None:
        """The line of ``file`` that ``row`` belongs to, if one of its frames is there."""
        return next((n for f, n in self.rows[row].frames if f == file), None)


def ptx_view(
    ws: Workspace, kernel: str, files: Mapping[str, object], instructions: Sequence[SassInstruction]
) -> PtxView:
    """I/O: the workspace's PTX of ``kernel``, its files renamed to the keys of ``files`` (a
    ``KernelView``'s), its rows joined to ``instructions`` by their offsets."""
    if not ws.has_ptx:
        return PtxView(note=NOT_KEPT)
    ptx, lines = ws.ptx(kernel)
    if ptx is None:
        return PtxView(note=f"the build's PTX has no .entry {kernel}")
    rename = _renamer(files)
    rows = [PtxRow(r.line, r.text, tuple((rename(f), n) for f, n in r.frames)) for r in ptx.rows]
    row_at = {row.line: r for r, row in enumerate(rows)}
    per_row: list[list[int]] = [[] for _ in rows]
    rows_of: dict[int, int] = {}
    for i, insn in enumerate(instructions):
        r = row_at.get(lines.get(insn.offset, -1))
        if r is not None:
            per_row[r].append(i)
            rows_of[i] = r
    return PtxView(tuple(rows), tuple(tuple(p) for p in per_row), rows_of)


def _renamer(files: Mapping[str, object]) -> Callable[[str], str]:
    """A PTX file path as the kernel's files name it: the same path, else the one file of
    that name (a report or another machine records its own folders), else unchanged."""
    by_name: dict[str, list[str]] = {}
    for f in files:
        by_name.setdefault(os.path.basename(f), []).append(f)

    def rename(path: str) -> str:
        if path in files:
            return path
        same = by_name.get(os.path.basename(path), [])
        return same[0] if len(same) == 1 else path

    return rename
