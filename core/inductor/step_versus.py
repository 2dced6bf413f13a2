"""TVM against torch.compile on the same decoder, step by step (``kernelscope diff WS RUN
--steps``): a TVM workspace's report profiled with steps (``kernelscope profile WS --steps
... --profile-steps ...``) and a torch.compile run folder whose report was profiled with the
same step markers (the runner's ``--torch-llama``: transformers' Llama in the workspace's
configuration), each step's kernel time per operator group on both sides, and the winner.

Steps pair by name and index (prefill 0 with prefill 0, decode 2 with decode 2). The groups
are the step ledger's (``core.ncu.ledger``): a TVM kernel's from the build's manifest
(``kernel_group``), an Inductor launch's from the ATen operators its wrapper call says it
fuses (``torch_group``): the same words for the same work, though the two compilers cut it
differently: Inductor writes the rotary embedding into the kernels that project or store q
and k, where TVM's KV cache runs one rope kernel; the cache update (``index_copy_`` into the
static cache) is its own kernel in both.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import KernelscopeError
from ..ncu import Profile
from ..ncu.ledger import (
    ATTENTION,
    ELEMENTWISE,
    GROUPS,
    KV_CACHE,
    LIBRARY,
    MATMUL,
    NORM,
    OTHER,
    ROPE,
    kernel_group,
    ledger_input,
    workspace_stepped_reports,
)
from ..ncu.steps import PROFILE_WITH_STEPS, StepLaunches, read_steps, report_steps, steps_path
from ..profiling.runner.torch_llm import TIMED_APART
from ..workspace import Workspace
from .launches import RunLaunch, tie_step
from .run_folder import InductorRun, open_run
from .versus import GroupRow, Side, normalise

# ATen operators (``normalise``d) by what they do in a decoder.
_ATTENTION_OPS = {
    "scaled_dot_product_flash_attention",
    "scaled_dot_product_efficient_attention",
    "scaled_dot_product_cudnn_attention",
    "scaled_dot_product_attention",
    "flash_attention_forward",
    "efficient_attention_forward",
}
_MATMUL_OPS = {"mm", "addmm", "bmm", "baddbmm", "matmul", "linear"}
_CACHE_OPS = {"index_copy", "index_copy_", "index_put", "index_put_", "scatter"}
_NORM_MARKS = {"rsqrt"}  # with a mean over the last axis: RMSNorm (HF's LlamaRMSNorm)
_ROPE_MARKS = {"cos", "sin"}
_LAYOUT_OPS = {
    "view", "unsafe_view", "reshape", "transpose", "permute", "t", "expand", "unsqueeze",
    "squeeze", "clone", "to_copy", "slice", "select", "arange",
}  # fmt: skip
_ELEMENTWISE_OPS = {
    "add", "mul", "sub", "div", "neg", "silu", "sigmoid", "exp", "pow", "rsqrt", "tanh",
    "where", "to_copy", "copy", "clone", "cat", "mean", "sum", "embedding",
}  # fmt: skip


def torch_group(launch: RunLaunch) -> str:
    """The ledger group of one Inductor launch, from the ATen operators of its wrapper call
    (a library kernel by the extern call that ran it); ``library`` when not tied to one."""
    if launch.call is None:
        return LIBRARY if not launch.triton else OTHER
    ops = {normalise(a) for a in launch.aten}
    if not launch.triton:
        op = normalise(launch.operator)
        if op in _ATTENTION_OPS or ops & _ATTENTION_OPS:
            return ATTENTION
        if op in _MATMUL_OPS:
            return MATMUL
        if op in _CACHE_OPS:
            return KV_CACHE
        return LIBRARY
    return triton_step_group(ops)


def triton_step_group(ops: Iterable[str]) -> str:
    """The group of a Triton kernel fusing ``ops`` (normalised ATen names). A GEMM or an
    attention its list names ran in a library (cuBLAS, cuDNN) when the wrapper calls one: the
    Triton kernel only lays out its inputs or finishes its output, and counts by what it does
    itself (Inductor writes the rotary embedding into the kernels that lay q and k out for the
    attention): the norm, the rope, the cache's update or bookkeeping, elementwise work; only
    a kernel doing nothing else counts as the matmul or attention (a template)."""
    ops = set(ops)
    own = ops - _MATMUL_OPS - _ATTENTION_OPS
    if own & _NORM_MARKS and "mean" in own:
        return NORM
    if own & _ROPE_MARKS or {"neg", "cat"} <= own:
        return ROPE
    if own & _CACHE_OPS or ("copy_" in own and own <= {"add", "copy_"}):
        # index_copy_ into the static cache; an in-place add written back into a graph
        # input: the cache's own counters (transformers' StaticLayer)
        return KV_CACHE
    if ops & _ATTENTION_OPS and not own - _LAYOUT_OPS:
        return ATTENTION
    if ops & _MATMUL_OPS and not own - _LAYOUT_OPS:
        return MATMUL
    if own & (_ELEMENTWISE_OPS - {"embedding"}):
        return ELEMENTWISE
    return OTHER


@dataclass
class StepVersus:
    """One step on both sides: its rows per group and both sides' step facts."""

    name: str
    index: int
    tvm: StepLaunches
    torch: StepLaunches
    rows: list[GroupRow]
    torch_event_ms: float | None  # the step timed whole with CUDA events, in a run without ncu
    untied: int = 0  # torch.compile launches tied to no wrapper call
    tvm_report: Path | None = None  # the TVM report the step was taken from

    @property
    def label(self) -> str:
        return f"{self.name} {self.index}"

    @property
    def total(self) -> GroupRow:
        """The whole step as one row (its winner, its ratio)."""
        tvm = Side([n for r in self.rows for n in r.tvm.launches])
        torch = Side([n for r in self.rows for n in r.inductor.launches])
        return GroupRow("total", tvm, torch)


