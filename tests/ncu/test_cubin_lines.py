"""A report's line tables from the cubins it embeds (issue 33 item 7): NVIDIA's reader's,
exactly, for every instruction of every report in tests/data, whatever workspace the report
comes with (its own, one rebuilt since, another build's, none), and NVIDIA's reader is not
loaded for them; a cubin without line info still goes to NVIDIA's reader."""

from __future__ import annotations

from pathlib import Path

import pytest
from paths_support import DATA, data_files, data_path

from kernelscope.core.ncu import Profile
from kernelscope.core.ncu.cubin_lines import cubin_lines, sections
from kernelscope.core.ncu.rep.container import ReportFile
from kernelscope.core.ncu.rep.nvidia import NvidiaReport
from kernelscope.core.ncu.report import ReportReader
from kernelscope.core.workspace import Workspace

REPORTS = [
    p for p in data_files("*.ncu-rep") if p.parent.name != "bad" and "nolineinfo" not in p.name
]
SMALL_CNN = data_path("h200/small_cnn_h200.ncu-rep")


def _reader_loaded(profile: Profile) -> bool:
    return profile._loader.reader._ctx is not None  # type: ignore[attr-defined]


@pytest.mark.parametrize("report", REPORTS, ids=lambda p: p.name)
def test_every_instruction_is_located_as_nvidias_reader_does(report: Path) -> None:
    file = ReportFile(report)
    nvidia = NvidiaReport(report)
    checked: set[tuple[int, str]] = set()
    for launch in ReportReader(report, nvidia=False).launches():
        module = file.module_of(launch.function_start)
        assert module is not None and launch.function_start is not None
        if (module, launch.mangled) in checked:
            continue
        checked.add((module, launch.mangled))
        cubin = file.cubin(module) or b""
        tables = cubin_lines(cubin)
        theirs = nvidia.launch(launch.id, texts=False)
        assert theirs is not None
        if tables is None:
            # a module built without line info (a library's, the runner's step marker): no
            # line table in its cubin, and none in NVIDIA's reader either
            found = sections(cubin)
            assert found is not None and ".debug_line" not in {s.name for s in found}
            assert all(
                theirs.source_info(launch.function_start + 16 * k) is None for k in range(64)
            )
            continue
        table = tables[launch.mangled]
        for offset, where in table.items():
            assert where == theirs.source_info(launch.function_start + offset), hex(offset)
    assert checked


def test_inlined_code_is_placed_at_its_call_site() -> None:
    """The small CNN's conv inlines math_functions.hpp: each such instruction answers with the
    line of the kernel's own file that called it, as NVIDIA's reader does."""
    with ReportFile(SMALL_CNN) as file:
        cubin = file.cubin(0)
    assert cubin is not None
    table = cubin_lines(cubin)["fused_conv2d_add_relu_kernel"]  # type: ignore[index]
    file, line = table[0x2340]  # type: ignore[misc]
    # the path of the machine that built it, as the report recorded it
    assert file.endswith("/src/kernels/fused_conv2d_add_relu_kernel.cu") and line == 1740
    assert not any("math_functions" in loc[0] for loc in table.values() if loc)


@pytest.mark.parametrize(
    ("report", "workspace"),
    [
        (SMALL_CNN, DATA / "ws_small_cnn"),  # its own build
        (data_path("compare/cnn3_b2.ncu-rep"), DATA / "compare" / "cnn3_b8.kscope"),  # another
        (data_path("compare/cnn3_b8_run1.ncu-rep"), None),  # none
        (data_path("ncu/mlp/mlp.ncu-rep"), DATA / "ws_mlp"),  # built elsewhere, rebuilt
    ],
    ids=["own build", "another build", "no workspace", "rebuilt"],
)
def test_any_reports_lines_without_nvidias_reader(report: Path, workspace: Path | None) -> None:
    ws = Workspace.open(workspace) if workspace is not None else None
    ours = Profile.open(report, workspace=ws, use_cache=False)
    nvidia = ReportReader(report, decode=False)  # NVIDIA's reader alone
    for launch in ours.launches:
        table = ours.launch_instructions(launch.id)
        if table is not None:
            theirs = nvidia.instructions(launch.id, launch.function_start)
            assert theirs is not None and table.locations == theirs.locations, launch.name
    assert ours.hot_lines(top=5)
    assert not _reader_loaded(ours)


def test_a_cubin_without_line_info_goes_to_nvidias_reader(tmp_path: Path) -> None:
    report = data_path("ncu/small/nolineinfo.ncu-rep")
    with ReportFile(report) as file:
        assert cubin_lines(file.cubin(0) or b"") is None
    profile = Profile.open(report, use_cache=False)
    kernel = profile.kernels()[0]
    profile.instructions(kernel.name)
    assert _reader_loaded(profile)


@pytest.mark.parametrize("damage", [b"", b"not an elf", b"\x7fELF\x02\x01" + b"\0" * 100])
def test_what_is_not_a_cubin_gives_no_table(damage: bytes) -> None:
    assert cubin_lines(damage) is None
    assert sections(damage) is None or damage.startswith(b"\x7fELF")


def test_a_damaged_line_program_gives_no_table() -> None:
    with ReportFile(SMALL_CNN) as file:
        cubin = bytearray(file.cubin(0) or b"")
    found = sections(bytes(cubin))
    assert found is not None
    line = next(s for s in found if s.name == ".debug_line")
    cubin[line.offset + 4] = 9  # a DWARF version this does not read
    assert cubin_lines(bytes(cubin)) is None
