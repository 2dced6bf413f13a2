"""The kernelscope workspace of a torch.compile run, made once in kernelscope's cache, so that
every feature that reads a workspace (kernel list, hot lines, SASS and PTX panes, details,
compare) reads a run folder the same way.

What it holds: each Triton kernel's file as ``src/<file name>`` (the name Triton's line
information and ``ncu --import-source`` record, so a report's sources resolve to it), the SASS
of its cubin from Triton's cache (``nvdisasm -c -g -gi -gp``: no GPU), the PTX of every kernel
in one ``module.ptx`` (Triton writes one ``.ptx`` per kernel: joined here, each kernel's
``.file`` numbers and lines shifted so the workspace's PTX tables hold), and the run's reports
linked under ``profiles/``. The manifest's operators are the ATen operators Inductor says each
kernel fuses. The folder's name is a digest of what it is made from: an edited or re-run
folder makes a new one, an unchanged one opens at once.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ..errors import KernelscopeError
from ..paths import cache_root
from ..process import run_process
from ..toolchain import find_tool
from ..workspace import (
    MANIFEST,
    PROFILES,
    PTX,
    PTX_LINES,
    SASS,
    TORCH_COMPILE_FORMAT,
    KernelInfo,
    KernelSass,
    Manifest,
    OpInfo,
    TensorInfo,
    Workspace,
    write_ptx_lines,
    write_sass,
)
from .run_folder import WRAPPER, InductorRun, TritonKernel, WrapperLaunch, open_run

_log = logging.getLogger(__name__)

FORMAT = 4  # of the derived workspace: a change makes every run's workspace again
_FILE_RE = re.compile(r'^(\s*\.file\s+)(\d+)(\s+")([^"]*)(".*)$')
_LOC_RE = re.compile(r"^(\s*\.loc\s+)(\d+)(\s.*)$")
_INLINED_RE = re.compile(r"(inlined_at\s+)(\d+)")


def derived_folder(run: InductorRun) -> Path:
    """Where ``run``'s workspace is (or will be) in kernelscope's cache."""
    h = hashlib.sha256(f"{FORMAT}\n{run.path.resolve()}\n".encode())
    for k in run.kernels:
        h.update(k.name.encode() + b"\0" + k.source_text.encode() + b"\0")
        for f in (k.cubin, k.ptx):
            if f is not None:
                s = f.stat()
                h.update(f"{f}:{s.st_size}:{s.st_mtime_ns}\n".encode())
    for r in run.reports:
        h.update(f"{r}\n".encode())
    return cache_root() / "inductor" / h.hexdigest()[:24]


def run_workspace(run: InductorRun | str | os.PathLike[str]) -> Workspace:
    """I/O: the workspace of a run folder (made on the first call: nvdisasm over each cubin,
    about a second for a model; reused afterwards)."""
    if not isinstance(run, InductorRun):
        run = open_run(run)
    target = derived_folder(run)
    if (target / MANIFEST).is_file():
        try:
            return Workspace.open(target)
        except KernelscopeError:
            _log.info("%s is damaged: made again", target)
    start = time.perf_counter()
    stage = target.with_name(f".{target.name}.{os.getpid()}")
    shutil.rmtree(stage, ignore_errors=True)
    (stage / "src").mkdir(parents=True)
    try:
        _write(run, stage, start)
        if not (target / MANIFEST).is_file():  # a damaged one; a whole one is kept
            shutil.rmtree(target, ignore_errors=True)
        try:
            os.replace(stage, target)
        except OSError:  # another process made it meanwhile: the same content
            if not (target / MANIFEST).is_file():
                raise
            shutil.rmtree(stage, ignore_errors=True)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    _log.info("workspace of %s made in %s", run.path, target)
    return Workspace.open(target)


def _write(run: InductorRun, stage: Path, start: float) -> None:
    from ..build.nvdisasm import parse_nvdisasm, parse_ptx_lines  # the build package is big

    nvdisasm = str(find_tool("nvdisasm").require())
    sass: dict[str, KernelSass] = {}
    ptx_lines: dict[str, dict[int, int]] = {}
    ptx_parts: list[str] = []
    kernels: list[KernelInfo] = []
    notes = list(run.notes)
    first_line, file_base = 1, 0
    with ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 1)) as pool:
        outputs = list(pool.map(lambda k: _disassemble(nvdisasm, k), run.kernels))
    for k, out in zip(run.kernels, outputs, strict=True):
        rel = f"src/{k.file_name}"
        (stage / rel).write_text(k.source_text, encoding="utf-8")
        fix = _renamer(k, rel)
        ks = KernelSass()
        lines: dict[int, int] = {}
        if out is not None:
            ks = parse_nvdisasm(out).get(k.name, ks)
            for insn in ks.instructions:
                insn.file = fix(insn.file) if insn.file is not None else None
                insn.inlined_at = [(fix(f), n) for f, n in insn.inlined_at]
            lines = parse_ptx_lines(out).get(k.name, {})
        if k.ptx is not None and lines:
            text = k.ptx.read_text(encoding="utf-8", errors="replace")
            shifted, declared = _shift_files(text, file_base, fix)
            ptx_parts.append(shifted)
            ptx_lines[k.name] = {off: line + first_line - 1 for off, line in lines.items()}
            first_line += len(text.split("\n"))
            file_base += declared
        sass[k.name] = ks
        notes += [f"{k.name}: {n}" for n in k.notes]
        kernels.append(_kernel_info(k, rel, len(ks.instructions)))
    for info in _library_kernels(run, stage):
        sass[info.name] = KernelSass()
        kernels.append(info)
    write_sass(stage / SASS, sass)
    files = {"sass": SASS}
    if ptx_parts:
        (stage / PTX).write_text("\n".join(ptx_parts), encoding="utf-8")
        write_ptx_lines(stage / PTX_LINES, ptx_lines)
        files.update(ptx=PTX, ptx_lines=PTX_LINES)
    _link_reports(run, stage / PROFILES)
    manifest = Manifest(
        model=run.path.name,
        model_sha256="",
        model_format=TORCH_COMPILE_FORMAT,
        entry="call",
        target={"kind": "cuda", "arch": _arch(run)},
        inputs=[],
        weights=[],
        params_mode="none",
        params_seed=None,
        versions=dict(run.versions),
        nvcc_flags=[],
        cache_key=stage.name,
        timings={"derive": time.perf_counter() - start},
        kernels=kernels,
        files=files,
        notes=notes,
        calls=[x.kernel for x in run.launches if x.triton],
        model_path=str(run.path.resolve()),
    )
    (stage / MANIFEST).write_text(manifest.to_json(), encoding="utf-8")
    (stage / "inductor.json").write_text(
        json.dumps({"run": str(run.path.resolve()), "format": FORMAT}), encoding="utf-8"
    )


def _disassemble(nvdisasm: str, kernel: TritonKernel) -> str | None:
    """``nvdisasm -c -g -gi -gp`` of the kernel's cubin (SASS, line table, PTX lines)."""
    if kernel.cubin is None:
        return None
    cmd = [nvdisasm, "-c", "-g", "-gi", "-gp", str(kernel.cubin)]
    return run_process(cmd, f"nvdisasm {kernel.cubin.name}").output


