"""Does a profile belong to a build? Kernel by kernel, and source file by source file."""

from __future__ import annotations

from typing import Any

from ..workspace import Workspace
from .profile import Profile


def check_against_workspace(profile: Profile, ws: Workspace) -> dict[str, Any]:
    """Which profiled kernels the build has, and whether their source files are its files."""
    built = {k.name for k in ws.manifest.kernels}
    launched = {k.name for k in ws.manifest.kernels if k.launched}
    profiled = [k.name for k in profile.kernels()]
    sources = []
    for name in profiled:
        if name not in built:
            continue
        files = profile.source_files(name)
        own = files[:1]
        if not own:
            sources.append(
                {"kernel": name, "file": None, "status": "missing", "note": "no line information"}
            )
            continue
        local = profile.resolver.workspace_file(own[0])
        expected = ws.source_path(name)
        if local is None or local.resolve() != expected.resolve():
            note = f"its source {own[0]} does not resolve to the build's {expected.name}"
            sources.append({"kernel": name, "file": own[0], "status": "missing", "note": note})
            continue
        resolved = profile.source(own[0])
        sources.append(
            {
                "kernel": name,
                "file": own[0],
                "status": resolved.status,
                "note": resolved.note or f"matches {expected.relative_to(ws.path)}",
            }
        )
    return {
        "matched": [n for n in profiled if n in built],
        "profile_only": [n for n in profiled if n not in built],
        "build_only": sorted(launched - set(profiled)),
        "sources": sources,
    }