@dataclass
class StepsVersus:
    workspace: Workspace
    tvm_reports: list[Path]  # a step is taken from the last of them that profiled it
    run: InductorRun
    torch_report: Path
    steps: list[StepVersus]
    devices: tuple[str | None, str | None]  # TVM's, torch's (from the step lists)
    notes: list[str]


Grouped = list[tuple[str, str, float]]  # (group, kernel, ns) per launch


def _group_rows(tvm: Grouped, torch: Grouped) -> list[GroupRow]:
    rows = {g: GroupRow(g, Side(), Side()) for g in GROUPS}
    for group, name, ns in tvm:
        rows[group].tvm.launches.append((name, ns))
    for group, name, ns in torch:
        rows[group].inductor.launches.append((name, ns))
    return [r for r in rows.values() if r.tvm.launches or r.inductor.launches]


def compare_step(
    ws: Workspace,
    run: InductorRun,
    tvm_step: StepLaunches,
    torch_step: StepLaunches,
    torch_event_ms: float | None = None,
    tvm_report: Path | None = None,
) -> StepVersus:
    """One step of each side, per group (``tvm_step`` of ``ws``, from ``tvm_report``;
    ``torch_step`` of ``run``)."""
    infos = {k.name: k for k in ws.manifest.kernels}
    tvm = [
        (kernel_group(infos.get(x.name)).group, x.name, x.duration_ns or 0.0)
        for x in tvm_step.launches
    ]
    tied = tie_step(run, [(x.id, x.name, x.duration_ns) for x in torch_step.launches])
    torch = [(torch_group(t), t.name, t.duration_ns or 0.0) for t in tied]
    return StepVersus(
        tvm_step.name,
        tvm_step.index,
        tvm_step,
        torch_step,
        _group_rows(tvm, torch),
        torch_event_ms,
        sum(1 for t in tied if t.call is None),
        tvm_report,
    )


