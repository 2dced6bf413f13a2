"""What every long job in core takes: a progress callback and a cancel flag.

A job (build, profile, report read, export) reports ``progress(step, fraction, message)``:
``step`` a short name ("tvm", "nvcc", "profile"), ``fraction`` of the whole job in 0..1 (or
None when unknown) and a sentence for people. It polls ``cancel.is_set()`` between steps and
while it waits for a child process, and raises ``errors.Cancelled`` when it is set.
``threading.Event`` is a ``Cancel``; so is anything else with ``is_set()``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from .errors import Cancelled

ProgressFn = Callable[[str, float | None, str], None]


class Cancel(Protocol):
    def is_set(self) -> bool: ...


def no_progress(step: str, fraction: float | None, message: str) -> None:
    """The progress callback of a caller that does not want progress."""


def check_cancel(cancel: Cancel | None, what: str) -> None:
    """Raise ``Cancelled(what)`` when ``cancel`` is set."""
    if cancel is not None and cancel.is_set():
        raise Cancelled(what)
