"""Profiling a workspace's model under Nsight Compute, locally or on a GPU host over SSH.

kernelscope starts ``ncu ... python runner.py WORKSPACE`` (runner.py runs the model with the
workspace's own cubin), streams ncu's output, turns its ``==PROF== Profiling "k" - 3: ...``
lines into per-kernel progress, and writes the report under ``profiles/`` only when ncu
finished: a failed, cancelled or interrupted run leaves no report behind and the earlier
profiles untouched.

Remote (``host="user@gpu"``): ``remote.RemoteFolder`` copies the workspace files the runner
needs into a temporary folder on the host, runs ncu there under its supervisor (Cancel ends
the remote ncu and the model with it) and brings the report back gzipped, all over one SSH
login (``remote.SshSession``).
"""

from __future__ import annotations

import json
import logging
import os
import re
import shlex
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from datetime import datetime
from pathlib import Path
from typing import Any

from ..errors import KernelscopeError
from ..process import KEEP_OPEN, command_details, describe_exit, run_process
from ..tasks import Cancel, ProgressFn, no_progress
from ..toolchain import find_tool, local_gpu_arch
from ..workspace import Workspace
from . import runner
from .host_check import COUNTERS_FIX
from .ncu_options import NcuOptions
from .remote import SshTarget, transfer_progress
from .runner_site import runner_site
from .step_options import StepOptions, check_steps

logger = logging.getLogger(__name__)

# ncu 2025.3 prints `==PROF== Profiling "k" - 3: 0%...` for every launch, and without the
# ` - 3` index when a --kernel-name / --kernel-id filter is given (seen on the H200).
_PROFILING_RE = re.compile(r'==PROF== Profiling "(?P<name>[^"]+)"(?: - (?P<index>\d+))?')
# ...and a name of more than 31 characters as its first 29 and "..."
# ("fused_reshape1_transpose2_res..." for three different kernels of one model), so the
# full name of a profiled launch is the report's.
_ELIDED = "..."
_PERMISSION_MARKERS = ("ERR_NVGPUCTRPERM", "permission to access NVIDIA GPU Performance Counters")


@dataclass
class ProfileRequest:
    workspace: Path
    ncu: NcuOptions = field(default_factory=NcuOptions)
    warmup: int = 0
    iterations: int = 1
    inputs: Path | None = None  # .npz of inputs (and weights)
    seed: int = 0
    name: str | None = None  # report name; default: a timestamp
    host: SshTarget | None = None  # profile on this SSH host; None: on this machine
    # The kernel every profiled launch must be (a timeline's one-call selection): a run
    # that profiled another one is refused, with no report left.
    expect_kernel: str | None = None
    # An LLM's steps; the ones not in ``llm.profile_steps`` run unprofiled
    # (``--profile-from-start off``).
    llm: StepOptions = field(default_factory=StepOptions)


@dataclass
class ProfileResult:
    report: Path
    seconds: float
    launches: int
    log: str


def profiling_problem() -> str | None:
    """Why this machine cannot profile, in words, or None when it can."""
    if not find_tool("ncu").found:
        return "Nsight Compute (ncu) is not installed here or not on PATH"
    if local_gpu_arch() is None:
        return "no NVIDIA GPU is visible on this machine (nvidia-smi reports none)"
    return None


def ncu_arguments(req: ProfileRequest, output_stem: str, source_folder: str) -> list[str]:
    args = ["--import-source", "yes", "--source-folders", source_folder, "-f", "-o", output_stem]
    args += req.ncu.ncu_arguments(req.llm.stepped)
    if req.llm.stepped:  # only the steps the runner brackets with cuProfilerStart/Stop
        args += ["--profile-from-start", "off"]
        # each kernel node of a CUDA graph (``build --cuda-graph``) as a launch of its own
        # (ncu's default, said so that no configuration profiles a replay as one result)
        args += ["--graph-profiling", "node"]
    return args


def runner_arguments(
    req: ProfileRequest, workspace: str, inputs: str | None, hook: str | None = None
) -> list[str]:
    args = [workspace, "--warmup", str(req.warmup), "--iterations", str(req.iterations)]
    args += ["--seed", str(req.seed)]
    if inputs:
        args += ["--inputs", inputs]
    if req.llm.stepped:
        args += req.llm.runner_arguments(hook)
        args += ["--profile-steps", req.llm.profile_steps or "all"]
    return args


def report_name(req: ProfileRequest) -> str:
    name = req.name or datetime.now().strftime("profile-%Y%m%d-%H%M%S")
    if not re.fullmatch(r"[\w.-]+", name):
        raise KernelscopeError(f"report name {name!r}: use letters, digits, '.', '_', '-'")
    return name.removesuffix(".ncu-rep")


