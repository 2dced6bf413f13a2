"""Build & profile a PyTorch model file: ``torch.compile`` runs it, Nsight Compute profiles
the steady-state calls with the generated Triton sources imported, and everything lands in
one run folder, on this machine or on an SSH GPU host (PyTorch is that machine's own;
kernelscope installs none of it).

The model runner's ``--torch`` mode (``profiling/runner/torch_model.py``) does the model's
part: it reads the file's ``model`` and ``example_inputs``, points Inductor's and Triton's
output into the run folder, compiles and warms up outside the profiled range, and brackets
the profiled calls with ``cudaProfilerStart``/``Stop``, which ``ncu --profile-from-start off``
honours. Its timeline mode records every kernel of a few calls through ``torch.profiler``.

The run folder (``MODEL.torchrun`` beside the model unless given)::

    run.json                  the run: versions, device, mode, inputs, where it ran (read by
                              core.inductor, the reader of run folders, too)
    model.py                  a copy of the model file
    inductor_cache/           TORCHINDUCTOR_CACHE_DIR: the generated Triton and wrapper code
    triton_cache/             TRITON_CACHE_DIR: cubins, PTX, kernel metadata
    torch_compile_debug/      TORCH_COMPILE_DEBUG=1 output
    trace/                    TORCH_TRACE logs (INDUCTOR_PROVENANCE=1)
    profiles/NAME.ncu-rep     the report, sources imported
    timelines/NAME.json       the timeline (a kernelscope Timeline)
    steps.json                an LLM twin's steps (``--steps``): the step list, each step's
                              time from steps_timed.json, the run that timed them without ncu

Over SSH it is one login (``SshSession``): the runner and the model file (with the Python
files beside it, the modules it may import) go up as one tar stream into a temporary folder,
ncu (and the timeline) run there under the supervisor (Cancel ends them), the whole run folder
comes back as one tar, gzipped on the way, and the temporary folder goes in every outcome. The
report's source paths are the host's then: ``run.json``'s ``run_dir`` is the folder they start
with, ``host`` the host.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tarfile
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from ..errors import Cancelled, KernelscopeError
from ..ncu.csv_text import base_name
from ..ncu.steps import steps_path
from ..process import command_details, describe_exit, run_process
from ..profiling import (
    RUNNER,
    CommandResult,
    NcuOptions,
    ProfileRequest,
    RemoteFolder,
    SshSession,
    SshTarget,
    explain_ssh_failure,
    ncu_arguments,
    run_command,
    runner,
    runner_path,
    stream_ncu,
    transfer_progress,
)
from ..profiling.runner.torch_llm import STEP_LIST, TIMED_APART, TIMED_STEPS
from ..profiling.runner.torch_model import FACTS, MODES  # what the runner writes and takes
from ..tasks import Cancel, ProgressFn, check_cancel, no_progress
from ..timeline import Timeline, TimelineCall
from ..toolchain import find_tool, local_gpu_arch

RUN_SUFFIX = ".torchrun"
TWIN_CONFIG = "decoder.json"  # the configuration an LLM twin's run was made from
# What a torch.compile run folder holds (``debug``: TORCH_COMPILE_DEBUG_DIR as the capture of
# tests/data/inductor named it); a folder with other things in it is not one.
RUN_ENTRIES = frozenset(
    {FACTS, "model.py", TWIN_CONFIG, STEP_LIST, TIMED_STEPS, "inductor_cache", "triton_cache",
     "torch_compile_debug", "debug", "trace", "profiles", "timelines", "run.log"}
)  # fmt: skip
_NO_TORCH = "PyTorch is not installed"
# The Python files beside the model that go to a host with it, at most (else the model alone).
_BESIDE_FILES = 50
_BESIDE_BYTES = 4 << 20


@dataclass
class TorchRequest:
    """What ``kernelscope profile-torch`` was asked."""

    model: Path
    output: Path | None = None  # the run folder; None: MODEL.torchrun beside the model
    mode: str = "default"  # torch.compile's mode
    ncu: NcuOptions = field(default_factory=NcuOptions)  # launch_skip: of the profiled calls
    warmup: int = 3  # calls after the compiling one, before the profiled ones
    iterations: int = 1  # profiled calls
    name: str | None = None  # report (and timeline) name; default: a timestamp
    profile: bool = True  # run ncu
    timeline: bool = False  # also time every kernel (torch.profiler), without ncu
    repeat: int = 10  # timeline calls
    python: str = "python3"  # this machine's Python with PyTorch
    host: SshTarget | None = None  # run on this SSH host, with its Python; None: here
    # an LLM's twin (``model``: the decoder config twin_config wrote), run step by step:
    steps: str | None = None  # prefill=N,decode=M
    profile_steps: str | None = None  # the steps ncu profiles (decode:0-3); None: all


@dataclass
class TorchRun:
    run_dir: Path
    report: Path | None
    timeline: Path | None
    launches: int  # kernel launches profiled
    seconds: float
    facts: dict
    log: str

    def compiled(self) -> str | None:
        """What compiled it where, for people (the CLI and the window say it); None when the
        runner left no run.json."""
        f = self.facts
        if not f:
            return None
        return (
            f"torch {f.get('torch')}, triton {f.get('triton')} on {f.get('device')}"
            f" ({f.get('host')}): compiled in {float(f.get('compile_s', 0)):.1f} s"
        )


def default_run_dir(model: Path) -> Path:
    return model.with_suffix(RUN_SUFFIX)


_IMPORTS_TORCH = re.compile(r"^\s*(import torch\b|from torch\b)", re.MULTILINE)
_IMPORTS_TVM = re.compile(r"^\s*(import tvm\b|from tvm\b)", re.MULTILINE)


def is_torch_model_file(path: Path) -> bool:
    """Whether a .py file looks like a PyTorch model file rather than a Relax one: it
    imports torch and not tvm (a guess for the window's Compiler choice; never raises)."""
    if path.suffix != ".py":
        return False
    try:
        with path.open(encoding="utf-8", errors="replace") as f:
            text = f.read(1 << 20)
    except OSError:
        return False
    return bool(_IMPORTS_TORCH.search(text)) and not _IMPORTS_TVM.search(text)


def _name(req: TorchRequest) -> str:
    name = req.name or datetime.now().strftime("torch-%Y%m%d-%H%M%S")
    name = name.removesuffix(".ncu-rep")
    if not re.fullmatch(r"[\w.-]+", name):
        raise KernelscopeError(f"report name {name!r}: use letters, digits, '.', '_', '-'")
    return name


def check_request(req: TorchRequest) -> Path:
    """Refuse a request that cannot run, before anything starts; the run folder."""
    if not req.model.is_file():
        raise KernelscopeError(f"{req.model}: no such file")
    if req.steps is not None:
        if req.timeline:
            raise KernelscopeError(
                "--steps runs the decoder's twin step by step and times each step itself "
                "(run.json): no --timeline",
                hint="leave out --timeline; each step's CUDA-event time is in RUN/run.json",
            )
    elif req.profile_steps is not None:
        raise KernelscopeError(
            "--profile-steps chooses among an LLM's steps: give --steps too",
            hint="kernelscope profile-torch WS --steps prefill=512,decode=8 "
            "--profile-steps decode:0-3",
        )
    elif req.model.suffix != ".py":
        raise KernelscopeError(
            f"{req.model.name}: not a Python file",
            hint="give a .py file that defines `model` and `example_inputs`",
        )
    if req.mode not in MODES:
        raise KernelscopeError(f"--mode {req.mode}: one of {', '.join(MODES)}")
    if req.iterations < 1 or req.warmup < 0 or req.repeat < 1:
        raise KernelscopeError("--iterations and --repeat must be at least 1, --warmup at least 0")
    if not req.profile and not req.timeline:
        raise KernelscopeError("nothing to do: neither a profile nor a timeline was asked for")
    run_dir = (req.output or default_run_dir(req.model)).absolute()
    if run_dir.exists() and not run_dir.is_dir():
        raise KernelscopeError(f"{run_dir} is a file, not a folder")
    held = sorted(p.name for p in run_dir.iterdir()) if run_dir.is_dir() else []
    others = [name for name in held if name not in RUN_ENTRIES]
    if others:
        raise KernelscopeError(
            f"{run_dir} holds other things than a torch.compile run ({', '.join(others[:5])})",
            hint="choose another run folder (-o RUN)",
        )
    copy = run_dir / _copy_name(req)
    if copy.is_file() and copy.read_bytes() != req.model.read_bytes():
        # Inductor's and Triton's output of the other model would stay beside the new one's
        raise KernelscopeError(
            f"{run_dir} holds the run of another model file (its model.py differs from "
            f"{req.model.name}); nothing was changed",
            hint="choose another run folder (-o RUN), or delete this one to run it again there",
            window_hint="choose another Run folder, or delete this one to run it again there",
        )
    return run_dir


def profile_torch(
    req: TorchRequest, progress: ProgressFn = no_progress, cancel: Cancel | None = None
) -> TorchRun:
    """Compile and profile the model file (and time it, with ``req.timeline``) into its run
    folder; a failed or cancelled run keeps no partial report."""
    run_dir = check_request(req)
    name = _name(req)
    start = time.perf_counter()
    if req.host is None:
        _check_local(req, cancel)
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "profiles").mkdir(exist_ok=True)
    if req.model.absolute() != (run_dir / _copy_name(req)).absolute():
        shutil.copyfile(req.model, run_dir / _copy_name(req))
    partial = run_dir / "profiles" / f".partial-{name}"
    try:
        if req.host is None:
            log, launches, raw_timeline = _run_here(req, run_dir, partial, progress, cancel)
        else:
            log, launches, raw_timeline = _run_on_host(req, run_dir, partial, progress, cancel)
        report = None
        if req.profile:
            produced = partial.with_name(partial.name + ".ncu-rep")
            if not produced.is_file():
                raise KernelscopeError("ncu finished but wrote no report", details=log)
            report = run_dir / "profiles" / f"{name}.ncu-rep"
            os.replace(produced, report)
            if req.steps is not None:  # the step list beside the report splits it into steps
                listed = run_dir / STEP_LIST
                if not listed.is_file():
                    report.unlink()
                    raise KernelscopeError(
                        "the runner ran the steps under ncu but printed no list of them; "
                        "no report was kept",
                        details=log,
                    )
                add_step_times(run_dir)
                shutil.copyfile(listed, steps_path(report))
    finally:
        for leftover in (run_dir / "profiles").glob(f".partial-{name}*"):
            leftover.unlink(missing_ok=True)
    (run_dir / "run.log").write_text(log, encoding="utf-8")
    where = req.host.host if req.host else None
    facts = _facts(run_dir, where)
    timeline = None
    if raw_timeline is not None:
        made = timeline_from_runner(raw_timeline, run_dir, where)
        timeline = made.save(run_dir / "timelines" / f"{name}.json")
    progress("done", 1.0, f"run folder: {run_dir}")
    return TorchRun(run_dir, report, timeline, launches, time.perf_counter() - start, facts, log)


