"""NNFusion's own time per operator on the GPU (``scripts/nnfusion_optimes.py run``): what
``kernelscope export-db --hold-back-against`` compares a DB row with. The project of a small
residual CNN is generated and instrumented here (``gpu-check.sh stage``; NNFusion need not
travel) and built there with cuDNN and cuBLAS from PyTorch's NVIDIA wheels (its CMakeLists,
else nvcc directly: FindCUDA is gone from new CMake)."""

from __future__ import annotations

import glob
import json
import math
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
from gpu_support import RESULTS_ENV, stage_dir
from paths_support import ROOT

pytestmark = pytest.mark.gpu
ARCH = "90"
MAX_US = 1000.0  # one operator of a 16x16 CNN: a few µs; a millisecond is something broken


def _nvidia_libraries(folder: Path) -> tuple[list[str], Path]:
    """cuDNN's and cuBLAS's header folders and a folder of their libraries under the names
    the linker wants, from PyTorch's NVIDIA wheels (and the CUDA toolkit)."""
    import torch

    site = Path(torch.__file__).resolve().parent.parent
    cuda = Path(shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc").resolve().parent.parent
    found: dict[str, str] = {}
    for key, pattern in {
        "cudnn.h": "**/cudnn.h", "cublas_v2.h": "**/cublas_v2.h", "libcudnn.so": "**/libcudnn.so*",
        "libcublas.so": "**/libcublas.so*", "libcublasLt.so": "**/libcublasLt.so*",
    }.items():  # fmt: skip
        for root in (site / "nvidia", cuda):
            hits = sorted(glob.glob(f"{root}/{pattern}", recursive=True), key=len)
            if hits:
                found[key] = hits[0]
                break
    missing = {"cudnn.h", "libcudnn.so", "libcublas.so"} - set(found)
    if missing:
        pytest.skip(f"no {', '.join(sorted(missing))} in PyTorch's wheels or the CUDA toolkit")
    libs = folder / "nvlibs"
    libs.mkdir()
    for name in ("libcudnn.so", "libcublas.so", "libcublasLt.so"):
        if name in found:
            (libs / name).symlink_to(found[name])
    headers = sorted({str(Path(found[k]).parent) for k in ("cudnn.h", "cublas_v2.h") if k in found})
    return headers, libs


def _build(codegen: Path, headers: list[str], libs: Path) -> Path:
    """The project's shared library (its CMakeLists, else nvcc); fails with both logs."""
    lib = codegen / "build" / "libnnfusion_naive_rt.so"
    gencode = f"-gencode arch=compute_{ARCH},code=sm_{ARCH}"
    flags = " ".join(f"-I{h}" for h in headers)
    logs = []
    if shutil.which("cmake"):
        for cmd in (
            ["cmake", "-S", ".", "-B", "build", f"-DCUDA_ARCH={gencode}",
             "-DCMAKE_BUILD_TYPE=Release",
             f"-DCUDNN_INCLUDE_DIR={headers[0]}", f"-DCUDNN_LIBRARY={libs / 'libcudnn.so'}",
             f"-DCMAKE_CUDA_FLAGS={flags}", f"-DCUDA_NVCC_FLAGS={flags}"],
            ["cmake", "--build", "build", "-j", "8"],
        ):  # fmt: skip
            done = subprocess.run(cmd, cwd=codegen, capture_output=True, text=True)
            logs.append(done.stdout + done.stderr)
            if done.returncode != 0:
                break
    if not lib.is_file():
        lib.parent.mkdir(exist_ok=True)
        done = subprocess.run(
            ["nvcc", "-O2", "-shared", "-Xcompiler", "-fPIC", "-cudart", "shared",
             "--expt-relaxed-constexpr", *gencode.split(), *(f"-I{h}" for h in headers),
             "nnfusion_rt.cu", "-o", str(lib), f"-L{libs}", "-lcudnn", "-lcublas"],
            cwd=codegen, capture_output=True, text=True,
        )  # fmt: skip
        logs.append(done.stdout + done.stderr)
    assert lib.is_file(), "\n".join(log[-2000:] for log in logs)
    return lib


@pytest.mark.needs("nnfusion")
def test_nnfusion_operator_times(gpu, figure, tmp_path: Path) -> None:
    """NNFusion's own time per operator (nnfusion_optimes.py run): every operator timed"""
    try:
        import torch  # noqa: F401 - the tool's run step times with it
    except ImportError:
        pytest.skip("no PyTorch here")
    with tarfile.open(stage_dir() / "nnfusion.tar.xz") as tar:
        tar.extractall(tmp_path, filter="data")
    codegen = tmp_path / "nnfusion" / "cuda_codegen"
    headers, libs = _nvidia_libraries(tmp_path)
    lib = _build(codegen, headers, libs)
    out = tmp_path / "optimes.json"
    env = {**os.environ, "LD_LIBRARY_PATH": f"{libs}:{os.environ.get('LD_LIBRARY_PATH', '')}"}
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "nnfusion_optimes.py"), "run", str(codegen),
         str(lib), str(tmp_path / "nnfusion" / "x.npy"), str(out)],
        capture_output=True, text=True, env=env, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    timed = json.loads(out.read_text())
    ops = timed["operators"]
    staged = json.loads((codegen / "optimes_ops.json").read_text())
    assert [o["name"] for o in ops] == [name for name, _ in staged]
    assert all(math.isfinite(o["median_us"]) and 0 < o["median_us"] < MAX_US for o in ops), ops
    if os.environ.get(RESULTS_ENV):
        shutil.copyfile(out, Path(os.environ[RESULTS_ENV]) / "nnfusion-optimes.json")
    total = sum(o["median_us"] for o in ops)
    figure(f"{len(ops)} operators timed on {timed['device']}, {total:.1f} µs in all")
