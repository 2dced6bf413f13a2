"""The strongest check: a report and its CSV exports must tell the same story.

The ``.ncu-rep`` is read through ncu_report (exact values, absolute PCs), the CSVs through
kernelscope's own parsers; the ``cuda,sass`` export also carries Nsight Compute's own per-line
aggregates, which the per-line numbers computed from instructions must reproduce.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from ncu_support import CNN, CNN_CSVS, MLP, MLP_CSVS, SMALL

from kernelscope.core.ncu import Profile
from kernelscope.core.ncu import aggregate as agg
from kernelscope.core.ncu.csv_merge import import_csvs
from kernelscope.core.ncu.csv_text import MISSING, parse_number
from kernelscope.core.ncu.metrics import INST_EXECUTED, SAMPLES, Kind, by_label

CASES = {
    "mlp": (MLP / "mlp.ncu-rep", MLP_CSVS),
    "cnn": (CNN / "cnn.ncu-rep", CNN_CSVS),
    "small": (
        SMALL / "lineinfo.ncu-rep",
        [SMALL / f"lineinfo_{p}.csv" for p in ("details", "source_sass", "source_cuda_sass")],
    ),
}


@pytest.fixture(scope="module", params=sorted(CASES))
def pair(request: pytest.FixtureRequest) -> tuple[Profile, Profile]:
    report, csvs = CASES[request.param]
    return Profile.open(report, use_cache=False), Profile.open(csvs, use_cache=False)


def test_same_kernel_list(pair: tuple[Profile, Profile]) -> None:
    rep, csv = pair
    assert [x.name for x in rep.launches] == [x.name for x in csv.launches]
    assert len(rep.launches) >= 3
    for a, b in zip(rep.launches, csv.launches, strict=True):
        assert (a.id, a.grid, a.block, a.cc) == (b.id, b.grid, b.block, b.cc)
        assert a.registers == b.registers
        # the details page rounds (Kbyte/block with 2 decimals, us with 2 decimals)
        assert b.shared_static_bytes == pytest.approx(a.shared_static_bytes, abs=10)
        for field in ("duration_ns", "sm_throughput_pct", "memory_throughput_pct"):
            assert getattr(b, field) == pytest.approx(getattr(a, field), rel=5e-3), field
        assert b.achieved_occupancy_pct == pytest.approx(a.achieved_occupancy_pct, rel=5e-3)
        assert b.function_start == a.function_start  # lowest address on the sass page


def test_same_rules(pair: tuple[Profile, Profile]) -> None:
    rep, csv = pair
    for a, b in zip(rep.launches, csv.launches, strict=True):
        key = lambda r: (r.rule, r.kind, r.message)  # noqa: E731
        ra, rb = sorted(a.rules, key=key), sorted(b.rules, key=key)
        assert [key(r) for r in ra] == [key(r) for r in rb]
        for x, y in zip(ra, rb, strict=True):
            assert x.speedup_type == y.speedup_type
            if x.speedup_pct is None:
                assert y.speedup_pct is None
            else:
                assert y.speedup_pct == pytest.approx(x.speedup_pct, rel=2e-3, abs=0.01)


def test_same_per_line_numbers(pair: tuple[Profile, Profile]) -> None:
    rep, csv = pair
    compared = 0
    for k in rep.kernels():
        a, b = rep.lines(k.name), csv.lines(k.name)
        own = {loc for loc in b if loc[0] in rep.source_files(k.name)}
        assert set(a) == own, k.name
        for loc in own:
            for key in set(a[loc].values) | set(b[loc].values):
                x, y = a[loc].values.get(key, 0.0), b[loc].values.get(key, 0.0)
                assert x == pytest.approx(y, rel=1e-9, abs=1e-9), (k.name, loc, key)
                compared += 1
            assert a[loc].categories == b[loc].categories, (k.name, loc)
    assert compared > 500


def test_counts_match_ncus_own_line_rows() -> None:
    """Every count on every line (header lines included) equals the cuda,sass line rows."""
    data = import_csvs([MLP / "details.csv", MLP / "source_sass.csv", MLP / "source_cuda_sass.csv"])
    compared = 0
    for launch in data.launches:
        lines = agg.by_line(data.tables[launch.id])
        reported = data.reported_lines[launch.id]
        assert set(lines) == set(reported)
        for loc, row in reported.items():
            for label, cell in row.items():
                metric = by_label(label)
                if metric is None or cell in MISSING:
                    continue
                if metric.kind is Kind.COUNT:
                    assert lines[loc].values.get(metric.key, 0.0) == parse_number(cell), label
                elif metric.kind is Kind.CATEGORY:
                    assert lines[loc].categories.get(metric.key) == cell, (loc, label)
                compared += 1
    assert compared > 10000


def test_inlined_header_lines_are_known_from_csv_only() -> None:
    csv = Profile.open([MLP / "details.csv", MLP / "source_cuda_sass.csv"], use_cache=False)
    files = csv.source_files("softmax_kernel")
    assert files[0].endswith("softmax_kernel.cu")
    assert any(f.endswith("math_functions.hpp") for f in files[1:])
    rep = Profile.open(MLP / "mlp.ncu-rep", use_cache=False)
    assert rep.source_files("softmax_kernel") == files[:1]


@pytest.mark.parametrize("which", ["report", "csv"])
def test_line_sums_equal_kernel_totals(which: str) -> None:
    report, csvs = CASES["mlp"]
    profile = Profile.open(report if which == "report" else csvs, use_cache=False)
    for k in profile.kernels():
        own = profile.source_files(k.name)[0]
        totals = profile.totals(k.name).values
        lines = profile.lines(k.name, own)
        for key, total in totals.items():
            if by_label(key) is None and not key.startswith(("smsp__", "group:")):
                continue
            metric_kind = Kind.COUNT if by_label(key) is None else by_label(key).kind
            if metric_kind is not Kind.COUNT:
                continue
            assert sum(lm.values.get(key, 0.0) for lm in lines.values()) == total, key
        assert totals[INST_EXECUTED] > 0


def test_averages_are_weighted_not_summed() -> None:
    profile = Profile.open(MLP / "mlp.ncu-rep", use_cache=False)
    for k in profile.kernels():
        for lm in profile.lines(k.name).values():
            inst = lm.values[INST_EXECUTED]
            if inst == 0:
                continue
            expected = lm.values["thread_inst_executed"] / inst
            # ncu_report truncates the per-instruction average to whole threads
            assert lm.values["derived__avg_thread_executed"] == pytest.approx(expected, abs=1.0)
            assert lm.values["derived__avg_thread_executed"] <= 32


def test_several_launches_combined_and_one_by_one() -> None:
    profile = Profile.open(SMALL / "lineinfo.ncu-rep", use_cache=False)
    scale = profile.kernel("scale")
    assert [x.id for x in scale.launches] == [0, 2]
    both = profile.instructions("scale")
    one, two = (profile.instructions("scale", launch=i) for i in (0, 2))
    assert both is not None and one is not None and two is not None
    assert both.total(SAMPLES) == one.total(SAMPLES) + two.total(SAMPLES)
    assert both.total(INST_EXECUTED) == 2 * one.total(INST_EXECUTED)
    avg = both.metric("derived__avg_thread_executed")
    assert np.nanmax(avg) <= 32
    assert scale.duration_ns == pytest.approx(sum(x.duration_ns for x in scale.launches))
    # the CSV exports print each launch's block twice; the two launches must stay apart
    csv = Profile.open(CASES["small"][1], use_cache=False)
    assert [x.name for x in csv.launches] == ["scale", "row_sum", "scale"]
    c1, c2 = (csv.instructions("scale", launch=i) for i in (0, 2))
    assert c1.total(SAMPLES) == one.total(SAMPLES)
    assert c2.total(SAMPLES) == two.total(SAMPLES)


def test_offsets_are_relative_to_the_function_start() -> None:
    rep = Profile.open(MLP / "mlp.ncu-rep", use_cache=False)
    csv = Profile.open(MLP_CSVS, use_cache=False)
    for k in rep.kernels():
        a, b = rep.instructions(k.name), csv.instructions(k.name)
        assert int(a.offsets[0]) == 0 and int(b.offsets[0]) == 0
        assert set(a.offsets.tolist()) <= set(b.offsets.tolist())
        for off in a.offsets.tolist()[:50]:
            ra, rb = a.row(off), b.row(off)
            for key, value in ra.items():
                if isinstance(value, float) and not math.isnan(value):
                    assert rb.get(key, 0.0) == pytest.approx(value), (k.name, off, key)
        sass = rep.sass(k.name)  # the whole function, trailing NOP padding included
        assert sorted(sass) == b.offsets.tolist()
        assert sass[0] == b.sass[0]
