"""Shared test setup: no display, an isolated cache and log folder, and real builds made
once per session.

Every test that builds with TVM is ``slow``: those using ``build_once`` (directly or through
another fixture) are marked here, the others that build carry the mark themselves, so
``-m "not slow"`` runs everything else, without a single TVM build."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from paths_support import DATA, H200_REPORT, STOCK_DB

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# Viewer fixtures (make_window, the Qt leak guard); Qt is imported only by the tests using it.
pytest_plugins = ["viewer_support"]

MODELS = DATA / "models"


@pytest.fixture(scope="session", autouse=True)
def isolated_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Every test session starts with an empty kernelscope cache of its own. The workers of one
    ``-n`` run share their TVM builds (``builds/``, which the build stores atomically), so that
    a model ``build_once`` builds in one worker is restored from the cache in the other."""
    cache = tmp_path_factory.mktemp("kernelscope-cache")
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if run:  # a worker: its basetemp is one folder of the run's
        shared = tmp_path_factory.getbasetemp().parent / f"kernelscope-builds-{run}"
        shared.mkdir(exist_ok=True)
        (cache / "builds").symlink_to(shared, target_is_directory=True)
    old = os.environ.get("KERNELSCOPE_CACHE_DIR")
    os.environ["KERNELSCOPE_CACHE_DIR"] = str(cache)
    yield cache
    if old is None:
        os.environ.pop("KERNELSCOPE_CACHE_DIR", None)
    else:
        os.environ["KERNELSCOPE_CACHE_DIR"] = old


@pytest.fixture(scope="session", autouse=True)
def isolated_state(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The window's log (``core.paths.log_file``: platformdirs' user log folder, under
    ``$XDG_STATE_HOME``) goes to a folder of the test session, never the user's."""
    state = tmp_path_factory.mktemp("kernelscope-state")
    old = os.environ.get("XDG_STATE_HOME")
    os.environ["XDG_STATE_HOME"] = str(state)
    yield state
    if old is None:
        os.environ.pop("XDG_STATE_HOME", None)
    else:
        os.environ["XDG_STATE_HOME"] = old


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "build_once" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)
    # the longest files first: `-n 2 --dist loadfile` hands files out in this order, and a
    # minutes-long file handed out last keeps one worker busy while the other waits
    items.sort(key=lambda item: item.get_closest_marker("heavy") is None)


@pytest.fixture(scope="session")
def build_once(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., object]:
    """``build_once("small_cnn.onnx")`` -> Workspace, built with the real toolchain once, in a
    build child as the window and the CLI build (``build_in_child``)."""
    from kernelscope.core.build import BuildRequest, build_in_child

    built: dict[tuple, object] = {}
    root = tmp_path_factory.mktemp("workspaces")

    def build(model: str, **options: object) -> object:
        key = (model, tuple(sorted(options.items())))
        if key not in built:
            out = root / f"{Path(model).stem}-{len(built)}.kscope"
            built[key] = build_in_child(BuildRequest(model=MODELS / model, output=out, **options))
        return built[key]

    return build


@pytest.fixture(scope="module")
def tuned_ws(tmp_path_factory: pytest.TempPathFactory) -> object:
    """tiny_mlp built with the stock tuning database's records (one per test module; the
    tests using it carry the ``slow`` mark)."""
    from kernelscope.core.build import BuildRequest, build_model

    out = tmp_path_factory.mktemp("tuned") / "mlp.kscope"
    return build_model(BuildRequest(model=MODELS / "tiny_mlp.py", output=out, tuning_db=STOCK_DB))


@pytest.fixture()
def ws_with_profile(build_once: Callable[..., object], tmp_path: Path) -> Path:
    """A copy of the small_cnn build with one profile attached (the H200's report, as
    ``profiles/earlier.ncu-rep``): what a new profile run must leave as it was."""
    path = tmp_path / "small_cnn.kscope"
    shutil.copytree(build_once("small_cnn.onnx").path, path)
    (path / "profiles").mkdir()
    shutil.copy(H200_REPORT, path / "profiles" / "earlier.ncu-rep")
    return path


# ncu and nvidia-smi for a machine without a GPU: ncu writes down how it was called and
# "measures" the H200's report of small_cnn, which is also a true report of small_cnn built
# with DLIGHT_DB (its one record is the default schedule). NCU_SLEEP: seconds it runs first.
STAND_IN_NCU = """#!/usr/bin/env bash
out=""; echo "$@" >> "$NCU_CALLS"
while [ $# -gt 0 ]; do [ "$1" = -o ] && out="$2"; shift; done
[ -n "$out" ] || exit 0
trap 'exit 130' INT
[ -z "$NCU_SLEEP" ] || { echo '==PROF== Profiling "k" - 0: 0%'; sleep "$NCU_SLEEP" & wait; }
echo '==PROF== Profiling "fused_conv2d_add_relu_kernel" - 0: 0%....50%....100% - 9 passes'
cp "$H200" "$out.ncu-rep"
"""


@pytest.fixture()
def gpu_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Stand-ins for an H200's ncu and nvidia-smi (``STAND_IN_NCU``) on PATH; returns the
    file ncu's calls go to, one line each."""
    folder = tmp_path / "gpu-bin"
    folder.mkdir()
    (folder / "ncu").write_text(STAND_IN_NCU)
    (folder / "nvidia-smi").write_text("#!/bin/sh\necho 9.0\n")
    for tool in folder.iterdir():
        tool.chmod(0o755)
    calls = tmp_path / "ncu-calls.txt"
    monkeypatch.setenv("PATH", f"{folder}:{os.environ['PATH']}")
    monkeypatch.setenv("KERNELSCOPE_NCU", str(folder / "ncu"))
    monkeypatch.setenv("H200", str(H200_REPORT))
    monkeypatch.setenv("NCU_CALLS", str(calls))
    return calls