def _renamer(kernel: TritonKernel, rel: str) -> Callable[[str], str]:
    """The kernel's own file, as its line information records it, named as the workspace
    does; other files (Triton's language modules) stay as recorded."""
    name = kernel.file_name

    def fix(path: str) -> str:
        return rel if os.path.basename(path) == name else path

    return fix


def _shift_files(text: str, base: int, fix: Callable[[str], str]) -> tuple[str, int]:
    """Triton's PTX of one kernel with its ``.file`` numbers moved up by ``base`` (so that
    the kernels' file tables do not collide once joined) and its own file renamed; returns
    it and how many file numbers it declares."""
    out = []
    highest = 0
    for raw in text.split("\n"):
        if (m := _FILE_RE.match(raw)) is not None:
            n = int(m.group(2))
            highest = max(highest, n)
            raw = f"{m.group(1)}{n + base}{m.group(3)}{fix(m.group(4))}{m.group(5)}"
        elif (m := _LOC_RE.match(raw)) is not None:
            rest = _INLINED_RE.sub(lambda i: f"{i.group(1)}{int(i.group(2)) + base}", m.group(3))
            raw = f"{m.group(1)}{int(m.group(2)) + base}{rest}"
        out.append(raw)
    return "\n".join(out), highest


def _kernel_info(k: TritonKernel, rel: str, instructions: int) -> KernelInfo:
    warps = k.config.get("num_warps") or k.metadata.get("num_warps")
    shared = k.metadata.get("shared")
    return KernelInfo(
        name=k.name,
        file=rel,
        primfunc=k.name,
        grid=[],  # chosen at launch from the sizes: a report has it
        block=[32 * warps if isinstance(warps, int) else 0, 1, 1],
        dynamic_smem_bytes=shared if isinstance(shared, int) else 0,
        params=_params(k.source_text),
        ops=[OpInfo(op=a, prim=k.name, inputs=[], output=None) for a in k.aten],
        source_lines=len(k.source_text.splitlines()),
        sass_instructions=instructions,
        launched=bool(k.launches),
        about=_about(k),
    )


