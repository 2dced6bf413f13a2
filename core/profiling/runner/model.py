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
    symbols: dict[str, int] = {}
    values = []
    for info in wanted:
        name, dtype = info["name"], info["dtype"]
        value = given.get(name, stored.get(name))
        if value is None:
            value = random_value(rng, name, info["shape"], dtype)
        check_shape(name, info["shape"], dtype, value, symbols)
        values.append(value)
    return values


def random_value(rng, name: str, shape: list, dtype: str):  # noqa: ANN001, ANN201 - numpy
    """Seeded values of a tensor whose shape is known; a symbolic dimension cannot be made
    up, so its size must be given."""
    symbolic = [d for d in shape if not isinstance(d, int)]
    if symbolic:
        raise RunnerError(
            f"{name!r} ({dtype}{list(shape)}) has symbolic dimensions "
            f"({', '.join(map(str, symbolic))}) that no value fixes: give {name} in an "
            "--inputs .npz, build with --shape (e.g. --shape "
            f"{symbolic[0]}=128), or run the model's steps with --steps",
            EXIT_BAD_INPUT,
        )
    return rng.standard_normal(tuple(shape)).astype(dtype)


def check_shape(name: str, shape: list, dtype: str, value, symbols: dict[str, int]) -> None:  # noqa: ANN001
    """Refuse a value whose dtype or shape is not the model's; a symbolic dimension takes
    any size, the same one wherever the symbol appears (``symbols`` keeps those seen)."""
    got = [int(d) for d in value.shape]
    fits = str(value.dtype) == dtype and len(got) == len(shape)
    for want, size in zip(shape, got, strict=False):
        if isinstance(want, int):
            fits = fits and want == size
        else:
            fits = fits and symbols.setdefault(str(want), size) == size
    if not fits:
        raise RunnerError(
            f"{name}: the model takes {dtype}{list(shape)}, "
            f"the .npz has {value.dtype}{got}" + (f" (with {_bound(symbols)})" if symbols else ""),
            EXIT_BAD_INPUT,
        )


def _bound(symbols: dict[str, int]) -> str:
    return ", ".join(f"{k}={v}" for k, v in symbols.items())


def open_vm(tvm, workspace: Path, manifest: dict, device):  # noqa: ANN001, ANN201
    """The workspace's library loaded in a VirtualMachine on ``device`` and the counts of
    cubin loads and refusals (on a GPU, with the workspace's own cubin: ``install_cubin``)."""
    calls = {"count": 0, "mismatch": 0}
    if device.dlpack_device_type() == tvm.cuda(0).dlpack_device_type():
        import tvm_ffi

        calls = install_cubin(tvm_ffi, workspace, manifest["files"])
        if not device.exist:
            raise RunnerError("no CUDA GPU is visible to this process", EXIT_NO_GPU)
    try:
        lib = tvm.runtime.load_module(str(workspace / manifest["files"]["library"]))
        return tvm.runtime.vm.VirtualMachine(lib, device), calls
    except Exception as exc:
        explain_load_failure(calls, exc)
        raise


def explain_load_failure(calls: dict[str, int], exc: Exception) -> None:
    if calls["mismatch"]:
        raise RunnerError(
            "the CUDA source TVM loads is not the one this workspace's cubin was built "
            "from; refusing to run different code (rebuild the workspace)",
            EXIT_SOURCE_MISMATCH,
        ) from exc


class Model:
    """The workspace's model loaded on GPU 0 with its own cubin, ready to call."""

    def __init__(self, workspace: Path, inputs_npz: Path | None, seed: int) -> None:
        self.manifest = json.loads((workspace / "manifest.json").read_text(encoding="utf-8"))
        arrays = _arrays(self.manifest, workspace, inputs_npz, seed)
        self.tvm, _ = import_tvm()
        self.device = self.tvm.cuda(0)
        self.vm, self.calls = open_vm(self.tvm, workspace, self.manifest, self.device)
        try:
            self.func = self.vm[self.manifest["entry"]]
            self.args = [self.tvm.runtime.tensor(a, self.device) for a in arrays]
        except Exception as exc:
            explain_load_failure(self.calls, exc)
            raise

    def run(self, times: int) -> None:
        try:
            for _ in range(times):
                self.func(*self.args)
            self.device.sync()
        except Exception as exc:
            explain_load_failure(self.calls, exc)
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
