"""How paths appear on a shared page: relative to the workspace or as bare file names, unless
the user asks to keep them (``--keep-paths``); and the one pass that takes the absolute paths
kernelscope knows of out of any other text of the page (notes, rule messages)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any


class PathNames:
    """Display names of the paths a page mentions. ``roots``: the folders whose files are
    named relative to them (the workspaces); any other absolute path is named by its last
    part; a relative path (a workspace's ``src/kernels/k.cu``) is kept."""

    def __init__(self, keep: bool, roots: Iterable[Path | None] = ()) -> None:
        self.keep = keep
        self._roots = [str(r.resolve()) for r in roots if r is not None]
        self._seen: dict[str, str] = {}  # absolute path -> the name shown

    def name(self, path: str | os.PathLike[str]) -> str:
        """``path`` as the page shows it (remembered for ``scrub``)."""
        text = os.fspath(path)
        if self.keep or not _is_absolute(text):  # a relative path says nothing of a machine
            return text
        shown = self._relative(text) or _last_part(text)
        self._seen[text] = shown
        return shown

    def _relative(self, text: str) -> str | None:
        for root in self._roots:
            for candidate in (text, _resolved(text)):
                if candidate.startswith(root + os.sep):
                    return candidate[len(root) + 1 :]
        return None

    def scrub(self, data: Any) -> Any:
        """``data`` (the page's JSON value) with every absolute path named so far, each
        workspace folder and the home folder replaced by what the page shows for them."""
        if self.keep:
            return data
        found = dict(self._seen)
        for root in self._roots:
            found.setdefault(root, os.path.basename(root))
        home = os.path.expanduser("~")
        if len(home) > 1:
            found.setdefault(home, "~")
        if not found:
            return data
        # a whole path, not the start of a longer name (/root, not /rootfs or /root.old; a
        # full stop after it ends a sentence)
        alternatives = "|".join(re.escape(p) for p in sorted(found, key=len, reverse=True))
        pattern = re.compile(f"(?:{alternatives})(?![\\w-]|\\.\\w)")

        def walk(value: Any) -> Any:
            if isinstance(value, str):
                if "/" not in value and "\\" not in value:
                    return value
                return pattern.sub(lambda m: found[m.group()], value)
            if isinstance(value, list):
                return [walk(v) for v in value]
            if isinstance(value, dict):
                return {walk(k): walk(v) for k, v in value.items()}
            return value

        return walk(data)


def _is_absolute(text: str) -> bool:
    return text.startswith(("/", "\\")) or bool(re.match(r"^[A-Za-z]:[\\/]", text))


def _resolved(text: str) -> str:
    try:
        return str(Path(text).resolve())
    except (OSError, RuntimeError):
        return text


def _last_part(text: str) -> str:
    """The file name of a path recorded on any machine (``/`` or ``\\`` separated)."""
    return re.split(r"[\\/]", text.rstrip("\\/"))[-1] or text
