"""Roofline points against an independent computation from the raw metrics, the device's
ceilings, the headroom list, and the PNG."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from ncu_support import CNN, MLP
from paths_support import DATA, H200_REPORT, data_path

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.ncu import Profile
from kernelscope.core.ncu.csv_text import parse_number, to_base
from kernelscope.core.roofline import headroom, render_png, roofline
from kernelscope.core.roofline.model import Ceilings
from kernelscope.core.workspace import Workspace

SMALL_H200 = H200_REPORT
TRANSFORMER = [
    data_path("ncu/transformer/raw.csv"),
    data_path("ncu/transformer/details.csv"),
]
WS = DATA / "ws_ops"


def _raw(path: Path) -> dict[int, dict[str, float]]:
    """Every numeric cell of a raw page in base units, by result ID (plain csv module)."""
    rows = list(csv.reader(path.read_text(encoding="utf-8").splitlines()))
    header, units = rows[0], rows[1]
    out = {}
    for row in rows[2:]:
        values = {}
        for name, unit, cell in zip(header, units, row, strict=True):
            try:
                number = parse_number(cell)
            except ValueError:
                continue
            if number is not None:
                values[name] = to_base(number, unit)[0]
        out[int(row[0])] = values
    return out


@pytest.mark.parametrize("model", [MLP, CNN])
def test_points_equal_an_independent_computation_from_the_raw_page(model: Path) -> None:
    roof = roofline(Profile.open(model / f"{model.name}.ncu-rep"))
    raw = _raw(model / "raw.csv")
    assert roof.launches
    for p in roof.launches:
        r = raw[p.launch_ids[0]]
        cycles = r["smsp__cycles_elapsed.avg"]
        fp32 = (
            r["smsp__sass_thread_inst_executed_op_fadd_pred_on.sum.per_cycle_elapsed"]
            + r["smsp__sass_thread_inst_executed_op_fmul_pred_on.sum.per_cycle_elapsed"]
            + r["derived__smsp__sass_thread_inst_executed_op_ffma_pred_on_x2"]
        ) * cycles
        assert p.flops["fp32"] == pytest.approx(fp32, rel=1e-5, abs=1.0)
        # DRAM bytes: the read and write counters, not the rate the point is made from
        dram = r["dram__bytes_read.sum"] + r["dram__bytes_write.sum"]
        assert p.bytes["dram"] == pytest.approx(dram, rel=1e-4)
        assert p.duration_ns == pytest.approx(r["gpu__time_duration.sum"], rel=1e-6)
        # achieved work the way Nsight's chart computes it: rate x SM clock
        clock = r["smsp__cycles_elapsed.avg.per_second"]
        rate = fp32 / cycles * clock
        assert p.flops["fp32"] / p.elapsed_ns * 1e9 == pytest.approx(rate, rel=1e-5, abs=1.0)
        if fp32:
            assert p.intensity("dram") == pytest.approx(p.total_flops / dram, rel=1e-4)
        l2 = r["derived__lts__lts2xbar_bytes.sum.per_second"] * r["gpu__time_duration.sum"] * 1e-9
        assert p.bytes["l2"] == pytest.approx(l2, rel=1e-4)


def test_ceilings_are_the_h200s() -> None:
    roof = roofline(Profile.open(MLP / "mlp.ncu-rep"))
    c = roof.ceilings
    assert c.source == "measured peaks" and c.device == "NVIDIA H200"
    # 132 SMs x 128 FP32 lanes x 2 FLOP x ~1.98 GHz; HBM3e 4.8 TB/s
    assert c.compute["fp32"] == pytest.approx(67e12, rel=0.02)
    assert c.compute["fp64"] == pytest.approx(c.compute["fp32"] / 2, rel=1e-6)
    assert c.bandwidth["dram"] == pytest.approx(4.8e12, rel=0.01)
    assert c.bandwidth["dram"] < c.bandwidth["l2"] < c.bandwidth["l1"]
    # the same device described by its attributes alone
    from kernelscope.core.roofline.model import numbers

    profile = Profile.open(MLP / "mlp.ncu-rep")
    attrs = Ceilings.from_device(numbers(profile.launch_metrics(0)))
    assert attrs.bandwidth["dram"] == pytest.approx(c.bandwidth["dram"], rel=0.01)
    assert attrs.compute["fp32"] == pytest.approx(c.compute["fp32"], rel=0.02)


def test_a_kernels_point_is_its_launches_added_up() -> None:
    profile = Profile.open(TRANSFORMER)
    roof = roofline(profile, "layer_norm_kernel")
    (point,) = roof.points
    assert len(roof.launches) == 2 and point.launch_ids == [15, 18]
    assert point.total_flops == pytest.approx(sum(p.total_flops for p in roof.launches))
    assert point.bytes["dram"] == pytest.approx(sum(p.bytes["dram"] for p in roof.launches))
    assert point.duration_ns == pytest.approx(sum(p.duration_ns for p in roof.launches))
    assert point.bound == "dram"
    assert point.roofline_time_ns == pytest.approx(
        point.bytes["dram"] / point.ceilings.bandwidth["dram"] * 1e9, rel=1e-9
    )


def test_a_report_without_roofline_sections_says_so_and_keeps_device_ceilings() -> None:
    roof = roofline(Profile.open(SMALL_H200))
    assert not roof.available
    assert all(p.missing for p in roof.points)
    assert "--section SpeedOfLight_RooflineChart" in roof.note and "--set full" in roof.note
    assert roof.ceilings.source == "device attributes"
    assert roof.ceilings.bandwidth["dram"] == pytest.approx(4.8e12, rel=0.01)
    with pytest.raises(KernelscopeError, match="SpeedOfLight_RooflineChart"):
        render_png(roof, Path("never-written.png"))


def test_csv_details_page_alone_points_to_the_raw_page() -> None:
    roof = roofline(Profile.open(MLP / "details.csv", use_cache=False))
    assert not roof.available and "--page raw" in roof.note


def test_headroom_sorted_by_savings_with_operator_times() -> None:
    profile = Profile.open(MLP / "mlp.ncu-rep")
    h = headroom(profile, Workspace.open(WS / "mlp"))
    savings = [r.savings_ns for r in h.rows]
    assert savings == sorted(savings, reverse=True)
    top = h.rows[0]
    assert top.kernel == "fused_matmul1_add1_kernel"
    c = h.ceilings
    flops = 2 * 32 * 4096 * 1000 + 32 * 1000  # matmul + bias add
    moved = 4 * (32 * 4096 + 4096 * 1000 + 1000 + 32 * 1000)  # x, W, bias, out
    expected = max(flops / c.compute["fp32"], moved / c.bandwidth["dram"]) * 1e9
    assert top.operator_ns == pytest.approx(expected, rel=1e-9)
    assert top.operator_bound == "compute"
    assert top.savings_ns == pytest.approx(top.measured_ns - top.operator_ns)
    assert top.roofline_ns is not None and top.roofline_ns < top.measured_ns
    assert top.ops[0] == "matmul [32,4096] x [4096,1000] -> [32,1000]"
    assert h.savings_ns == pytest.approx(sum(savings))


def test_headroom_says_why_the_operator_column_is_empty() -> None:
    profile = Profile.open(MLP / "mlp.ncu-rep")
    h = headroom(profile, Workspace.open(DATA / "ws_mlp"))  # hand-made, no operator facts
    assert all(r.operator_ns is None for r in h.rows)
    assert any("no operator shapes" in n for n in h.notes)
    assert all("no operator shapes" in r.note for r in h.rows)
    # savings fall back to the roofline time
    assert all(r.savings_ns == pytest.approx(r.measured_ns - r.roofline_ns) for r in h.rows)
    h = headroom(profile, None)
    assert any("no workspace given" in n for n in h.notes)


def test_headroom_lists_kernels_never_launched_last() -> None:
    h = headroom(Profile.open(SMALL_H200), Workspace.open(WS / "small_cnn"))
    launched = [r.launched for r in h.rows]
    assert launched == sorted(launched, reverse=True)
    idle = [r for r in h.rows if not r.launched]
    assert {r.kernel for r in idle} == {"reshape_kernel", "reshape1_kernel"}
    assert all("never launched" in r.note for r in idle)
    conv = next(r for r in h.rows if r.kernel == "fused_conv2d_add_relu_kernel")
    assert conv.roofline_ns is None and conv.operator_ns is not None  # device ceilings
    assert any("device attributes" in n for n in h.notes)


def test_png_is_drawn(tmp_path: Path) -> None:
    from PIL import Image

    out = render_png(roofline(Profile.open(TRANSFORMER)), tmp_path / "roof.png")
    image = Image.open(out)
    assert image.size == (1200, 700)
    colours = image.convert("RGB").getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 50  # lines, points, text: not blank
    one = render_png(
        roofline(Profile.open(TRANSFORMER), "layer_norm_kernel"),
        tmp_path / "one.png",
        kernel="layer_norm_kernel",
        dark=True,
    )
    assert Image.open(one).getpixel((5, 5))[0] < 60  # dark background
