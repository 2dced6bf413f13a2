"""The model runner as the one file that travels: the ``runner`` package zipped into a
zipapp, built when first asked for and cached by the digest of its sources.

``python runner-<digest>.pyz ARGS`` runs it here (under ncu, for the timeline); remote
profiling copies it to the host as ``runner.py`` (Python runs a zip archive whatever its
name); and ``stdin_script`` wraps it in a few lines of Python for ``python -`` over SSH,
which reads a script from stdin and so cannot take an archive.

Inside the archive the package is the top-level ``kernelscope_runner`` (its imports are all
relative), started by a ``__main__.py`` of two lines.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import tempfile
import zipfile
from functools import cache
from pathlib import Path

from ..errors import KernelscopeError
from ..paths import cache_root
from . import runner

PACKAGE = "kernelscope_runner"
MAIN = (
    "import sys\n"
    f"from {PACKAGE}.main import main\n"
    "sys.exit(main())\n"
)  # fmt: skip
_STAMP = (1980, 1, 1, 0, 0, 0)  # every entry's date: the same sources, the same bytes

_STDIN = """\
import base64, os, runpy, sys, tempfile
fd, path = tempfile.mkstemp(prefix="kernelscope-runner-", suffix=".pyz")
with os.fdopen(fd, "wb") as f:
    f.write(base64.b64decode({data!r}))
sys.argv[0] = path
try:
    runpy.run_path(path, run_name="__main__")
finally:
    os.unlink(path)
"""


def _sources() -> dict[str, bytes]:
    """The package's modules by file name."""
    folder = Path(runner.__file__).parent
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.py"))}


@cache
def archive() -> bytes:
    """The zipapp's bytes (the same for the same sources)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr(zipfile.ZipInfo("__main__.py", _STAMP), MAIN, zipfile.ZIP_DEFLATED)
        for name, text in _sources().items():
            z.writestr(zipfile.ZipInfo(f"{PACKAGE}/{name}", _STAMP), text, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def runner_path() -> Path:
    """The zipapp on disk, written once per content into kernelscope's cache folder (looked
    for on every call: the cache folder may be another by then)."""
    data = archive()
    digest = hashlib.sha256(data).hexdigest()[:16]
    try:
        folder = cache_root() / "runner"
        path = folder / f"runner-{digest}.pyz"
        if path.is_file() and path.read_bytes() == data:
            return path
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".runner-", suffix=".tmp")
    except OSError as exc:
        raise KernelscopeError(
            f"cannot write the model runner into kernelscope's cache folder: {exc}",
            hint="make that folder writable, or point KERNELSCOPE_CACHE_DIR at one that is",
        ) from exc
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)  # another process writing the same bytes is harmless
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def stdin_script() -> bytes:
    """A script for ``python -`` that runs the zipapp with the arguments after ``-``."""
    data = base64.b64encode(archive()).decode("ascii")
    return _STDIN.format(data=data).encode()
