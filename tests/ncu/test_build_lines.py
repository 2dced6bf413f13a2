"""A report's line tables from the workspace that built it are NVIDIA's reader's, exactly,
and NVIDIA's reader is not loaded for them; another build's workspace is not used."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from paths_support import DATA, H200_REPORT

from kernelscope.core.ncu import Profile
from kernelscope.core.ncu.build_lines import code_sections, same_code
from kernelscope.core.ncu.rep.container import ReportFile
from kernelscope.core.workspace import Workspace

REPORT = H200_REPORT
WS = DATA / "ws_small_cnn"


def _reader_loaded(profile: Profile) -> bool:
    return profile._loader.reader._ctx is not None  # type: ignore[attr-defined]


def _without_cubin(tmp_path: Path) -> Workspace:
    """The same workspace, its cubin unknown: the line tables come from NVIDIA's reader."""
    ws = tmp_path / "ws"
    shutil.copytree(WS, ws)
    manifest = json.loads((ws / "manifest.json").read_text())
    del manifest["files"]["cubin"]
    (ws / "manifest.json").write_text(json.dumps(manifest))
    return Workspace.open(ws)


def test_the_builds_line_tables_are_the_readers(tmp_path: Path) -> None:
    ours = Profile.open(REPORT, workspace=Workspace.open(WS), use_cache=False)
    theirs = Profile.open(REPORT, workspace=_without_cubin(tmp_path), use_cache=False)
    plain = Profile.open(REPORT, use_cache=False)
    inlined = 0
    for kernel in ours.kernels():
        for launch in kernel.launches:
            mine = ours.launch_instructions(launch.id)
            nvidia = plain.launch_instructions(launch.id)
            assert mine is not None and nvidia is not None
            assert mine.locations == nvidia.locations, kernel.name
            inlined += sum(1 for x in mine.inlined or [] if x is not None)
        assert ours.lines(kernel.name) == theirs.lines(kernel.name), kernel.name
    assert inlined > 0  # inlined code (math_functions.hpp) is among them
    assert not _reader_loaded(ours)
    assert _reader_loaded(theirs) and _reader_loaded(plain)


def test_another_builds_workspace_is_not_used(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(WS, ws)
    cubin = bytearray((ws / "module.cubin").read_bytes())
    sections = code_sections(bytes(cubin))
    assert sections is not None
    code = sections[".text.max_pool2d_kernel"]
    at = bytes(cubin).index(code)
    cubin[at] ^= 0xFF  # another instruction: another build
    (ws / "module.cubin").write_bytes(bytes(cubin))
    ours = Profile.open(REPORT, workspace=Workspace.open(ws), use_cache=False)
    plain = Profile.open(REPORT, use_cache=False)
    for kernel in ours.kernels():
        assert ours.instructions(kernel.name) is not None
        assert ours.lines(kernel.name, categories=False) is not None
    assert _reader_loaded(ours)
    first = ours.kernels()[0].launches[0].id
    assert ours.launch_instructions(first).locations == plain.launch_instructions(first).locations


@pytest.mark.parametrize("damage", [b"", b"not an elf", b"\x7fELF\x02\x01" + b"\0" * 100])
def test_cubins_that_are_not_elf_files_are_not_the_same_code(damage: bytes) -> None:
    with ReportFile(REPORT) as f:
        report_cubin = f.cubin(0)
    assert report_cubin is not None
    assert same_code(report_cubin, (WS / "module.cubin").read_bytes())
    assert report_cubin != (WS / "module.cubin").read_bytes()  # paths and timestamps differ
    assert not same_code(report_cubin, damage)
