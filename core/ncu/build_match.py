"""Does a profile belong to a build? Kernel by kernel, and source file by source file; and
attaching a report made elsewhere to its build (``import_report``: ``kernelscope import`` and
the window's Import Report… both)."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import KernelscopeError
from ..tasks import Cancel, check_cancel
from ..workspace import Workspace
from .loaders import is_report
from .profile import Profile
from .steps import steps_path


def check_against_workspace(profile: Profile, ws: Workspace) -> dict[str, Any]:
    """Which profiled kernels the build has, and whether their source files are its files."""
    built = {k.name for k in ws.manifest.kernels}
    ran = _functions_run(profile.paths[0])
    launched = {
        k.name
        for k in ws.manifest.kernels
        if k.launched and (ran is None or any(s.function in ran for s in k.launched_by))
    }
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


def _functions_run(report: Path) -> set[str] | None:
    """The Relax functions a report of an LLM's steps ran in the steps it profiled (a decode
    step embeds its token, then decodes), from the runner's step list beside it; None for a
    report of the one-call run, or one whose list is not readable."""
    try:
        raw = json.loads(steps_path(report).read_text(encoding="utf-8"))
        functions = raw["functions"]
        names = {s["name"] for s in raw["steps"] if s.get("profiled")}
    except (OSError, ValueError, KeyError, TypeError):
        return None
    ran = {functions[n] for n in names if n in functions}
    return ran | ({functions["embed"]} if "embed" in functions else set())


@dataclass(frozen=True)
class ReportImport:
    """A report attached to a workspace: where it now is, and how it fits the build
    (``check_against_workspace``'s answer)."""

    report: Path  # as given
    workspace: Path
    attached: Path  # WORKSPACE/profiles/NAME
    check: dict[str, Any]
    warnings: tuple[str, ...]  # the profile's own (a report of several GPUs, ...)

    def summary(self) -> list[str]:
        """What the import found, line by line, as ``kernelscope import`` prints it."""
        out = [
            f"attached {self.report.name} to {self.workspace} as "
            f"{self.attached.relative_to(self.workspace)}",
            f"  {len(self.check['matched'])} kernels match the build",
        ]
        out += [
            f"  mismatch: {name} is in the profile but not in this build"
            for name in self.check["profile_only"]
        ]
        out += [
            f"  note: {name} is launched by the build but was not profiled"
            for name in self.check["build_only"]
        ]
        out += [
            f"  mismatch: {item['kernel']}: {item['note']}"
            for item in self.check["sources"]
            if item["status"] != "ok"
        ]
        return out


def import_report(
    report: Path, workspace: Workspace, *, force: bool = False, cancel: Cancel | None = None
) -> ReportImport:
    """Attach an .ncu-rep made elsewhere to the workspace it profiled (a copy in its
    ``profiles/``, the newest, so what opening the workspace shows), after checking that its
    kernels are the build's: a report none of whose kernels the build has is refused unless
    ``force``. Reads the whole report (seconds on a big one): call it off the GUI thread;
    ``cancel`` is polled before anything is written."""
    if not report.is_file():
        raise KernelscopeError(f"{report}: no such file")
    if not is_report(report):
        raise KernelscopeError(
            f"{report}: only .ncu-rep reports can be attached to a workspace",
            hint="CSV exports can be read directly: kernelscope hot FILE.csv ...",
            window_hint="CSV exports are opened on their own: File > Open",
        )
    profile = Profile.open(report, workspace=workspace)
    check = check_against_workspace(profile, workspace)
    if not check["matched"] and not force:
        raise KernelscopeError(
            f"none of the {len(check['profile_only'])} kernels in {report.name} is a kernel of "
            f"{workspace.path}; not imported",
            hint="is it a profile of another build? use --force to attach it anyway",
            window_hint="is it a profile of another build? Open it on its own with File > Open",
        )
    check_cancel(cancel, "importing the report")
    attached = workspace.attach_profile(report)
    steps = steps_path(report)
    if steps.is_file():  # a report of an LLM's steps: its step list goes with it
        shutil.copyfile(steps, steps_path(attached))
    return ReportImport(report, workspace.path, attached, check, tuple(profile.warnings))
