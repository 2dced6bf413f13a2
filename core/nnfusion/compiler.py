"""NNFusion's command line, and running the real ``nnfusion`` compiler on a model with a DB.

The command that makes kernelscope's rows compute the right numbers (kernel_db reference §5,
checked with the real compiler):

* ``-fkernel_cache_path=DB``: NNFusion reads the DB from there instead of
  ``~/.cache/nnfusion/kernel_cache.db``;
* ``-fproduct_name=GPU``: the name under which the rows' ``Miscs.external_profile`` times are
  read (the CUDA device name, e.g. ``NVIDIA H200``); without it every row counts as 10 µs;
* ``-fbiasadd_fix=true`` when a Convolution+Add+Relu row reads a per-channel bias (TVM's
  kernels do): the fix rewrites the Add's constant so that its first C elements hold the
  bias. It needs that operand to be a constant: NNFusion imports an ONNX Conv bias as a
  Broadcast of it, so for such a model the command adds ``-fconst_folding_backend=CPU``
  (alone, the fix segfaults on the Broadcast). That folding runs NNFusion's slow CPU
  reference kernels (minutes to hours for ResNet-50), so the model kernelscope writes for
  NNFusion (``onnx_model``) holds each bias already broadcast, and needs the fix alone.

NNFusion first tries to rewrite an ONNX file with ``python3`` and onnxruntime and silently
goes on without when that fails; the rewrite can change the graph and so the identifiers.
kernelscope runs it with a ``python3`` that fails, so what it reports does not depend on what
some Python on the PATH has installed.

The binary is found through ``$KERNELSCOPE_NNFUSION`` (the ``nnfusion`` executable, next to
its ``templates/`` folder) or ``nnfusion`` on the PATH.
"""

from __future__ import annotations

import collections
import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import Cancelled, KernelscopeError
from ..tasks import Cancel

ENV = "KERNELSCOPE_NNFUSION"
BIAS_FLAG = "-fbiasadd_fix=true"
FOLDING_FLAG = "-fconst_folding_backend=CPU"
# What NNFusion computes for graph plumbing; never something a kernel DB could hold.
PLUMBING = ("Constant;", "Parameter;", "Result")

_SHELL_SAFE = re.compile(r"[A-Za-z0-9_./+=:@%-]+")
_LOOKUP = re.compile(r"Trying to fetch kernel (.*) on DeviceType: (\S+)")
_FETCHED = re.compile(r"\d+ cached kernel fetched (.*) on: (\S+)")
_SUBSTITUTED = re.compile(r"Substitution applied: (.*)")


@dataclass
class Flags:
    """The NNFusion flags a kernel DB needs (see the module docstring)."""

    product_name: str | None = None
    bias_fix: bool = False
    const_folding: bool = True  # with bias_fix: the model's biases are not constants yet

    def args(self) -> list[str]:
        out = []
        if self.product_name:
            out.append(f"-fproduct_name={self.product_name}")
        if self.bias_fix:
            out.append(BIAS_FLAG)
            if self.const_folding:
                out.append(FOLDING_FLAG)
        return out


def command_line(
    model: str | os.PathLike[str],
    db: str | os.PathLike[str],
    flags: Flags,
    binary: str = "nnfusion",
) -> list[str]:
    """The argv that compiles ``model`` with the kernels of ``db``."""
    return [binary, str(model), "-f", "onnx", f"-fkernel_cache_path={db}", *flags.args()]


def shell_text(argv: list[str]) -> str:
    return shlex.join(argv)