def versus_steps(
    ws: Workspace,
    tvm_profiles: Sequence[Profile],
    run: InductorRun,
    torch_profile: Profile,
) -> StepsVersus:
    """Each step both sides profiled, per group, TVM against torch.compile. ``tvm_profiles``
    oldest first (a prefill report and a decode report, say): a step profiled twice is taken
    from the newest."""
    mine: dict[tuple[str, int], StepLaunches] = {}
    source: dict[tuple[str, int], Path] = {}  # the report each of ``mine`` comes from
    tvm_devices = set()
    for profile in tvm_profiles:
        for s in report_steps(profile, ws.path):
            mine[(s.name, s.index)] = s
            source[(s.name, s.index)] = profile.paths[0]
        tvm_devices.add(read_steps(profile.paths[0], ws.path).get("device"))
    torch_steps = report_steps(torch_profile)
    theirs = {(s.name, s.index): s for s in torch_steps}
    listed = read_steps(torch_profile.paths[0])
    notes: list[str] = []
    events = {}
    if listed.get("step_times") == TIMED_APART:
        events = {
            (s.get("name"), s.get("index")): s.get("gpu_ms")
            for s in listed["steps"]
            if isinstance(s, dict)
        }
    elif any(isinstance(s, dict) and "gpu_ms" in s for s in listed["steps"]):
        notes.append(
            "torch.compile's whole-step times of this run were taken under ncu, which "
            "intercepts every launch (a 1B decode step: 28.9 ms under it, 5.3 ms without): "
            "left out; profile-torch times the steps without ncu"
        )
    out: list[StepVersus] = []
    untied = 0
    order = {"prefill": 0, "decode": 1}
    for key in sorted(mine, key=lambda k: (order.get(k[0], 2), k[0], k[1])):
        step, other = mine[key], theirs.pop(key, None)
        if other is None:
            continue
        event = events.get((other.name, other.index))
        event_ms = float(event) if isinstance(event, (int, float)) else None
        pair = compare_step(ws, run, step, other, event_ms, source[key])
        untied += pair.untied
        if (step.tokens, step.total_len) != (other.tokens, other.total_len):
            notes.append(
                f"{step.label}: TVM ran {step.tokens} token(s) with {step.total_len} cached, "
                f"torch.compile {other.tokens} with {other.total_len}: not the same step"
            )
        out.append(pair)
    if not out:
        have = ", ".join(s.label for s in mine.values()) or "none"
        raise KernelscopeError(
            f"the two sides profiled no step in common (TVM: {have}; torch.compile: "
            f"{', '.join(s.label for s in torch_steps) or 'none'})",
            hint="profile the same steps on both sides (--profile-steps decode:0-3)",
        )
    left = [s.label for s in theirs.values()]
    if left:
        notes.append(f"steps only torch.compile's report profiled: {', '.join(left)}")
    if untied:
        notes.append(
            f"{untied} launches of the torch.compile report are not in this run's wrappers: "
            "counted as library or other (a report of another compile?)"
        )
    if any(r.group == ROPE and r.inductor.launches for s in out for r in s.rows):
        notes.append(
            "rope: Inductor writes the rotary embedding into the kernels that lay q and k out "
            "for the attention (and into the key's cache update), where TVM's KV cache runs "
            "one rope kernel per layer; the attention group holds the attention kernels alone"
        )
    known = sorted(d for d in tvm_devices if d)
    device = listed.get("device")
    if device and known and (len(known) > 1 or known[0] != device):
        notes.append(
            f"the reports come from different GPUs (TVM: {', '.join(known)}; torch.compile: "
            f"{device}): their times do not compare"
        )
    return StepsVersus(
        ws,
        [p.paths[0] for p in tvm_profiles],
        run,
        torch_profile.paths[0],
        out,
        (", ".join(known) or None, device),
        notes,
    )


def stepped_run_report(run: InductorRun) -> Path:
    """The run folder's newest report profiled with steps (its step list beside it)."""
    reports = [p for p in run.reports if steps_path(p).is_file()]
    if not reports:
        raise KernelscopeError(
            f"{run.path} holds no report profiled step by step (a REPORT.ncu-rep with its "
            "REPORT.ncu-rep.steps.json)",
            hint="profile the decoder's twin with steps: the runner's --torch-llama CONFIG "
            "--steps prefill=512,decode=8 --profile-steps decode:0-3 under ncu "
            "--profile-from-start off (benchmarks/llm/torch_steps_on_gpu.sh)",
        )
    return reports[-1]


