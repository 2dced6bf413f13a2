"""Where the tests' own files are, for test modules at any depth under tests/ (they sit in one
folder per feature): the repository, tests/ (on ``sys.path``, see conftest.py) and tests/data.

Large files in tests/data (Nsight Compute reports, big CSV exports) are stored compressed as
``NAME.xz`` (20-40 times smaller, so that the tree travels to the GPU machine with room to
spare). ``data_path`` is the one way to name test data: a folder holding such files is
mirrored once into the test cache with every ``NAME.xz`` unpacked as ``NAME`` (reports are
found by name, and a CSV export is read as a folder of pages)."""

from __future__ import annotations

import functools
import hashlib
import lzma
import os
import shutil
import tempfile
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
DATA = TESTS / "data"
# Where compressed test data is unpacked: ``<key>/<folder>``, the key a hash of the folder's
# stored content, so an edited fixture gets a fresh copy and an unchanged one is reused by
# every later session (and shared by the workers of one ``-n`` run).
UNPACKED = Path(os.environ.get("KERNELSCOPE_TEST_DATA_CACHE") or ROOT / ".pytest_cache" / "data")
PACKED = ".xz"


def data_path(relative: str) -> Path:
    """tests/data/``relative`` (a file or a folder) as it reads unpacked. A plain file, or a
    folder with no compressed file in it, is its own path in tests/data; a file stored as
    ``relative.xz``, or a folder holding such files, comes from the folder's mirror in the
    test cache, made once, atomically (two pytest-xdist workers may ask at the same time)."""
    path = DATA / relative
    if path.is_file():
        return path
    if path.is_dir():
        return _mirror(path) if any(path.rglob(f"*{PACKED}")) else path
    if path.with_name(path.name + PACKED).is_file():
        return _mirror(path.parent) / path.name
    raise FileNotFoundError(f"no test data {relative} (nor {relative}{PACKED}) in {DATA}")


@functools.cache  # the mirror of one session's data does not change under it
def _mirror(folder: Path) -> Path:
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    key = hashlib.sha1(str(folder.relative_to(DATA)).encode(), usedforsecurity=False)
    for p in files:
        key.update(b"\0" + str(p.relative_to(folder)).encode() + b"\0")
        key.update(p.read_bytes())
    target = UNPACKED / key.hexdigest()[:16] / folder.name
    if target.is_dir():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=target.parent))
    try:
        for p in files:
            out = stage / p.relative_to(folder)
            out.parent.mkdir(parents=True, exist_ok=True)
            if p.suffix == PACKED:
                with lzma.open(p) as packed, open(out.with_suffix(""), "wb") as unpacked:
                    shutil.copyfileobj(packed, unpacked, 1 << 20)
            else:
                shutil.copyfile(p, out)
        stage.chmod(0o755)  # mkdtemp's folder is private; this is ordinary test data
        os.rename(stage, target)
    except OSError:
        if not target.is_dir():  # not another worker's finished mirror: a real failure
            raise
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    return target


# A report Nsight Compute made of small_cnn on an H200.
H200_REPORT = data_path("h200/small_cnn_h200.ncu-rep")
# A MetaSchedule database written by stock TVM's tune_relax (data/tuning/make_stock_db.py).
STOCK_DB = DATA / "tuning" / "stock_tiny_mlp"
# A MetaSchedule database for small_cnn whose one record is the conv kernel's default schedule
# (data/tuning/make_dlight_db.py): a build with it compiles the code H200_REPORT profiled.
DLIGHT_DB = DATA / "tuning" / "dlight_small_cnn"
