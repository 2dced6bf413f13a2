"""On-disk cache of imported profiles, keyed by the content of the report or CSV files.

Layout: ``<cache root>/ncu/<key>/<part>.pickle`` where the root is platformdirs' user cache
folder for ``kernelscope`` (or ``$KERNELSCOPE_CACHE_DIR``) and the parts are the kernel list,
the embedded sources and one file per launch's instruction table, written as they are first
computed. Renaming the report does not lose its cache; changing one byte does.

Entries are pickles of kernelscope's own dataclasses and numpy arrays (fast to load: the
kernel list of a 60-launch report comes back in milliseconds). The key includes
``SCHEMA`` so that a kernelscope with other types never reads them; an entry that fails to
load is treated as missing and rewritten.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kernelscope.core.cache import cache_root

SCHEMA = "ncu-1"
_CHUNK = 1 << 20


def content_key(paths: Sequence[Path]) -> str:
    h = hashlib.blake2b(SCHEMA.encode(), digest_size=20)
    for p in paths:
        with open(p, "rb") as f:
            while chunk := f.read(_CHUNK):
                h.update(chunk)
        h.update(b"\0--file--\0")
    return h.hexdigest()


class ProfileCache:
    def __init__(self, key: str, root: Path | None = None) -> None:
        self.folder = (root or cache_root()) / "ncu" / key

    def load(self, part: str) -> Any | None:
        try:
            with open(self.folder / f"{part}.pickle", "rb") as f:
                return pickle.load(f)
        except FileNotFoundError:
            return None
        except Exception:  # damaged, written by another version, unreadable
            return None

    def store(self, part: str, value: Any) -> None:
        """Write atomically; a cache that cannot be written is not an error."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{part}.", dir=self.folder)
        except OSError:
            return
        try:
            with os.fdopen(fd, "wb") as f:
                pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, self.folder / f"{part}.pickle")
        except OSError:
            Path(tmp).unlink(missing_ok=True)