def _library_kernels(run: InductorRun, stage: Path) -> list[KernelInfo]:
    """The kernels of the newest report that are not Triton's (cuBLAS, cuDNN...), each with
    the operators of the wrapper calls that launched it and those calls' lines; their source
    is the wrapper (``src/output_code.py``), their SASS the report's."""
    if run.report is None:
        return []
    from ..ncu import Profile
    from .launches import tie_launches

    try:
        profile = Profile.open(run.report, first_look=True)
    except KernelscopeError as exc:  # the report is looked at again when shown
        _log.info("%s: library kernels not listed: %s", run.report, exc)
        return []
    calls: dict[str, list[WrapperLaunch]] = {}
    for tied in tie_launches(run, profile):
        if not tied.triton and tied.call is not None:
            calls.setdefault(tied.name, []).append(tied.call)
    if not calls:
        return []
    wrapper = stage / "src" / WRAPPER
    wrapper.write_text(run.wrappers[0].read_text(encoding="utf-8"), encoding="utf-8")
    out = []
    for name, made_by in calls.items():
        operators = dict.fromkeys(f"aten.{c.operator}" for c in made_by)
        lines = dict.fromkeys(f"{c.wrapper.name}:{c.line}: {c.text}" for c in made_by)
        # the first call in the wrapper copied to src/ (a run of several graphs has others)
        shown = next((c.line for c in made_by if c.wrapper == run.wrappers[0]), 0)
        out.append(
            KernelInfo(
                name=name,
                file=f"src/{WRAPPER}",
                primfunc=made_by[0].kernel,
                grid=[],
                block=[],
                dynamic_smem_bytes=0,
                params=[],
                ops=[
                    OpInfo(op=o, prim=made_by[0].kernel, inputs=[], output=None) for o in operators
                ],
                about=["library kernel, launched by:", *lines],
                start_line=shown,
            )
        )
    return out


def _about(k: TritonKernel) -> list[str]:
    """The kernel's autotune configuration and wrapper lines, for the kernel list's tooltip."""
    lines = []
    config = k.describe_config()
    if config:
        origin = f" ({k.config_origin})" if k.config_origin else ""
        lines.append(f"Triton {k.kind or 'kernel'}: {config}{origin}")
    for x in k.launches:
        lines.append(f"{x.wrapper.name}:{x.line}: {x.text}")
    if k.source_nodes:
        lines.append("model: " + ", ".join(n for n in k.source_nodes if n))
    return lines + k.notes


_SIGNATURE_RE = re.compile(r"'signature': \{(?P<body>[^}]*)\}")
_ARG_RE = re.compile(r"'(?P<name>\w+)': '(?P<type>[^']+)'")


def _params(source: str) -> list[TensorInfo]:
    """The kernel's arguments and their Triton types (``*fp32``, ``i32``), from triton_meta."""
    m = _SIGNATURE_RE.search(source)
    if m is None:
        return []
    return [
        TensorInfo(shape=[], dtype=a.group("type"), name=a.group("name"))
        for a in _ARG_RE.finditer(m.group("body"))
        if a.group("type") != "constexpr"
    ]


def _arch(run: InductorRun) -> str:
    for k in run.kernels:
        arch = k.metadata.get("arch")
        if isinstance(arch, str) and arch.startswith("sm"):
            return arch.replace("sm", "sm_", 1) if "_" not in arch else arch
    return "unknown"


def _link_reports(run: InductorRun, folder: Path) -> None:
    """The run's reports under ``profiles/`` (links: a report is tens of MB), oldest first."""
    if not run.reports:
        return
    folder.mkdir()
    for i, report in enumerate(run.reports):
        link = folder / f"{i:02d}_{report.name}"
        try:
            link.symlink_to(report.resolve())
        except OSError:
            shutil.copyfile(report, link)
        stamp = report.stat().st_mtime
        os.utime(link, (stamp, stamp), follow_symlinks=False)


def run_of(workspace: str | os.PathLike[str]) -> Path | None:
    """The run folder a workspace was made from; None for a workspace of a build."""
    try:
        raw = json.loads((Path(workspace) / "inductor.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    run = raw.get("run") if isinstance(raw, dict) else None
    return Path(run) if isinstance(run, str) and Path(run).is_dir() else None


def open_workspace(path: str | os.PathLike[str]) -> Workspace:
    """A kernelscope workspace folder, or the workspace of a torch.compile run folder."""
    from .run_folder import is_run_folder

    return run_workspace(path) if is_run_folder(path) else Workspace.open(path)


def run_report(path: str | os.PathLike[str]) -> tuple[Path, Workspace]:
    """A run folder's newest report and the run's workspace; says how to make a report when
    the folder has none."""
    run = open_run(path)
    if run.report is None:
        raise KernelscopeError(
            f"{run.path} holds no Nsight Compute report",
            hint="profile the compiled model's steady-state call into the folder with source "
            "import: ncu --import-source yes --section SourceCounters -o RUN/profile "
            "python MODEL.py, or let kernelscope profile-torch MODEL.py make the folder",
        )
    return run.report, run_workspace(run)
