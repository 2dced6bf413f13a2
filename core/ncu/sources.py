"""Finding the text of a source file a profile or a line table names, and noticing when it
changed. The one lookup of source files: the CLI, the kernel DB export and every pane use it.

A report records the paths of the machine that compiled the kernels. In order:

1. the copy embedded in the report (``ncu --import-source yes``) or given as a ``cuda`` CSV view;
2. a kernelscope workspace's split files, matched by file name (``<kernel>.cu``), then the
   rest of its ``src/`` folder (the prelude) by the path's tail;
3. user search paths: ``<dir>/<name>``, then ``<dir>/<parent>/<name>`` and so on;
4. the recorded path itself, for a report made (or a workspace built) on this machine.

A local file found in 2 or 3 is checked against what the profile knows: the embedded copy's
hash when there is one, else the highest line the profile has metrics for. A mismatch is
reported as ``changed`` with a note, so that nobody paints numbers on the wrong lines; a file
found nowhere comes back ``missing`` with a note saying where it was looked for.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path, PurePosixPath, PureWindowsPath

from ..workspace import Workspace

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SourceFile:
    """A source file as recorded, with the text to show for it (None when none was found)."""

    path: str  # as recorded in the report or line table
    text: str | None  # what to show; None when nothing was found
    origin: str  # "embedded", "workspace", "search path", "recorded path" or "missing"
    status: str  # "ok", "changed" (local copy differs from what was profiled) or "missing"
    local_path: Path | None = None
    note: str = ""  # why it is missing or changed, for people

    @property
    def name(self) -> str:
        parts = _name_parts(self.path)
        return parts[-1] if parts else self.path

    @cached_property
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
    """Resolves recorded paths (each once: results are kept).

    ``embedded`` gives the profile's own copy of a path; None when there is no profile (a
    workspace shown on its own). ``max_lines`` holds, per path, the highest line a profile has
    metrics for.
    """

    def __init__(
        self,
        embedded: Callable[[str], str | None] | None,
        workspace: Workspace | None = None,
        search_paths: Sequence[str | Path] = (),
        max_lines: dict[str, int] | None = None,
    ) -> None:
        self.embedded = embedded
        self.workspace = workspace
        self.search_paths = [Path(p) for p in search_paths]
        self.max_lines = max_lines or {}
        self._cache: dict[str, SourceFile] = {}

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

    def resolve(self, recorded: str) -> SourceFile:
        if recorded not in self._cache:
            found = self._cache[recorded] = self._resolve(recorded)
            _log.debug("source %s: %s (%s) %s", recorded, found.origin, found.status, found.note)
        return self._cache[recorded]

    def _resolve(self, recorded: str) -> SourceFile:
        embedded = (self.embedded(recorded) or None) if self.embedded is not None else None
        local, origin = self.workspace_file(recorded), "workspace"
        if local is None and self.workspace is not None:
            local = _search(recorded, [self.workspace.path / "src"])
        if local is None:
            local, origin = _search(recorded, self.search_paths), "search path"
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
            return SourceFile(recorded, embedded, "embedded", status, local, note)
        if local_text is None:
            places = "in the workspace, the search paths or at its recorded path"
            note = (
                f"not embedded in the profile (profile with --import-source yes) and not found "
                f"{places}"
                if self.embedded is not None
                else f"recorded on the build machine and not found {places}"
            )
            return SourceFile(recorded, None, "missing", "missing", note=note)
        needed = self.max_lines.get(recorded, 0)
        have = len(local_text.splitlines())
        if needed > have:
            return SourceFile(
                recorded,
                local_text,
                origin,
                "changed",
                local,
                f"{local} has {have} lines but the profile has metrics for line {needed}: "
                "the file changed since it was profiled; line numbers will not match",
            )
        return SourceFile(recorded, local_text, origin, "ok", local)


def _search(recorded: str, bases: Sequence[Path]) -> Path | None:
    """``<base>/<name>``, then ``<base>/<parent>/<name>``... over the bases, shortest tail first."""
    parts = _name_parts(recorded)
    for depth in range(1, len(parts) + 1):
        tail = Path(*parts[-depth:])
        for base in bases:
            candidate = base / tail
            if candidate.is_file():
                return candidate
    return None
