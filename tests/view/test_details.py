"""One kernel's Details: the numbers NVIDIA's reader and the CSV exports give, launches
combined the kernelscope way, and what is said when sections are missing."""

from __future__ import annotations

import csv
from pathlib import Path

import ncu_report
import pytest
from ncu_support import CNN, MLP
from paths_support import H200_REPORT, data_path

from kernelscope.core.ncu import Profile, kernel_details
from kernelscope.core.ncu.csv_text import parse_number, to_base

SMALL_H200 = H200_REPORT
TRANSFORMER = data_path("ncu/transformer")


def _ncu_value(action, name: str):
    m = action.metric_by_name(name)
    if m.num_instances() == 1:
        return m.value(0)
    return m.value() if m.has_value() else None


@pytest.mark.parametrize("report", [MLP / "mlp.ncu-rep", CNN / "cnn.ncu-rep"])
def test_every_number_is_what_nvidias_reader_returns(report: Path) -> None:
    profile = Profile.open(report)
    ctx = ncu_report.load_report(str(report))
    checked = 0
    for launch in profile.launches:
        action = ctx.range_by_idx(0).action_by_idx(launch.id)
        details = kernel_details(profile, launch.name, launch=launch.id)
        for view in details.views:
            for m in view.rows + [m for rows in view.groups.values() for m in rows]:
                if m.name.startswith(("kernelscope__", "sass__inst_executed_per_opcode:")):
                    continue
                expected = _ncu_value(action, m.name)
                assert m.value == expected, (launch.id, m.name)
                metric = action.metric_by_name(m.name)
                assert m.description == (metric.description() or ""), m.name
                assert m.unit == metric.unit()
                checked += 1
        opcodes = dict((m.label, m.value) for m in details.view("instructions").groups["opcodes"])
        hist = action.metric_by_name("sass__inst_executed_per_opcode")
        ids = hist.correlation_ids()
        truth = {ids.value(i): hist.value(i) for i in range(hist.num_instances())}
        assert opcodes == {k: v for k, v in truth.items() if v > 0}
    assert checked > 150 * len(profile.launches)


def _raw_rows(path: Path) -> tuple[list[str], list[str], list[list[str]]]:
    rows = list(csv.reader(path.read_text(encoding="utf-8").splitlines()))
    return rows[0], rows[1], rows[2:]


def test_csv_details_are_the_raw_pages_cells_and_the_reports_numbers() -> None:
    from_csv = Profile.open([MLP / "raw.csv", MLP / "details.csv"], use_cache=False)
    from_report = Profile.open(MLP / "mlp.ncu-rep")
    header, units, rows = _raw_rows(MLP / "raw.csv")
    col = {name: i for i, name in enumerate(header)}
    for launch in from_csv.launches:
        a = kernel_details(from_csv, launch.name, launch=launch.id)
        b = kernel_details(from_report, launch.name, launch=launch.id)
        assert a.source == "raw" and b.source == "report"
        row = next(r for r in rows if r[0] == str(launch.id))
        for name, m in a.metrics.items():
            cell = row[col[name]]
            try:
                number = parse_number(cell)
            except ValueError:
                assert m.value == cell.strip()
                continue
            assert m.value == pytest.approx(to_base(number, units[col[name]])[0], rel=1e-12)
            truth = b.metrics[name].value
            if isinstance(truth, int | float) and not name.startswith("launch__occupancy_per"):
                # the raw page prints 6 decimals, some values only 2
                assert m.value == pytest.approx(truth, rel=1e-5, abs=5e-3), name
        assert not a.metric("gpu__time_duration.sum").description  # CSVs carry none
        assert [v.key for v in a.views if v.available] == [v.key for v in b.views if v.available]


