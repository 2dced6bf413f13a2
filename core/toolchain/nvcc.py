"""Compiling the split sources with nvcc the way TVM does, plus -lineinfo, and reading back
register and shared-memory use.

Flags mirror ``tvm.support.nvcc._compile_cuda_nvcc`` of apache-tvm 0.27 (its nvcc mode):
``-O3``, the ``-U__CUDA_NO_HALF*`` / ``BFLOAT16`` undefines, ``--expt-relaxed-constexpr``,
``--expt-extended-lambda``, ``--use_fast_math`` (unless ``TVM_CUDA_NVCC_NO_FAST_MATH``), and
``--ptxas-options=-v,--register-usage-level=<TVM_CUDA_PTXAS_REG_LEVEL or 10>,
--warn-on-local-memory-usage`` plus ``TVM_CUDA_PTXAS_EXTRA_OPTS``. TVM's nvrtc mode passes the
same code-generation options.

A big translation unit is compiled in parts, one nvcc process per core, each to PTX, and
ptxas assembles the merged PTX into one cubin (``compile_parts``, ``ptx_merge``): cicc, which
takes most of the time, then runs on every core, and each kernel's SASS and line table are
those of the one-unit compile. A unit too small to split is compiled once, with
``--split-compile N`` (nvcc optimises and assembles its kernels on N threads) where the load
average leaves more than one core idle; see ``split_compile`` and benchmarks/bench_build.py.
"""

from __future__ import annotations

import logging
import os
import re
import shlex
import shutil
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

from ..errors import Cancelled, KernelscopeError
from ..process import command_details, describe_exit, run_process
from ..tasks import Cancel
from .ptx_merge import PtxMergeError, merge_ptx

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


# A part smaller than this costs more than it saves: each nvcc process starts, preprocesses
# and parses the prelude again (~0.2 s), and cicc reads ~0.65 MB of TVM's source a second.
_PART_BYTES = 128 * 1024


def usable_cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def parts(sizes: list[int], cores: int | None = None) -> list[range]:
    """Split kernels of the given source sizes, in their order, into runs to compile as
    separate units: one more than the cores (as ``make -j N+1``: with another process busy
    on a core, three parts on two cores got ResNet-50's unit compiled in 3.6 s against 3.9 s
    with two), none under ``_PART_BYTES``, balanced by size. Runs are contiguous so that the
    merged PTX keeps the kernels in the unit's order. The split depends only on the sizes
    and the machine's cores, not on its load, so a machine always builds the same cubin."""
    total = sum(sizes)
    cores = cores or usable_cores()
    count = max(1, min(cores + 1 if cores > 1 else 1, len(sizes), total // _PART_BYTES))
    # the smallest largest-part that ``count`` contiguous parts can have (binary search)
    low, high = max(sizes, default=0), total
    while low < high:
        cap = (low + high) // 2
        if len(_runs_under(sizes, cap)) <= count:
            high = cap
        else:
            low = cap + 1
    return _runs_under(sizes, low) if sizes else [range(0)]


def _runs_under(sizes: list[int], cap: int) -> list[range]:
    """Contiguous runs, each as long as it stays within ``cap`` bytes."""
    runs: list[range] = []
    start = load = 0
    for index, size in enumerate(sizes):
        if load + size > cap and index > start:
            runs.append(range(start, index))
            start, load = index, 0
        load += size
    runs.append(range(start, len(sizes)))
    return runs


def split_compile() -> list[str]:
    """``--split-compile N`` for the cores the 1-minute load average leaves idle, or nothing
    when that is one core or less. On the 2-core machine with another busy process, nvcc's
    threads only take turns: ResNet-50's unit took 5.4 s with ``--split-compile 0`` against
    5.0 s without (benchmarks/bench_build.py), where stock TVM's one nvcc call took 5.0 s.
    The cubin's SASS, line table and resource usage are the same either way (checked on that
    build with nvdisasm and cuobjdump), so the flag is left out of the build's cache key and
    of the flags its manifest records."""
    cores = usable_cores()
    threads = min(cores, int(cores - os.getloadavg()[0] + 0.5))
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


def compile_parts(
    nvcc: Path,
    unit: Path,
    part_units: list[Path],
    cubin: Path,
    flags: list[str],
    cancel: Cancel | None = None,
    ptx: Path | None = None,
) -> tuple[str, float]:
    """Compile ``unit`` into ``cubin`` as ``compile_unit`` does, from ``part_units`` (units
    that together include the same files, in the same order) compiled to PTX at once, and
    one ptxas call on their merged PTX. With fewer than two parts, or PTX the merge does
    not know, ``unit`` is compiled whole. Returns (log: each part's nvcc output, then
    ptxas's; seconds)."""
    if len(part_units) < 2:
        return compile_unit(nvcc, unit, cubin, flags, cancel, ptx)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix=".parts-", dir=cubin.parent) as scratch:
        outputs = [Path(scratch, f"{part.stem}.ptx") for part in part_units]
        with ThreadPoolExecutor(len(part_units), thread_name_prefix="nvcc-part") as pool:
            runs = [
                pool.submit(
                    run_tool,
                    [str(nvcc), "-ptx", *flags, "-o", str(out), part.name],
                    part.parent,
                    "nvcc",
                    cancel,
                )
                for part, out in zip(part_units, outputs, strict=True)
            ]
            logs = [run.result() for run in runs]
        merged_ptx = Path(scratch, f"{unit.stem}.ptx")
        # ptxas assembles the kernels on every core (the SASS is the same as on one thread)
        cores = usable_cores()
        threads = ["--split-compile", str(cores)] if cores > 1 else []
        cmd = [str(nvcc), "--cubin", *flags, *threads, "-o", str(cubin), str(merged_ptx)]
        try:
            merged_ptx.write_text(
                merge_ptx([out.read_text(encoding="utf-8") for out in outputs]), encoding="utf-8"
            )
            logs.append(run_tool(cmd, unit.parent, "ptxas", cancel))
        except Cancelled:
            raise
        except (PtxMergeError, KernelscopeError) as error:
            # PTX the merge does not know, or a merge ptxas refuses: the one-unit compile
            # (which reports a real error of the code itself as it always did)
            logger.warning("compiling %s whole: its parts' PTX did not merge (%s)", unit, error)
            log, _ = compile_unit(nvcc, unit, cubin, flags, cancel, ptx)
            return log, time.perf_counter() - start
        if ptx is not None:
            shutil.move(merged_ptx, ptx)
    return "".join(logs), time.perf_counter() - start


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
