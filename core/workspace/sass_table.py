"""The SASS line table of a build (``sass.json``): each kernel's instructions with their
offsets, text, source line and inline frames, and its branch labels.

``build.nvdisasm`` makes these from ``nvdisasm -c -g -gi``; every later feature reads them
from the workspace.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

# A source line: (file path as the line table or report recorded it, 1-based line number).
Location = tuple[str, int]


class _Framed(Protocol):
    @property
    def frames(self) -> Sequence[Location]: ...


def frame_index(items: Iterable[_Framed]) -> dict[Location, list[int]]:
    """The positions in ``items`` (SASS instructions, PTX rows) of those each source line is one
    of the frames of: what a click on a source line selects."""
    index: dict[Location, list[int]] = {}
    for i, item in enumerate(items):
        for loc in item.frames:
            index.setdefault(loc, []).append(i)
    return index


# Opcodes whose last operand is a code address (a label in nvdisasm's text).
_BRANCHES = frozenset({"BRA", "BRX", "JMP", "JMX", "CALL", "BSSY", "SSY", "PBK", "PCNT"})


@dataclass
class SassInstruction:
    offset: int  # byte offset from the start of the kernel
    text: str  # e.g. "@P0 BRA `(.L_x_3)" without the trailing ';'
    file: str | None  # innermost source file (a header for inlined code)
    line: int | None
    inlined_at: list[Location] = field(default_factory=list)  # call sites, inner first

    @property
    def opcode(self) -> str:
        """``BRA`` of ``@P0 BRA `(.L_x_3)``: the first word after any predicate."""
        words = self.text.split()
        if words and words[0].startswith("@"):
            words = words[1:]
        return words[0] if words else ""

    @property
    def frames(self) -> list[Location]:
        """Every source line this instruction belongs to: the innermost first, then each
        call site it was inlined into (the last one is in the kernel's own file)."""
        inner = [(self.file, self.line)] if self.file is not None and self.line is not None else []
        return inner + self.inlined_at

    @property
    def kernel_line(self) -> Location | None:
        """Where this instruction sits in the kernel's own file: the outermost frame."""
        if self.inlined_at:
            return self.inlined_at[-1]
        if self.file is None or self.line is None:
            return None
        return self.file, self.line

    @property
    def branch_label(self) -> str | None:
        """The label a branch names as its target; None for other instructions."""
        target = branch_target(self.text)
        return target[0] if target is not None else None


def branch_target(text: str) -> tuple[str, int | None] | None:
    """A branch's target as its SASS prints it: the label, and the absolute address when one
    is printed. nvdisasm writes ``@P0 BRA `(.L_x_3)``; Nsight Compute writes
    ``BRA `(.L_x_0) 0x7f4f577a0110`` or just ``@P0 BRA 0x7f12617a06a0`` (then the address is
    the label too). None for an instruction that is not a branch."""
    start = text.find("`(")
    if start >= 0:
        end = text.find(")", start)
        if end < 0:
            return None
        tail = text[end + 1 :].split()
        return text[start + 2 : end], _address(tail[0]) if tail else None
    words = text.replace(",", " ").split()
    if words and words[0].startswith("@"):
        words = words[1:]
    if len(words) < 2 or words[0].split(".")[0] not in _BRANCHES:
        return None
    address = _address(words[-1])
    return (words[-1], address) if address is not None else None


def _address(token: str) -> int | None:
    if not token.startswith("0x"):
        return None
    try:
        return int(token, 16)
    except ValueError:
        return None


@dataclass
class KernelSass:
    """The instructions of one kernel and its branch-target labels (label -> offset)."""

    instructions: list[SassInstruction] = field(default_factory=list)
    labels: dict[str, int] = field(default_factory=dict)


def write_sass(path: Path, kernels: dict[str, KernelSass]) -> None:
    data = {
        name: {
            "labels": ks.labels,
            # Compact rows: [offset, text, file index, line, [[file index, line], ...]]
            "files": (files := _file_table(ks)),
            "instructions": [
                [
                    i.offset,
                    i.text,
                    files.index(i.file) if i.file is not None else None,
                    i.line,
                    [[files.index(f), n] for f, n in i.inlined_at],
                ]
                for i in ks.instructions
            ],
        }
        for name, ks in kernels.items()
    }
    path.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")


def _file_table(ks: KernelSass) -> list[str]:
    seen: dict[str, None] = {}
    for i in ks.instructions:
        if i.file is not None:
            seen.setdefault(i.file)
        for f, _ in i.inlined_at:
            seen.setdefault(f)
    return list(seen)


def read_sass(path: Path) -> dict[str, KernelSass]:
    data = json.loads(path.read_text(encoding="utf-8"))
    out: dict[str, KernelSass] = {}
    for name, k in data.items():
        files = k["files"]
        out[name] = KernelSass(
            instructions=[
                SassInstruction(
                    offset=off,
                    text=text,
                    file=files[fi] if fi is not None else None,
                    line=line,
                    inlined_at=[(files[f], n) for f, n in inl],
                )
                for off, text, fi, line, inl in k["instructions"]
            ],
            labels=k["labels"],
        )
    return out
