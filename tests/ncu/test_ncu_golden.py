"""Golden files for the CSV page readers: what each reader makes of a real export, written out
as text and compared with ``tests/data/golden/*.txt``.

A mismatch prints a unified diff (expected -> actual). When a change is intended, regenerate
the files and review their diff in git::

    KERNELSCOPE_UPDATE_GOLDEN=1 python -m pytest tests/ncu/test_ncu_golden.py
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from golden import check_golden
from ncu_support import BAD, MLP, SMALL
from paths_support import DATA

from kernelscope.core.ncu.csv_merge import block_table
from kernelscope.core.ncu.csv_pages import (
    SourceBlock,
    read_details,
    read_raw,
    read_session,
    read_source_cuda,
    read_source_cuda_sass,
    read_source_sass,
)
from kernelscope.core.ncu.csv_text import CsvText, read_csv

ROWS_SHOWN = 3  # instruction rows written out per block (and the last one)
_NOTHING = ("", "0", "-")  # cells left out of the dump, to keep it short


def _launches(ct: CsvText, reader: Callable[[CsvText], dict[int, Any]]) -> list[str]:
    out = []
    for i, launch in sorted(reader(ct).items()):
        fields = dataclasses.asdict(launch)
        rules = fields.pop("rules")
        out.append(f"launch {i}: {json.dumps(fields, sort_keys=True)}")
        out += [
            f"  rule {r['kind']} {r['section']}/{r['rule']} {r['speedup_type']} "
            f"{r['speedup_pct']}: {r['message'][:60]!r}"
            for r in rules
        ]
    return out


def _block(b: SourceBlock) -> list[str]:
    out = [
        f"block {b.kernel!r} from line {b.first_line + 1}: {len(b.addresses)} instructions, "
        f"files {sorted(b.files)}, {len(b.line_rows)} line rows, {len(b.inlined)} inlined"
    ]
    columns = b.columns()
    shown = list(range(min(ROWS_SHOWN, len(b.addresses)))) + [len(b.addresses) - 1]
    for i in dict.fromkeys(shown):
        cells = {label: col[i] for label, col in columns.items() if col[i] not in _NOTHING}
        out.append(
            f"  {b.addresses[i] - min(b.addresses):#06x} {b.sass[i].strip()!r} "
            f"at {b.locations[i]} {json.dumps(cells)}"
        )
    start = min(b.addresses)
    for i, loc in sorted(b.inlined.items()):
        out.append(f"  inlined {b.addresses[i] - start:#06x}: {loc} called at {b.locations[i]}")
    table = block_table(b, start)
    sums = {key: float(np.nansum(col)) for key, col in table.numbers.items()}
    out.append("  sums: " + ", ".join(f"{k}={v:.6g}" for k, v in sorted(sums.items()) if v))
    for key in sorted(table.categories):
        values = sorted({v for v in table.categories[key] if v is not None})
        out.append(f"  values {key} = {values}")
    for loc in sorted(b.line_rows)[:2]:
        row = {k: v for k, v in b.line_rows[loc].items() if v not in _NOTHING}
        out.append(f"  line {loc}: {json.dumps(row)}")
    return out


def _blocks(ct: CsvText, reader: Callable[[CsvText], list[SourceBlock]]) -> list[str]:
    return [line for b in reader(ct) for line in _block(b)]


def _sources(ct: CsvText) -> list[str]:
    files = read_source_cuda(ct)
    return [
        f"{path}: {len(text.splitlines())} lines, sha256 "
        f"{hashlib.sha256(text.encode()).hexdigest()[:16]}, first {text.splitlines()[:1]}"
        for path, text in sorted(files.items())
    ]


CASES: dict[str, tuple[Path, Callable[[CsvText], list[str]]]] = {
    "small_details": (SMALL / "lineinfo_details.csv", lambda ct: _launches(ct, read_details)),
    "mlp_raw": (MLP / "raw.csv", lambda ct: _launches(ct, read_raw)),
    "mlp_session": (
        MLP / "session.csv",
        lambda ct: [f"{k} = {v}" for k, v in sorted(read_session(ct).items())],
    ),
    "small_source_sass": (
        SMALL / "lineinfo_source_sass.csv",
        lambda ct: _blocks(ct, read_source_sass),
    ),
    "small_source_cuda_sass": (
        SMALL / "lineinfo_source_cuda_sass.csv",
        lambda ct: _blocks(ct, read_source_cuda_sass),
    ),
    "mlp_source_cuda_sass": (  # header code inlined into softmax: call sites and header lines
        MLP / "source_cuda_sass.csv",
        lambda ct: _blocks(ct, read_source_cuda_sass),
    ),
    "mlp_source_cuda": (MLP / "source_cuda.csv", _sources),
    "bad_cut_details": (BAD / "cut_details.csv", lambda ct: _launches(ct, read_details)),
    "bad_ragged": (BAD / "ragged.csv", lambda ct: _blocks(ct, read_source_sass)),
    "bad_non_utf8": (BAD / "non_utf8.csv", lambda ct: _blocks(ct, read_source_cuda_sass)),
}


def _render(path: Path, dump: Callable[[CsvText], list[str]]) -> str:
    ct = read_csv(path)
    lines = [f"page: {ct.page.value}", *dump(ct)]
    # warnings name the file read, in this checkout: that path never enters a golden file
    # (paths recorded inside the exports are data and stay as they are)
    lines += [f"warning: {w}".replace(str(DATA), "<data>") for w in ct.warnings]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(CASES))
def test_page_reader_output_matches_its_golden_file(name: str) -> None:
    path, dump = CASES[name]
    check_golden(_render(path, dump), f"{name}.txt")


def test_a_changed_reader_shows_a_diff(tmp_path: Path) -> None:
    """The dump really sees a change: one sample count edited in a copy of an export."""
    path, dump = CASES["small_source_sass"]
    edited = tmp_path / path.name
    text = path.read_text(encoding="utf-8")
    row = '"0x7f04f77a0000","      LDC R1, c[0x0][0x28]","5","1","5",'
    assert row in text
    edited.write_text(text.replace(row, row.replace('"5","1","5"', '"6","1","6"'), 1), "utf-8")
    before, after = _render(path, dump).splitlines(), _render(edited, dump).splitlines()
    assert any('"# Samples": "6"' in line for line in set(after) - set(before))
