"""What is installed (``core.environment.installed_facts``) for the welcome page and Help >
About: read off the GUI thread, once per process (``nvcc --version``, ``nvidia-smi``... take
about a second), again when the user asks to check again.

It runs on the ``open`` lane (four threads), so that it never waits behind a document read or
a build, nor holds one up.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from kernelscope.core.environment import Fact, installed_facts

from .jobs import Job, JobContext, Workers

_lock = threading.Lock()
_known: list[Fact] | None = None


def installed(refresh: bool = False) -> list[Fact]:
    """The facts, read the first time (or again with ``refresh``): call it in a job."""
    global _known
    with _lock:
        if _known is None or refresh:
            _known = installed_facts()
        return _known


def request_facts(
    workers: Workers,
    receive: Callable[[list[Fact]], None],
    failed: Callable[[BaseException], None],
    *,
    refresh: bool = False,
) -> Job:
    """Start reading the facts (or take those read before); ``receive`` gets them on the GUI
    thread, ``failed`` what went wrong instead."""

    def run(context: JobContext) -> list[Fact]:
        return installed(refresh)

    job = workers.start("open", run, "checking what is installed")
    job.returned.connect(receive)
    job.errored.connect(failed)
    return job
