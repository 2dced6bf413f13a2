"""Runs a workspace's built model on the GPU: the program kernelscope profiles under ncu.

Usage::

    python model_runner.py WORKSPACE [--inputs in.npz] [--warmup N] [--iterations N]
    python model_runner.py WORKSPACE --timeline [--warmup N] [--repeat N]
    python model_runner.py --check [--tvm-version V]     # what this machine has for the runner
    python model_runner.py --probe-kernel                # one tiny kernel (ncu permission probe)

This file stands alone (standard library, numpy and TVM's runtime only) so it can be copied
next to a workspace on a GPU machine that has no kernelscope, only a runtime-only TVM
(``TVM_USE_RUNTIME_LIB=1``, see DESIGN.md). It makes TVM use the workspace's own cubin: the
runtime hands the module's CUDA source to ``tvm_callback_cuda_compile`` at load time, and
the callback returns ``module.cubin`` only if that source is byte for byte the one the
workspace was built from. It prints one JSON line starting with ``KERNELSCOPE_RESULT``.

TVM comes from ``--runtime DIR``, else from the folder ``kernelscope remote-install`` fills
(``<runtime root>/tvm-<version>-cp<XY>``, the root being ``--runtime-root``,
``$KERNELSCOPE_RUNTIME_ROOT`` or ``~/.cache/kernelscope/runtime``), else from this Python.

Timeline: every kernel call of one forward pass, timed with CUDA events recorded around
each PrimFunc call (``VirtualMachine.set_instrument``), through the CUDA driver API. A
kernel that spins on the GPU first holds the stream while the whole pass is enqueued, so
the GPU runs the calls back to back and an event pair measures the kernel, not Python's
launch overhead; the result says whether the queue stayed ahead of the GPU.

The events cost the stream time of their own, which lands in every pair: on an H200 a pair
around a kernel reads 2.0-2.3 us longer than Nsight Compute's ``gpu__time_duration`` of the
same launch (around a kernel that spins a known time: 2.25 us), while records back to back
are only 1.26 us apart, so taking one record's cost off each call left the timeline ~1 us
above ncu (issue 19). What the events add to a call is measured per run instead, against the
same pass without them (``call_overhead_us``): the instrumented calls' sum less the plain
pass's GPU time, per call. Each call loses that (``calibrate``), which leaves in it only the
gap a plain run has between kernels (~0.1-0.2 us), and keeps the measured pair as ``raw_us``.
"""

from __future__ import annotations

import argparse
import ctypes
import hashlib
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

RESULT_TAG = "KERNELSCOPE_RESULT "
EXIT_BAD_INPUT = 3
EXIT_SOURCE_MISMATCH = 4
EXIT_NO_GPU = 5
EXIT_OLD_PYTHON = 6
EXIT_NO_TVM = 7
# TVM 0.27's Python code needs 3.10 (apache-tvm's Requires-Python); numpy.random.default_rng
# (the seeded inputs) is numpy 1.17.
MIN_PYTHON = (3, 10)
MIN_NUMPY = (1, 17)
RUNTIME_ROOT_ENV = "KERNELSCOPE_RUNTIME_ROOT"
RUNTIME_MARKER = "kernelscope-runtime.json"

_SPIN_PTX = b"""
.version 6.0
.target sm_50
.address_size 64

.visible .entry kernelscope_spin(.param .u64 kernelscope_spin_ns)
{
    .reg .pred %p<2>;
    .reg .b64 %rd<5>;
    ld.param.u64 %rd1, [kernelscope_spin_ns];
    mov.u64 %rd2, %globaltimer;
$Lspin:
    mov.u64 %rd3, %globaltimer;
    sub.s64 %rd4, %rd3, %rd2;
    setp.lt.u64 %p1, %rd4, %rd1;
    @%p1 bra $Lspin;
    ret;
}
\0"""


class RunnerError(Exception):
    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


# --- where TVM comes from --------------------------------------------------------------


def runtime_name(tvm_version: str, version_info: tuple = tuple(sys.version_info)) -> str:
    """The folder name of an installed runtime-only TVM for this Python."""
    return f"tvm-{tvm_version}-cp{version_info[0]}{version_info[1]}"


