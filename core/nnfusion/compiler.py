"""Running the real ``nnfusion`` compiler on a model with a kernel DB (its command line is
``command``), and what its log says about the DB.

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
import shutil
import signal
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import Cancelled, KernelscopeError
from ..process import run_process
from ..tasks import Cancel
from .command import Flags, command_line

ENV = "KERNELSCOPE_NNFUSION"
# What NNFusion computes for graph plumbing; never something a kernel DB could hold.
PLUMBING = ("Constant;", "Parameter;", "Result")

_SHELL_SAFE = re.compile(r"[A-Za-z0-9_./+=:@%-]+")
_LOOKUP = re.compile(r"Trying to fetch kernel (.*) on DeviceType: (\S+)")
_FETCHED = re.compile(r"\d+ cached kernel fetched (.*) on: (\S+)")
_SUBSTITUTED = re.compile(r"Substitution applied: (.*)")


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
        with log_path.open("w", encoding="utf-8") as log_file:
            try:
                returncode = run_process(
                    argv, f"NNFusion on {model_path.name}", cwd=work, env=env,
                    on_line=lambda line: print(line, file=log_file), cancel=cancel,
                    timeout=timeout, check=False, interrupt_grace=3.0,
                ).returncode  # fmt: skip
            except Cancelled:
                raise
            except KernelscopeError as exc:  # it could not start, or ran past the timeout
                log_file.flush()
                raise KernelscopeError(exc.message, hint=exc.hint, details=_tail(log_path)) from exc
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
