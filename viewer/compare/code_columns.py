"""Compare mode in the source and SASS panes: the baseline's value of the chosen metric and its
change on each row, as ``DeltaColumn``s before the code (``CodePane.show_comparison``).

Source rows are the new build's lines of the kernel's own file, each with the line it was
aligned to in the baseline's source (``KernelComparison.rows``); SASS rows are the new
build's instructions, with the instruction they were aligned to (``instructions``, present
only where the two streams align). Values are per pass, as the comparison gives them.
"""

from __future__ import annotations

from collections.abc import Sequence

from kernelscope.core.compare import InstructionRow, KernelComparison, LineRow
from kernelscope.core.ncu import label_of

from ..code.code_models import DeltaColumn

TIP = (
    "new − baseline{per_pass}; red: grew (slower, more), blue: shrank, grey: within "
    "run-to-run noise"
)


def _titles(comp: KernelComparison) -> tuple[str, str]:
    per_pass = comp.base_passes != 1 or comp.new_passes != 1
    return ("Base/pass", "Δ/pass") if per_pass else ("Base", "Δ")


def _columns(
    comp: KernelComparison,
    metric: str,
    rows: Sequence[LineRow | InstructionRow | None],
    what: str,
) -> list[DeltaColumn]:
    base_title, delta_title = _titles(comp)
    per_pass = " per pass" if base_title.endswith("/pass") else ""
    label = label_of(metric)
    none = (None, None, None, None)
    changes = [comp.change(r, metric) if r is not None else none for r in rows]
    return [
        DeltaColumn(
            base_title,
            [c[0] for c in changes],
            tip=f"{label} of the baseline's {what}{per_pass}",
        ),
        DeltaColumn(
            delta_title,
            [c[2] for c in changes],
            [c[3] for c in changes],
            tip=f"{label}: " + TIP.format(per_pass=per_pass),
        ),
    ]


def line_columns(
    comp: KernelComparison, metric: str, texts: Sequence[str]
) -> list[DeltaColumn] | None:
    """Columns for the new source's lines ``texts`` (row r is line r + 1); None when the file
    shown is not the text the comparison aligned (another copy of the source) or either side
    has no per-line data."""
    if not (comp.base_has_lines and comp.new_has_lines):
        return None
    by_line: dict[int, LineRow] = {}
    for row in comp.rows:
        if row.new_line is not None:
            if row.new_line > len(texts) or texts[row.new_line - 1] != row.new_text:
                return None
            by_line[row.new_line] = row
    return _columns(comp, metric, [by_line.get(n + 1) for n in range(len(texts))], "line")


def instruction_columns(
    comp: KernelComparison, metric: str, offsets: Sequence[int]
) -> list[DeltaColumn] | None:
    """Columns for the new build's instructions at ``offsets``; None when the streams do not
    align (see the opcode table then)."""
    if not comp.instructions or not (comp.base_has_lines or comp.new_has_lines):
        return None
    by_offset = {r.new_offset: r for r in comp.instructions if r.new_offset is not None}
    return _columns(comp, metric, [by_offset.get(o) for o in offsets], "instruction")
