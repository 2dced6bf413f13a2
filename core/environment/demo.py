"""The bundled demo: SqueezeNet 1.1 as ONNX and an Nsight Compute report of its build,
profiled on an NVIDIA H200, shipped in the ``kernelscope.resources`` package.

``prepare_demo`` makes the demo's workspace the first time (the welcome page's "Open the
demo"): it builds the model for the H200's architecture, so that the report's per-instruction
numbers land on the instructions they were measured on, and attaches the report.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import platformdirs

from ..tasks import Cancel, ProgressFn, no_progress
from ..workspace import MANIFEST, Workspace

# The GPU the demo's report was made on is an H200 (Hopper): its builds are for sm_90.
DEMO_ARCH = "sm_90"


@dataclass(frozen=True)
class Demo:
    model: Path  # the ONNX model to build
    report: Path  # a profile of that very build, to attach to the workspace
    workspace: Path  # where the demo's workspace goes

    @property
    def ready(self) -> bool:
        """Whether the workspace is built and has the report attached (no build needed)."""
        return (self.workspace / MANIFEST).is_file() and (
            self.workspace / "profiles" / self.report.name
        ).is_file()


def demo() -> Demo:
    folder = Path(str(resources.files("kernelscope.resources") / "demo"))
    return Demo(
        folder / "squeezenet1_1.onnx",
        folder / "squeezenet_h200.ncu-rep",
        Path(platformdirs.user_data_dir("kernelscope")) / "demo" / "squeezenet1_1.kscope",
    )


def prepare_demo(
    files: Demo | None = None, progress: ProgressFn = no_progress, cancel: Cancel | None = None
) -> Path:
    """The demo's workspace, built (in a child process, a cache hit when built before) and
    with its report attached unless it already is; returns its folder."""
    from ..build import BuildRequest, build_in_child  # TVM's side loads only to build

    files = files or demo()
    if not files.ready:
        request = BuildRequest(files.model, files.workspace, arch=DEMO_ARCH)
        workspace = build_in_child(request, progress=progress, cancel=cancel)
        if not (workspace.profiles_dir / files.report.name).is_file():
            progress("attach", None, f"attaching {files.report.name}")
            workspace.attach_profile(files.report)
    return Workspace.open(files.workspace).path