def profile_workspace(
    req: ProfileRequest,
    progress: ProgressFn | None = None,
    cancel: Cancel | None = None,
) -> ProfileResult:
    """Run the workspace's model under ncu and leave the report in its ``profiles/``."""
    ws = Workspace.open(req.workspace)
    report = progress or no_progress
    if req.inputs is not None and not req.inputs.is_file():
        raise KernelscopeError(f"--inputs {req.inputs}: no such file")
    name = report_name(req)
    check_steps(req.llm, ws)
    expected = None if req.llm.stepped else _expected_launches(ws, req)
    ws.profiles_dir.mkdir(parents=True, exist_ok=True)
    partial = ws.profiles_dir / f".partial-{name}"
    final = ws.profiles_dir / f"{name}.ncu-rep"
    start = time.perf_counter()
    try:
        log, launches = _profile(ws, req, partial, expected, report, cancel)
        produced = partial.with_name(partial.name + ".ncu-rep")
        if not produced.is_file():
            raise KernelscopeError("ncu finished but wrote no report", details=log)
        _check_expected(req, profiled_kernels(log, produced), log)
        steps = _step_list(req, log)
        os.replace(produced, final)
        if steps is not None:
            _steps_path(final).write_text(json.dumps(steps, indent=1), encoding="utf-8")
        if req.expect_kernel is None:  # a timeline's one call is not how the model is profiled
            _record_settings(req, final)
    finally:
        for leftover in ws.profiles_dir.glob(f".partial-{name}*"):
            leftover.unlink(missing_ok=True)
    report("done", 1.0, f"report: {final}")
    logger.info("%s: %d kernel launches profiled into %s", ws.path.name, launches, final)
    return ProfileResult(final, time.perf_counter() - start, launches, log)


def _steps_path(report: Path) -> Path:
    from ..ncu.steps import STEPS_SUFFIX

    return report.with_name(report.name + STEPS_SUFFIX)


def _step_list(req: ProfileRequest, log: str) -> dict | None:
    """The runner's list of the steps it ran (kept beside the report: its launches split
    into them); None for a run without steps."""
    if not req.llm.stepped:
        return None
    result = runner.read_result(log)
    if result is None or not isinstance(result.get("steps"), list):
        raise KernelscopeError(
            "the runner ran the steps under ncu but printed no list of them; no report was kept",
            details=log,
        )
    return result


# Beside each report: the settings it was made with (``recorded_request``), so that another
# build of the model (its tuned build, say) can be profiled the same way and compared.
SETTINGS_SUFFIX = ".settings.json"
_NOT_RECORDED = ("workspace", "name", "expect_kernel")  # this report's own, not its way


def _settings_path(report: Path) -> Path:
    return report.with_name(report.name + SETTINGS_SUFFIX)


_HOST_KEYS = ("host", "ssh_options", "remote_ncu", "remote_python", "remote_runtime_root")


def request_settings(req: ProfileRequest) -> dict[str, Any]:
    """The request as one flat mapping, option by option, in the shape settings files have
    had since before the Nsight Compute, step and host options were values of their own:
    those options among the others, the host's as ``host``, ``ssh_options`` and
    ``remote_*``. ``request_from_settings`` reads it back."""
    flat: dict[str, Any] = {}
    for f in fields(req):
        value = getattr(req, f.name)
        if f.name == "host":
            target = value or SshTarget("")
            host = (value.host if value else None, list(target.options), target.ncu)
            flat.update(zip(_HOST_KEYS, (*host, target.python, target.runtime_root), strict=True))
        elif f.name in ("ncu", "llm"):
            flat.update(asdict(value))
        else:
            flat[f.name] = value
    return flat


def request_from_settings(values: Mapping[str, Any], workspace: Path) -> ProfileRequest:
    """The request of a ``request_settings`` mapping for ``workspace`` (what it lacks keeps
    its default; keys it does not know are left out). Raises TypeError for values of the
    wrong kind."""

    def known(cls: type) -> dict[str, Any]:
        return {f.name: values[f.name] for f in fields(cls) if f.name in values}

    rest = {k: v for k, v in known(ProfileRequest).items() if k not in ("workspace", "host")}
    host = values.get("host")
    target = None
    if host:
        target = SshTarget(
            host,
            values.get("ssh_options") or (),
            values.get("remote_python") or "python3",
            values.get("remote_ncu") or "ncu",
            values.get("remote_runtime_root"),
        )
    llm = StepOptions(**known(StepOptions))
    return ProfileRequest(
        workspace=workspace, ncu=NcuOptions(**known(NcuOptions)), host=target, llm=llm, **rest
    )


