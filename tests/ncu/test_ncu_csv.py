"""CSV export parsing: the splitter, numbers, units, page detection, header variants, joins."""

from __future__ import annotations

from pathlib import Path

import pytest
from ncu_support import CNN, MLP, MLP_KERNELS, SMALL

from kernelscope.core.ncu.csv_merge import import_csvs
from kernelscope.core.ncu.csv_pages import read_source_cuda, read_source_sass
from kernelscope.core.ncu.csv_text import (
    Page,
    base_name,
    kernel_key,
    parse_number,
    read_csv,
    split_source_row,
    to_base,
)
from kernelscope.core.ncu.metrics import STALLS_ALL, by_label


def test_splitter_rejoins_unescaped_quotes_into_the_source_column() -> None:
    assert split_source_row('"1","#include "../tvm_prelude.cuh""', 2, 1) == [
        "1",
        '#include "../tvm_prelude.cuh"',
    ]
    row = '"37","printf("a","b");","0x10","      NOP","5"'
    assert split_source_row(row, 5, 1) == ["37", 'printf("a","b");', "0x10", "      NOP", "5"]
    assert split_source_row('"Kernel Name","scale(float *, float, int)",', 2, 1) == [
        "Kernel Name",
        "scale(float *, float, int)",
    ]
    assert split_source_row("==PROF== Disconnected", 2, 1) == ["==PROF== Disconnected"]


def test_splitter_on_every_row_of_the_real_source_views() -> None:
    files = read_source_cuda(read_csv(MLP / "source_cuda.csv"))
    text = files[next(p for p in files if p.endswith("transpose_kernel.cu"))]
    assert text == (MLP_KERNELS / "transpose_kernel.cu").read_text(encoding="utf-8")
    for name in ("softmax_kernel", "fused_matmul_add_relu_kernel"):
        path = next(p for p in files if p.endswith(f"{name}.cu"))
        assert files[path] == (MLP_KERNELS / f"{name}.cu").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("token", "value"),
    [
        ("57,189", 57189.0),
        ("3,190,120,824.45", 3190120824.45),
        ("16384.000000", 16384.0),
        ("0", 0.0),
        ("", None),
        ("-", None),
        ("n/a", None),
        ("no data", None),
    ],
)
def test_numbers(token: str, value: float | None) -> None:
    assert parse_number(token) == value


def test_text_is_not_a_number() -> None:
    with pytest.raises(ValueError):
        parse_number("Global")


@pytest.mark.parametrize(
    ("value", "unit", "base"),
    [
        (28.61, "us", (28610.0, "ns")),
        (15008, "ns", (15008.0, "ns")),
        (6.91, "Kbyte/block", (6910.0, "byte/block")),
        (3.19, "Ghz", (3.19e9, "hz")),
        (1.2, "Tbyte/s", (1.2e12, "byte/s")),
        (70.3, "%", (70.3, "%")),
    ],
)
def test_units_to_base(value: float, unit: str, base: tuple[float, str]) -> None:
    got = to_base(value, unit)
    assert got[0] == pytest.approx(base[0]) and got[1] == base[1]


@pytest.mark.parametrize(
    ("name", "page"),
    [
        ("details.csv", Page.DETAILS),
        ("raw.csv", Page.RAW),
        ("session.csv", Page.SESSION),
        ("source_sass.csv", Page.SOURCE_SASS),
        ("source_cuda.csv", Page.SOURCE_CUDA),
        ("source_cuda_sass.csv", Page.SOURCE_CUDA_SASS),
    ],
)
def test_pages_detected_from_content(tmp_path: Path, name: str, page: Page) -> None:
    # a neutral name and ncu's own chatter in front: only the content can tell
    odd = tmp_path / "export.txt"
    text = (MLP / name).read_text(encoding="utf-8")
    odd.write_text("==PROF== Connected to process 1\napp says hello\n" + text, encoding="utf-8")
    assert read_csv(odd).page is page