def _check_local(req: TorchRequest, cancel: Cancel | None) -> None:
    if req.profile and not find_tool("ncu").found:
        raise KernelscopeError(
            "Nsight Compute (ncu) is not installed here or not on PATH",
            hint="install Nsight Compute here, or run on a GPU host that has it: "
            "kernelscope profile-torch MODEL.py --host user@gpu",
            window_hint="install Nsight Compute here, or choose an SSH host under Run on",
        )
    _check_python(req.python, cancel)
    if local_gpu_arch() is None:
        raise KernelscopeError(
            "no NVIDIA GPU is visible on this machine (nvidia-smi reports none)",
            hint="run it on a GPU host: kernelscope profile-torch MODEL.py --host user@gpu",
            window_hint="choose an SSH host under Run on",
        )


def _check_python(python: str, cancel: Cancel | None = None) -> None:
    """Refuse a local Python that does not run or has no PyTorch, naming it and saying what
    to do (the window's Python field, the CLI's ``--python``), before the model runs under
    ncu. PyTorch is found without importing it (that takes seconds on a big install)."""
    hints = {"hint": _PYTHON_HINT, "window_hint": _PYTHON_WINDOW_HINT}
    if os.sep in python or (os.altsep and os.altsep in python):
        path = Path(python)
        if not path.exists():
            raise KernelscopeError(f"the Python {python}: no such file", **hints)
        if path.is_dir() or not os.access(path, os.X_OK):
            raise KernelscopeError(f"the Python {python} is not an executable program", **hints)
    elif shutil.which(python) is None:
        raise KernelscopeError(f"no Python called {python} on this machine's PATH", **hints)
    try:
        result = run_process(
            [python, "-c", _PYTHON_PROBE], python, cancel=cancel, timeout=60, check=False
        )
    except Cancelled:
        raise
    except KernelscopeError as exc:  # it would not start: not a program this system runs
        raise KernelscopeError(f"the Python {python} did not run: {exc.message}", **hints) from exc
    said = [ln.split(_PROBE_TAG, 1)[1] for ln in result.output.splitlines() if _PROBE_TAG in ln]
    if result.returncode != 0 or not said:
        code = f" ({describe_exit(result.returncode)})" if result.returncode else ""
        raise KernelscopeError(
            f"the Python {python} did not run as Python{code}",
            details=command_details(result.cmd, result.output),
            **hints,
        )
    has_torch, _, executable = said[-1].partition("|")
    if has_torch != "torch":
        resolved = f" ({executable})" if executable != python else ""
        raise KernelscopeError(
            f"{_NO_TORCH} for the Python {python}{resolved}",
            hint=_INSTALL_TORCH + _PYTHON_HINT,
            window_hint=_INSTALL_TORCH + _PYTHON_WINDOW_HINT,
        )


