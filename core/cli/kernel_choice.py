"""``--kernel REGEX``: the one kernel a pattern names, for every command that takes one."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..errors import KernelscopeError


def one_kernel(pattern: str, names: Sequence[str], where: str) -> str:
    """The name equal to ``pattern``, else the only one it matches (``re.search``); an error
    that lists the kernels of ``where`` when it matches none, or names all it matches."""
    try:
        rx = re.compile(pattern)
    except re.error as exc:
        raise KernelscopeError(f"--kernel {pattern!r} is not a regular expression: {exc}") from exc
    matches = [pattern] if pattern in names else [n for n in names if rx.search(n)]
    if not matches:
        raise KernelscopeError(
            f"no kernel matches {pattern!r} in {where}", hint="kernels: " + ", ".join(names)
        )
    if len(matches) > 1:
        raise KernelscopeError(
            f"{len(matches)} kernels match {pattern!r}: {', '.join(matches)}",
            hint="narrow the pattern, e.g. anchor it: --kernel '^name$'",
        )
    return matches[0]
