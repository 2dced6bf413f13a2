"""The runtime-only TVM bundle as the runner's ``--check`` loads it on a GPU host, here with a
stand-in for the NVIDIA driver's library: the check of TVM's CUDA runtime must load it the
way the runner does (``libtvm_ffi.so`` first), so that a working runtime reads as working."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
from ssh_support import BASE_PYTHON

from kernelscope.core.profiling import local_tvm_version, make_bundle
from kernelscope.core.profiling import runner as model_runner
from kernelscope.core.profiling.runner_app import runner_path


def _cudart() -> Path | None:
    import importlib.util

    spec = importlib.util.find_spec("nvidia")
    for folder in spec.submodule_search_locations if spec else []:
        found = sorted(Path(folder).glob("cu*/lib/libcudart.so.*"))
        if found:
            return found[0]
    return None


def test_the_check_loads_tvms_cuda_runtime_after_libtvm_ffi(tmp_path: Path) -> None:
    """On the H200 the check said "libtvm_ffi.so: cannot open shared object file" while the
    timelines ran: it loaded libtvm_runtime_cuda.so before tvm_ffi had loaded
    libtvm_ffi.so. Here libcuda.so.1 is an empty library: loading gets past every file
    (libtvm_ffi.so included) and stops at the driver's first missing symbol."""
    cudart = _cudart()
    if cudart is None:
        pytest.skip("no CUDA runtime wheel here")
    version = tuple(sys.version_info[:2])
    root = tmp_path / "runtimes"
    folder = root / model_runner.runtime_name(local_tvm_version(), version)
    folder.mkdir(parents=True)
    with tarfile.open(make_bundle(version, with_typing_extensions=True)) as tar:
        tar.extractall(folder, filter="data")
    libs = tmp_path / "driver"
    libs.mkdir()
    subprocess.run(
        ["cc", "-shared", "-o", str(libs / "libcuda.so.1"), "-x", "c", "/dev/null"], check=True
    )
    (libs / cudart.name).symlink_to(cudart)
    env = {**os.environ, "LD_LIBRARY_PATH": str(libs)}
    env.pop("TVM_USE_RUNTIME_LIB", None)
    proc = subprocess.run(
        [BASE_PYTHON, str(runner_path()), "--check", "--tvm-version", local_tvm_version(),
         "--runtime-root", str(root)],
        capture_output=True, text=True, timeout=120, env=env,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    line = next(ln for ln in proc.stdout.splitlines() if ln.startswith(model_runner.RESULT_TAG))
    check = json.loads(line[len(model_runner.RESULT_TAG) :])
    assert check["runtime_dir"] == str(folder) and check["tvm"]["runtime_only"]
    error = check["tvm_cuda"].get("error", "")
    assert "libtvm_ffi" not in error
    assert "undefined symbol: cu" in error  # the stand-in driver, the only thing missing
