"""What this machine has for the runner (``--check``), and one tiny kernel (``--probe-kernel``:
under ncu, whether the process may read the performance counters)."""

from __future__ import annotations

import os
import sys
from importlib import metadata
from pathlib import Path

from .cuda import Cuda
from .protocol import RunnerError
from .tvm_runtime import import_tvm, load_tvm_cuda


def check(runtime: Path | None) -> dict:
    """Python, numpy, TVM, PyTorch and the CUDA driver as this process sees them (never
    raises)."""
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
        load_tvm_cuda()
        report["tvm_cuda"] = {"ok": True}
    except RunnerError as exc:
        report["tvm_cuda"] = {"error": str(exc)}
    try:
        tvm, _ = import_tvm(cuda=False)
        report["tvm"] = {
            "version": str(getattr(tvm, "__version__", "?")),
            "path": str(Path(tvm.__file__).parent),
            "runtime_only": os.environ.get("TVM_USE_RUNTIME_LIB") == "1",
        }
    except RunnerError as exc:
        report["tvm"] = {"error": str(exc), "code": exc.code}
    except Exception as exc:  # noqa: BLE001 - C++ errors of a broken install
        report["tvm"] = {"error": f"{type(exc).__name__}: {exc}"}
    for package in ("torch", "triton"):  # for PyTorch models; found without importing them
        try:
            report[package] = {"version": metadata.version(package)}
        except metadata.PackageNotFoundError:
            report[package] = {"error": f"no {package} for this Python"}
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
