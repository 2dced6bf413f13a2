"""The GPU checks' fixtures: what the stage installed (``gpu-check.sh run``), kernelscope as a
user runs it, and the results table (tests/gpu_support.py) written at the end of the session.

Every check here is marked ``gpu`` and skips, with the reason, where it cannot run: no GPU, no
ncu, or no stage (``why_not_here``)."""

from __future__ import annotations

import datetime as dt
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from gpu_support import RESULTS_ENV, Row, gpu_name, stage_manifest, why_not_here, write_table

_rows: dict[str, Row] = {}
_figures: dict[str, str] = {}


def _check_name(item: pytest.Item) -> str:
    doc = getattr(getattr(item, "function", None), "__doc__", None) or item.name
    return doc.strip().split("\n")[0].rstrip(".")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
        if report.skipped:
            reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else ""
            result = f"skipped: {reason.removeprefix('Skipped: ')}"
        else:
            result = report.outcome
            if report.failed and call.excinfo is not None:
                said = (str(call.excinfo.value).splitlines() or [""])[0][:160]
                result = f"failed: {call.excinfo.typename}: {said}"
        _rows[item.nodeid] = Row(_check_name(item), result, _figures.get(item.nodeid, ""))


def pytest_sessionfinish(session: pytest.Session) -> None:
    folder = os.environ.get(RESULTS_ENV)
    if not folder or not _rows:
        return
    manifest = stage_manifest()
    write_table(
        list(_rows.values()),
        Path(folder),
        gpu_name() or "no GPU",
        dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        manifest.get("commit", "unstaged"),
    )


@pytest.fixture()
def figure(request: pytest.FixtureRequest) -> Callable[[str], None]:
    """``figure("...")``: the figure of this check for the table (what a note quotes)."""

    def record(text: str) -> None:
        _figures[request.node.nodeid] = text

    return record


@pytest.fixture()
def gpu(request: pytest.FixtureRequest) -> dict:
    """The stage's manifest; skips with the reason where the check cannot run. A check names
    the staged parts it needs with ``@pytest.mark.needs("round", ...)``."""
    marker = request.node.get_closest_marker("needs")
    reason = why_not_here(*(marker.args if marker else ()))
    if reason:
        pytest.skip(reason)
    return stage_manifest()


@pytest.fixture()
def workspace(gpu: dict, tmp_path: Path) -> Callable[[str], Path]:
    """``workspace("small_cnn")``: a fresh copy of a workspace staged (built here for sm_90)."""
    staged = Path(os.environ.get("KERNELSCOPE_GPU_WORKSPACES", ""))

    def copy(name: str) -> Path:
        source = staged / f"{name}.kscope"
        if not source.is_dir():
            pytest.skip(f"the stage holds no {name} workspace")
        return Path(shutil.copytree(source, tmp_path / source.name))

    return copy