def open_versus_steps(tvm: Path, run_folder: Path, workspace: Path | None = None) -> StepsVersus:
    """I/O: ``versus_steps`` of a TVM workspace (every report of it profiled with steps) or
    one stepped report (``workspace``: its workspace), and a torch.compile run folder (its
    newest stepped report)."""
    if tvm.is_dir():
        reports, ws = workspace_stepped_reports(tvm)
    else:
        report, ws = ledger_input(tvm, workspace)
        if not steps_path(report).is_file():
            raise KernelscopeError(
                f"{report.name} was not profiled step by step",
                hint=PROFILE_WITH_STEPS.format(ws=ws.path),
            )
        reports = [report]
    run = open_run(run_folder)
    theirs = stepped_run_report(run)
    return versus_steps(
        ws, [Profile.open(r, workspace=ws) for r in reports], run, Profile.open(theirs)
    )


STEPS_HEADER: Sequence[str] = (
    "step",
    "group",
    "TVM launches",
    "TVM µs",
    "torch launches",
    "torch µs",
    "winner",
)


def step_rows(v: StepsVersus) -> list[tuple[StepVersus, GroupRow]]:
    """The table's rows: per step its groups, then the step's total (``format_steps``'s
    order)."""
    return [(step, r) for step in v.steps for r in [*step.rows, step.total]]


def format_steps(v: StepsVersus, *, every_row: bool = False) -> list[list[str]]:
    """The table's rows as text cells (``step_rows``): the step named on its total row, or
    with ``every_row`` on each (a table whose rows are selected one by one)."""
    return [
        [
            step.label if every_row or r.group == "total" else "",
            r.group,
            str(len(r.tvm.launches)),
            f"{r.tvm.time_ns / 1000:.1f}",
            str(len(r.inductor.launches)),
            f"{r.inductor.time_ns / 1000:.1f}",
            _winner(r),
        ]
        for step, r in step_rows(v)
    ]


def _winner(r: GroupRow) -> str:
    word = {"Inductor": "torch.compile"}.get(r.winner, r.winner)
    ratio = r.ratio
    return word + (f" {ratio:.2f}x" if ratio is not None and word not in ("-", "tie") else "")


def steps_notes(v: StepsVersus) -> list[str]:
    """What goes below the per-step table: each step's whole time on torch.compile's side
    (where it was timed without ncu), then the comparison's notes."""
    times = [
        f"{s.label}: torch.compile's step timed whole (CUDA events, without ncu): "
        f"{s.torch_event_ms * 1000:.1f} µs"
        for s in v.steps
        if s.torch_event_ms is not None
    ]
    return [*times, *v.notes]


def steps_json(v: StepsVersus) -> dict:
    def row(r: GroupRow) -> dict:
        return {
            "group": r.group,
            "tvm_launches": len(r.tvm.launches),
            "tvm_ns": r.tvm.time_ns,
            "tvm_kernels": r.tvm.kernels,
            "torch_launches": len(r.inductor.launches),
            "torch_ns": r.inductor.time_ns,
            "torch_kernels": r.inductor.kernels,
            "winner": {"Inductor": "torch.compile"}.get(r.winner, r.winner),
            "ratio": r.ratio,
        }

    return {
        "tvm_reports": [str(p) for p in v.tvm_reports],
        "torch_report": str(v.torch_report),
        "devices": {"tvm": v.devices[0], "torch": v.devices[1]},
        "steps": [
            {
                "name": s.name,
                "index": s.index,
                "tokens": s.tvm.tokens,
                "total_len": s.tvm.total_len,
                "groups": [row(r) for r in s.rows],
                "total": row(s.total),
                "torch_event_ms": s.torch_event_ms,
            }
            for s in v.steps
        ],
        "notes": v.notes,
    }
