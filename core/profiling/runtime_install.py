"""Installing a runtime-only TVM on a GPU host, from this machine's TVM, without root and
without the host downloading anything (DESIGN.md has the verified recipe).

The bundle: the installed ``tvm/`` package minus the 250 MB compiler library, ``3rdparty/``
and ``src/``; ``tvm_ffi/`` for the host's Python (this install's own when the host runs the
same Python version, else extracted from the ``apache-tvm-ffi`` wheel of the same version
that ``pip download`` fetches here for the host's Python, cached); and what the host's
Python lacks of what TVM's runtime imports (``typing_extensions`` from here, a ``numpy``
wheel for the host), and ``cloudpickle`` (pure Python, from here), which TVM's RPC server's
workers import: without it ``kernelscope tune --host`` cannot measure on the host. It is
packed once per (TVM, Python, machine) into the cache and unpacked on the host into
``<runtime root>/tvm-<version>-cp<XY>``, where the model runner looks for it, then checked
with the runner's ``--check``.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import io
import json
import logging
import platform
import shlex
import sys
import tarfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

from ..errors import KernelscopeError
from ..process import run_process
from ..tasks import Cancel, ProgressFn, check_cancel, no_progress
from . import runner
from .host_check import HostReport, check_host, local_tvm_version
from .remote import SshSession, SshTarget, explain_ssh_failure, run_command

log = logging.getLogger(__name__)

_TVM_LEFT_OUT = ("lib/libtvm_compiler.so", "3rdparty", "src")
_FFI_LEFT_OUT = ("3rdparty", "include", "src", "cython")  # headers and build inputs
_BUNDLE_FORMAT = 2  # 2: with cloudpickle


@dataclass
class InstallResult:
    host: str
    folder: str  # on the host
    bundle: Path
    bundle_bytes: int
    seconds: float
    report: HostReport  # the host checked again after the install


def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise KernelscopeError(f"the Python package {name} is not installed here")
    return Path(next(iter(spec.submodule_search_locations)))


def _skip(rel: str, left_out: tuple[str, ...], anywhere: tuple[str, ...]) -> bool:
    parts = rel.split("/")
    return any(p in anywhere for p in parts) or any(
        rel == x or rel.startswith(x + "/") for x in left_out
    )


def _add_tree(
    tar: tarfile.TarFile,
    root: Path,
    arcname: str,
    left_out: tuple[str, ...],
    anywhere: tuple[str, ...] = ("__pycache__",),
) -> None:
    """``root``'s files as ``arcname/...``, without the paths in ``left_out`` (relative to
    ``root``) and the folders named in ``anywhere``."""
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_file() and not _skip(rel, left_out, anywhere):
            tar.add(str(path), arcname=f"{arcname}/{rel}")


def _platforms(machine: str, glibc: str | None) -> list[str]:
    """pip's --platform tags a host with this glibc accepts (manylinux 2.17 onwards)."""
    minor = int(glibc.split(".")[1]) if glibc and glibc.count(".") >= 1 else 28
    return [f"manylinux_2_{m}_{machine}" for m in range(minor, 16, -1)] + [
        f"manylinux2014_{machine}"
    ]


def download_wheel(
    requirement: str, python: tuple[int, int], machine: str, glibc: str | None
) -> Path:
    """A binary wheel of ``requirement`` for another Python, from the cache or pip."""
    tag = f"cp{python[0]}{python[1]}"
    from ..paths import cache_root  # platformdirs: not on every GPU host

    folder = cache_root() / "wheels" / f"{tag}-{machine}"
    folder.mkdir(parents=True, exist_ok=True)
    name = requirement.split("==")[0].replace("-", "_")
    version = requirement.split("==")[1] if "==" in requirement else ""

    def cached() -> Path | None:
        found = sorted(folder.glob(f"{name}-{version or '*'}-{tag}-*.whl"))
        found += sorted(folder.glob(f"{name}-{version or '*'}-py3-none-any.whl"))
        return found[-1] if found else None

    if (hit := cached()) is not None:
        return hit
    cmd = [sys.executable, "-m", "pip", "download", requirement, "--no-deps"]
    cmd += ["--only-binary=:all:", "--python-version", f"{python[0]}.{python[1]}"]
    cmd += ["--implementation", "cp", "--abi", tag, "--abi", "abi3", "--abi", "none"]
    for p in _platforms(machine, glibc):
        cmd += ["--platform", p]
    cmd += ["-d", str(folder), "--quiet", "--disable-pip-version-check"]
    proc = run_process(cmd, "pip download", check=False)
    if proc.returncode != 0 or (hit := cached()) is None:
        raise KernelscopeError(
            f"could not get {requirement} for Python {python[0]}.{python[1]} on {machine}",
            hint=f"put the wheel ({name}-{version or 'VERSION'}-{tag}-...-manylinux...whl) into "
            f"{folder} and try again",
            details=proc.output,
        )
    return hit