def runtime_root(given: str | None = None) -> Path:
    if given:
        return Path(given).expanduser()
    if os.environ.get(RUNTIME_ROOT_ENV):
        return Path(os.environ[RUNTIME_ROOT_ENV]).expanduser()
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "kernelscope" / "runtime"


def select_runtime(explicit: str | None, root: str | None, tvm_version: str | None) -> Path | None:
    """The runtime-only TVM folder to use, or None for this Python's own ``tvm``."""
    if explicit:
        folder = Path(explicit).expanduser()
        if not (folder / "tvm").is_dir():
            raise RunnerError(f"--runtime {folder}: no tvm/ folder in it", EXIT_NO_TVM)
        return folder
    if tvm_version:
        folder = runtime_root(root) / runtime_name(tvm_version)
        if (folder / RUNTIME_MARKER).is_file():
            return folder
    return None


def use_runtime(folder: Path | None) -> None:
    """Put a runtime-only TVM (and what was installed beside it) first on ``sys.path``."""
    if folder is not None:
        sys.path.insert(0, str(folder))
        os.environ["TVM_USE_RUNTIME_LIB"] = "1"


def _import_ffi():  # noqa: ANN202 - the tvm_ffi module
    """``import tvm_ffi``, which loads libtvm_ffi.so: TVM's runtime libraries link against
    it, and it lives in tvm_ffi/lib, not beside them, so they load only after it."""
    try:
        import tvm_ffi
    except ImportError as exc:
        raise RunnerError(
            f"no TVM runtime for this Python ({sys.executable}): {exc}", EXIT_NO_TVM
        ) from exc
    return tvm_ffi


def _load_tvm_cuda() -> None:
    """With a runtime-only TVM, load its CUDA runtime library (it needs the driver's
    libcuda.so.1) before ``import tvm``; a full TVM loads it itself."""
    if os.environ.get("TVM_USE_RUNTIME_LIB") != "1":
        return
    import importlib.util

    _import_ffi()
    spec = importlib.util.find_spec("tvm")
    if spec and spec.submodule_search_locations:
        lib = Path(next(iter(spec.submodule_search_locations))) / "lib"
        try:
            ctypes.CDLL(str(lib / "libtvm_runtime_cuda.so"), ctypes.RTLD_GLOBAL)
        except OSError as exc:
            raise RunnerError(
                f"TVM's CUDA runtime does not load: {exc}"
                + (" (no NVIDIA driver on this machine)" if "libcuda" in str(exc) else ""),
                EXIT_NO_GPU,
            ) from exc


def _import_tvm(cuda: bool = True):  # noqa: ANN202 - the tvm module
    """Import TVM (with its CUDA runtime unless ``cuda`` is False)."""
    tvm_ffi = _import_ffi()
    if cuda:
        _load_tvm_cuda()
    try:
        import tvm
        import tvm.runtime.vm  # noqa: F401 - not imported by `import tvm` alone
    except ImportError as exc:
        raise RunnerError(f"TVM does not import: {exc}", EXIT_NO_TVM) from exc
    return tvm, tvm_ffi


# --- the model ---------------------------------------------------------------------------


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


class _Model:
    """The workspace's model loaded on GPU 0 with its own cubin, ready to call."""

    def __init__(self, workspace: Path, inputs_npz: Path | None, seed: int) -> None:
        self.manifest = json.loads((workspace / "manifest.json").read_text(encoding="utf-8"))
        arrays = _arrays(self.manifest, workspace, inputs_npz, seed)
        self.tvm, tvm_ffi = _import_tvm()
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


def _device_name(device) -> str:  # noqa: ANN001
    return str(getattr(device, "device_name", "cuda:0"))


def run(workspace: Path, inputs_npz: Path | None, warmup: int, iterations: int, seed: int) -> dict:
    model = _Model(workspace, inputs_npz, seed)
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
        "device": _device_name(model.device),
    }


# --- the CUDA driver API ----------------------------------------------------------------

