"""Finding the text of a source file a profile names, and noticing when it changed.

A report records the paths of the machine that compiled the kernels. In order:

1. the copy embedded in the report (``ncu --import-source yes``) or given as a ``cuda`` CSV view;
2. a kernelscope workspace's split files, matched by file name (``<kernel>.cu``);
3. user search paths: ``<dir>/<name>``, then ``<dir>/<parent>/<name>`` and so on;
4. the recorded path itself, for a report made on this machine.

A local file found in 2 or 3 is checked against what the profile knows: the embedded copy's
hash when there is one, else the highest line the profile has metrics for. A mismatch is
reported as ``changed`` with a note, so that nobody paints numbers on the wrong lines.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath, PureWindowsPath

from ..workspace import Workspace


@dataclass
class ResolvedSource:
    path: str  # as recorded in the report
    text: str | None  # what to show; None when nothing was found
    origin: str  # "embedded", "workspace", "search path", "recorded path" or "missing"
    status: str  # "ok", "changed" (local copy differs from what was profiled) or "missing"
    local_path: Path | None = None
    note: str = ""

    @property
    def lines(self) -> list[str]:
        return self.text.splitlines() if self.text is not None else []


def _digest(text: str) -> str:
    return hashlib.sha256(text.replace("\r\n", "\n").encode("utf-8", "replace")).hexdigest()


def _name_parts(recorded: str) -> tuple[str, ...]:
    pure = PureWindowsPath(recorded) if "\\" in recorded else PurePosixPath(recorded)
    return tuple(p for p in pure.parts if p not in ("/", "\\") and not p.endswith(":\\"))


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


class SourceResolver:
    def __init__(
        self,
        embedded: Callable[[str], str | None],
        workspace: Workspace | None = None,
        search_paths: Sequence[str | Path] = (),
        max_lines: dict[str, int] | None = None,
    ) -> None:
        self.embedded = embedded  # the profile's own copy of a path, if it has one
        self.workspace = workspace
        self.search_paths = [Path(p) for p in search_paths]
        self.max_lines = max_lines or {}  # path -> highest line with metrics
        self._cache: dict[str, ResolvedSource] = {}

    def workspace_file(self, recorded: str) -> Path | None:
        """The workspace's split file with the same name as ``recorded``, if any."""
        if self.workspace is None:
            return None
        name = _name_parts(recorded)[-1:] or ("",)
        for k in self.workspace.manifest.kernels:
            p = self.workspace.source_path(k)
            if p.name == name[0] and p.is_file():
                return p
        return None

    def _search(self, recorded: str) -> Path | None:
        parts = _name_parts(recorded)
        for depth in range(1, len(parts) + 1):
            tail = Path(*parts[-depth:])
            for base in self.search_paths:
                candidate = base / tail
                if candidate.is_file():
                    return candidate
        return None

    def resolve(self, recorded: str) -> ResolvedSource:
        if recorded not in self._cache:
            self._cache[recorded] = self._resolve(recorded)
        return self._cache[recorded]

    def _resolve(self, recorded: str) -> ResolvedSource:
        embedded = self.embedded(recorded) or None
        local, origin = self.workspace_file(recorded), "workspace"
        if local is None:
            local, origin = self._search(recorded), "search path"
        if local is None and Path(recorded).is_absolute() and Path(recorded).is_file():
            local, origin = Path(recorded), "recorded path"
        local_text = _read(local) if local is not None else None
        if embedded is not None:
            status, note = "ok", ""
            if local_text is not None and _digest(local_text) != _digest(embedded):
                status = "changed"
                note = (
                    f"{local} differs from the copy embedded in the profile "
                    f"({len(local_text.splitlines())} vs {len(embedded.splitlines())} lines); "
                    "showing the embedded copy, which is what was profiled"
                )
            return ResolvedSource(recorded, embedded, "embedded", status, local, note)
        if local_text is None:
            return ResolvedSource(
                recorded,
                None,
                "missing",
                "missing",
                note="not embedded in the profile (profile with --import-source yes) and not "
                "found in the workspace, the search paths or at its recorded path",
            )
        needed = self.max_lines.get(recorded, 0)
        have = len(local_text.splitlines())
        if needed > have:
            return ResolvedSource(
                recorded,
                local_text,
                origin,
                "changed",
                local,
                f"{local} has {have} lines but the profile has metrics for line {needed}: "
                "the file changed since it was profiled; line numbers will not match",
            )
        return ResolvedSource(recorded, local_text, origin, "ok", local)