def _add_wheel(tar: tarfile.TarFile, wheel: Path, packages: tuple[str, ...]) -> None:
    """The top-level ``packages`` folders of a wheel (a wheel is a zip of the install)."""
    with zipfile.ZipFile(wheel) as z:
        for info in z.infolist():
            top = info.filename.split("/")[0]
            if top in packages and not info.is_dir():
                data = z.read(info)
                entry = tarfile.TarInfo(info.filename)
                entry.size = len(data)
                entry.mode = (info.external_attr >> 16) & 0o777 or 0o644
                tar.addfile(entry, io.BytesIO(data))


def bundle_name(python: tuple[int, int], tvm_version: str | None = None) -> str:
    return runner.runtime_name(tvm_version or local_tvm_version(), python)


def make_bundle(
    python: tuple[int, int],
    machine: str | None = None,
    glibc: str | None = None,
    with_numpy: bool = False,
    with_typing_extensions: bool = False,
) -> Path:
    """The runtime bundle (.tar.gz, cached) for a host's Python version and machine."""
    machine = machine or platform.machine()
    if machine != platform.machine():
        raise KernelscopeError(
            f"the host is {machine} and this machine {platform.machine()}: TVM's libraries "
            "from here do not run there",
            hint="install apache-tvm on the host itself (pip install apache-tvm)",
        )
    if python < runner.MIN_PYTHON:
        need = ".".join(map(str, runner.MIN_PYTHON))
        raise KernelscopeError(f"TVM's runtime needs Python {need}+, the host has {python}")
    tvm_version = local_tvm_version()
    if not tvm_version:
        raise KernelscopeError(
            "this machine has no TVM (apache-tvm) to copy a runtime from",
            hint="install kernelscope with its dependencies here (bash scripts/start.sh)",
        )
    ffi_version = importlib.metadata.version("apache-tvm-ffi")
    name = bundle_name(python, tvm_version)
    flavour = ("-numpy" if with_numpy else "") + ("-te" if with_typing_extensions else "")
    from ..paths import cache_root  # platformdirs: not on every GPU host

    out = cache_root() / "runtime" / f"{name}-{machine}{flavour}-f{_BUNDLE_FORMAT}.tar.gz"
    if out.is_file():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    same_python = python == tuple(sys.version_info[:2])
    partial = out.with_name(out.name + ".partial")
    contents = ["tvm"]
    with tarfile.open(partial, "w:gz", compresslevel=6) as tar:
        _add_tree(tar, _package_dir("tvm"), "tvm", _TVM_LEFT_OUT)
        if same_python:
            _add_tree(tar, _package_dir("tvm_ffi"), "tvm_ffi", _FFI_LEFT_OUT)
            contents.append(f"tvm_ffi {ffi_version} (this machine's)")
        else:
            wheel = download_wheel(f"apache-tvm-ffi=={ffi_version}", python, machine, glibc)
            _add_wheel(tar, wheel, ("tvm_ffi",))
            contents.append(f"tvm_ffi from {wheel.name}")
        _add_tree(tar, _package_dir("cloudpickle"), "cloudpickle", ())
        contents.append(f"cloudpickle {importlib.metadata.version('cloudpickle')} (this machine's)")
        if with_typing_extensions:
            te = importlib.util.find_spec("typing_extensions")
            if te is None or te.origin is None:
                raise KernelscopeError("typing_extensions is not installed here")
            tar.add(te.origin, arcname="typing_extensions.py")
            contents.append("typing_extensions (this machine's)")
        if with_numpy and same_python:
            numpy_dir = _package_dir("numpy")
            _add_tree(tar, numpy_dir, "numpy", (), ("__pycache__", "tests"))
            if (numpy_dir.parent / "numpy.libs").is_dir():
                _add_tree(tar, numpy_dir.parent / "numpy.libs", "numpy.libs", ())
            contents.append(f"numpy {importlib.metadata.version('numpy')} (this machine's)")
        elif with_numpy:
            wheel = download_wheel("numpy", python, machine, glibc)
            _add_wheel(tar, wheel, ("numpy", "numpy.libs"))
            contents.append(f"numpy from {wheel.name}")
        marker = json.dumps(
            {
                "format": _BUNDLE_FORMAT,
                "tvm": tvm_version,
                "tvm_ffi": ffi_version,
                "python": f"{python[0]}.{python[1]}",
                "machine": machine,
                "contents": contents,
                "made_by": "kernelscope remote-install",
            },
            indent=1,
        ).encode()
        entry = tarfile.TarInfo(runner.RUNTIME_MARKER)
        entry.size = len(marker)
        tar.addfile(entry, io.BytesIO(marker))
    partial.replace(out)
    return out