# Prints whether this Python has torch (found, not imported) and which interpreter it is.
_PROBE_TAG = "kernelscope python:"
_PYTHON_PROBE = (
    "import importlib.util, sys; has = importlib.util.find_spec('torch') is not None; "
    f"print('{_PROBE_TAG}' + ('torch' if has else 'none') + '|' + sys.executable)"
)
_PYTHON_HINT = (
    "name the Python that has PyTorch with --python (a virtual environment's bin/python, or "
    "conda's)"
)
_PYTHON_WINDOW_HINT = (
    "choose the Python that has PyTorch in the Python field of the Model tab (a virtual "
    "environment's bin/python, or conda's)"
)
_INSTALL_TORCH = "install PyTorch with CUDA for it (kernelscope installs none), or "


def _copy_name(req: TorchRequest) -> str:
    """What the run folder keeps of its model: the file, or an LLM twin's configuration."""
    return TWIN_CONFIG if req.steps is not None else "model.py"


def twin_config(workspace: Path, folder: Path) -> Path:
    """I/O: the decoder configuration of an LLM workspace's model file
    (``build.decoder_config``, TVM runs the file), written to ``folder/decoder.json``: the
    ``model`` of a ``TorchRequest`` with ``steps``."""
    from ..build.decoder_config import read_decoder_config
    from ..workspace import Workspace

    manifest = Workspace.open(workspace).manifest
    model = Path(manifest.model_path) if manifest.model_path else None
    if model is None or not model.is_file():
        raise KernelscopeError(
            f"{workspace} was built from {manifest.model_path or manifest.model}, which is "
            "not on this machine: its decoder configuration is read from that file",
            hint="build the workspace here again, or profile-torch on the machine that built it",
        )
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / TWIN_CONFIG
    path.write_text(json.dumps(read_decoder_config(model), indent=1), encoding="utf-8")
    return path


