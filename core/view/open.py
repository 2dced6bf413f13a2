"""Open whatever a user points the viewer at: a ``ViewDocument`` and its ``ProfileSession``.

Models (``.onnx``...) are not documents: they have to be built first, which is the caller's
decision (the viewer offers Build & Profile); ``is_model`` tells them apart.

A long-lived process passes ``read_in_child=True``: a report not read before is then read in
a short-lived child process (``view.prefill``), so that NVIDIA's reader never loads into it;
``cancel`` stops that child. With ``first``, such a report is shown progressively: the
kernel list (with every kernel's totals) is decoded from the file in this process at once
(no NVIDIA reader: ``Profile.open(first_look=True)``) and handed to ``first`` while the child
reads the line data, SASS and sources; a kernel's view waits for the child's part of it.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from pathlib import Path

from ..errors import KernelscopeError
from ..inductor import is_run_folder, open_run, run_workspace
from ..ncu import REPORT_SUFFIX, Profile
from ..ncu.report import NeedsReader
from ..tasks import Cancel
from ..workspace import MANIFEST, Workspace
from .document import document_from_workspace
from .features import read_run_problems
from .from_profile import document_from_profile
from .prefill import ChildReader, fill_cache_in_child, is_cached
from .session import ProfileSession

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
    first: Callable[[ProfileSession], None] | None = None,
) -> ProfileSession:
    """A workspace folder (or its manifest.json), a torch.compile run folder (with its
    newest report, if any), an Nsight Compute report, or the CSV exports of one report (a
    single file or several: details and source pages together).

    The session that reads it, its document (the values shown) as ``session.document``.
    I/O (reads the kernel list and per-kernel totals): call it off the GUI thread. ``first``
    (with ``read_in_child``): called, in this thread, with the session as soon as its kernel
    list is known when the rest is still being read; the same session is returned when
    everything is read."""
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

    def document(report: Path, workspace: Workspace | None = None) -> ProfileSession:
        if not (read_in_child and report.suffix == REPORT_SUFFIX and report.is_file()):
            return document_from_profile(Profile.open(report, workspace=workspace), workspace)
        if first is not None and not is_cached(report, over_workspace=workspace is not None):
            try:
                return _progressively(report, workspace, cancel, first)
            except NeedsReader:  # a report the decoder does not know: the child reads all
                _log.info("%s: no first look; read in a child process first", report)
        # raises what the child could not do
        fill_cache_in_child(report, cancel, workspace=workspace.path if workspace else None)
        _log.info("%s read in a child process", report)
        profile = Profile.open(report, workspace=workspace, await_child=_already_read)
        return document_from_profile(profile, workspace)

    path = Path(path)
    _log.info("opening %s", path)
    if path.name == MANIFEST:
        path = path.parent
    if not path.exists():
        raise KernelscopeError(f"{path} does not exist")
    if is_run_folder(path):  # its workspace, with its newest report where it is
        run = open_run(path)
        workspace = run_workspace(run)
        if run.report is None:
            return document_from_workspace(workspace)
        session = document(run.report, workspace)
        # a report of another compile, Triton files changed since: said, as the CLI says them
        session.document.notes = tuple(read_run_problems(session, run))
        return session
    if path.is_dir():
        workspace = Workspace.open(path)
        reports = workspace.profiles()
        if reports:  # the newest profile attached to this build
            return document(reports[-1], workspace)
        return document_from_workspace(workspace)
    if path.suffix.lower() in REPORT_SUFFIXES:
        return document(path)
    raise KernelscopeError(
        f"{path.name} is neither a kernelscope workspace nor an Nsight Compute report",
        hint="open a workspace folder, a .ncu-rep file or a CSV export from ncu; "
        "build a model (.onnx) with Build & Profile",
    )


def _progressively(
    report: Path,
    workspace: Workspace | None,
    cancel: Cancel | None,
    first: Callable[[ProfileSession], None],
) -> ProfileSession:
    """The kernel list from a first look at the file, handed to ``first``, while a child
    reads the rest into the cache; returns when the child is done."""
    glance = Profile.open(report, workspace=workspace, first_look=True)
    child = ChildReader(report, workspace=workspace.path if workspace else None, cancel=cancel)
    profile = Profile.open(report, workspace=workspace, await_child=child.wait_part, looked=glance)
    session = document_from_profile(
        profile, workspace, summary_profile=glance, before_load=child.wait_kernel
    )
    first(session)
    try:
        child.run()
    finally:
        child.close()  # whoever still waits (a cancelled open) stops waiting
    session.document.add_nvidia_descriptions(session.descriptions())  # read with the Details
    _log.info("%s read in a child process, shown as it was read", report)
    return session


def _already_read(part: str) -> None:
    """The ``await_child`` of a report the child has read in full: nothing to wait for (and
    what the cache lacks is decoded here or missing, never read with NVIDIA's reader)."""