CUDA_SUCCESS = 0
CUDA_ERROR_NOT_READY = 600
_ATTR_CC_MAJOR, _ATTR_CC_MINOR = 75, 76


class Cuda:
    """The few CUDA driver calls the timeline needs, through ctypes: ``libcuda.so.1`` comes
    with the NVIDIA driver, so this needs no CUDA toolkit and no Python package."""

    def __init__(self) -> None:
        try:
            self.lib = ctypes.CDLL("libcuda.so.1")
        except OSError as exc:
            raise RunnerError(
                f"the NVIDIA driver's libcuda.so.1 does not load ({exc}): no NVIDIA driver here",
                EXIT_NO_GPU,
            ) from exc
        vp, c_int, c_uint = ctypes.c_void_p, ctypes.c_int, ctypes.c_uint
        pvp, pint = ctypes.POINTER(vp), ctypes.POINTER(c_int)
        signatures = {
            "cuInit": [c_uint],
            "cuDriverGetVersion": [pint],
            "cuDeviceGetCount": [pint],
            "cuDeviceGet": [pint, c_int],
            "cuDeviceGetName": [ctypes.c_char_p, c_int, c_int],
            "cuDeviceGetAttribute": [pint, c_int, c_int],
            "cuDeviceTotalMem_v2": [ctypes.POINTER(ctypes.c_size_t), c_int],
            "cuDevicePrimaryCtxRetain": [pvp, c_int],
            "cuCtxSetCurrent": [vp],
            "cuCtxSynchronize": [],
            "cuEventCreate": [pvp, c_uint],
            "cuEventRecord": [vp, vp],
            "cuEventQuery": [vp],
            "cuEventDestroy_v2": [vp],
            "cuModuleLoadData": [pvp, ctypes.c_char_p],
            "cuModuleGetFunction": [pvp, vp, ctypes.c_char_p],
            "cuLaunchKernel": [vp, *[c_uint] * 6, c_uint, vp, pvp, pvp],
            "cuGetErrorName": [c_int, ctypes.POINTER(ctypes.c_char_p)],
        }
        for name, argtypes in signatures.items():
            try:
                fn = getattr(self.lib, name)
            except AttributeError as exc:
                raise RunnerError(
                    f"the NVIDIA driver's libcuda.so.1 has no {name} ({exc}): the driver is "
                    "too old or not NVIDIA's",
                    EXIT_NO_GPU,
                ) from exc
            fn.argtypes, fn.restype = argtypes, c_int
        # CUDA 12.8 added a _v2 that the headers map cuEventElapsedTime to; older drivers
        # have only the first one. Same signature.
        self._elapsed: Any = getattr(self.lib, "cuEventElapsedTime_v2", None)
        if self._elapsed is None:
            self._elapsed = self.lib.cuEventElapsedTime
        self._elapsed.argtypes = [ctypes.POINTER(ctypes.c_float), vp, vp]
        self._elapsed.restype = c_int
        self.check(self.lib.cuInit(0), "cuInit")
        self._spin: ctypes.c_void_p | None = None

    def check(self, rc: int, what: str) -> None:
        if rc != CUDA_SUCCESS:
            name = ctypes.c_char_p()
            self.lib.cuGetErrorName(rc, ctypes.byref(name))
            label = name.value.decode() if name.value else str(rc)
            code = EXIT_NO_GPU if what in ("cuInit", "cuDeviceGet") else 1
            raise RunnerError(f"{what} failed: {label}", code)

    def driver_version(self) -> int:
        v = ctypes.c_int()
        self.check(self.lib.cuDriverGetVersion(ctypes.byref(v)), "cuDriverGetVersion")
        return v.value

    def devices(self) -> list[dict]:
        count = ctypes.c_int()
        self.check(self.lib.cuDeviceGetCount(ctypes.byref(count)), "cuDeviceGetCount")
        found = []
        for ordinal in range(count.value):
            dev, major, minor = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
            self.check(self.lib.cuDeviceGet(ctypes.byref(dev), ordinal), "cuDeviceGet")
            name = ctypes.create_string_buffer(256)
            self.check(self.lib.cuDeviceGetName(name, 256, dev), "cuDeviceGetName")
            self.lib.cuDeviceGetAttribute(ctypes.byref(major), _ATTR_CC_MAJOR, dev)
            self.lib.cuDeviceGetAttribute(ctypes.byref(minor), _ATTR_CC_MINOR, dev)
            mem = ctypes.c_size_t()
            self.lib.cuDeviceTotalMem_v2(ctypes.byref(mem), dev)
            found.append(
                {
                    "index": ordinal,
                    "name": name.value.decode(errors="replace"),
                    "compute_capability": f"{major.value}.{minor.value}",
                    "memory_mib": mem.value // (1 << 20),
                }
            )
        return found

    def use_primary_context(self, ordinal: int = 0) -> None:
        """Make GPU ``ordinal``'s primary context current: the one TVM's runtime uses."""
        dev, ctx = ctypes.c_int(), ctypes.c_void_p()
        self.check(self.lib.cuDeviceGet(ctypes.byref(dev), ordinal), "cuDeviceGet")
        self.check(
            self.lib.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain"
        )
        self.check(self.lib.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")

    def event(self) -> ctypes.c_void_p:
        ev = ctypes.c_void_p()
        self.check(self.lib.cuEventCreate(ctypes.byref(ev), 0), "cuEventCreate")
        return ev

    def record(self, ev: ctypes.c_void_p) -> None:
        """Record on the legacy default stream, where TVM launches its kernels."""
        self.check(self.lib.cuEventRecord(ev, None), "cuEventRecord")

    def reached(self, ev: ctypes.c_void_p) -> bool:
        rc = self.lib.cuEventQuery(ev)
        if rc == CUDA_ERROR_NOT_READY:
            return False
        self.check(rc, "cuEventQuery")
        return True

    def elapsed_ms(self, start: object, end: object) -> float:
        """Milliseconds between two recorded events (``record``'s tokens)."""
        ms = ctypes.c_float()
        self.check(self._elapsed(ctypes.byref(ms), start, end), "cuEventElapsedTime")
        return ms.value

    def destroy(self, ev: ctypes.c_void_p) -> None:
        self.lib.cuEventDestroy_v2(ev)

    def synchronize(self) -> None:
        self.check(self.lib.cuCtxSynchronize(), "cuCtxSynchronize")

    def spin(self, nanoseconds: int) -> None:
        """Launch one thread that busy-waits ``nanoseconds`` on the GPU's global timer."""
        if self._spin is None:
            module, func = ctypes.c_void_p(), ctypes.c_void_p()
            self.check(
                self.lib.cuModuleLoadData(ctypes.byref(module), _SPIN_PTX), "cuModuleLoadData"
            )
            self.check(
                self.lib.cuModuleGetFunction(ctypes.byref(func), module, b"kernelscope_spin"),
                "cuModuleGetFunction",
            )
            self._spin = func
        arg = ctypes.c_uint64(nanoseconds)
        params = (ctypes.c_void_p * 1)(ctypes.cast(ctypes.pointer(arg), ctypes.c_void_p))
        self.check(
            self.lib.cuLaunchKernel(self._spin, 1, 1, 1, 1, 1, 1, 0, None, params, None),
            "cuLaunchKernel",
        )


# --- the timeline ------------------------------------------------------------------------


class CallRecorder:
    """A ``VirtualMachine.set_instrument`` callback that marks the start and end of every
    call of a PrimFunc that launches kernels; the VM's own builtins are left alone.

    ``mark()`` returns a token (a recorded CUDA event; any timestamp in tests).
    """

    def __init__(self, kernels_of: dict[str, list[str]], mark) -> None:  # noqa: ANN001
        self.kernels_of = kernels_of
        self.mark = mark
        self.calls: list[tuple[str, object, object]] = []
        self._open: tuple[str, object] | None = None
        self.enabled = True

    def __call__(self, func, symbol, before, ret, *args) -> int:  # noqa: ANN001
        name = str(symbol)
        if self.enabled and name in self.kernels_of:
            if before:
                self._open = (name, self.mark())
            elif self._open is not None and self._open[0] == name:
                self.calls.append((name, self._open[1], self.mark()))
                self._open = None
        return 0  # VMInstrumentReturnKind.NoOp: run the call

    def take(self) -> list[tuple[str, object, object]]:
        calls, self.calls = self.calls, []
        return calls


class EventPool:
    """CUDA events made once and recorded again in every pass: creating an event per mark
    would add a driver call to each kernel call's enqueue."""

    def __init__(self, cuda: Cuda) -> None:
        self.cuda = cuda
        self.events: list[ctypes.c_void_p] = []
        self.used = 0

    def mark(self) -> ctypes.c_void_p:
        if self.used == len(self.events):
            self.events.append(self.cuda.event())
        ev = self.events[self.used]
        self.used += 1
        self.cuda.record(ev)
        return ev

    def reset(self) -> None:
        """Reuse the events (after the GPU reached them: ``synchronize`` first)."""
        self.used = 0

    def close(self) -> None:
        for ev in self.events:
            self.cuda.destroy(ev)
        self.events.clear()
        self.used = 0


def _saturated_pass(model: _Model, cuda: Cuda, spin_ns: int, before, after) -> tuple[bool, float]:  # noqa: ANN001
    """One forward pass enqueued behind a spinning kernel; True when the GPU was still
    spinning after the whole pass was enqueued (so it never waited for the CPU)."""
    cuda.spin(spin_ns)
    spun = cuda.event()
    cuda.record(spun)
    before()
    start = time.perf_counter()
    model.func(*model.args)
    enqueue = time.perf_counter() - start
    after()
    ahead = not cuda.reached(spun)
    cuda.synchronize()
    cuda.destroy(spun)
    return ahead, enqueue


def record_cost_us(cuda: Cuda, spin_ns: int, events: int = 65) -> list[float]:
    """The GPU time between CUDA event records enqueued back to back behind a spinning
    kernel (microseconds, one per pair): what recording one event costs the stream.

    The plain pass is timed between two records, so one record's cost is in its time
    (``call_overhead_us``); a pair around a kernel costs more than this (see the module's
    docstring)."""
    pool = EventPool(cuda)
    try:
        cuda.spin(spin_ns)
        marks = [pool.mark() for _ in range(events)]
        cuda.synchronize()
        return [1000 * cuda.elapsed_ms(marks[i], marks[i + 1]) for i in range(len(marks) - 1)]
    finally:
        pool.close()


def call_overhead_us(raw_us: list[float], plain_gpu_us: float, record_us: float) -> float:
    """What the event pair adds to each call: the calls as timed (``raw_us``) less the same
    pass timed whole without per-call events (``plain_gpu_us``, between two records, so
    with one record's cost ``record_us`` in it), per call. Never less than one record's
    cost (a pass that was not enqueued ahead of the GPU has launch gaps in the plain time)."""
    if not raw_us:
        return record_us
    return max((sum(raw_us) - (plain_gpu_us - record_us)) / len(raw_us), record_us)


def calibrate(calls: list[dict], overhead_us: float, between_us: float) -> list[dict]:
    """Calls timed by event pairs (``start_us``/``duration_us``/``min_us``/``max_us`` as
    measured) less what the events add: each duration loses ``overhead_us``, each start
    ``overhead_us + between_us`` (the pair's cost and the record between two pairs) per
    call before it; a start never falls before the end of the call before it. The measured
    duration stays as ``raw_us``."""
    out: list[dict] = []
    end = 0.0
    for i, call in enumerate(calls):
        fixed = dict(call)
        fixed["raw_us"] = call["duration_us"]
        for key in ("duration_us", "min_us", "max_us"):
            fixed[key] = max(call[key] - overhead_us, 0.0)
        fixed["start_us"] = max(call["start_us"] - i * (overhead_us + between_us), end)
        end = fixed["start_us"] + fixed["duration_us"]
        out.append(fixed)
    return out


def timeline(workspace: Path, inputs_npz: Path | None, warmup: int, repeat: int, seed: int) -> dict:
    model = _Model(workspace, inputs_npz, seed)
    kernels_of = model.kernels_by_primfunc()
    model.run(max(warmup, 1))  # loads the cubin, fills the memory pool
    cuda = Cuda()
    cuda.use_primary_context(0)

    plain_wall = []
    for _ in range(max(repeat, 1)):
        start = time.perf_counter()
        model.run(1)
        plain_wall.append(1000 * (time.perf_counter() - start))
    start = time.perf_counter()
    model.func(*model.args)
    plain_enqueue = time.perf_counter() - start
    model.device.sync()

    pool = EventPool(cuda)
    recorder = CallRecorder(kernels_of, pool.mark)
    model.vm.set_instrument(recorder)
    # Long enough to enqueue a pass several times over; doubled when the GPU caught up.
    spin_ns = int(min(max(8 * plain_enqueue, 0.02), 2.0) * 1e9)

    # The whole pass without per-call events, for the events' own cost.
    recorder.enabled = False
    plain_gpu = []
    marks: list = []

    def mark() -> None:
        marks.append(pool.mark())

    for _ in range(max(repeat, 1)):
        marks.clear()
        _saturated_pass(model, cuda, spin_ns, mark, mark)
        plain_gpu.append(1000 * cuda.elapsed_ms(marks[0], marks[1]))
        pool.reset()
    recorder.enabled = True
    record_cost = record_cost_us(cuda, spin_ns)
    record = statistics.median(record_cost)

    passes, saturated, enqueue_ms = [], [], []
    for _ in range(max(repeat, 1)):
        for attempt in range(4):
            ahead, enqueue = _saturated_pass(model, cuda, spin_ns, lambda: None, lambda: None)
            calls = recorder.take()
            if ahead or attempt == 3:
                break
            pool.reset()
            spin_ns *= 2
        first = calls[0][1] if calls else None
        passes.append(
            [
                (name, 1000 * cuda.elapsed_ms(first, s), 1000 * cuda.elapsed_ms(s, e))
                for name, s, e in calls
            ]
        )
        saturated.append(ahead)
        enqueue_ms.append(1000 * enqueue)
        pool.reset()
    pool.close()

    lengths = {len(p) for p in passes}
    if len(lengths) != 1:
        raise RunnerError(f"the forward passes made different calls: {sorted(lengths)} calls")
    measured: list[dict[str, Any]] = []
    for i, (name, _, _) in enumerate(passes[0]):
        durations = [p[i][2] for p in passes]
        measured.append(
            {
                "primfunc": name,
                "kernels": kernels_of[name],
                "start_us": statistics.median(p[i][1] for p in passes),
                "duration_us": statistics.median(durations),
                "min_us": min(durations),
                "max_us": max(durations),
            }
        )
    gaps = [p[i + 1][1] - (p[i][1] + p[i][2]) for p in passes for i in range(len(p) - 1)]
    gap = statistics.median(gaps) if gaps else 0.0
    plain = statistics.median(plain_gpu)
    overhead = call_overhead_us([c["duration_us"] for c in measured], plain, record)
    return {
        "mode": "timeline",
        "device": _device_name(model.device),
        "driver_version": cuda.driver_version(),
        "warmup": max(warmup, 1),
        "repeat": len(passes),
        "clock": "CUDA events around each PrimFunc call, stream held by a spinning kernel; "
        "each duration less what the events add to a call against the plain pass",
        "spin_ms": spin_ns / 1e6,
        "saturated": saturated,
        "calls": calibrate(measured, overhead, gap),
        "event_overhead_us": overhead,
        "record_cost_us": {"median": record, "min": min(record_cost), "max": max(record_cost)},
        "raw_kernel_us": sum(c["duration_us"] for c in measured),
        "plain_wall_ms": statistics.median(plain_wall),
        "plain_gpu_us": plain,
        "plain_enqueue_ms": 1000 * plain_enqueue,
        "timeline_enqueue_ms": statistics.median(enqueue_ms),
        "gap_us": {"max": max(gaps) if gaps else 0.0, "median": gap},
        "cubin_loads": model.calls["count"],
    }


# --- what this machine has -------------------------------------------------------------


def check(runtime: Path | None) -> dict:
    """Python, numpy, TVM and the CUDA driver as this process sees them (never raises)."""
    report: dict = {
        "python": {
            "version": ".".join(str(v) for v in sys.version_info[:3]),
            "executable": sys.executable,
        },
        "runtime_dir": str(runtime) if runtime else None,
    }
    try:
        import numpy

        report["numpy"] = {"version": numpy.__version__}
    except ImportError as exc:
        report["numpy"] = {"error": str(exc)}
    try:
        import typing_extensions  # noqa: F401 - tvm_ffi needs it

        report["typing_extensions"] = {"ok": True}
    except ImportError as exc:
        report["typing_extensions"] = {"error": str(exc)}
    try:
        _load_tvm_cuda()
        report["tvm_cuda"] = {"ok": True}
    except RunnerError as exc:
        report["tvm_cuda"] = {"error": str(exc)}
    try:
        tvm, _ = _import_tvm(cuda=False)
        report["tvm"] = {
            "version": str(getattr(tvm, "__version__", "?")),
            "path": str(Path(tvm.__file__).parent),
            "runtime_only": os.environ.get("TVM_USE_RUNTIME_LIB") == "1",
        }
    except RunnerError as exc:
        report["tvm"] = {"error": str(exc), "code": exc.code}
    except Exception as exc:  # noqa: BLE001 - C++ errors of a broken install
        report["tvm"] = {"error": f"{type(exc).__name__}: {exc}"}
    try:
        cuda = Cuda()
        report["cuda"] = {"driver_version": cuda.driver_version(), "devices": cuda.devices()}
    except RunnerError as exc:
        report["cuda"] = {"error": str(exc)}
    return report


def probe_kernel() -> dict:
    """Launch one tiny kernel: under ncu, whether it may read the performance counters."""
    cuda = Cuda()
    cuda.use_primary_context(0)
    cuda.spin(1000)
    cuda.synchronize()
    return {"probe": "ok", "devices": cuda.devices()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workspace", type=Path, nargs="?")
    parser.add_argument("--inputs", type=Path, help=".npz with input (and weight) arrays by name")
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeline", action="store_true", help="time every kernel call")
    parser.add_argument("--repeat", type=int, default=10, help="timed passes (--timeline)")
    parser.add_argument("--check", action="store_true", help="report what this machine has")
    parser.add_argument("--probe-kernel", action="store_true", help="launch one tiny kernel")
    parser.add_argument("--runtime", help="folder with a runtime-only tvm/ (and tvm_ffi/)")
    parser.add_argument("--runtime-root", help="where kernelscope remote-install puts runtimes")
    parser.add_argument("--tvm-version", help="with --check: the TVM version to look for")
    args = parser.parse_args(argv)
    try:
        if tuple(sys.version_info[:2]) < MIN_PYTHON and not args.check:
            raise RunnerError(
                f"Python {sys.version_info[0]}.{sys.version_info[1]} is too old: TVM's "
                f"runtime needs {MIN_PYTHON[0]}.{MIN_PYTHON[1]} or newer "
                "(pass another interpreter: --remote-python)",
                EXIT_OLD_PYTHON,
            )
        if args.probe_kernel:
            result = probe_kernel()
        elif args.check:
            runtime = select_runtime(args.runtime, args.runtime_root, args.tvm_version)
            use_runtime(runtime)
            result = check(runtime)
        else:
            if args.workspace is None:
                parser.error("give a workspace (or --check / --probe-kernel)")
            manifest = json.loads((args.workspace / "manifest.json").read_text(encoding="utf-8"))
            tvm_version = manifest.get("versions", {}).get("tvm")
            use_runtime(select_runtime(args.runtime, args.runtime_root, tvm_version))
            if args.timeline:
                result = timeline(args.workspace, args.inputs, args.warmup, args.repeat, args.seed)
            else:
                result = run(args.workspace, args.inputs, args.warmup, args.iterations, args.seed)
    except RunnerError as exc:
        print(f"kernelscope runner: {exc}", file=sys.stderr, flush=True)
        return exc.code
    print(RESULT_TAG + json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
