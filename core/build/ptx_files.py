"""The build's PTX in the workspace: nvcc's ``module.ptx`` and, from the same
``nvdisasm -gp`` run that gives the SASS, the PTX line of every SASS instruction."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..workspace import PTX, PTX_LINES, relative_file_table, write_ptx_lines
from .nvdisasm import parse_ptx_lines


def store_ptx(
    compile_dir: Path, stage: Path, disassembly: str, relative: Callable[[str], str]
) -> dict[str, str]:
    """Write ``module.ptx`` (with ``relative`` applied to its ``.file`` paths, as to the
    SASS line table's) and ``ptx_lines.json`` into ``stage``; return the manifest's roles
    for them, none when the compile kept no PTX."""
    source = compile_dir / PTX
    if not source.is_file():
        return {}
    text = relative_file_table(source.read_text(encoding="utf-8"), relative)
    (stage / PTX).write_text(text, encoding="utf-8")
    write_ptx_lines(stage / PTX_LINES, parse_ptx_lines(disassembly))
    return {"ptx": PTX, "ptx_lines": PTX_LINES}
