"""Compiling the split sources with nvcc the way TVM does, plus -lineinfo, and reading back
register and shared-memory use.

Flags mirror ``tvm.support.nvcc._compile_cuda_nvcc`` of apache-tvm 0.27 (its nvcc mode):
``-O3``, the ``-U__CUDA_NO_HALF*`` / ``BFLOAT16`` undefines, ``--expt-relaxed-constexpr``,
``--expt-extended-lambda``, ``--use_fast_math`` (unless ``TVM_CUDA_NVCC_NO_FAST_MATH``), and
``--ptxas-options=-v,--register-usage-level=<TVM_CUDA_PTXAS_REG_LEVEL or 10>,
--warn-on-local-memory-usage`` plus ``TVM_CUDA_PTXAS_EXTRA_OPTS``. TVM's nvrtc mode passes the
same code-generation options.

The translation unit is compiled once, with ``--split-compile N`` (nvcc optimises and
assembles its kernels on N threads) where the load average leaves more than one core idle;
see ``split_compile`` and benchmarks/bench_build.py for the measurement.
"""

from __future__ import annotations

import logging
import os
import re
import shlex
import shutil
import tempfile
import time
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

from ..errors import KernelscopeError
from ..process import command_details, describe_exit, run_process
from ..tasks import Cancel

logger = logging.getLogger(__name__)

_PTXAS_FUNC_RE = re.compile(r"Function properties for (?P<name>\S+)")
_PTXAS_USED_RE = re.compile(r"Used (?P<reg>\d+) registers(?:.*?, (?P<smem>\d+) bytes smem)?")
_RESOURCE_RE = re.compile(
    r"Function (?P<name>\S+):\s*\n\s*REG:(?P<reg>\d+) STACK:(?P<stack>\d+)"
    r" SHARED:\d+ LOCAL:(?P<local>\d+)"
)
_DIAG_FILE_RE = re.compile(r"^(?P<file>[^\s(]+\.cuh?)\((?P<line>\d+)\): (?P<kind>error|warning)")


def tvm_flags(arch: str) -> list[str]:
    ptxas = [
        "-v",
        f"--register-usage-level={os.environ.get('TVM_CUDA_PTXAS_REG_LEVEL', '10')}",
        "--warn-on-local-memory-usage",
        *shlex.split(os.environ.get("TVM_CUDA_PTXAS_EXTRA_OPTS", "")),
    ]
    return [
        "-O3",
        f"-arch={arch}",
        "-U__CUDA_NO_HALF_OPERATORS__",
        "-U__CUDA_NO_HALF_CONVERSIONS__",
        "-U__CUDA_NO_BFLOAT16_OPERATORS__",
        "-U__CUDA_NO_BFLOAT16_CONVERSIONS__",
        "-U__CUDA_NO_BFLOAT162_OPERATORS__",
        "-U__CUDA_NO_BFLOAT162_CONVERSIONS__",
        "--expt-relaxed-constexpr",
        "--expt-extended-lambda",
        *([] if os.environ.get("TVM_CUDA_NVCC_NO_FAST_MATH") else ["--use_fast_math"]),
        f"--ptxas-options={','.join(ptxas)}",
    ]


def kernelscope_flags(arch: str) -> list[str]:
    """TVM's flags plus line info: what a build's cubin is made with (its cache key and its
    manifest's ``nvcc_flags``); ``split_compile`` adds how many threads make it."""
    return [*tvm_flags(arch), "-lineinfo"]


def split_compile() -> list[str]:
    """``--split-compile N`` for the cores the 1-minute load average leaves idle, or nothing
    when that is one core or less. On the 2-core machine with another busy process, nvcc's
    threads only take turns: ResNet-50's unit took 5.4 s with ``--split-compile 0`` against
    5.0 s without (benchmarks/bench_build.py), where stock TVM's one nvcc call took 5.0 s.
    The cubin's SASS, line table and resource usage are the same either way (checked on that
    build with nvdisasm and cuobjdump), so the flag is left out of the build's cache key and
    of the flags its manifest records."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    threads = min(cores or 1, int((cores or 1) - os.getloadavg()[0] + 0.5))
    return ["--split-compile", str(threads)] if threads > 1 else []


@dataclass
class Resources:
    registers: int
    local_bytes: int
    static_smem_bytes: int | None


def run_tool(cmd: list[str], cwd: Path, what: str, cancel: Cancel | None = None) -> str:
    """Run an NVIDIA tool in ``cwd``; return its combined output or raise with it.

    A compiler error names the first file and line nvcc complained about.
    """
    result = run_process(cmd, what, cwd=cwd, cancel=cancel, check=False)
    if result.returncode != 0:
        raise KernelscopeError(
            f"{what} failed ({describe_exit(result.returncode)})"
            + _first_error_location(result.output),
            details=command_details(cmd, result.output),
        )
    return result.output


def _first_error_location(log: str) -> str:
    for line in log.splitlines():
        m = _DIAG_FILE_RE.match(line.strip())
        if m and m.group("kind") == "error":
            return f" in {m.group('file')}, line {m.group('line')}"
    return ""


def compile_unit(
    nvcc: Path,
    unit: Path,
    cubin: Path,
    flags: list[str],
    cancel: Cancel | None = None,
    ptx: Path | None = None,
) -> tuple[str, float]:
    """Compile ``unit`` into ``cubin`` (run from the unit's folder); return (log, seconds).

    With ``ptx``, the PTX nvcc made on the way is kept there: the same compile with
    ``--keep`` (its intermediate files go to a scratch folder beside the cubin; the cubin is
    byte for byte the same). No PTX is written if nvcc kept none (logged).
    """
    start = time.perf_counter()
    scratch = tempfile.TemporaryDirectory(prefix=".keep-", dir=cubin.parent) if ptx else None
    with scratch or nullcontext():
        keep = ["--keep", "--keep-dir", scratch.name] if scratch else []
        cmd = [str(nvcc), "--cubin", *flags, *keep, "-o", str(cubin), unit.name]
        log = run_tool(cmd, unit.parent, "nvcc", cancel)
        if scratch and ptx:
            kept = Path(scratch.name) / f"{unit.stem}.ptx"
            if kept.is_file():
                shutil.move(kept, ptx)
            else:
                logger.warning("nvcc kept no PTX of %s: the build has none", unit.name)
    return log, time.perf_counter() - start


def resources(cuobjdump_output: str, ptxas_log: str) -> dict[str, Resources]:
    """Registers and local memory from cuobjdump; static shared memory from ptxas -v.

    cuobjdump's SHARED column includes the 1 KiB the driver reserves on sm_80+, so the
    kernel's own static size comes from ptxas, trusted only where its register count agrees
    with cuobjdump's (the two are printed by different processes).
    """
    ptxas: dict[str, tuple[int, int]] = {}
    current = None
    for line in ptxas_log.splitlines():
        m = _PTXAS_FUNC_RE.search(line)
        if m:
            current = m.group("name")
            continue
        m = _PTXAS_USED_RE.search(line)
        if m and current:
            ptxas[current] = (int(m.group("reg")), int(m.group("smem") or 0))
            current = None
    out: dict[str, Resources] = {}
    for m in _RESOURCE_RE.finditer(cuobjdump_output):
        name, reg = m.group("name"), int(m.group("reg"))
        seen = ptxas.get(name)
        smem = seen[1] if seen and seen[0] == reg else None
        out[name] = Resources(reg, int(m.group("stack")) + int(m.group("local")), smem)
    return out
