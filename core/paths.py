"""Where kernelscope keeps caches (platformdirs' user cache folder, or $KERNELSCOPE_CACHE_DIR)
and the window's log, and the one memo of file digests by their stat."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence
from pathlib import Path

import platformdirs


def cache_root() -> Path:
    override = os.environ.get("KERNELSCOPE_CACHE_DIR")
    root = Path(override) if override else Path(platformdirs.user_cache_dir("kernelscope"))
    root.mkdir(parents=True, exist_ok=True)
    return root


def log_file() -> Path:
    """The file the window writes its log to (kept with a few older ones beside it): in
    platformdirs' user log folder, ``$XDG_STATE_HOME/kernelscope/log/`` on Linux
    (``~/.local/state/...`` when unset). Only the path: the window creates the folder."""
    return Path(platformdirs.user_log_dir("kernelscope")) / "kernelscope.log"


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def model_sha256(path: Path) -> str:
    """A model file's SHA-256, remembered by its stat (a big model is hashed once)."""
    return memo_by_stat([path], cache_root() / "builds" / "keys", lambda: file_sha256(path))


def memo_by_stat(paths: Sequence[Path], folder: Path, compute: Callable[[], str]) -> str:
    """``compute()`` (a digest of the files' content), remembered in ``folder`` for as long as
    each file keeps its path, size, inode and modification and change times: the kernel sets
    ``st_ctime`` on every write and nobody can set it back, so a file whose stat is unchanged
    has the same content. A memo that cannot be read or written is not an error."""
    ident = []
    for p in paths:
        s = os.stat(p)
        ident.append((str(Path(p).resolve()), s.st_size, s.st_mtime_ns, s.st_ctime_ns, s.st_ino))
    memo = folder / (hashlib.blake2b(repr(ident).encode(), digest_size=16).hexdigest() + ".key")
    try:
        value = memo.read_text(encoding="ascii").strip()
        if value:
            return value
    except OSError:
        pass
    value = compute()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = memo.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(value, encoding="ascii")
        os.replace(tmp, memo)
    except OSError:
        pass
    return value
