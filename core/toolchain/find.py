"""Finding the NVIDIA tools (nvcc, nvdisasm, cuobjdump, ncu) and saying what is missing.

Search order for each tool: an explicit environment variable (``KERNELSCOPE_NVCC`` ...),
``PATH``, ``$CUDA_HOME/bin`` and ``$CUDA_PATH/bin``, ``/usr/local/cuda/bin``, the ``bin``
folders of the ``nvidia-cuda-*`` wheels installed in this Python (``nvidia/cu13/bin``...),
and for ncu the Nsight Compute installs under ``/opt/nvidia/nsight-compute/<version>/`` (for
nsys, which ``kernelscope timeline`` uses to open ``.nsys-rep`` files, Nsight Systems' under
``/opt/nvidia/nsight-systems/<version>/bin``).
"""

from __future__ import annotations

import functools
import glob
import logging
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from ..errors import KernelscopeError
from ..process import run_process

logger = logging.getLogger(__name__)

TOOLS = ("nvcc", "nvdisasm", "cuobjdump", "ncu")

_HOW_TO_GET = {
    "nvcc": "pip install 'nvidia-cuda-nvcc>=13' 'nvidia-cuda-crt>=13' 'nvidia-cuda-runtime>=13' "
    "'nvidia-cuda-cccl>=13' (kernelscope's own dependencies), or install the CUDA toolkit "
    "and put its bin folder on PATH or set CUDA_HOME",
    "nvdisasm": "pip install 'nvidia-cuda-nvdisasm>=13', or install the CUDA toolkit",
    "cuobjdump": "pip install 'nvidia-cuda-cuobjdump>=13', or install the CUDA toolkit",
    "nsys": "install Nsight Systems (NVIDIA's download, or the CUDA toolkit) and put nsys on "
    "PATH; or export the report where it was made: nsys export --type sqlite REPORT.nsys-rep",
    "ncu": "install Nsight Compute (it comes with the CUDA toolkit on a GPU machine, or from "
    "NVIDIA's Nsight Compute download) and put it on PATH; without a GPU, profile elsewhere "
    "and import the report with: kernelscope import REPORT -w WORKSPACE",
}


def how_to_get(name: str) -> str:
    """What to do when tool ``name`` is missing."""
    return _HOW_TO_GET[name]


@dataclass(frozen=True)
class Tool:
    name: str
    path: Path | None
    version: str | None
    searched: tuple[str, ...]

    @property
    def found(self) -> bool:
        return self.path is not None

    def require(self) -> Path:
        if self.path is None:
            raise KernelscopeError(
                f"{self.name} not found (looked in: {', '.join(self.searched)})",
                hint=_HOW_TO_GET[self.name],
            )
        return self.path


def _wheel_bin_dirs() -> list[Path]:
    """bin folders of the nvidia-* wheels in this interpreter's site-packages."""
    dirs: list[Path] = []
    for entry in sys.path:
        base = Path(entry) / "nvidia"
        if base.is_dir():
            dirs.extend(sorted(p for p in base.glob("cu*/bin") if p.is_dir()))
            dirs.extend(sorted(p for p in base.glob("*/bin") if p.is_dir()))
    return list(dict.fromkeys(dirs))


def _candidate_dirs(name: str) -> list[str]:
    dirs = [d for d in os.environ.get("PATH", "").split(os.pathsep) if d]
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(var):
            dirs.append(str(Path(os.environ[var]) / "bin"))
    dirs.append("/usr/local/cuda/bin")
    dirs.extend(str(d) for d in _wheel_bin_dirs())
    if name == "ncu":
        # Newest Nsight Compute first.
        dirs.extend(sorted(glob.glob("/opt/nvidia/nsight-compute/*"), reverse=True))
    if name == "nsys":
        dirs.extend(sorted(glob.glob("/opt/nvidia/nsight-systems/*/bin"), reverse=True))
    return list(dict.fromkeys(dirs))


