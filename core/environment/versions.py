"""Help > About's content, Qt-free: each component's version (or why there is none) and
where it is, the machine, the project's homepage, and the text Copy Versions puts on the
clipboard. Built from ``installed_facts`` off the GUI thread (package metadata is read)."""

from __future__ import annotations

import platform
from dataclasses import dataclass
from typing import NamedTuple

from .facts import Fact, project_urls

# (the fact's name in installed_facts, what About calls it), in About's order
ROWS = (
    ("kernelscope", "kernelscope"),
    ("TVM", "Apache TVM"),
    ("nvcc", "nvcc"),
    ("nvdisasm", "nvdisasm"),
    ("ncu", "Nsight Compute (ncu)"),
    ("ncu_report", "Nsight Compute report reader (ncu_report)"),
    ("Qt", "Qt"),
    ("Python", "Python"),
    ("GPU", "GPU"),
)


class VersionRow(NamedTuple):
    component: str
    version: str  # or why there is none
    where: str  # its location, or what to do when it is missing


@dataclass(frozen=True)
class AboutInfo:
    rows: list[VersionRow]
    system: str  # "Linux x86_64"
    homepage: str  # "" when the package metadata has none

    def text(self) -> str:
        """The versions and where each is, as lines of text, for a bug report."""
        name = max((len(r.component) for r in self.rows), default=0)
        version = max((len(r.version) for r in self.rows), default=0)
        lines = [f"{r.component:{name}}  {r.version:{version}}  {r.where}" for r in self.rows]
        return "\n".join(line.rstrip() for line in lines) + "\n"


def about_info(facts: list[Fact], qt_version: str) -> AboutInfo:
    """About's content from the installed facts; ``qt_version`` names the Qt the window runs
    on (the Qt fact says only that the bindings are installed)."""
    by_name = {f.name: f for f in facts}
    rows = []
    for name, shown in ROWS:
        f = by_name.get(name)
        if f is None:
            continue
        if name == "Qt":
            version = qt_version
        elif f.found:
            version = f.version or "found"
        else:
            version = "none" if name == "GPU" else "not found"
        rows.append(VersionRow(shown, version, f.location if f.found else f.hint))
    system = f"{platform.system()} {platform.machine()}"
    return AboutInfo(rows, system, project_urls().get("Homepage", ""))
