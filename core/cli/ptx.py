"""``kernelscope ptx``: a kernel's PTX from its build, each row with its source line and the
SASS instructions assembled from it (the PTX pane's correlation, as text)."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from ..errors import KernelscopeError
from ..inductor import open_workspace
from ..view import KernelView, document_from_workspace
from ..workspace import Location
from .kernel_choice import one_kernel
from .table import format_table


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "ptx",
        help="a kernel's PTX (nvcc's, kept by the build) with the source line and the SASS "
        "instructions of every row",
    )
    p.add_argument("workspace", type=Path, help="a build workspace or a torch.compile run folder")
    p.add_argument("--kernel", metavar="REGEX", required=True, help="the kernel (a unique match)")
    p.add_argument(
        "--line",
        type=int,
        help="only the rows of this line of the kernel's own .cu file, each with its SASS",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=_ptx)


def _ptx(args: argparse.Namespace) -> int:
    ws = open_workspace(args.workspace)
    name = one_kernel(args.kernel, [k.name for k in ws.manifest.kernels], str(ws.path))
    kernel = document_from_workspace(ws).kernel(name)
    if not kernel.ptx.rows:
        raise KernelscopeError(f"no PTX for {name}: {kernel.ptx.note}")
    rows = list(range(len(kernel.ptx.rows)))
    if args.line is not None:
        rows = kernel.ptx.rows_at(kernel.main_file, args.line)
        if not rows:
            raise KernelscopeError(
                f"line {args.line} of {os.path.basename(kernel.main_file)} has no PTX",
                hint="it compiled to nothing (a declaration, a comment, code optimised away); "
                "see every row without --line",
            )
    if args.json:
        print(json.dumps([_row_json(kernel, r) for r in rows], indent=1))
        return 0
    print(_title(kernel, args.line))
    if args.line is None:
        table = [_row_cells(kernel, r) for r in rows]
        print(format_table(["line", "SASS", "source", "PTX"], table, right={0, 1}))
        return 0
    for r in rows:  # each row with its instructions under it
        print("  ".join(c for c in _row_cells(kernel, r) if c))
        for i in kernel.ptx.instructions[r]:
            insn = kernel.instructions[i]
            print(f"        /*{insn.offset:04x}*/ {insn.text}")
    return 0


def _title(kernel: KernelView, line: int | None) -> str:
    rows = kernel.ptx.rows
    where = f"module.ptx lines {rows[0].line}-{rows[-1].line}"
    own = os.path.basename(kernel.main_file)
    if line is None:
        return f"{kernel.name} ({where}); SASS: instructions assembled from the row"
    return f"{kernel.name} ({where}), the rows of {own}:{line}"


def _row_cells(kernel: KernelView, r: int) -> list[str]:
    row = kernel.ptx.rows[r]
    count = len(kernel.ptx.instructions[r])
    return [str(row.line), str(count or ""), _where(row.frames), " ".join(row.text.split())]


def _where(frames: tuple[Location, ...]) -> str:
    """``math_functions.hpp:1133 < softmax_kernel.cu:11``: inner first, then call sites."""
    return " < ".join(f"{os.path.basename(f)}:{n}" for f, n in frames)


def _row_json(kernel: KernelView, r: int) -> dict[str, object]:
    row = kernel.ptx.rows[r]
    return {
        "line": row.line,
        "text": row.text.strip(),
        "source": [{"file": f, "line": n} for f, n in row.frames],
        "sass": [
            {"offset": kernel.instructions[i].offset, "text": kernel.instructions[i].text}
            for i in kernel.ptx.instructions[r]
        ],
    }