def find_nnfusion(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The ``nnfusion`` binary: ``explicit``, else ``$KERNELSCOPE_NNFUSION``, else the PATH."""
    given = explicit or os.environ.get(ENV)
    if given:
        path = Path(given).expanduser()
        if path.is_dir():
            path = path / "nnfusion"
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise KernelscopeError(
                f"{path} is not an executable nnfusion binary",
                hint=f"point {ENV} (or --nnfusion) at the nnfusion executable of an NNFusion build",
                window_hint=f"point {ENV} at the nnfusion executable of an NNFusion build, "
                "then start kernelscope again",
            )
        return path
    found = shutil.which("nnfusion")
    if found:
        return Path(found)
    raise KernelscopeError(
        "no NNFusion compiler found",
        hint=f"set {ENV} to the nnfusion executable (microsoft/nnfusion's build puts it in "
        "build/src/tools/nnfusion/), or give --nnfusion PATH",
        window_hint=f"set {ENV} to the nnfusion executable (microsoft/nnfusion's build puts "
        "it in build/src/tools/nnfusion/), then start kernelscope again",
    )


@dataclass
class NNFusionLog:
    """What NNFusion's log (at ``-min_log_level=0``) says about its kernel DB."""

    text: str
    lookups: collections.Counter[tuple[str, str]] = field(default_factory=collections.Counter)
    fetched: set[tuple[str, str]] = field(default_factory=set)
    substituted: set[str] = field(default_factory=set)

    @classmethod
    def parse(cls, text: str) -> NNFusionLog:
        return cls(
            text=text,
            lookups=collections.Counter(_LOOKUP.findall(text)),
            fetched=set(_FETCHED.findall(text)),
            substituted=set(_SUBSTITUTED.findall(text)),
        )

    def kernel_lookups(self) -> collections.Counter[tuple[str, str]]:
        """Lookups of computations (without Constant, Parameter and Result nodes)."""
        return collections.Counter(
            {k: n for k, n in self.lookups.items() if not k[0].startswith(PLUMBING)}
        )

    def last_lines(self, n: int = 15) -> str:
        lines = [ln for ln in self.text.splitlines() if ln.strip()]
        return "\n".join(lines[-n:])


@dataclass
class NNFusionRun:
    command: list[str]
    returncode: int
    out_dir: Path
    log: NNFusionLog

    @property
    def codegen_dir(self) -> Path:
        """The generated CUDA project (its own CMakeLists.txt)."""
        return self.out_dir / "nnfusion_rt" / "cuda_codegen"

    def generated_code(self) -> dict[str, str]:
        """Every generated .cu file, by path relative to the project."""
        root = self.codegen_dir
        return {
            p.relative_to(root).as_posix(): p.read_text(encoding="utf-8", errors="replace")
            for p in sorted(root.rglob("*.cu"))
        }


def run_nnfusion(
    model: str | os.PathLike[str],
    db: str | os.PathLike[str],
    out_dir: str | os.PathLike[str],
    flags: Flags,
    binary: str | os.PathLike[str] | None = None,
    timeout: float | None = None,
    cancel: Cancel | None = None,
) -> NNFusionRun:
    """Compile ``model`` with the DB into ``out_dir`` (``nnfusion_rt/``, ``nnfusion.log``).

    Raises KernelscopeError when NNFusion fails, with the end of its log; ``Cancelled`` when
    ``cancel`` is set while it runs (it is stopped).
    """
    exe = find_nnfusion(binary)
    model_path = Path(model).resolve()
    if not model_path.is_file():
        raise KernelscopeError(f"{model}: no such file")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    out = out.resolve()
    argv = command_line(model_path, Path(db).resolve(), flags, str(exe)) + ["-min_log_level=0"]
    with tempfile.TemporaryDirectory(prefix="kernelscope-nnfusion-") as shim:
        fake = Path(shim) / "python3"
        fake.write_text("#!/bin/sh\nexit 1\n", encoding="utf-8")
        fake.chmod(0o755)
        env = {**os.environ, "PATH": f"{shim}{os.pathsep}{os.environ.get('PATH', '')}"}
        # NNFusion's code generation moves files with shell commands that break on spaces
        # and the like in its working folder's path: it then works in a plain one.
        work = out if _SHELL_SAFE.fullmatch(str(out)) else Path(shim) / "out"
        work.mkdir(exist_ok=True)
        log_path = work / "nnfusion.log"
        with log_path.open("wb") as log_file:
            try:
                proc = subprocess.Popen(
                    argv, cwd=work, env=env, stdout=log_file, stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL,
                )  # fmt: skip
            except OSError as exc:
                raise KernelscopeError(f"cannot run {exe}: {exc}") from exc
            returncode = _wait(proc, timeout, cancel, model_path.name, log_path)
        text = log_path.read_text(encoding="utf-8", errors="replace")
        if work != out:
            for item in work.iterdir():
                target = out / item.name
                if target.is_dir():
                    shutil.rmtree(target)
                shutil.move(str(item), target)
    log = NNFusionLog.parse(text)
    run = NNFusionRun(argv, returncode, out, log)
    if returncode != 0:
        raise KernelscopeError(
            f"NNFusion failed on {model_path.name} ({_exit_text(returncode)}); "
            "its log ends with the lines below",
            hint=_failure_hint(log, flags, returncode),
            details=log.last_lines(),
        )
    return run


def _wait(
    proc: subprocess.Popen[bytes],
    timeout: float | None,
    cancel: Cancel | None,
    name: str,
    log_path: Path,
) -> int:
    """Wait for NNFusion, polling ``cancel``; stop it on a timeout or a cancel."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        try:
            return proc.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            pass
        late = deadline is not None and time.monotonic() > deadline
        if late or (cancel is not None and cancel.is_set()):
            proc.kill()
            proc.wait()
            if not late:
                raise Cancelled("NNFusion")
            raise KernelscopeError(
                f"NNFusion did not finish {name} within {timeout:.0f} s", details=_tail(log_path)
            )


def _tail(path: Path) -> str:
    try:
        return NNFusionLog.parse(path.read_text(encoding="utf-8", errors="replace")).last_lines()
    except OSError:
        return ""


def _exit_text(code: int) -> str:
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


def _failure_hint(log: NNFusionLog, flags: Flags, code: int) -> str:
    if flags.bias_fix and code == -signal.SIGSEGV and log.substituted:
        return (
            "with -fbiasadd_fix=true NNFusion crashes when the Add of a Convolution+Add+Relu "
            "it substitutes is not a constant, as when the weights are graph inputs: compile "
            "the model with its weights as initializers (kernelscope export-db WS "
            "--nnfusion-model OUT.onnx writes it)"
        )
    if not log.lookups:
        return "NNFusion stopped before it looked up any kernel: it could not import the model"
    return "see the log's last lines"
