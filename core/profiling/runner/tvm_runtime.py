"""Where TVM comes from: ``--runtime DIR``, else the folder ``kernelscope remote-install``
fills (``<runtime root>/tvm-<version>-cp<XY>``), else this Python's own ``tvm``; and importing
it (a runtime-only TVM needs its CUDA runtime library loaded first)."""

from __future__ import annotations

import ctypes
import os
import sys
from pathlib import Path

from .protocol import EXIT_NO_GPU, EXIT_NO_TVM, RunnerError

RUNTIME_ROOT_ENV = "KERNELSCOPE_RUNTIME_ROOT"
RUNTIME_MARKER = "kernelscope-runtime.json"


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


def load_tvm_cuda() -> None:
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


def import_tvm(cuda: bool = True):  # noqa: ANN202 - the tvm module
    """Import TVM (with its CUDA runtime unless ``cuda`` is False)."""
    tvm_ffi = _import_ffi()
    if cuda:
        load_tvm_cuda()
    try:
        import tvm
        import tvm.runtime.vm  # noqa: F401 - not imported by `import tvm` alone
    except ImportError as exc:
        raise RunnerError(f"TVM does not import: {exc}", EXIT_NO_TVM) from exc
    return tvm, tvm_ffi
