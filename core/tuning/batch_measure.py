"""Measure one round of tuning candidates on a GPU: ``python batch_measure.py ROUND_DIR
[--busy-ok]`` (``kernelscope measure-batch ROUND_DIR`` runs this file too).

Standalone on purpose: the GPU machine of a batch job (a cluster queue, an air-gapped box)
needs only Python, numpy and TVM's runtime (``TVM_USE_RUNTIME_LIB=1`` with the runtime-only
package), not kernelscope. Each candidate is a shared library built by ``kernelscope tune
--export-batch``; it is loaded, given random arguments of the shapes ``round.json`` lists and
timed with the runtime's ``time_evaluator`` as MetaSchedule's runners do. The times, the
GPU's name and any failure go to ``results.json`` in the same folder, written once at the end
(atomically), so an interrupted job leaves no half file to import.

Timings are only worth importing from a GPU nothing else computes on: before a CUDA round,
``nvidia-smi`` (where there is one) is asked for other compute processes and the GPU's
utilisation; a busy GPU is refused (exit status ``REFUSED_EXIT``), or with ``--busy-ok``
measured anyway and said in ``results.json`` (``busy``), so that the import says so too.
A round that names the GPU its database was measured on (``gpu``) is refused on another,
and a CUDA round on a machine without a GPU (or without its driver) is refused too, with
where to run it.
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROUND = "round.json"
RESULTS = "results.json"
REFUSED_EXIT = 3  # the exit status of a round refused before measuring (busy, no or another GPU)
BUSY_UTILISATION = 10  # % of the GPU in use by others above which its timings are not trusted


class Refused(Exception):
    """A round not measured here, why (the GPU is busy, or not the one the round names) and
    what to do."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.hint = hint


def local_smi(args: list[str]) -> str | None:
    """This machine's ``nvidia-smi ARGS`` (CSV, no header or units); None without it."""
    import shutil
    import subprocess

    smi = shutil.which("nvidia-smi")
    if smi is None:
        return None
    try:
        return subprocess.run(
            [smi, *args, "--format=csv,noheader,nounits"],
            capture_output=True, text=True, timeout=30, check=True,
        ).stdout  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None


def busy_reason(
    smi: Callable[[list[str]], str | None] = local_smi, which: str | None = None
) -> str:
    """Why a GPU is busy: other compute processes on it, or its utilisation; "" when it is
    free or nvidia-smi cannot tell. ``which``: the GPU (an index or UUID, as nvidia-smi -i
    takes it; by default the first one CUDA_VISIBLE_DEVICES names, else 0, the one TVM's
    ``cuda(0)`` is); ``smi`` runs nvidia-smi (another host's, for the RPC server there).
    Asked before this process touches the GPU itself."""
    if which is None:
        which = (os.environ.get("CUDA_VISIBLE_DEVICES") or "0").split(",")[0].strip() or "0"
    gpus = [
        r for r in _rows(smi(["--query-gpu=uuid,utilization.gpu,name", "-i", which])) if len(r) >= 3
    ]
    if not gpus or not gpus[0][0].startswith(("GPU-", "MIG-")):  # not what nvidia-smi says
        return ""
    uuid, utilisation, name = gpus[0][:3]
    others = [
        row
        for row in _rows(smi(["--query-compute-apps=gpu_uuid,pid,process_name,used_memory"]))
        if len(row) >= 4 and row[0] == uuid and row[1] != str(os.getpid())
    ]
    said = []
    if others:
        apps = "; ".join(f"pid {r[1]} {Path(r[2]).name}, {r[3]} MiB" for r in others[:3])
        said.append(f"{len(others)} other process{'es' if len(others) > 1 else ''} ({apps})")
    if utilisation.isdigit() and int(utilisation) >= BUSY_UTILISATION:
        said.append(f"{utilisation} % utilised")
    return f"GPU {which} ({name}) is busy: {', '.join(said)}" if said else ""


def _rows(text: str | None) -> list[list[str]]:
    return [[f.strip() for f in line.split(",")] for line in (text or "").splitlines() if line]


def _load_runtime(cuda: bool) -> None:
    """With a runtime-only TVM (``TVM_USE_RUNTIME_LIB=1``), load its CUDA runtime library
    before ``import tvm`` (after ``tvm_ffi``'s, which it links against), as the model
    runner does; a full TVM loads it itself."""
    if not cuda or os.environ.get("TVM_USE_RUNTIME_LIB") != "1":
        return
    import ctypes
    import importlib.util

    import tvm_ffi  # noqa: F401  (loads libtvm_ffi.so)

    spec = importlib.util.find_spec("tvm")
    if spec and spec.submodule_search_locations:
        lib = Path(next(iter(spec.submodule_search_locations))) / "lib"
        try:
            ctypes.CDLL(str(lib / "libtvm_runtime_cuda.so"), ctypes.RTLD_GLOBAL)
        except OSError as exc:  # libcuda.so.1, the driver's, is not there: no GPU
            raise _no_gpu(f"TVM's CUDA runtime does not load ({exc})") from exc


