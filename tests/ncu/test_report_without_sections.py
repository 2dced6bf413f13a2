"""A launch read without its section definitions (``rep.decoded.read_launch``, what the
kernel list's first look and every later read use) answers as the whole message does: same
kernel list, totals, Details metrics, sections, rules and markers, on every real report in
tests/data; and Details after a first look gets everything NVIDIA's reader gives."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from paths_support import DATA, H200_REPORT, data_path

from kernelscope.core.ncu.detail_metrics import METRIC_NAMES
from kernelscope.core.ncu.rep.container import ReportFile
from kernelscope.core.ncu.rep.decoded import DecodedLaunch, Layout, layout, read_launch
from kernelscope.core.ncu.report import ReportReader, _launch, _per_pc_arrays, _totals_row

REPORTS = sorted(p for p in DATA.rglob("*.ncu-rep") if p.parent.name != "bad") + [
    DATA / "bad" / "truncated.ncu-rep"
]


def _no_text(name: str) -> None:
    return None


def _same(a: object, b: object) -> None:
    """Equal, where numpy arrays (per-PC values, a totals row's columns) compare by value."""
    if isinstance(a, dict) and isinstance(b, dict):
        assert a.keys() == b.keys()
        for key in a:
            _same(a[key], b[key])
    elif isinstance(a, tuple) and isinstance(b, tuple):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            _same(x, y)
    elif isinstance(a, np.ndarray):
        assert np.array_equal(a, b, equal_nan=True)
    elif hasattr(a, "numbers") and hasattr(b, "numbers"):  # an InstructionTable
        _same(a.numbers, b.numbers)
        assert np.array_equal(a.offsets, b.offsets) and a.locations == b.locations
    else:
        assert a == b


def _answers(launch_id: int, a: DecodedLaunch) -> dict[str, object]:
    names = METRIC_NAMES
    start = a.scalar("launch__function_pcs")
    return {
        "kernel list": _launch(launch_id, a),
        "totals": _totals_row(a),
        "per pc": _per_pc_arrays(a),
        "records": {n: a.record(n) for n in names},
        "scalars": {n: a.scalar(n) for n in names},
        "totals by metric": {n: a.total(n) for n in names},
        "sections": a.sections(),
        "rules": a.rules(),
        "markers": a.markers(int(start) if isinstance(start, int) else None),
    }


@pytest.mark.parametrize("report", REPORTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_launch_read_without_its_sections_answers_as_the_whole_message(report: Path) -> None:
    with ReportFile(report) as file:
        names = file.names
        for i in range(len(file)):
            whole = file.result(i)
            read = read_launch(file, i)
            if whole is None:
                assert read is None  # a truncated report's cut launch
                continue
            assert read is not None
            buf, where = read
            full = layout(whole, len(names))
            assert not full.cut and full.sections == where.sections
            assert len(buf) + sum(b - a for a, b in where.cut) == len(whole)
            for k in range(len(names)):  # every metric's bytes, wherever they are
                a, b = full.metric(k), where.metric(k)
                assert (a is None) == (b is None)
                assert a is None or b is None or whole[a[0] : a[1]] == buf[b[0] : b[1]]
            expected = _answers(i, DecodedLaunch(whole, file.ids, full, _no_text))
            _same(_answers(i, DecodedLaunch(buf, file.ids, where, _no_text)), expected)
            again = read_launch(file, i, where)  # a later read, its layout known
            assert again is not None and bytes(again[0]) == bytes(buf)


def test_a_set_full_launch_is_read_without_most_of_its_bytes() -> None:
    """Section definitions are 55-70 % of a ``--set full`` launch's message; the reader
    leaves them in the file and keeps only their identifiers."""
    with ReportFile(data_path("ncu/mlp/mlp.ncu-rep")) as file:
        for i in range(len(file)):
            read = read_launch(file, i)
            assert read is not None
            buf, where = read
            assert len(buf) < 0.5 * file.result_size(i)
            assert len(where.cut) == 1 and len(where.sections) > 10
            assert all(isinstance(s, str) and s for s in where.sections)


@pytest.mark.parametrize(
    "report",
    [data_path("ncu/mlp/mlp.ncu-rep"), H200_REPORT],
    ids=lambda p: p.name,
)
def test_details_after_a_first_look_get_all_ncu_report_gives(report: Path) -> None:
    """The first look (kernel list with totals) reads each launch without its section
    definitions and keeps its layout; Details of every launch, read afterwards through that
    layout, are NVIDIA's reader's in full (values, units, descriptions, sections, markers)."""
    reader, nvidia = ReportReader(report), ReportReader(report, decode=False)
    launches = reader.launches(totals=True)
    assert launches == nvidia.launches()
    layouts: dict[int, Layout] = reader._layouts
    assert sorted(layouts) == [x.id for x in launches] and all(w.cut for w in layouts.values())
    for x in launches:
        details = reader.metrics(x.id, METRIC_NAMES)
        assert details == nvidia.metrics(x.id, METRIC_NAMES)
        assert details.sections and details.values
        assert details.descriptions or x.id  # read once per report, with the first
        assert reader._layouts[x.id] is layouts[x.id]  # not walked again


def test_a_section_whose_identifier_is_not_first_is_read_whole() -> None:
    """Only a section's first bytes are read for its identifier when that is its first
    field (every report seen); else all of it, and the identifier is the first field 1."""
    from kernelscope.core.ncu.rep.decoded import _HEAD, _section_head, _section_id

    pad = b"\x12\x90\x03" + b"x" * 400  # field 2, 400 bytes
    later = pad + b"\x0a\x05Later" + b"\x1a\x03abc"
    first = b"\x0a\x05First" + pad
    asked: list[tuple[int, int]] = []

    def read(body: bytes) -> Callable[[int, int], bytes]:
        def part(at: int, n: int) -> bytes:
            asked.append((at, n))
            return body[at : at + n]

        return part

    head = _section_head(read(first), 0, len(first))
    assert asked == [(0, _HEAD)] and _section_id(head, 0, len(head)) == "First"
    asked.clear()
    whole = _section_head(read(later), 0, len(later))
    assert asked == [(0, _HEAD), (0, len(later))] and _section_id(whole, 0, len(whole)) == "Later"
    assert _section_id(pad, 0, len(pad)) is None
