"""The bundled demo: SqueezeNet 1.1 as ONNX and an Nsight Compute report of its build,
profiled on an NVIDIA H200 with ``--set full``, shipped in the ``kernelscope.resources``
package.

The report is shipped xz-compressed (0.5 MB instead of 44 MB: the full set's per-instruction
counters compress well) and unpacked next to the demo's workspace on first use.
``prepare_demo`` makes the demo's workspace the first time (the welcome page's "Open the
demo"): it builds the model for the H200's architecture, so that the report's per-instruction
numbers land on the instructions they were measured on, and attaches the report.
"""

from __future__ import annotations

import lzma
import os
import shutil
import tempfile
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
    report: Path  # a profile of that very build, to attach to the workspace (unpacked)
    workspace: Path  # where the demo's workspace goes
    packed: Path | None = None  # the bundled ``report`` (xz), unpacked on first use

    @property
    def ready(self) -> bool:
        """Whether the workspace is built and has the report attached (no build needed)."""
        return (self.workspace / MANIFEST).is_file() and (
            self.workspace / "profiles" / self.report.name
        ).is_file()


def demo() -> Demo:
    folder = Path(str(resources.files("kernelscope.resources") / "demo"))
    data = Path(platformdirs.user_data_dir("kernelscope")) / "demo"
    return Demo(
        folder / "squeezenet1_1.onnx",
        data / "squeezenet_h200.ncu-rep",
        data / "squeezenet1_1.kscope",
        folder / "squeezenet_h200.ncu-rep.xz",
    )


def unpack_report(files: Demo) -> Path:
    """The demo's report, unpacked from the bundled ``.xz`` when it is not there yet (written
    under a temporary name and renamed, so an interrupted unpack leaves no half report)."""
    if files.packed is None or files.report.is_file():
        return files.report
    files.report.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{files.report.name}.", dir=files.report.parent)
    try:
        with os.fdopen(fd, "wb") as out, lzma.open(files.packed, "rb") as packed:
            shutil.copyfileobj(packed, out, 1 << 20)
        os.chmod(tmp, 0o644)  # mkstemp's file is private; this is an ordinary report
        os.replace(tmp, files.report)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return files.report


def prepare_demo(
    files: Demo | None = None, progress: ProgressFn = no_progress, cancel: Cancel | None = None
) -> Path:
    """The demo's workspace, built (in a child process, a cache hit when built before) and
    with its report attached unless it already is; returns its folder."""
    from ..build import BuildRequest, build_in_child  # TVM's side loads only to build

    files = files or demo()
    if not files.ready:
        progress("unpack", None, f"unpacking {files.report.name}")
        unpack_report(files)  # first: offered alone should the build fail
        request = BuildRequest(files.model, files.workspace, arch=DEMO_ARCH)
        workspace = build_in_child(request, progress=progress, cancel=cancel)
        if not (workspace.profiles_dir / files.report.name).is_file():
            progress("attach", None, f"attaching {files.report.name}")
            workspace.attach_profile(files.report)
    return Workspace.open(files.workspace).path