def test_launches_combine_sums_weighted_means_and_configuration() -> None:
    profile = Profile.open([TRANSFORMER / "raw.csv", TRANSFORMER / "details.csv"])
    header, units, rows = _raw_rows(TRANSFORMER / "raw.csv")
    col = {name: i for i, name in enumerate(header)}
    mine = [r for r in rows if r[col["Kernel Name"]] == "take1_kernel"]
    assert len(mine) == 3

    def cells(name: str) -> list[float]:
        i = col[name]
        return [to_base(parse_number(r[i]), units[i])[0] for r in mine]

    d = kernel_details(profile, "take1_kernel")
    assert d.launch_ids == [3, 5, 7]
    durations = cells("gpu__time_duration.sum")
    assert d.duration_ns == pytest.approx(sum(durations))
    assert d.value("gpu__time_duration.sum") == pytest.approx(sum(durations))
    assert d.value("dram__bytes_read.sum") == pytest.approx(sum(cells("dram__bytes_read.sum")))
    rate = "sm__throughput.avg.pct_of_peak_sustained_elapsed"
    weighted = sum(v * w for v, w in zip(cells(rate), durations, strict=True)) / sum(durations)
    assert d.value(rate) == pytest.approx(weighted)
    assert min(cells(rate)) < d.value(rate) < max(cells(rate))
    grid = d.metric("launch__grid_size")
    assert grid.value == 128 and not grid.varies
    one = kernel_details(profile, "take1_kernel", launch=5)
    assert one.duration_ns == pytest.approx(durations[1])


def test_a_report_with_a_handful_of_sections_says_what_is_missing_and_the_flag() -> None:
    profile = Profile.open(SMALL_H200)
    d = kernel_details(profile, "fused_conv2d_add_relu_kernel")
    assert d.sections == [
        "LaunchStats",
        "Occupancy",
        "SourceCounters",
        "SpeedOfLight",
        "WarpStateStats",
    ]
    compute = d.view("compute")
    assert not compute.available
    assert compute.missing == ["ComputeWorkloadAnalysis"]
    assert "--section ComputeWorkloadAnalysis" in compute.note and "--set full" in compute.note
    memory = d.view("memory")
    assert memory.missing == ["MemoryWorkloadAnalysis", "MemoryWorkloadAnalysis_Tables"]
    assert "--section MemoryWorkloadAnalysis_Tables" in memory.note
    for key in ("launch", "sol", "warp_state", "occupancy", "source"):
        assert d.view(key).available and not d.view(key).missing, key
    assert "ComputeWorkloadAnalysis" in d.missing_sections
    stalls = d.view("warp_state").groups["stalls"]
    assert stalls[0].label == "long_scoreboard"
    assert [s.value for s in stalls] == sorted((s.value for s in stalls), reverse=True)


def test_occupancy_limiter_and_curves() -> None:
    d = kernel_details(Profile.open(MLP / "mlp.ncu-rep"), "fused_matmul_add_relu_kernel")
    occ = d.view("occupancy")
    limiter = next(m for m in occ.rows if m.label == "Occupancy Limiter")
    assert limiter.value == "Registers"  # 8 blocks by registers, 16 by warps, 17 by smem
    curves = {c.metric: c for c in occ.curves}
    regs = curves["launch__occupancy_per_register_count"]
    assert regs.current == 64
    warps_at = dict(regs.points)
    assert warps_at[64] == 32 and warps_at[32] == 64  # halving registers doubles the warps
    theoretical = d.value("sm__maximum_warps_avg_per_active_cycle")
    assert warps_at[regs.current] == theoretical


def test_details_page_alone_has_the_header_numbers_rounded_and_says_raw_page() -> None:
    profile = Profile.open(MLP / "details.csv", use_cache=False)
    d = kernel_details(profile, "softmax_kernel")
    assert d.source == "details"
    assert d.value("gpu__time_duration.sum") == pytest.approx(2816, abs=10)  # "2.82 us"
    assert d.view("sol").available and d.view("launch").available
    stalls = d.view("warp_state")
    assert stalls.rows and not stalls.groups["stalls"]
    assert "raw page" in stalls.note and "--page raw" in stalls.note
    assert d.rules, "the details page carries the rule results"


