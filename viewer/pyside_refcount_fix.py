"""Work around PySide6 6.12 losing references to ``None``/``True``/``False`` on Python < 3.12.

With PySide6/shiboken6 6.12.0 on CPython 3.11, every call of a C++ method that returns
``void`` (``QPainter.save()``, ``QObject.setObjectName()``...) and every invalid QVariant
converted to Python decrements ``None``'s reference count without having incremented it,
and some bool results do the same to ``True``/``False`` (harmless on 3.12+, where these are
immortal). A few thousand repaints later the interpreter aborts with "none_dealloc:
deallocating None". Until a fixed PySide6 is required, make these objects effectively
immortal here too, as CPython 3.12 does.
"""

from __future__ import annotations

import ctypes
import sys

import shiboken6

_IMMORTAL = 1 << 60


def apply() -> None:
    if sys.version_info >= (3, 12) or not shiboken6.__version__.startswith("6.12."):
        return
    if sys.implementation.name != "cpython":
        return
    for singleton in (None, True, False):
        ctypes.c_ssize_t.from_address(id(singleton)).value = _IMMORTAL