def test_kernel_names_from_different_pages_join() -> None:
    demangled = "void scale_add<256>(const float *, const float *, float *, int, float)"
    source = "scale_add<(int)256>(const float *, const float *, float *, int, float)"
    assert kernel_key(demangled) == kernel_key(source)
    assert base_name(demangled) == "scale_add"
    assert base_name("softmax_kernel") == "softmax_kernel"


def test_old_header_variants(tmp_path: Path) -> None:
    """ncu 2021: 'Kernel Time', no grid/block columns, NVTX columns; older sampling labels."""
    details = tmp_path / "old.csv"
    details.write_text(
        '"ID","Process ID","Process Name","Host Name","thread Domain:Push/Pop_Range:PL_Type:'
        'PL_Value:CLR_Type:Color:Msg_Type:Msg","Id:Domain:Start/Stop_Range:PL_Type:PL_Value:'
        'CLR_Type:Color:Msg_Type:Msg","Kernel Name","Kernel Time","Context","Stream",'
        '"Section Name","Metric Name","Metric Unit","Metric Value","Rule Name","Rule Type",'
        '"Rule Description"\n'
        '"0","1","app","h","1  ""<default domain>:phase1"" ","","void scale_add<256>(const '
        'float *, int)","2020-Apr-07 17:01:05","1","7","GPU Speed Of Light","Duration",'
        '"msecond","0.02",\n'
        '"0","1","app","h","","","void scale_add<256>(const float *, int)","2020-Apr-07 '
        '17:01:05","1","7","SOL","","","","SOLBottleneck","WRN","Small grid."\n',
        encoding="utf-8",
    )
    sass = tmp_path / "src.csv"
    sass.write_text(
        '"Kernel Name","scale_add<(int)256>(const float *, int)",\n'
        '"Address","Source","Warp Stall Sampling (All Cycles)","Instructions Executed"\n'
        '"0x7f0000000000","      LDC R1, c[0x0][0x28]","12","1,024"\n'
        '"0x7f0000000010","      EXIT","3","1,024"\n',
        encoding="utf-8",
    )
    data = import_csvs([details, sass])
    (launch,) = data.launches
    assert launch.name == "scale_add" and launch.grid is None
    assert launch.duration_ns == pytest.approx(20000.0)  # 0.02 msecond
    assert launch.rules[0].kind == "WRN" and launch.rules[0].speedup_pct is None
    table = data.tables[0]
    assert table.offsets.tolist() == [0, 16]
    assert table.metric(STALLS_ALL).tolist() == [12.0, 3.0]
    assert table.metric("inst_executed").tolist() == [1024.0, 1024.0]
    assert by_label("Sampling Data (All)").key == STALLS_ALL


def test_duplicated_blocks_are_dropped_but_relaunches_kept() -> None:
    blocks = read_source_sass(read_csv(SMALL / "lineinfo_source_sass.csv"))
    assert [b.kernel.split("(")[0] for b in blocks] == ["scale", "row_sum", "scale"]
    assert blocks[0].addresses == blocks[2].addresses
    assert not blocks[2].repeats(blocks[0])  # sampled stalls differ between launches


def test_per_kernel_column_sets() -> None:
    data = import_csvs([CNN / "details.csv", CNN / "source_sass.csv"])
    columns = [set(t.numbers) | set(t.categories) for t in data.tables.values()]
    assert len({frozenset(c) for c in columns}) > 1  # not every kernel has the same columns
    for t in data.tables.values():
        assert len(t.sass) == len(t.offsets) and t.sass[0].strip().startswith("LDC")


def test_source_only_exports_make_their_own_launch_list() -> None:
    data = import_csvs([MLP / "source_cuda_sass.csv"])
    assert [x.name for x in data.launches] == [
        "transpose_kernel",
        "fused_matmul_add_relu_kernel",
        "transpose1_kernel",
        "fused_matmul1_add1_kernel",
        "softmax_kernel",
    ]
    assert all(x.has_source_metrics for x in data.launches)
