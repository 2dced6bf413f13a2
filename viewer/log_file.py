"""The window's log file, for a bug report: kernelscope's records from INFO up (what was
opened, built, attached), every other library's warnings, and each unexpected failure with
its traceback (a job's, ``workers.jobs``; an exception in a slot, through ``sys.excepthook``).

Where it lies is core's decision (``core.paths.log_file``); the window installs the handler
at start-up (``app.run``), and the error box and Help > About name the file it writes.
It rotates at ``MAX_BYTES``, keeping ``BACKUPS`` older files beside it.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from logging.handlers import RotatingFileHandler
from pathlib import Path
from types import TracebackType
from typing import Any

from kernelscope.core.paths import log_file

log = logging.getLogger(__name__)

HANDLER_NAME = "kernelscope-log-file"
MAX_BYTES = 2 * 1024 * 1024
BACKUPS = 3
FORMAT = "%(asctime)s %(levelname)s %(name)s [%(threadName)s]: %(message)s"


def install(path: Path | None = None) -> Path | None:
    """Write the log to ``path`` (``core.paths.log_file()`` by default) from now on, in place
    of the file an earlier call named; its path, or None when it cannot be opened (a read-only
    home: the window works without, and says so on stderr)."""
    path = (path or log_file()).absolute()
    root = logging.getLogger()
    old = _handler()
    if old is not None and Path(old.baseFilename) == path:
        return path
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = RotatingFileHandler(
            path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8"
        )
    except OSError as exc:
        log.warning("the window keeps no log file: %s", exc)
        return None
    handler.set_name(HANDLER_NAME)
    handler.setLevel(logging.INFO)
    handler.setFormatter(logging.Formatter(FORMAT))
    if old is not None:
        root.removeHandler(old)
        old.close()
    root.addHandler(handler)
    ours = logging.getLogger("kernelscope")
    if ours.getEffectiveLevel() > logging.INFO:  # KERNELSCOPE_LOG=debug keeps its debug
        ours.setLevel(logging.INFO)
    if not isinstance(sys.excepthook, _LoggingExceptHook):
        sys.excepthook = _LoggingExceptHook(sys.excepthook)
    return path


def current() -> Path | None:
    """The file this process writes its log to; None before ``install`` (or when it failed)."""
    handler = _handler()
    return Path(handler.baseFilename) if handler is not None else None


def _handler() -> RotatingFileHandler | None:
    for handler in logging.getLogger().handlers:
        if handler.get_name() == HANDLER_NAME and isinstance(handler, RotatingFileHandler):
            return handler
    return None


ExceptHook = Callable[[type[BaseException], BaseException, TracebackType | None], Any]


class _LoggingExceptHook:
    """``sys.excepthook`` that logs an exception nothing caught (Qt calls it for one raised in
    a slot, and the window goes on), then hands it to the hook before it (stderr)."""

    def __init__(self, previous: ExceptHook) -> None:
        self.previous = previous

    def __call__(
        self, kind: type[BaseException], error: BaseException, tb: TracebackType | None
    ) -> None:
        log.error("unexpected error in the window", exc_info=(kind, error, tb))
        self.previous(kind, error, tb)
