"""``kernelscope profile-torch`` of a small PyTorch model on the GPU machine (its own PyTorch,
Triton and ncu): the run folder holds Inductor's Triton kernels with their sources, and a report
of one steady-state call with those kernels and the library ones (on the H200: 2 Triton and 4
cuBLAS/CUTLASS launches, benchmarks/results/torch_h200/README.md)."""

from __future__ import annotations

import os
import shutil
import sys
import tarfile
from pathlib import Path

import pytest
from gpu_support import RESULTS_ENV, TORCH_RUN, kernelscope
from paths_support import DATA

from kernelscope.core.inductor import open_run
from kernelscope.core.ncu import Profile

pytestmark = pytest.mark.gpu


def test_profile_torch(gpu, figure, tmp_path: Path) -> None:
    """profile-torch of a small MLP: a run folder with its Triton kernels and their launches"""
    try:
        import torch  # noqa: F401 - the GPU machine's own
    except ImportError:
        pytest.skip("no PyTorch here")
    model = Path(shutil.copy(DATA / "torch" / "mlp.py", tmp_path / "mlp.py"))
    run = tmp_path / "mlp.torchrun"
    proc = kernelscope(
        "profile-torch", model, "-o", run, "--python", sys.executable, "--name", "gpu", "--top", "3"
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    opened = open_run(run)
    triton = {k.name for k in opened.kernels}
    assert len(triton) >= 2 and all(k.source_text for k in opened.kernels), triton
    assert opened.report is not None and opened.report.name == "gpu.ncu-rep"
    launched = [x.name for x in Profile.open(opened.report).launches]
    assert triton <= set(launched), (triton, launched)  # every Triton kernel ran, profiled
    assert len(launched) > len(triton)  # and the library kernels (the two addmm) beside them
    figure(f"{len(triton)} Triton kernels, {len(launched)} launches profiled")
    out = os.environ.get(RESULTS_ENV)
    if out:  # brought back: `gpu-check.sh import` opens it on the build machine
        with tarfile.open(Path(out) / TORCH_RUN, "w:xz") as tar:
            tar.add(run, arcname=run.name)