_VERSION_RE = re.compile(r"(?:release |Version |V)(\d+\.\d+(?:\.\d+)*)")


def _version_of(path: Path) -> str | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return _version(str(path), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=64)
def _version(path: str, mtime_ns: int, size: int) -> str | None:
    """``tool --version``, asked once per file as it is on disk (a few tens of ms each)."""
    try:
        out = run_process([path, "--version"], f"{path} --version", timeout=30, check=False)
    except KernelscopeError:
        return None
    versions = _VERSION_RE.findall(out.output)
    if versions:
        return str(versions[-1])
    lines = out.output.strip().splitlines()
    return lines[-1] if lines else None


def find_tool(name: str) -> Tool:
    """Locate one tool as the environment says now.

    The search is remembered per (tool, the variables and ``sys.path`` it depends on), so
    a changed ``KERNELSCOPE_NVCC`` or ``PATH`` is seen at once and nothing needs clearing.
    """
    override = os.environ.get(f"KERNELSCOPE_{name.upper()}")
    inputs = tuple(os.environ.get(v) for v in ("PATH", "CUDA_HOME", "CUDA_PATH"))
    return _find(name, override, inputs, tuple(sys.path))


@functools.lru_cache(maxsize=64)
def _find(
    name: str, override: str | None, env: tuple[str | None, ...], sys_path: tuple[str, ...]
) -> Tool:
    if override:
        given = Path(override)
        ok = given.is_file() and os.access(given, os.X_OK)
        return Tool(name, given if ok else None, _version_of(given) if ok else None, (override,))
    searched = _candidate_dirs(name)
    found = shutil.which(name, path=os.pathsep.join(searched))
    path = Path(found) if found else None
    tool = Tool(name, path, _version_of(path) if path else None, tuple(searched))
    logger.debug("%s: %s (version %s)", name, tool.path or "not found", tool.version)
    return tool


def ncu_report_dir() -> Path | None:
    """The folder holding NVIDIA's report reader (``ncu_report.py``) that comes with Nsight
    Compute: ``extras/python`` beside the ``ncu`` found, else the newest one under
    ``/opt/nvidia/nsight-compute``. A GPU host with Nsight Compute needs no pip install."""
    ncu = find_tool("ncu").path
    candidates = [ncu.resolve().parent / "extras" / "python"] if ncu else []
    candidates += [
        Path(d)
        for d in sorted(glob.glob("/opt/nvidia/nsight-compute/*/extras/python"), reverse=True)
    ]
    return next((d for d in candidates if (d / "ncu_report.py").is_file()), None)


def find_all() -> dict[str, Tool]:
    return {name: find_tool(name) for name in TOOLS}


def local_gpu_arch() -> str | None:
    """The compute capability of GPU 0 as ``sm_XY``, or None without a GPU/driver."""
    smi = shutil.which("nvidia-smi")
    if not smi:
        return None
    try:
        out = run_process(
            [smi, "--query-gpu=compute_cap", "--format=csv,noheader"],
            "nvidia-smi",
            timeout=20,
            check=False,
            stderr=subprocess.DEVNULL,
        ).output
    except KernelscopeError:
        return None
    m = re.match(r"\s*(\d+)\.(\d+)", out)
    return f"sm_{m.group(1)}{m.group(2)}" if m else None


def doctor_report() -> list[tuple[str, str, str]]:
    """(tool, status, detail) rows for ``kernelscope doctor``."""
    rows = []
    for name, tool in find_all().items():
        if tool.found:
            rows.append((name, f"ok {tool.version or '(version unknown)'}", str(tool.path)))
        else:
            rows.append((name, "MISSING", _HOW_TO_GET[name]))
    gpu = local_gpu_arch()
    rows.append(("gpu", f"ok {gpu}" if gpu else "none", "" if gpu else "profiling needs a GPU"))
    return rows