def _runner_args(req: TorchRequest, model: str, run_dir: str, timeline: bool) -> list[str]:
    """The runner's arguments: for the run ncu profiles, or (``timeline``) the run that times
    (an LLM twin: its steps, in a run without ncu, which would time itself too)."""
    if req.steps is not None:
        args = ["--torch-llama", model, "--run-dir", run_dir, "--mode", req.mode]
        args += ["--steps", req.steps, "--warmup", str(req.warmup)]
        if timeline:
            return [*args, "--repeat", str(req.repeat), "--timed-only"]
        args += ["--repeat", "0"]
        return args + (["--profile-steps", req.profile_steps] if req.profile_steps else [])
    args = ["--torch", model, "--run-dir", run_dir, "--mode", req.mode]
    args += ["--warmup", str(req.warmup)]
    if timeline:
        return [*args, "--timeline", "--repeat", str(req.repeat)]
    return [*args, "--iterations", str(req.iterations)]


def _ncu_args(req: TorchRequest, output_stem: str, run_dir: str) -> list[str]:
    """``kernelscope profile``'s ncu options, the profiled range only, and the runner alone
    (not Inductor's compile workers)."""
    args = ncu_arguments(ProfileRequest(Path(run_dir), req.ncu), output_stem, run_dir)
    return [*args, "--profile-from-start", "off", "--target-processes", "application-only"]