def test_rules_and_source_markers_point_into_the_kernel() -> None:
    profile = Profile.open(MLP / "mlp.ncu-rep")
    d = kernel_details(profile, "fused_matmul1_add1_kernel")
    assert any(r.rule == "UncoalescedGlobalAccess" for r in d.markers)
    table = profile.instructions("fused_matmul1_add1_kernel")
    offsets = set(table.offsets.tolist())
    sass = [m for m in d.markers if m.offset is not None]
    lines = [m for m in d.markers if m.file is not None]
    assert sass and lines
    assert all(m.offset in offsets for m in sass)
    assert all(m.file.endswith("fused_matmul1_add1_kernel.cu") for m in lines)
    assert any(r.speedup_pct for r in d.rules)


def test_a_kernel_without_launches_is_a_clear_error() -> None:
    from kernelscope.core.errors import KernelscopeError

    profile = Profile.open(SMALL_H200)
    with pytest.raises(KernelscopeError, match="no kernel 'reshape1_kernel'"):
        kernel_details(profile, "reshape1_kernel")


def test_format_value() -> None:
    from kernelscope.core.ncu import format_value

    assert format_value(63840.0, "ns") == "63.84 us"
    assert format_value(16933888.0, "byte") == "16.93 MB"
    assert format_value(1.98e9, "hz") == "1.98 GHz"
    assert format_value(2.65e11, "byte/s") == "265.00 GB/s"
    assert format_value(7.7596, "%") == "7.76 %"
    assert format_value(None, "ns") == "-"
    assert format_value("CachePreferNone", "") == "CachePreferNone"


def test_every_stall_reason_of_a_line_and_of_an_instruction() -> None:
    from kernelscope.core.ncu import first_and_hottest, stall_breakdown
    from kernelscope.core.ncu.metrics import STALL_REASONS, stall_key
    from kernelscope.core.view.from_profile import document_from_profile

    profile = Profile.open(MLP / "mlp.ncu-rep")
    kernel = "fused_matmul1_add1_kernel"
    table = profile.instructions(kernel)
    lines = profile.lines(kernel)
    (loc, lm) = max(lines.items(), key=lambda kv: kv[1].get("smsp__pcsamp_sample_count"))
    # from the aggregated line and from the line's instructions one by one: the same
    by_line = stall_breakdown([lm.values])
    rows = [table.row(o) for o in lm.offsets]
    by_rows = stall_breakdown(rows)
    assert [(s.reason, s.samples) for s in by_line.reasons] == [
        (s.reason, s.samples) for s in by_rows.reasons
    ]
    truth = {r: sum(row.get(stall_key(r), 0.0) for row in rows) for r in STALL_REASONS}
    assert {s.reason: s.samples for s in by_rows.reasons} == {r: v for r, v in truth.items() if v}
    assert by_rows.total == pytest.approx(sum(truth.values()))
    assert sum(s.share for s in by_rows.reasons) == pytest.approx(1.0)
    assert len(by_rows.reasons) > 3  # all of them, not the top three
    assert by_rows.top.reason == lm.stalls(1)[0][0]
    # the view's per-instruction metrics (keyed by Source-page label) give the same
    view = document_from_profile(profile).kernel(kernel)
    indices = view.instructions_at(*loc)
    by_view = stall_breakdown([view.instruction_metrics[i] for i in indices])
    assert by_view.total == pytest.approx(by_rows.total)
    # one instruction, and where to scroll for the line
    first, hottest = first_and_hottest(indices, [view.instruction_metrics[i] for i in indices])
    assert first == min(indices)
    hot_offset = view.instructions[hottest].offset
    samples = {o: table.row(o).get("smsp__pcsamp_sample_count", 0.0) for o in lm.offsets}
    assert samples[hot_offset] == max(samples.values())
    one = stall_breakdown([table.row(hot_offset)])
    assert one.instructions == 1 and one.total == pytest.approx(samples[hot_offset])
    assert first_and_hottest([], []) == (None, None)