def _record_settings(req: ProfileRequest, report: Path) -> None:
    settings = {k: v for k, v in request_settings(req).items() if k not in _NOT_RECORDED}
    for key in ("inputs", "hook"):
        settings[key] = str(settings[key]) if settings[key] is not None else None
    path = _settings_path(report)
    try:
        path.write_text(json.dumps(settings, indent=1), encoding="utf-8")
    except OSError as exc:  # the report is what matters; its settings are a convenience
        logger.warning("%s: settings not recorded: %s", path, exc)


def recorded_request(report: Path, workspace: Path) -> ProfileRequest | None:
    """The request ``report`` was made with (its sections, passes, clocks, inputs, host), for
    ``workspace``; None when it has no record (made elsewhere, or before they were kept)."""
    path = _settings_path(report)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(raw, dict):
        return None
    values = {k: v for k, v in raw.items() if k not in _NOT_RECORDED}
    for key in ("inputs", "hook"):
        if values.get(key):
            values[key] = Path(values[key])
    try:
        return request_from_settings(values, workspace)
    except TypeError:
        return None


def same_kernel(printed: str, name: str) -> bool:
    """Whether ncu's ``==PROF==`` name for a launch is ``name``: the name itself, or ncu's
    shortened form of it (its first characters and "...")."""
    if printed == name:
        return True
    stem = printed.removesuffix(_ELIDED)
    return bool(stem) and stem != printed and len(name) > len(stem) and name.startswith(stem)


def profiled_kernels(log: str, report: Path) -> list[str]:
    """The kernels ncu profiled, in order: the names its log gives, full names from the
    report where the log shortened them (and the report's launches are the log's)."""
    printed = [m.group("name") for m in _PROFILING_RE.finditer(log)]
    if not any(n.endswith(_ELIDED) for n in printed):
        return printed
    full = _report_kernels(report)
    if full is None or len(full) != len(printed):
        return printed
    if all(same_kernel(p, f) for p, f in zip(printed, full, strict=True)):
        return full
    return printed


def _report_kernels(report: Path) -> list[str] | None:
    """Each launch's function name as the report holds it (decoded from the file, no
    NVIDIA reader); None when the report cannot be read so."""
    from ..ncu.rep.decoded import read_launches
    from ..ncu.rep.wire import Unsupported

    try:
        names = [a.name() if a is not None else None for a in read_launches(report)]
    except (Unsupported, OSError, ValueError):
        return None
    return None if None in names else [n for n in names if n is not None]


def _check_expected(req: ProfileRequest, profiled: list[str], log: str) -> None:
    if req.expect_kernel is None:
        return
    wrong = sorted({n for n in profiled if not same_kernel(n, req.expect_kernel)})
    if wrong:
        raise KernelscopeError(
            f"ncu profiled {', '.join(wrong)}, not {req.expect_kernel}: the model launched "
            "other kernels than the ones the timeline recorded (was the workspace rebuilt "
            "since, or are the inputs others?); no report was kept",
            hint="measure the timeline again with the same inputs, then profile the call from "
            f"it: {shlex.join(timeline_command(req))}",
            details=log,
        )


def timeline_command(req: ProfileRequest) -> list[str]:
    """The ``kernelscope timeline`` command that measures the request's workspace where it
    profiles (the same host, SSH options, inputs)."""
    line = ["kernelscope", "timeline", str(req.workspace)]
    line += req.host.command_arguments() if req.host else []
    if req.inputs:
        line += ["--inputs", str(req.inputs)]
    if req.seed:
        line += ["--seed", str(req.seed)]
    return line


def profile_command(req: ProfileRequest) -> list[str]:
    """The ``kernelscope profile`` command that makes this request again: the same launches,
    sections, clocks, inputs and host (``kernelscope profile`` parses it back into an equal
    request)."""
    line = ["kernelscope", "profile", str(req.workspace), *req.ncu.command_arguments()]
    line += ["--warmup", str(req.warmup), "--iterations", str(req.iterations)]
    if req.inputs:
        line += ["--inputs", str(req.inputs)]
    if req.seed:
        line += ["--seed", str(req.seed)]
    if req.name:
        line += ["--name", req.name]
    if req.expect_kernel:
        line += ["--expect-kernel", req.expect_kernel]
    line += req.llm.command_arguments()
    return line + (req.host.command_arguments() if req.host else [])