def _run_here(
    req: TorchRequest, run_dir: Path, partial: Path, progress: ProgressFn, cancel: Cancel | None
) -> tuple[str, int, dict | None]:
    model, folder, runner_file = str(req.model.absolute()), str(run_dir), str(runner_path())
    log, launches, raw = "", 0, None
    if req.profile:
        ncu = str(find_tool("ncu").require())
        progress("compile", None, f"torch.compile of {req.model.name} under ncu")
        cmd = [
            ncu,
            *_ncu_args(req, str(partial), folder),
            req.python,
            runner_file,
            *_runner_args(req, model, folder, timeline=False),
        ]
        log, launches = _profile(cmd, progress, cancel)
    if req.timeline or req.steps is not None:
        check_cancel(cancel, "timeline")
        progress("timeline", 0.9, _timing(req))
        cmd = [req.python, runner_file, *_runner_args(req, model, folder, timeline=True)]
        result = run_command(cmd, "timeline", cancel)
        log += result.output
        raw = _result(result, "this machine")
    return log, launches, raw if req.steps is None else None


def _timing(req: TorchRequest) -> str:
    if req.steps is not None:
        return f"timing each step of the twin {req.repeat} times, without ncu"
    return f"timing {req.repeat} calls of {req.model.name}"


def _run_on_host(
    req: TorchRequest, run_dir: Path, partial: Path, progress: ProgressFn, cancel: Cancel | None
) -> tuple[str, int, dict | None]:
    target = req.host
    assert target is not None
    host = target.host
    progress("connect", None, f"connecting to {host}")
    log, launches, raw = "", 0, None
    with (
        SshSession(target, cancel) as session,
        RemoteFolder(session.target, cancel) as folder,
        tempfile.TemporaryDirectory(prefix="ks-torch-") as tmp,
    ):
        empty = Path(tmp) / "profiles"
        empty.mkdir()
        progress("copy", 0.02, f"copying {req.model.name} to {host}:{folder.path}")
        folder.upload([*_model_files(req.model), ("run/profiles", empty)])
        model, host_run = folder.file(f"model/{req.model.name}"), folder.file("run")
        python, runner_file = target.python, folder.file(RUNNER)
        if req.profile:
            progress("compile", None, f"torch.compile of {req.model.name} under ncu on {host}")
            argv = [
                target.ncu,
                *_ncu_args(req, f"{host_run}/profiles/{partial.name}", host_run),
                python,
                runner_file,
                *_runner_args(req, model, host_run, timeline=False),
            ]
            cmd = folder.supervised(argv, find_ncu=target.ncu == "ncu")
            log, launches = _profile(cmd, progress, cancel)
        if req.timeline or req.steps is not None:
            progress("timeline", 0.85, f"{_timing(req)} on {host}")
            argv = [python, runner_file, *_runner_args(req, model, host_run, timeline=True)]
            result = run_command(folder.supervised(argv), "timeline", cancel)
            if result.code == 255:
                raise explain_ssh_failure(session.target, result, "timeline")
            log += result.output
            raw = _result(result, host)
        progress("fetch", 0.9, f"fetching the run folder from {host}")
        session.run(
            f"cd {folder.path} && tar -cf run.tar run", "packing the run folder", timeout=600
        )
        archive = Path(tmp) / "run.tar"
        folder.fetch("run.tar", archive, transfer_progress(progress, "fetch", 0.9, 0.99))
        _unpack(archive, run_dir)
    return log, launches, raw if req.steps is None else None


def _model_files(model: Path) -> list[tuple[str, Path]]:
    """The model file and the Python files beside it (the modules it may import, as it can
    here), as ``model/NAME``; the model file alone when there are more than a folder of a
    model's own modules would hold."""
    beside = sorted(p for p in model.parent.glob("*.py") if p.is_file() and p != model)
    if len(beside) > _BESIDE_FILES or sum(p.stat().st_size for p in beside) > _BESIDE_BYTES:
        beside = []
    return [(f"model/{p.name}", p) for p in [model, *beside]]


def _unpack(archive: Path, run_dir: Path) -> None:
    """The host's ``run/`` into ``run_dir`` (what was there stays unless replaced)."""
    with tarfile.open(archive) as tar:
        members = []
        for member in tar.getmembers():
            parts = Path(member.name).parts
            if not parts or parts[0] != "run" or len(parts) == 1:
                continue
            member.name = str(Path(*parts[1:]))
            members.append(member)
        tar.extractall(run_dir, members=members, filter="data")


