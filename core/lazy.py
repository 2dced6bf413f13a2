"""The module-level ``__getattr__`` of the packages that import their exports on first use.

``kernelscope.core.ncu`` and ``kernelscope.core.view`` name each export's module in an
``_EXPORTS`` table so that importing the package stays cheap; this is the one lookup both use.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_getattr(
    package: str, exports: Mapping[str, str], namespace: dict[str, Any]
) -> Callable[[str], Any]:
    """A ``__getattr__`` for ``package``: imports ``exports[name]`` (a module name, relative
    to ``package`` when it starts with a dot) and caches the value in ``namespace`` (the
    package's ``globals()``) so the next lookup does not come here."""

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        namespace[name] = value
        return value

    return __getattr__
