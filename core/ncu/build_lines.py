"""A profiled kernel's line table from the workspace that built it, without NVIDIA's reader.

A report embeds the cubin of every module it profiled (``rep.container.ReportFile.cubin``).
When that cubin is the workspace's own ``module.cubin`` (``same_code``), the report's line
table (PC -> the source line in the kernel's file, what ``ncu_report``'s ``source_info``
answers) is the workspace's, and is read from it:

* an instruction outside inlined code: its line in ``sass.json`` (``nvdisasm -g -gi``);
* an inlined instruction: the outermost call site of its PTX line (``ptx_lines.json`` maps
  each SASS instruction to the PTX line ptxas assembled it from, ``module.ptx``'s ``.loc``
  gives that line's frames). nvdisasm's own call site can lag behind (it prints a location
  only when the innermost frame changes); the PTX's is the one ptxas wrote into the line
  table. A workspace without PTX answers only for kernels with no inlined code.

File names are the report's (``recorded_name``: the embedded file the workspace's path
ends like). Where any of this does not hold, ``kernel_lines`` answers None and the caller
asks NVIDIA's reader. ``tests/ncu/test_build_lines.py`` checks the answers against
``ncu_report``'s for every instruction of real reports.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Callable, Sequence

from ..workspace import Workspace
from .records import Location

# Sections of a cubin that name the build folder or the sources' timestamps (the DWARF line
# program's file table, its relocations, the DWARF strings): a rebuild of the same code
# elsewhere differs there and nowhere else. Code and line numbers are in the other sections
# (.text.*, .nv_debug_line_sass, .nv_debug_ptx_txt with its .loc lines).
_PATH_SECTIONS = frozenset({".debug_line", ".rela.debug_line", ".debug_str"})


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


def code_sections(elf: bytes) -> dict[str, bytes] | None:
    """A 64-bit little-endian ELF's sections by name, the path-bearing ones left out; None
    for what is not such a file."""
    if len(elf) < 64 or elf[:4] != b"\x7fELF" or elf[4] != 2 or elf[5] != 1:
        return None
    try:
        shoff = struct.unpack_from("<Q", elf, 0x28)[0]
        size, count, names_at = struct.unpack_from("<HHH", elf, 0x3A)
        headers = [struct.unpack_from("<IIQQQQ", elf, shoff + k * size) for k in range(count)]
        names = headers[names_at]
        out: dict[str, bytes] = {}
        for name_off, kind, _, _, off, length in headers:
            start = names[4] + name_off
            name = elf[start : elf.index(b"\0", start)].decode("latin-1")
            if name not in _PATH_SECTIONS:
                out[name] = elf[off : off + length] if kind != 8 else b""  # 8: NOBITS
        return out
    except (struct.error, ValueError, IndexError):
        return None


def same_code(report_cubin: bytes, workspace_cubin: bytes) -> bool:
    """Whether two cubins are one build's: equal but for the paths and timestamps of the
    source files (a rebuild of the same sources in another folder is the same code)."""
    if report_cubin == workspace_cubin:
        return True
    ours, theirs = code_sections(report_cubin), code_sections(workspace_cubin)
    return ours is not None and ours == theirs


class BuildLines:
    """The line tables a workspace gives a report's kernels, per module the report holds."""

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self._cubin: bytes | None = None
        self._matches: dict[int, bool] = {}
        self._kernels: dict[tuple[str, tuple[str, ...]], dict[int, Location | None] | None] = {}

    def matches(self, module: int, cubin: Callable[[], bytes | None]) -> bool:
        """Whether the report's module ``module`` (whose cubin ``cubin()`` reads, once) is
        this build."""
        found = self._matches.get(module)
        if found is None:
            theirs = cubin()
            found = self._matches[module] = theirs is not None and self._same(theirs)
        return found

    def _same(self, cubin: bytes) -> bool:
        if "cubin" not in self.workspace.manifest.files:
            return False
        if self._cubin is None:
            try:
                self._cubin = self.workspace.file("cubin").read_bytes()
            except OSError:
                self._cubin = b""
        return same_code(cubin, self._cubin)

    def kernel_lines(
        self, kernel: str, recorded: Sequence[str]
    ) -> dict[int, Location | None] | None:
        """Offset -> (report's file name, line) of each instruction of a kernel of this build;
        None when the workspace cannot give the report's exact table (no such kernel, inlined
        code without PTX, a file it cannot name as the report does)."""
        key = (kernel, tuple(recorded))
        if key not in self._kernels:
            self._kernels[key] = self._kernel_lines(kernel, recorded)
        return self._kernels[key]

    def _kernel_lines(
        self, kernel: str, recorded: Sequence[str]
    ) -> dict[int, Location | None] | None:
        try:
            sass = self.workspace.sass(kernel)
        except (KeyError, OSError, ValueError):
            return None
        ptx, ptx_lines = self.workspace.ptx(kernel) if self.workspace.has_ptx else (None, {})
        frames = {row.line: row.frames for row in ptx.rows} if ptx is not None else {}
        names: dict[str, str | None] = {}
        out: dict[int, Location | None] = {}
        for insn in sass.instructions:
            where = insn.kernel_line
            if insn.inlined_at:
                chain = frames.get(ptx_lines.get(insn.offset, -1), ())
                if not chain or not chain[-1][1]:
                    return None  # nvdisasm's call site may lag: not exact
                where = chain[-1]
            if where is None:
                out[insn.offset] = None
                continue
            if where[0] not in names:
                names[where[0]] = recorded_name(where[0], recorded)
            name = names[where[0]]
            if name is None:
                return None
            out[insn.offset] = (name, where[1])
        return out
