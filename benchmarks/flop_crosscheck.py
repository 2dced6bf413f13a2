"""Analytic operator FLOPs against Nsight Compute's measured FLOP counters, per kernel.

    python benchmarks/flop_crosscheck.py

Data: the ``--set full`` H200 profiles in tests/data/ncu (mlp and cnn reports; the
transformer layer's raw and details CSV pages, its 20 MB report being too big to keep), with
the manifests of real builds of the same models in tests/data/ws_ops. Measured FLOPs are the
counters of the roofline sections in the kernel's precision (FP32: FADD + FMUL + 2·FFMA),
summed over its launches (ptxas sets registers with HFMA2, which Nsight counts as FP16 work,
so the precisions are kept apart); analytic FLOPs are ``roofline.kernel_cost`` times the
launches.
"""

from __future__ import annotations

import sys
from pathlib import Path

from kernelscope.core.ncu import Profile
from kernelscope.core.roofline import kernel_cost, roofline
from kernelscope.core.workspace import Workspace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from paths_support import data_path  # noqa: E402

PRECISION = {"float64": "fp64", "float16": "fp16", "bfloat16": "fp16"}
ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
CASES = {
    "mlp": (data_path("ncu/mlp/mlp.ncu-rep"), DATA / "ws_ops" / "mlp"),
    "cnn": (data_path("ncu/cnn/cnn.ncu-rep"), DATA / "ws_ops" / "cnn"),
    "transformer_layer": (
        [data_path("ncu/transformer/raw.csv"), data_path("ncu/transformer/details.csv")],
        DATA / "ws_ops" / "transformer",
    ),
}


def crosscheck(report: Path | list[Path], workspace: Path) -> list[tuple[str, int, float, float]]:
    """(kernel, launches, analytic FLOPs, measured FLOPs) of every kernel with FLOPs."""
    profile = Profile.open(report)
    infos = {k.name: k for k in Workspace.open(workspace).manifest.kernels}
    out = []
    for point in roofline(profile).points:
        info = infos.get(point.kernel)
        if info is None:
            continue
        launches = len(point.launch_ids)
        cost = kernel_cost(info)
        precision = PRECISION.get(cost.dtype, "fp32")
        out.append((point.kernel, launches, cost.flops * launches, point.flops.get(precision, 0)))
    return out


def main() -> int:
    for model, (report, ws) in CASES.items():
        print(f"== {model}")
        print(f"{'kernel':62s} {'analytic':>12s} {'measured':>12s} {'measured/analytic':>18s}")
        for kernel, n, analytic, measured in crosscheck(report, ws):
            ratio = f"{measured / analytic:.3f}" if analytic else ("-" if not measured else "inf")
            name = kernel if n == 1 else f"{kernel} (x{n})"
            print(f"{name:62s} {analytic:12.4g} {measured:12.4g} {ratio:>18s}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