def launch_sequence(ws: Workspace) -> list[str] | None:
    """The kernels one forward pass launches, in order (a kernel TVM reuses for several
    layers appears once per launch); None when the build did not record its calls."""
    if not ws.manifest.calls:
        return None
    by_primfunc: dict[str, list[str]] = {}
    for k in ws.manifest.kernels:
        if k.launched and k.primfunc:
            by_primfunc.setdefault(k.primfunc, []).append(k.name)
    return [name for call in ws.manifest.calls for name in by_primfunc.get(call, [])]


def _expected_launches(ws: Workspace, req: ProfileRequest) -> int:
    names = launch_sequence(ws)
    if names is None:  # an older workspace: each launched kernel once per pass
        names = [k.name for k in ws.manifest.kernels if k.launched]
    ncu = req.ncu
    if ncu.kernel_regex:
        pattern = re.compile(ncu.kernel_regex)
        names = [n for n in names if pattern.search(n)]
    total = len(names) * (req.warmup + req.iterations) - ncu.launch_skip
    if ncu.launch_count is not None:
        total = min(total, ncu.launch_count)
    return max(total, 1)


def _profile(
    ws: Workspace,
    req: ProfileRequest,
    partial: Path,
    expected: int | None,
    report: ProgressFn,
    cancel: Cancel | None,
) -> tuple[str, int]:
    """ncu on the runner here, or on the host (the report fetched to ``partial``)."""
    target = req.host
    with runner_site(ws, target, req.inputs, report, cancel, 0.02, req.llm.hook) as site:
        ncu = str(find_tool("ncu").require()) if target is None else target.ncu
        output = str(partial) if site.folder is None else site.folder.file("report")
        cmd = site.command(
            runner_arguments(req, site.workspace, site.inputs, site.hook),
            before=[ncu, *ncu_arguments(req, output, f"{site.workspace}/src")],
            find_ncu=target is not None and target.ncu == "ncu",
        )
        log, launches = stream_ncu(cmd, expected, report, cancel)
        if site.folder is not None:
            report("fetch", 0.96, f"fetching the report from {site.where}")
            local = partial.with_name(partial.name + ".ncu-rep")
            fetched = transfer_progress(report, "fetch", 0.96, 1.0)
            site.folder.fetch("report.ncu-rep", local, fetched)
        return log, launches


def stream_ncu(
    cmd: list[str], expected: int | None, report: ProgressFn, cancel: Cancel | None
) -> tuple[str, int]:
    """Run ncu, report per-kernel progress (of ``expected`` launches; None: not known
    beforehand), raise with its log if it fails."""
    launches = 0

    def on_line(line: str) -> None:
        nonlocal launches
        m = _PROFILING_RE.search(line)
        if m:
            launches += 1
            fraction = None if expected is None else 0.05 + 0.9 * min(launches / expected, 1.0)
            index = m.group("index")
            where = f"launch {index}" if index is not None else f"{launches} of {expected or '?'}"
            report("profile", fraction, f"profiling {m.group('name')} ({where})")

    # stdin stays an open pipe: over ssh, the remote supervisor runs ncu while it is open
    result = run_process(
        cmd, "profile", on_line=on_line, cancel=cancel, check=False, stdin=KEEP_OPEN
    )
    text = result.output
    if result.returncode != 0 or "==ERROR==" in text:
        raise _explain_failure(result.returncode, text, cmd)
    if launches == 0:
        raise KernelscopeError(
            "ncu profiled no kernel launch",
            hint="check --kernel, --launch-skip and --launch-count",
            details=text,
        )
    return text, launches


def _explain_failure(code: int, log: str, cmd: list[str]) -> KernelscopeError:
    details = command_details(cmd, log)
    if any(marker in log for marker in _PERMISSION_MARKERS):
        return KernelscopeError(
            "ncu may not read the GPU's performance counters on this machine",
            hint=COUNTERS_FIX,
            details=details,
        )
    if f"exit code {runner.EXIT_SOURCE_MISMATCH}" in log or "not the one this workspace" in log:
        return KernelscopeError(
            "the model TVM loaded is not the code this workspace was built from; nothing "
            "was profiled",
            hint="rebuild the workspace with kernelscope build",
            details=details,
        )
    message = runner.read_message(log)
    if message is not None:
        return KernelscopeError(f"the model could not run: {message}", details=details)
    last = [ln for ln in log.splitlines() if ln.startswith("==ERROR==")]
    return KernelscopeError(
        f"ncu failed ({describe_exit(code)})" + (f": {last[-1][10:].strip()}" if last else ""),
        details=details,
    )