def _no_gpu(why: str) -> Refused:
    """A CUDA round on a machine that cannot run it (TVM would say "Device API cuda is not
    enabled"), and where to measure it instead."""
    return Refused(
        f"this machine has no GPU to measure the round on: {why}",
        "copy the round's folder to the GPU machine and run `kernelscope measure-batch DIR` "
        "there (or `python batch_measure.py DIR` with TVM's runtime), then bring DIR back and "
        "run `kernelscope tune WS --import-batch DIR` here",
    )


def _device(kind: str) -> Any:
    import tvm

    return tvm.cuda(0) if kind == "cuda" else tvm.cpu(0)


def _arguments(args_info: list[Any], device: Any) -> list[Any]:
    import numpy as np
    import tvm

    rng = np.random.default_rng(0)
    out = []
    for info in args_info:
        if not info or info[0] != "TENSOR":
            raise ValueError(f"an argument kernelscope cannot make: {info}")
        _, dtype, shape = info
        if "float" in dtype:
            value = rng.standard_normal(shape).astype(dtype)
        else:
            value = rng.integers(0, 4, size=shape).astype(dtype)
        out.append(tvm.runtime.tensor(value, device))
    return out


def _hand_cubin(cubin: bytes) -> None:
    """Give TVM's runtime the candidate's cubin, built with its library, when it loads the
    module's CUDA source (it would compile the source itself, which needs TVM's compiler)."""
    import tvm_ffi

    def compile_callback(code: Any, *_target: Any) -> bytearray:
        return bytearray(cubin)

    tvm_ffi.register_global_func("tvm_callback_cuda_compile", compile_callback, override=True)


def measure(
    folder: Path, number: int = 3, repeat: int = 1, busy_ok: bool = False
) -> dict[str, Any]:
    """Time the round's candidates; raise ``Refused`` (nothing measured, nothing written)
    on a busy GPU unless ``busy_ok``, on another GPU than the round names, or, for a CUDA
    round, on a machine without a GPU."""
    spec = json.loads((folder / ROUND).read_text(encoding="utf-8"))
    cuda = spec["device"] == "cuda"
    busy = busy_reason() if cuda else ""
    if busy and not busy_ok:
        raise Refused(
            f"{busy}; timings taken now would not be the kernels' own",
            "wait until it is free, pick a free GPU (CUDA_VISIBLE_DEVICES), or measure anyway "
            "with --busy-ok (the import then says the timings were taken on a busy GPU)",
        )
    _load_runtime(cuda)
    import tvm

    device = _device(spec["device"])
    results: dict[str, Any] = {"round": spec["round"], "gpu": "", "times": {}, "errors": {}}
    if cuda and not device.exist:
        raise _no_gpu("TVM's runtime finds no CUDA device (no NVIDIA GPU, or no driver)")
    if cuda:
        results["gpu"] = str(device.device_name)
        if spec.get("gpu") and results["gpu"] != spec["gpu"]:
            raise Refused(
                f"this is a {results['gpu']}; the round's database was measured on "
                f"{spec['gpu']}, and timings of two GPUs do not mix",
                f"measure it on a {spec['gpu']}, or tune for this GPU into a new database "
                "(tune --db DIR)",
            )
    if busy:
        results["busy"] = busy
    for item in spec["candidates"]:
        key = item["file"]
        try:
            if item.get("cubin"):
                _hand_cubin((folder / item["cubin"]).read_bytes())
            module = tvm.runtime.load_module(str(folder / key))
            args = _arguments(item["args_info"], device)
            evaluator = module.time_evaluator(
                module.entry_name, device, number=number, repeat=repeat, min_repeat_ms=0
            )
            device.sync()
            results["times"][key] = list(evaluator(*args).results)
        except Exception as exc:  # one candidate failing to load or run is a result too
            results["errors"][key] = f"{type(exc).__name__}: {exc}"
            print(traceback.format_exc(), file=sys.stderr)
    results["measured_at"] = time.strftime("%Y-%m-%dT%H:%M:%S")
    tmp = folder / f".{RESULTS}.tmp"
    tmp.write_text(json.dumps(results, indent=1), encoding="utf-8")
    os.replace(tmp, folder / RESULTS)
    return results


if __name__ == "__main__":
    try:
        done = measure(Path(sys.argv[1]), busy_ok="--busy-ok" in sys.argv[2:])
    except Refused as refused:
        print(f"not measured: {refused}\nwhat to do: {refused.hint}", file=sys.stderr)
        sys.exit(REFUSED_EXIT)
    print(
        f"{len(done['times'])} candidates measured, {len(done['errors'])} failed, GPU {done['gpu']}"
    )
    if done.get("busy"):
        print(f"measured anyway on a busy GPU: {done['busy']}")
