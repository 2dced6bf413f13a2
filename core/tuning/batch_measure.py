"""Measure one round of tuning candidates on a GPU: ``python batch_measure.py ROUND_DIR``
(``kernelscope measure-batch ROUND_DIR`` runs this file too).

Standalone on purpose: the GPU machine of a batch job (a cluster queue, an air-gapped box)
needs only Python, numpy and TVM's runtime (``TVM_USE_RUNTIME_LIB=1`` with the runtime-only
package), not kernelscope. Each candidate is a shared library built by ``kernelscope tune
--export-batch``; it is loaded, given random arguments of the shapes ``round.json`` lists and
timed with the runtime's ``time_evaluator`` as MetaSchedule's runners do. The times, the
GPU's name and any failure go to ``results.json`` in the same folder, written once at the end
(atomically), so an interrupted job leaves no half file to import.
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
from pathlib import Path
from typing import Any

ROUND = "round.json"
RESULTS = "results.json"


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
        ctypes.CDLL(str(lib / "libtvm_runtime_cuda.so"), ctypes.RTLD_GLOBAL)


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


def measure(folder: Path, number: int = 3, repeat: int = 1) -> dict[str, Any]:
    spec = json.loads((folder / ROUND).read_text(encoding="utf-8"))
    _load_runtime(spec["device"] == "cuda")
    import tvm

    device = _device(spec["device"])
    results: dict[str, Any] = {"round": spec["round"], "gpu": "", "times": {}, "errors": {}}
    if spec["device"] == "cuda":
        results["gpu"] = str(device.device_name)
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
    done = measure(Path(sys.argv[1]))
    print(
        f"{len(done['times'])} candidates measured, {len(done['errors'])} failed, GPU {done['gpu']}"
    )