_UNPACK_SH = """set -e
root={root}
mkdir -p "$root"
tmp=$(mktemp -d "$root/.install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tar -xzf - -C "$tmp"
rm -rf "$root/{name}"
mv "$tmp" "$root/{name}"
trap - EXIT
echo "ks:installed $root/{name}"
"""
# The same default as runner.tvm_runtime.runtime_root, computed by the host's shell.
_DEFAULT_ROOT_SH = '"${XDG_CACHE_HOME:-$HOME/.cache}/kernelscope/runtime"'


def install_runtime(
    target: SshTarget,
    progress: ProgressFn = no_progress,
    cancel: Cancel | None = None,
) -> InstallResult:
    """Copy a runtime-only TVM matching this machine's into the host's per-user cache."""
    with SshSession(target, cancel) as session:
        return _install(session.target, progress, cancel)


def _install(target: SshTarget, progress: ProgressFn, cancel: Cancel | None) -> InstallResult:
    start = time.perf_counter()
    progress("check", None, f"checking {target.host}")  # busy while ssh connects
    before = check_host(target, probe=False, cancel=cancel)
    if not before.python or not before.python_version:
        raise KernelscopeError(
            f"no Python on {target.host} ({target.python})",
            hint="install Python 3.10+ there, or give one: --remote-python /path/to/python3",
        )
    python = tuple(int(p) for p in before.python_version.split(".")[:2])
    if python < runner.MIN_PYTHON:
        c = before.check("python")
        raise KernelscopeError(c.summary if c else "Python too old", hint=c.fix if c else "")
    info = before.runner_check
    numpy = before.check("numpy")
    check_cancel(cancel, "install")
    progress("bundle", 0.2, f"packing TVM {before.tvm_wanted} for Python {python[0]}.{python[1]}")
    bundle = make_bundle(
        (python[0], python[1]),
        before.machine,
        before.glibc,
        with_numpy=numpy is not None and numpy.ok is False,
        with_typing_extensions="error" in info.get("typing_extensions", {}),
    )
    name = bundle_name((python[0], python[1]))
    root = shlex.quote(target.runtime_root) if target.runtime_root else _DEFAULT_ROOT_SH
    progress("copy", 0.4, f"copying {bundle.stat().st_size >> 20} MB to {target.host}")
    result = run_command(
        [*target.ssh(), "sh -c " + shlex.quote(_UNPACK_SH.format(root=root, name=name))],
        "copying the runtime",
        cancel,
        stdin=bundle.read_bytes(),
    )
    if result.code != 0:
        raise explain_ssh_failure(target, result, "installing the runtime")
    folder = next(
        (
            ln.split(" ", 1)[1].strip()
            for ln in result.output.splitlines()
            if ln.startswith("ks:installed ")
        ),
        name,
    )
    progress("verify", 0.8, f"checking that TVM loads on {target.host}")
    after = check_host(target, probe=False, cancel=cancel)
    tvm = after.runner_check.get("tvm", {})
    if tvm.get("version") != before.tvm_wanted or not tvm.get("runtime_only"):
        raise KernelscopeError(
            f"the runtime was copied to {target.host}:{folder} but does not load there",
            details=json.dumps(after.runner_check, indent=1),
        )
    progress("done", 1.0, f"TVM {before.tvm_wanted} runtime installed in {folder}")
    return InstallResult(
        target.host, folder, bundle, bundle.stat().st_size, time.perf_counter() - start, after
    )
