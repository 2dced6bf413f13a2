"""The few CUDA driver calls the timeline and the probe need, through ctypes."""

from __future__ import annotations

import ctypes
from typing import Any

from .protocol import EXIT_NO_GPU, RunnerError

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

# Launched (one thread, no work) at the start of each step profiled with ``--profile-steps``:
# a report's launches split into steps at its launches (``core/ncu/steps``).
STEP_MARKER = "kernelscope_step_marker"
_MARKER_PTX = b"""
.version 6.0
.target sm_50
.address_size 64

.visible .entry kernelscope_step_marker()
{
    ret;
}
\0"""

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
            "cuProfilerStart": [],
            "cuProfilerStop": [],
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
        self._marker: ctypes.c_void_p | None = None

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

    def _function(self, ptx: bytes, name: str) -> ctypes.c_void_p:
        module, func = ctypes.c_void_p(), ctypes.c_void_p()
        self.check(self.lib.cuModuleLoadData(ctypes.byref(module), ptx), "cuModuleLoadData")
        self.check(
            self.lib.cuModuleGetFunction(ctypes.byref(func), module, name.encode()),
            "cuModuleGetFunction",
        )
        return func

    def profiler_start(self) -> None:
        """Start the profiler's capture (``ncu --profile-from-start off`` profiles from here)."""
        self.check(self.lib.cuProfilerStart(), "cuProfilerStart")

    def profiler_stop(self) -> None:
        self.check(self.lib.cuProfilerStop(), "cuProfilerStop")

    def load_marker(self) -> None:
        """Load the step marker's module now: loading it inside a profiled step would be a
        driver call ncu sees there."""
        if self._marker is None:
            self._marker = self._function(_MARKER_PTX, STEP_MARKER)

    def marker(self) -> None:
        """Launch the step marker kernel (one thread that returns at once)."""
        self.load_marker()
        self.check(
            self.lib.cuLaunchKernel(self._marker, 1, 1, 1, 1, 1, 1, 0, None, None, None),
            "cuLaunchKernel",
        )

    def spin(self, nanoseconds: int) -> None:
        """Launch one thread that busy-waits ``nanoseconds`` on the GPU's global timer."""
        if self._spin is None:
            self._spin = self._function(_SPIN_PTX, "kernelscope_spin")
        arg = ctypes.c_uint64(nanoseconds)
        params = (ctypes.c_void_p * 1)(ctypes.cast(ctypes.pointer(arg), ctypes.c_void_p))
        self.check(
            self.lib.cuLaunchKernel(self._spin, 1, 1, 1, 1, 1, 1, 0, None, params, None),
            "cuLaunchKernel",
        )
