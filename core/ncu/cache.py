"""On-disk cache of imported profiles, keyed by the content of the report or CSV files.

Layout: ``<cache root>/ncu/<key>/<part>.pickle`` where the root is platformdirs' user cache
folder for ``kernelscope`` (or ``$KERNELSCOPE_CACHE_DIR``) and the parts are the kernel list,
the embedded sources, one file per launch's instruction table and one per kernel's launches
combined (``launches_part``), written as they are first computed; ``ncu/keys/`` remembers the
keys of files already seen (by path, size, inode and modification and change times). Renaming
or copying the report does not lose its cache.

The key of CSV exports hashes every byte. The key of an ``.ncu-rep`` hashes what identifies
its content (``rep.container.ReportFile.identify``: everything but the middle of each
launch's result, ~10% of a large report; every launch's timestamps and every module in
full), so a 74 MB report is keyed in milliseconds; a report the decoder does not know is
hashed in full.

Entries are pickles of kernelscope's own dataclasses and numpy arrays (fast to load: the
kernel list of a 60-launch report comes back in milliseconds). The key includes
``SCHEMA`` so that a kernelscope with other types never reads them; an entry that fails to
load is treated as missing and rewritten.
"""

from __future__ import annotations

import hashlib
import logging
import os
import pickle
import struct
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..paths import cache_root, memo_by_stat

SCHEMA = "ncu-1"
_REPORT_KEY = "report-identity-1"  # how a report is keyed (ReportFile.identify)
_CHUNK = 1 << 20

_log = logging.getLogger(__name__)


def _hash_files(paths: Sequence[Path]) -> str:
    h = hashlib.sha1(SCHEMA.encode(), usedforsecurity=False)
    for p in paths:
        with open(p, "rb") as f:
            while chunk := f.read(_CHUNK):
                h.update(chunk)
        h.update(b"\0--file--\0")
    return h.hexdigest()


def _report_key(path: Path) -> str | None:
    """The key of one ``.ncu-rep`` from what identifies it; None when the decoder does not
    know the file (it is then hashed in full)."""
    from .rep.container import ReportFile
    from .rep.wire import Unsupported

    try:
        report = ReportFile(path)
    except (Unsupported, OSError, ValueError, struct.error):
        return None
    h = hashlib.sha1(f"{SCHEMA}\0{_REPORT_KEY}".encode(), usedforsecurity=False)
    with report:
        report.identify(h.update)
    return h.hexdigest()


def content_key(paths: Sequence[Path], root: Path | None = None) -> str:
    """A hash of the files' content (SHA-1: a cache key, not a signature): of every byte of
    CSV exports, of what identifies it for one ``.ncu-rep`` (see the module's docstring).

    The key is remembered per file path together with its size, inode and modification and
    change times (the kernel sets ``st_ctime`` on every write, and nobody can set it back), so
    a file whose stat is unchanged is not read again. A renamed or copied file is keyed anew
    and meets the same cache entries.
    """
    return memo_by_stat(
        paths,
        (root or cache_root()) / "ncu" / "keys",
        lambda: (_report_key(Path(paths[0])) if len(paths) == 1 else None) or _hash_files(paths),
    )


def launches_part(prefix: str, launch_ids: Sequence[int]) -> str:
    """The name of a cache part computed from several launches (``kernel-3-8-1a2b...``: the
    first ID, how many, and a hash of them all, so that the name stays short)."""
    digest = hashlib.blake2b(repr(list(launch_ids)).encode(), digest_size=8).hexdigest()
    first = launch_ids[0] if launch_ids else 0
    return f"{prefix}-{first}-{len(launch_ids)}-{digest}"


class ProfileCache:
    def __init__(self, key: str, root: Path | None = None) -> None:
        self.folder = (root or cache_root()) / "ncu" / key

    def load(self, part: str) -> Any | None:
        path = self.folder / f"{part}.pickle"
        try:
            with open(path, "rb") as f:
                return pickle.load(f)
        except FileNotFoundError:
            return None
        except Exception as exc:  # damaged, written by another version, unreadable: a miss
            _log.info("cache entry %s ignored: %s", path, exc)
            return None

    def has(self, part: str) -> bool:
        """Whether the part is there (without loading it)."""
        return (self.folder / f"{part}.pickle").is_file()

    def store(self, part: str, value: Any) -> None:
        """Write atomically; a cache that cannot be written is not an error."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{part}.", dir=self.folder)
        except OSError as exc:
            _log.info("cache %s not writable: %s", self.folder, exc)
            return
        try:
            with os.fdopen(fd, "wb") as f:
                pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, self.folder / f"{part}.pickle")
        except OSError as exc:
            _log.info("cache entry %s/%s not written: %s", self.folder, part, exc)
            Path(tmp).unlink(missing_ok=True)
