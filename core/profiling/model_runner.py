"""Runs a workspace's built model on the GPU: the program kernelscope profiles under ncu.

Usage: ``python model_runner.py WORKSPACE [--inputs inputs.npz] [--warmup N] [--iterations N]``

This file stands alone (standard library, numpy and TVM's runtime only) so it can be copied
next to a workspace on a GPU machine that has no kernelscope, only a runtime-only TVM
(``TVM_USE_RUNTIME_LIB=1``, see DESIGN.md). It makes TVM use the workspace's own cubin: the
runtime hands the module's CUDA source to ``tvm_callback_cuda_compile`` at load time, and
the callback returns ``module.cubin`` only if that source is byte for byte the one the
workspace was built from. It prints one JSON line starting with ``KERNELSCOPE_RESULT``.
"""

from __future__ import annotations

import argparse
import ctypes
import hashlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

RESULT_TAG = "KERNELSCOPE_RESULT "
EXIT_BAD_INPUT = 3
EXIT_SOURCE_MISMATCH = 4


class RunnerError(Exception):
    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


def _import_tvm() -> tuple[Any, Any]:
    """Import TVM; with a runtime-only install, load its CUDA runtime library first."""
    import tvm_ffi  # loads libtvm_ffi.so, which TVM's runtime libraries link against

    if os.environ.get("TVM_USE_RUNTIME_LIB") == "1":
        import importlib.util

        spec = importlib.util.find_spec("tvm")
        if spec and spec.submodule_search_locations:
            lib = Path(next(iter(spec.submodule_search_locations))) / "lib"
            ctypes.CDLL(str(lib / "libtvm_runtime_cuda.so"), ctypes.RTLD_GLOBAL)
    import tvm
    import tvm.runtime.vm  # noqa: F401 - not imported by `import tvm` alone

    return tvm, tvm_ffi


def install_cubin(tvm_ffi: Any, workspace: Path, files: dict[str, str]) -> dict[str, int]:
    """Make TVM's runtime load the workspace's cubin for the module source it was built from
    (and refuse any other source); returns the counts of loads and refusals."""
    expected = (workspace / files["tvm_source"]).read_bytes()
    cubin = (workspace / files["cubin"]).read_bytes()
    calls = {"count": 0, "mismatch": 0}

    def compile_callback(code: Any, *_target: Any) -> bytearray:  # TVM's runtime calls it
        got = code.encode() if isinstance(code, str) else bytes(code)
        if hashlib.sha256(got).digest() != hashlib.sha256(expected).digest():
            calls["mismatch"] += 1
            raise RunnerError(
                "the CUDA source TVM loads is not the one this workspace's cubin was built "
                "from; refusing to run different code (rebuild the workspace)",
                EXIT_SOURCE_MISMATCH,
            )
        calls["count"] += 1
        return bytearray(cubin)

    tvm_ffi.register_global_func("tvm_callback_cuda_compile", compile_callback, override=True)
    return calls


def _arrays(manifest: dict, workspace: Path, inputs_npz: Path | None, seed: int) -> list:
    """Inputs from the .npz or seeded random values; weights from the .npz or params.npz.

    With ``params_mode == "runtime"`` the weights are inputs without values, so then every
    input must come from the .npz.
    """
    import numpy as np

    rng = np.random.default_rng(seed)
    given = dict(np.load(inputs_npz)) if inputs_npz else {}
    stored = {}
    if "params" in manifest["files"]:
        stored = dict(np.load(workspace / manifest["files"]["params"]))
    wanted = manifest["inputs"] + manifest["weights"]
    unknown = sorted(set(given) - {t["name"] for t in wanted})
    if unknown:
        raise RunnerError(
            f"the .npz has arrays the model does not take: {', '.join(unknown)} "
            f"(it takes: {', '.join(t['name'] for t in wanted)})",
            EXIT_BAD_INPUT,
        )
    strict = manifest.get("params_mode") == "runtime"
    missing = [
        f"{t['name']!r} ({t['dtype']}{list(t['shape'])})"
        for i, t in enumerate(wanted)
        if t["name"] not in given
        and t["name"] not in stored
        and (strict or i >= len(manifest["inputs"]))
    ]
    if missing:
        why = " (the workspace was built with --params runtime)" if strict else ""
        raise RunnerError(
            f"no value for {', '.join(missing)}{why}: give them in the --inputs .npz",
            EXIT_BAD_INPUT,
        )
    values = []
    for info in wanted:
        name, shape, dtype = info["name"], tuple(info["shape"]), info["dtype"]
        value = given.get(name, stored.get(name))
        if value is None:
            value = rng.standard_normal(shape).astype(dtype)
        if tuple(value.shape) != shape or str(value.dtype) != dtype:
            raise RunnerError(
                f"{name}: the model takes {dtype}{list(shape)}, "
                f"the .npz has {value.dtype}{list(value.shape)}",
                EXIT_BAD_INPUT,
            )
        values.append(value)
    return values


def run(workspace: Path, inputs_npz: Path | None, warmup: int, iterations: int, seed: int) -> dict:
    manifest = json.loads((workspace / "manifest.json").read_text(encoding="utf-8"))
    arrays = _arrays(manifest, workspace, inputs_npz, seed)
    tvm, tvm_ffi = _import_tvm()
    calls = install_cubin(tvm_ffi, workspace, manifest["files"])
    device = tvm.cuda(0)
    if not device.exist:
        raise RunnerError("no CUDA GPU is visible to this process")
    try:
        lib = tvm.runtime.load_module(str(workspace / manifest["files"]["library"]))
        vm = tvm.runtime.vm.VirtualMachine(lib, device)
        func = vm[manifest["entry"]]
        args = [tvm.runtime.tensor(a, device) for a in arrays]
        for _ in range(warmup):
            func(*args)
        device.sync()
    except Exception as exc:
        if calls["mismatch"]:
            raise RunnerError(
                "the CUDA source TVM loads is not the one this workspace's cubin was built "
                "from; refusing to run different code (rebuild the workspace)",
                EXIT_SOURCE_MISMATCH,
            ) from exc
        raise
    times = []
    for _ in range(iterations):
        start = time.perf_counter()
        func(*args)
        device.sync()
        times.append(time.perf_counter() - start)
    return {
        "iterations": iterations,
        "warmup": warmup,
        "mean_ms": 1000 * sum(times) / len(times) if times else None,
        "min_ms": 1000 * min(times) if times else None,
        "cubin_loads": calls["count"],
        "device": str(getattr(device, "device_name", "cuda:0")),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workspace", type=Path)
    parser.add_argument("--inputs", type=Path, help=".npz with input (and weight) arrays by name")
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        result = run(args.workspace, args.inputs, args.warmup, args.iterations, args.seed)
    except RunnerError as exc:
        print(f"kernelscope runner: {exc}", file=sys.stderr)
        return exc.code
    print(RESULT_TAG + json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
