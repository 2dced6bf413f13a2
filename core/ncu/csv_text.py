"""Low-level reading of ``ncu --csv`` exports: text, row splitting, numbers, units, page type.

The row splitter is hand-written on purpose: on the Source page Nsight Compute does not escape
double quotes inside CUDA source text (``"1","#include "x.h""``), so ``csv`` mis-splits those
rows. Every field is quoted, so a row is split on ``","`` and surplus pieces are joined back into
the source-text column, whose position the block header tells. The details/raw/session pages
do escape quotes (RFC 4180) and go through ``csv``.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from ..errors import KernelscopeError

MISSING = frozenset({"", "-", "n/a", "N/A", "no data", "nan", "NaN", "..."})


class Page(Enum):
    DETAILS = "details"
    RAW = "raw"
    SESSION = "session"
    SOURCE_SASS = "source --print-source sass"
    SOURCE_CUDA = "source --print-source cuda"
    SOURCE_CUDA_SASS = "source --print-source cuda,sass"
    SOURCE_PTX = "source --print-source ptx"
    SUMMARY = "--print-summary"


@dataclass
class CsvText:
    """A CSV export's lines, with where the data starts and what was odd about the text."""

    path: Path
    lines: list[str]
    page: Page
    start: int  # index of the first line of the page (after ==PROF== / application output)
    warnings: list[str] = field(default_factory=list)

    def where(self, index: int) -> str:
        return f"{self.path}:{index + 1}"


def read_csv(path: str | Path) -> CsvText:
    """Read and classify a CSV export; raise KernelscopeError when it is not one."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise KernelscopeError(f"cannot read {path}: {exc.strerror or exc}") from exc
    if not data.strip():
        raise KernelscopeError(f"{path} is empty", hint="export it again with ncu -i ... --csv")
    if b"\0" in data[:4096]:
        raise KernelscopeError(
            f"{path} is binary, not a CSV export",
            hint="pass an .ncu-rep report with the .ncu-rep extension, or a CSV from ncu --csv",
        )
    warnings: list[str] = []
    text = data.decode("utf-8", errors="replace")
    if "\ufffd" in text and b"\xef\xbf\xbd" not in data:
        bad = text[: text.index("\ufffd")].count("\n") + 1
        warnings.append(f"{path}:{bad}: bytes that are not UTF-8 were replaced")
    lines = text.splitlines()
    page, start = sniff(lines)
    if page is None and "No lineinfo available" in text:
        raise KernelscopeError(
            f"{path}:1: holds only ncu's warning that the kernels have no line information",
            hint="source correlation needs kernels compiled with nvcc -lineinfo; the sass view "
            "(--print-source sass) still has per-instruction metrics",
        )
    if page is None:
        first = next((ln for ln in lines if ln.strip()), "")[:80]
        raise KernelscopeError(
            f"{path}:1: not an Nsight Compute CSV export (starts with {first!r})",
            hint="export with: ncu -i REPORT.ncu-rep --csv --page details|raw|session|source",
        )
    return CsvText(path, lines, page, start, warnings)


def sniff(lines: list[str]) -> tuple[Page | None, int]:
    """The page a CSV export comes from, judged by its content; skips ``==PROF==`` lines."""
    for i, line in enumerate(lines[:200]):
        s = line.strip()
        if s in ("Launch Settings", "Session Info") or s.startswith('"Launch Attribute"'):
            return Page.SESSION, i
        if not s.startswith('"'):
            continue
        if s.startswith('"ID",'):
            header = split_plain(s)
            if "Metric Name" in header and "Metric Value" in header:
                return Page.DETAILS, i
            return Page.RAW, i
        if s.startswith('"Kernel Name",'):
            return Page.SOURCE_SASS, i
        if s.startswith('"File Name",'):
            return Page.SOURCE_CUDA, i
        if s.startswith('"File Path",'):
            return Page.SOURCE_CUDA_SASS, i
        if s.startswith('"Line No","Source"'):
            return Page.SOURCE_PTX, i
        if s.startswith(('"Process ID",', '"Domain",')):
            return Page.SUMMARY, i
        return None, i
    return None, 0


def split_plain(line: str) -> list[str]:
    """Split an RFC-4180 row (details, raw, session pages: quotes are escaped there)."""
    try:
        return next(csv.reader([line]), [])
    except csv.Error:
        return split_source_row(line, 0, 0)


def split_source_row(line: str, ncols: int, source_idx: int) -> list[str]:
    """Split a Source-page row whose source text may hold unescaped quotes.

    Pieces beyond ``ncols`` are joined back into the column at ``source_idx``. A row without
    the outer quotes comes back as one field.
    """
    body = line.rstrip("\r\n")
    if body.endswith(","):
        body = body[:-1]
    if len(body) < 2 or not (body.startswith('"') and body.endswith('"')):
        return [body]
    parts = body[1:-1].split('","')
    extra = len(parts) - ncols
    if ncols and extra > 0:
        parts[source_idx : source_idx + extra + 1] = [
            '","'.join(parts[source_idx : source_idx + extra + 1])
        ]
    return parts


_NUMBERS: dict[str, float | None] = {}


def parse_number(token: str) -> float | None:
    """``"1,234.5"`` -> 1234.5; ``""``, ``-``, ``n/a``... -> None. Raises ValueError on text."""
    try:
        return _NUMBERS[token]
    except KeyError:
        pass
    t = token.strip()
    value = None if t in MISSING else float(t.replace(",", ""))
    if len(_NUMBERS) < 100_000:
        _NUMBERS[token] = value
    return value


# Scale factors to base units: time -> ns, frequency -> hz, size -> byte (SI, factor 1000).
_PREFIX = {"": 1.0, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}
_TIME = {"ns": 1.0, "nsecond": 1.0, "us": 1e3, "usecond": 1e3, "ms": 1e6, "msecond": 1e6}
_TIME.update({"s": 1e9, "second": 1e9})
_UNIT_RE = re.compile(r"^(?P<p>[KMGTP]?)(?P<base>byte|hz|Hz|inst|sector|cycle|warp)(?P<rest>/.*)?$")


def to_base(value: float, unit: str) -> tuple[float, str]:
    """Undo ncu's auto-scaling: ``(28.61, "us")`` -> ``(28610.0, "ns")``."""
    u = unit.strip()
    if u in _TIME:
        return value * _TIME[u], "ns"
    head, _, tail = u.partition("/")
    if head in _TIME and tail:
        return value * _TIME[head], "ns/" + tail
    m = _UNIT_RE.match(u)
    if m:
        base = m.group("base").lower()
        return value * _PREFIX[m.group("p")], base + (m.group("rest") or "")
    return value, u


_DIM_RE = re.compile(r"\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)")


def parse_dim3(text: str) -> tuple[int, int, int] | None:
    m = _DIM_RE.search(text)
    return (int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else None


_CAST_RE = re.compile(r"\((?:unsigned |signed )?(?:int|long|short|char|bool|unsigned)\)")


def kernel_key(name: str) -> str:
    """A spelling of a kernel name that is the same on every ncu page.

    Details pages print ``void scale_add<256>(...)``, the source page ``scale_add<(int)256>``;
    TVM's kernels are ``extern "C"`` and print as the bare function name everywhere.
    """
    n = name.strip().removeprefix("void ")
    n = _CAST_RE.sub("", n)
    return "".join(n.split())


def base_name(name: str) -> str:
    """The function name without return type, template arguments or parameters."""
    n = kernel_key(name)
    depth = 0
    out = []
    for ch in n:
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0:
            break
        elif depth == 0:
            out.append(ch)
    return "".join(out)
