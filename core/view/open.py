"""Open whatever a user points the viewer at, as a ``ViewDocument``.

Models (``.onnx``...) are not documents: they have to be built first, which is the caller's
decision (the viewer offers Build & Profile); ``is_model`` tells them apart.

A long-lived process passes ``read_in_child=True``: a report not read before is then read in
a short-lived child process (``ncu.prefill``), so that NVIDIA's reader never loads into it;
``cancel`` stops that child.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from pathlib import Path

from ..errors import KernelscopeError
from ..ncu import REPORT_SUFFIX, Profile
from ..ncu.prefill import fill_cache_in_child
from ..tasks import Cancel
from ..workspace import MANIFEST, Workspace
from .document import ViewDocument, document_from_workspace
from .from_profile import document_from_profile

# What the build reads (``build.model_format``); exported programs (.pt2) are not supported.
MODEL_SUFFIXES = (".onnx", ".py")
REPORT_SUFFIXES = (".ncu-rep", ".csv")

_log = logging.getLogger(__name__)


def is_model(path: str | os.PathLike[str]) -> bool:
    return Path(path).suffix.lower() in MODEL_SUFFIXES


def open_document(
    path: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    *,
    read_in_child: bool = False,
    cancel: Cancel | None = None,
) -> ViewDocument:
    """A workspace folder (or its manifest.json), an Nsight Compute report, or the CSV
    exports of one report (a single file or several: details and source pages together).

    I/O (reads the kernel list and per-kernel totals): call it off the GUI thread."""
    if not isinstance(path, str | os.PathLike):
        paths = [Path(p) for p in path]
        if len(paths) != 1:
            if not paths or any(p.suffix.lower() != ".csv" for p in paths):
                raise KernelscopeError(
                    "several files open together only as CSV exports of one report",
                    hint="open a workspace or an .ncu-rep on its own",
                )
            return document_from_profile(Profile.open(paths))
        path = paths[0]

    def profile(report: Path, workspace: Workspace | None = None) -> Profile:
        if read_in_child and report.suffix == REPORT_SUFFIX and report.is_file():
            fill_cache_in_child(report, cancel)  # raises what the child could not do
            _log.info("%s read in a child process", report)
        return Profile.open(report, workspace=workspace)

    path = Path(path)
    _log.info("opening %s", path)
    if path.name == MANIFEST:
        path = path.parent
    if not path.exists():
        raise KernelscopeError(f"{path} does not exist")
    if path.is_dir():
        workspace = Workspace.open(path)
        reports = workspace.profiles()
        if reports:  # the newest profile attached to this build
            return document_from_profile(profile(reports[-1], workspace), workspace)
        return document_from_workspace(workspace)
    if path.suffix.lower() in REPORT_SUFFIXES:
        return document_from_profile(profile(path))
    raise KernelscopeError(
        f"{path.name} is neither a kernelscope workspace nor an Nsight Compute report",
        hint="open a workspace folder, a .ncu-rep file or a CSV export from ncu; "
        "build a model (.onnx) with Build & Profile",
    )
