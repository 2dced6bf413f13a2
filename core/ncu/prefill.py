"""Read a report for the first time in a short-lived child process, filling ``ncu_cache``.

NVIDIA's report reader (``ncu_report``) costs hundreds of MB once loaded, and a process
never gives that memory back. A long-lived process (the viewer) calls ``fill_cache_in_child``
before ``Profile.open``: a child interpreter reads everything the viewer will ask for (the
kernel list, every launch's instruction table, SASS and embedded sources) into the
content-keyed cache and exits; the parent then loads small pickles and never imports the
reader. A report already cached costs a stat and one small file read. Any failure of the
child just means the parent reads the report itself (and reports errors as usual).

Run as ``python -m kernelscope.core.ncu.prefill REPORT`` by ``fill_cache_in_child``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from ..errors import Cancelled
from ..tasks import Cancel
from .cache import ProfileCache, content_key

COMPLETE = "complete"  # cache part written last: everything the viewer reads is there
_POLL_S = 0.05


def is_cached(report: str | os.PathLike[str]) -> bool:
    try:
        return ProfileCache(content_key([Path(report)])).load(COMPLETE) is not None
    except OSError:
        return False


def fill_cache(report: str | os.PathLike[str]) -> None:
    """Read every part of ``report`` the viewer uses into the cache (what the child does)."""
    from ..view import document_from_profile
    from .profile import Profile

    path = Path(report)
    profile = Profile.open(path)
    document = document_from_profile(profile)  # kernel list and per-kernel totals
    for summary in document.summaries:
        document.kernel(summary.name)  # instructions, SASS and embedded sources
    ProfileCache(content_key([path])).store(COMPLETE, True)


def fill_cache_in_child(
    report: str | os.PathLike[str],
    cancel: Cancel | None = None,
    timeout: float = 600.0,
) -> bool:
    """Fill the cache for a ``.ncu-rep`` from a child process; True when it is complete.

    Returns at once when the cache is already complete. ``cancel`` kills the child (raising
    ``Cancelled``); a child that fails or runs past ``timeout`` seconds is killed and False
    returned, so that the caller reads the report itself.
    """
    if is_cached(report):
        return True
    child = subprocess.Popen(
        [sys.executable, "-m", "kernelscope.core.ncu.prefill", str(report)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    waited = 0.0
    try:
        while True:
            try:
                return child.wait(_POLL_S) == 0 and is_cached(report)
            except subprocess.TimeoutExpired:
                waited += _POLL_S
            if cancel is not None and cancel.is_set():
                raise Cancelled(f"opening {Path(report).name}")
            if waited > timeout:
                return False
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


if __name__ == "__main__":
    fill_cache(sys.argv[1])
