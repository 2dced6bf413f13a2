"""The workspace's model on GPU 0, run with the workspace's own cubin: the runtime hands the
module's CUDA source to ``tvm_callback_cuda_compile`` at load time, and the callback returns
``module.cubin`` only if that source is byte for byte the one the workspace was built from."""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path

from .protocol import EXIT_BAD_INPUT, EXIT_NO_GPU, EXIT_SOURCE_MISMATCH, RunnerError
from .tvm_runtime import import_tvm


def install_cubin(tvm_ffi, workspace: Path, files: dict[str, str]) -> dict[str, int]:  # noqa: ANN001
    """Make TVM's runtime load the workspace's cubin for the module source it was built from
    (and refuse any other source); returns the counts of loads and refusals."""
    expected = (workspace / files["tvm_source"]).read_bytes()
    cubin = (workspace / files["cubin"]).read_bytes()
    calls = {"count": 0, "mismatch": 0}

    def compile_callback(code, *_target):  # noqa: ANN001, ANN202 - called by TVM's runtime
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


class Model:
    """The workspace's model loaded on GPU 0 with its own cubin, ready to call."""

    def __init__(self, workspace: Path, inputs_npz: Path | None, seed: int) -> None:
        self.manifest = json.loads((workspace / "manifest.json").read_text(encoding="utf-8"))
        arrays = _arrays(self.manifest, workspace, inputs_npz, seed)
        self.tvm, tvm_ffi = import_tvm()
        self.calls = install_cubin(tvm_ffi, workspace, self.manifest["files"])
        self.device = self.tvm.cuda(0)
        if not self.device.exist:
            raise RunnerError("no CUDA GPU is visible to this process", EXIT_NO_GPU)
        try:
            lib = self.tvm.runtime.load_module(str(workspace / self.manifest["files"]["library"]))
            self.vm = self.tvm.runtime.vm.VirtualMachine(lib, self.device)
            self.func = self.vm[self.manifest["entry"]]
            self.args = [self.tvm.runtime.tensor(a, self.device) for a in arrays]
        except Exception as exc:
            self._explain_load_failure(exc)
            raise

    def _explain_load_failure(self, exc: Exception) -> None:
        if self.calls["mismatch"]:
            raise RunnerError(
                "the CUDA source TVM loads is not the one this workspace's cubin was built "
                "from; refusing to run different code (rebuild the workspace)",
                EXIT_SOURCE_MISMATCH,
            ) from exc

    def run(self, times: int) -> None:
        try:
            for _ in range(times):
                self.func(*self.args)
            self.device.sync()
        except Exception as exc:
            self._explain_load_failure(exc)
            raise

    def kernels_by_primfunc(self) -> dict[str, list[str]]:
        """The PrimFuncs that launch kernels, each with its kernels in launch order."""
        found: dict[str, list[str]] = {}
        for k in self.manifest["kernels"]:
            if k.get("launched", True) and k.get("primfunc"):
                found.setdefault(k["primfunc"], []).append(k["name"])
        return found


def device_name(device) -> str:  # noqa: ANN001
    return str(getattr(device, "device_name", "cuda:0"))


def run(workspace: Path, inputs_npz: Path | None, warmup: int, iterations: int, seed: int) -> dict:
    model = Model(workspace, inputs_npz, seed)
    model.run(warmup)
    times = []
    for _ in range(iterations):
        start = time.perf_counter()
        model.run(1)
        times.append(time.perf_counter() - start)
    return {
        "iterations": iterations,
        "warmup": warmup,
        "mean_ms": 1000 * sum(times) / len(times) if times else None,
        "min_ms": 1000 * min(times) if times else None,
        "cubin_loads": model.calls["count"],
        "device": device_name(model.device),
    }
