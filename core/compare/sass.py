"""Two builds of a kernel compared at the SASS level: per opcode (static count, and warp-level
executions when the profile measured them) and, where the instruction streams align, per
instruction."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence

from ..ncu import INST_EXECUTED
from ..workspace import SassInstruction
from .lines import align
from .records import InstructionRow, OpcodeDelta

# Below this share of instructions in aligned rows, per-instruction rows would mislead.
ALIGN_THRESHOLD = 0.5

_TARGET = re.compile(r"`\([^)]*\)")  # branch targets: labels in nvdisasm, addresses in reports
# A report's SASS prints branch and reconvergence targets as absolute addresses, which move
# with where the module was loaded (BSSY B0, 0x7f15537a5420): wider than any immediate.
_ADDRESS = re.compile(r"\b0x[0-9a-fA-F]{9,}\b")


def _key(insn: SassInstruction) -> str:
    return _ADDRESS.sub("0xADDR", _TARGET.sub("`(L)", " ".join(insn.text.split())))


def opcode_deltas(
    base: Sequence[SassInstruction],
    new: Sequence[SassInstruction],
    base_metrics: Mapping[int, Mapping[str, float]] | None = None,
    new_metrics: Mapping[int, Mapping[str, float]] | None = None,
) -> list[OpcodeDelta]:
    """Per opcode: instructions in each build and, with metrics, their executions; ordered by
    the size of the change (executions when both sides have them, else the count)."""

    def executed(
        insns: Sequence[SassInstruction], metrics: Mapping[int, Mapping[str, float]]
    ) -> dict[str, float]:
        out: dict[str, float] = {}
        for insn in insns:
            value = metrics.get(insn.offset, {}).get(INST_EXECUTED, 0.0)
            out[insn.opcode] = out.get(insn.opcode, 0.0) + value
        return out

    count_b = Counter(i.opcode for i in base)
    count_n = Counter(i.opcode for i in new)
    exec_b = executed(base, base_metrics) if base_metrics else None
    exec_n = executed(new, new_metrics) if new_metrics else None
    rows = [
        OpcodeDelta(
            opcode=op,
            base_count=count_b.get(op, 0),
            new_count=count_n.get(op, 0),
            base_executed=exec_b.get(op, 0.0) if exec_b is not None else None,
            new_executed=exec_n.get(op, 0.0) if exec_n is not None else None,
        )
        for op in sorted(set(count_b) | set(count_n))
    ]

    def size(r: OpcodeDelta) -> tuple[float, int, str]:
        d = r.executed_delta
        return (-abs(d) if d is not None else 0.0, -abs(r.count_delta), r.opcode)

    return sorted(rows, key=size)


def align_instructions(
    base: Sequence[SassInstruction],
    new: Sequence[SassInstruction],
    base_metrics: Mapping[int, Mapping[str, float]] | None = None,
    new_metrics: Mapping[int, Mapping[str, float]] | None = None,
) -> tuple[list[InstructionRow], float]:
    """Instruction rows (SAME: same opcode and operands, CHANGED: same opcode) and the share of
    instructions in them; no rows when under ``ALIGN_THRESHOLD`` of them align."""
    opcodes = [i.opcode for i in base], [i.opcode for i in new]
    keys = [_key(i) for i in base], [_key(i) for i in new]
    pairs = align(*keys, lambda side, k: opcodes[side][k])
    longest = max(len(base), len(new))
    aligned = sum(1 for kind, i, j in pairs if i is not None and j is not None)
    share = aligned / longest if longest else 1.0
    if share < ALIGN_THRESHOLD:
        return [], share
    bm, nm = base_metrics or {}, new_metrics or {}
    rows = []
    for kind, i, j in pairs:
        a = base[i] if i is not None else None
        b = new[j] if j is not None else None
        rows.append(
            InstructionRow(
                kind=kind,
                base_offset=a.offset if a else None,
                new_offset=b.offset if b else None,
                base_text=a.text if a else None,
                new_text=b.text if b else None,
                base=bm.get(a.offset, {}) if a else {},
                new=nm.get(b.offset, {}) if b else {},
            )
        )
    return rows, share
