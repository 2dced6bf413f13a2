"""Test data stored compressed (tests/data/README.md): ``data_path`` gives it back unpacked,
under its own name, in a mirror of its folder that several pytest-xdist workers can ask for at
once, and a report read from the mirror meets the profile cache a copy of it filled."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from paths_support import DATA, TESTS, data_path

from kernelscope.core.ncu import Profile
from kernelscope.core.ncu.cache import ProfileCache, content_key

ASK = "from paths_support import data_path; print(data_path('ncu/small/lineinfo.ncu-rep'))"


def test_a_compressed_report_reads_under_its_own_name_beside_its_folder() -> None:
    assert not (DATA / "ncu" / "mlp" / "mlp.ncu-rep").exists()  # stored as .xz only
    report = data_path("ncu/mlp/mlp.ncu-rep")
    assert report.name == "mlp.ncu-rep" and report.parent.name == "mlp"
    assert report.read_bytes()[:3] == b"NVR"  # ncu's magic: a real report, not the .xz
    folder = data_path("ncu/mlp")
    assert folder == report.parent  # the folder and its files: one mirror
    names = {p.name for p in folder.iterdir()}
    assert {"mlp.ncu-rep", "details.csv", "raw.csv", "session.csv"} <= names
    assert not any(n.endswith(".xz") for n in names)
    # a folder with nothing compressed in it, and a plain file, are tests/data's own
    assert data_path("ws_mlp") == DATA / "ws_mlp"
    assert data_path("bad/empty.csv") == DATA / "bad" / "empty.csv"


def test_two_workers_asking_at_once_get_one_whole_mirror(tmp_path: Path) -> None:
    env = {**os.environ, "KERNELSCOPE_TEST_DATA_CACHE": str(tmp_path / "cache")}
    env["PYTHONPATH"] = str(TESTS)
    procs = [
        subprocess.Popen([sys.executable, "-c", ASK], env=env, stdout=subprocess.PIPE, text=True)
        for _ in range(3)
    ]
    paths = {p.communicate(timeout=120)[0].strip() for p in procs}
    assert all(p.returncode == 0 for p in procs)
    assert len(paths) == 1
    report = Path(paths.pop())
    assert report.is_relative_to(tmp_path / "cache") and report.name == "lineinfo.ncu-rep"
    assert report.read_bytes() == data_path("ncu/small/lineinfo.ncu-rep").read_bytes()
    leftovers = [p.name for p in report.parent.parent.iterdir() if p.name.startswith(".")]
    assert leftovers == []  # the losers' half-made copies are gone


def test_a_report_from_the_mirror_meets_the_cache_a_copy_filled(tmp_path: Path) -> None:
    copy = Path(shutil.copy(data_path("ncu/small/lineinfo.ncu-rep"), tmp_path / "copy.ncu-rep"))
    Profile.open(copy).kernels()
    key = content_key([data_path("ncu/small/lineinfo.ncu-rep")])
    assert key == content_key([copy])
    assert ProfileCache(key).has("launches")
