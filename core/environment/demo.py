"""The bundled demo: SqueezeNet 1.1 as ONNX and an Nsight Compute report of its build,
profiled on an NVIDIA H200, shipped in the ``kernelscope.resources`` package."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import platformdirs


@dataclass(frozen=True)
class Demo:
    model: Path  # the ONNX model to build
    report: Path  # a profile of that very build, to attach to the workspace
    workspace: Path  # where the demo's workspace goes


def demo() -> Demo:
    folder = Path(str(resources.files("kernelscope.resources") / "demo"))
    return Demo(
        folder / "squeezenet1_1.onnx",
        folder / "squeezenet_h200.ncu-rep",
        Path(platformdirs.user_data_dir("kernelscope")) / "demo" / "squeezenet1_1.kscope",
    )