def _profile(cmd: list[str], progress: ProgressFn, cancel: Cancel | None) -> tuple[str, int]:
    """ncu over the runner; the runner's own failures (no PyTorch, the file, torch.compile)
    said as the runner says them, with what to do."""
    try:
        return stream_ncu(cmd, None, progress, cancel)
    except KernelscopeError as exc:
        said = runner.read_message(exc.details)
        if said is None:
            raise
        raise _runner_error(said, exc.details) from exc


def _runner_error(message: str, log: str) -> KernelscopeError:
    hint = window_hint = ""
    if message.startswith(_NO_TORCH):
        why = "kernelscope uses the PyTorch of the machine that runs the model and installs none"
        hint = f"{why}: name a Python that has it with --python, or --remote-python with --host"
        window_hint = (
            f"{why}: install PyTorch with CUDA for that Python, or choose one that has it "
            "(on an SSH host: Python there, under Run on; here: the Python field of the Model tab)"
        )
    elif "torch.compile failed" in message:
        hint = "the details show torch.compile's whole message"
    return KernelscopeError(message, hint=hint, details=log, window_hint=window_hint)


def _result(result: CommandResult, where: str) -> dict:
    raw = runner.read_result(result.output)
    if result.code == 0 and raw is not None:
        return raw
    said = runner.read_message(result.output)
    if said is not None:
        raise _runner_error(said, result.output)
    raise KernelscopeError(
        f"the timeline could not be measured on {where} (exit code {result.code})",
        details=result.output,
    )


def add_step_times(run_dir: Path) -> None:
    """Each step's time from the run that timed the steps without ncu (``TIMED_STEPS``)
    into the step list and run.json, said so (``TIMED_APART``); raises where that run left
    no times."""
    try:
        timed = json.loads((run_dir / TIMED_STEPS).read_text(encoding="utf-8"))
        times = {(s["name"], s["index"]): s for s in timed["steps"]}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise KernelscopeError(
            f"the steps were profiled, but the run that times them left no times ({exc})",
            hint="run profile-torch again; its log is in the run folder (run.log)",
        ) from exc
    for name in (STEP_LIST, FACTS):
        path = run_dir / name
        data = json.loads(path.read_text(encoding="utf-8"))
        for step in data.get("steps", []):
            found = times.get((step.get("name"), step.get("index")))
            for key in ("gpu_ms", "wall_ms_timed"):
                step.pop(key, None)
                if found is not None and key in found:
                    step[key] = found[key]
        data["step_times"] = TIMED_APART
        path.write_text(json.dumps(data, indent=1), encoding="utf-8")


def _facts(run_dir: Path, host: str | None) -> dict:
    """The runner's description of the run, with where it ran added."""
    path = run_dir / FACTS
    try:
        facts: dict = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    facts["host"] = host or "localhost"
    path.write_text(json.dumps(facts, indent=1), encoding="utf-8")
    return facts


def kernel_name(demangled: str) -> str:
    """The function name ncu gives a kernel, from the demangled name CUPTI gives it
    (``void cutlass::Kernel2<cutlass_80_simt_sgemm...>(...)`` -> ``Kernel2``); Triton's and
    other ``extern "C"`` names stay as they are."""
    return base_name(demangled).rsplit("::", 1)[-1] or demangled


def timeline_from_runner(raw: dict, run_dir: Path, host: str | None = None) -> Timeline:
    """The runner's ``--torch --timeline`` answer as a Timeline of the run folder, each call
    named as the report names its kernel."""
    calls = [
        TimelineCall(
            index=i,
            kernels=[kernel_name(k) for k in c["kernels"]],
            start_us=float(c["start_us"]),
            duration_us=float(c["duration_us"]),
            min_us=c.get("min_us"),
            max_us=c.get("max_us"),
            grid=c.get("grid"),
            block=c.get("block"),
            stream=c.get("stream"),
        )
        for i, c in enumerate(raw.get("calls", []))
    ]
    meta = {k: v for k, v in raw.items() if k not in ("calls", "device")}
    meta["host"] = host or "localhost"
    meta["model"] = run_dir.name
    return Timeline(
        source="torch", origin=str(run_dir), device=raw.get("device", "?"), calls=calls, meta=meta
    )
