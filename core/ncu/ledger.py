"""The step ledger of an LLM's profile: each profiled step's launches and time by operator
group, and each kernel's launches at the symbolic values each step ran at.

The group of a kernel comes from the build's manifest, never from its name: the KV cache's
runtime-launched kernels by the ``role`` the cache gave them (``KernelInfo.launched_by``), the
kernels TVM generated from the Relax operators fused into them (``KernelInfo.ops``); a kernel
the build does not have (cuBLAS, cuDNN, CUTLASS through library dispatch) is a library kernel.

A kernel runs at one binding of its symbolic values per step: the step function's variables
(``seq_len`` of prefill, ``batch_size`` of decode: how the runner sized the call's first
input), and for the KV cache's kernels, which read the cache, the tokens it held after the
step. The same kernel at the same binding in several steps (a decode matmul over decode 0-31)
is one row; at other bindings, one row each. Where the manifest writes a kernel's grid over
its variables (``grid_expr``), the grid the report recorded is checked against the grid that
binding gives, and a disagreement is flagged on the row.

In a CUDA graph build (``build --cuda-graph``) Nsight Compute profiles each kernel node of a
replayed graph as a launch of its own, and its report says nothing of which launches were
graph nodes (Nsight Compute 2025.3.1 on an H100: no launch metric names a graph or a node,
every launch is a KERNEL workload on the same stream). The build says it instead: its IR after
``RewriteCUDAGraph`` gives, for each ``call_tir`` call of the step function, the captured
region it runs in (``FunctionInfo.call_graphs``); the k-th launch of a kernel in a step is
the k-th call of its PrimFunc there (a graph replays its nodes in program order).
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import KernelscopeError
from ..workspace import MANIFEST, PROFILES, FunctionInfo, KernelInfo, Manifest, Workspace
from .records import Dim3
from .steps import PROFILE_WITH_STEPS, StepLaunches, report_steps, steps_path

if TYPE_CHECKING:
    from .profile import Profile

# The operator groups, in the order the ledger shows them.
ATTENTION = "attention"
MATMUL = "matmul"
NORM = "norm"
ROPE = "rope"
ELEMENTWISE = "elementwise"
KV_CACHE = "kv-cache"
LIBRARY = "library"
OTHER = "other"
GROUPS = (ATTENTION, MATMUL, NORM, ROPE, ELEMENTWISE, KV_CACHE, LIBRARY, OTHER)

# The KV cache's roles (``build.kv_cache_launches.ROLE_OF_ARG``) -> group.
_ROLE_GROUP = {"rope": ROPE, "attention_merge": ATTENTION}
_KV_MAINTENANCE = {"append", "append_mla", "copy_single_page", "compact_kv_copy", "debug_get_kv"}
# What the free variables of a runtime-launched kernel's grid count (TVM 0.27's
# paged_kv_cache.cc): the decode attention's blocks go over the sequences, the rope's, the
# append's and the merge's over the step's tokens.
_ROLE_GRID = {"attention_decode": "batch", "attention_decode_sliding_window": "batch"}

# Relax operators (the part after ``relax.``; ``nn.`` kept) by group; a fused kernel takes
# the first group of ``_OP_ORDER`` any of its operators has.
_MATMUL_OPS = {"matmul", "nn.linear", "nn.dense", "einsum", "nn.batch_matmul"}
_ATTENTION_OPS = {"nn.attention", "nn.attention_bias", "nn.attention_var_len"}
_ELEMENTWISE_OPS = {
    "add", "subtract", "multiply", "divide", "floor_divide", "power", "maximum", "minimum",
    "negative", "exp", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "erf", "abs", "astype",
    "clip", "where", "nn.silu", "nn.gelu", "nn.gelu_tanh", "nn.relu", "nn.leakyrelu",
    "nn.softplus", "sin", "cos", "square",
}  # fmt: skip
# Moving data around pointwise math does not make a kernel "other".
_LAYOUT_OPS = {"split", "reshape", "permute_dims", "broadcast_to", "strided_slice", "squeeze",
               "expand_dims", "concat", "flatten"}  # fmt: skip


@dataclass(frozen=True)
class Grouping:
    """A kernel's operator group and what in the manifest says so (for people)."""

    group: str
    why: str


def kernel_group(info: KernelInfo | None) -> Grouping:
    """The operator group of a kernel the build has (``info``), or of one it does not."""
    if info is None:
        return Grouping(LIBRARY, "not in the build: a library's kernel (cuBLAS, CUTLASS...)")
    roles = [s.role for s in info.launched_by if s.via != "call_tir" and s.role]
    if roles:
        role = roles[0]
        if role in _KV_MAINTENANCE:
            group = KV_CACHE
        elif role.startswith("attention"):
            group = ATTENTION
        else:
            group = _ROLE_GROUP.get(role, OTHER)
        return Grouping(group, f"the KV cache's {role} kernel")
    ops = [_op_name(o.op) for o in info.ops]
    if not ops:
        return Grouping(OTHER, "the build records no operator for it")
    names = "+".join(o.op.removeprefix("relax.") for o in info.ops)
    for group, test in _OP_ORDER:
        if any(test(op) for op in ops):
            return Grouping(group, f"fused from {names}")
    if all(op in _ELEMENTWISE_OPS | _LAYOUT_OPS for op in ops) and any(
        op in _ELEMENTWISE_OPS for op in ops
    ):
        return Grouping(ELEMENTWISE, f"fused from {names}")
    return Grouping(OTHER, f"fused from {names}")


def _op_name(op: str) -> str:
    return op.removeprefix("relax.")


_OP_ORDER: tuple[tuple[str, Callable[[str], bool]], ...] = (
    (ATTENTION, lambda op: op in _ATTENTION_OPS),
    # FuseTransposeMatmul's PrimFuncs (NT_matmul3) stand in ``ops`` for the matmul they fuse
    (MATMUL, lambda op: op in _MATMUL_OPS or "matmul" in op or op.startswith("nn.conv")),
    (NORM, lambda op: op.endswith("_norm") or op in {"nn.rms_norm", "nn.layer_norm"}),
    (ROPE, lambda op: "rope" in op or "rotary" in op),
)


# ---- the ledger --------------------------------------------------------------------------------
@dataclass
class GroupTotal:
    launches: int = 0
    duration_ns: float = 0.0


@dataclass
class StepLedger:
    """One profiled step: its symbolic values and its time by operator group."""

    name: str
    index: int
    seq_len: int | None
    batch: int | None
    tokens: int | None
    total_len: int | None
    launches: int
    duration_ns: float
    groups: dict[str, GroupTotal]  # in ``GROUPS`` order, the groups the step has
    graph_launches: int = 0  # launches that were CUDA graph nodes (the build's word)
    graph_ns: float = 0.0
    cuda_graph: str | None = None  # the runner's: "capture" or "replay"; None: no graphs

    @property
    def label(self) -> str:
        return f"{self.name} {self.index}"


@dataclass
class BindingRow:
    """A kernel's launches at one binding of its symbolic values (over one or more steps)."""

    bindings: dict[str, int]
    steps: list[str]  # step labels, in order
    launch_ids: list[int]
    duration_ns: float = 0.0
    grids: list[Dim3] = field(default_factory=list)  # the distinct grids recorded
    expected_grid: Dim3 | None = None  # what ``grid_expr`` gives for ``bindings``; None: unknown
    flag: str = ""  # the recorded grid disagrees with the expected one: says how
    graph_launches: int = 0  # of ``launch_ids``, the CUDA graph nodes

    @property
    def launches(self) -> int:
        return len(self.launch_ids)

    def bindings_text(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.bindings.items()) or "-"

    def steps_text(self) -> str:
        return steps_text(self.steps)


def steps_text(labels: Sequence[str]) -> str:
    """``decode 0, decode 1, decode 2`` -> ``decode 0-2``: runs of one step name joined."""
    runs: list[list[str | int]] = []  # [name, first, last]
    for label in labels:
        name, _, index = label.rpartition(" ")
        if not index.isdigit():
            runs.append([label, -1, -1])
        elif runs and runs[-1][0] == name and runs[-1][2] == int(index) - 1:
            runs[-1][2] = int(index)
        else:
            runs.append([name, int(index), int(index)])
    return ", ".join(
        str(a) if b == -1 else f"{a} {b}" if b == c else f"{a} {b}-{c}" for a, b, c in runs
    )


@dataclass
class KernelLedger:
    """One kernel of the profiled steps: its group, and a row per binding it ran at."""

    name: str
    group: str
    why: str
    rows: list[BindingRow]

    @property
    def duration_ns(self) -> float:
        return sum(r.duration_ns for r in self.rows)

    @property
    def launches(self) -> int:
        return sum(r.launches for r in self.rows)


@dataclass
class Ledger:
    report: Path
    workspace: Path
    steps: list[StepLedger]
    kernels: list[KernelLedger]  # longest first
    # launch ID -> the CUDA graph region (of its step's function) it ran in, as a node
    graph_nodes: dict[int, int] = field(default_factory=dict)

    @property
    def duration_ns(self) -> float:
        return sum(s.duration_ns for s in self.steps)

    @property
    def flags(self) -> list[str]:
        """Every row whose bindings disagree with its launches' grid, said in full."""
        return [
            f"{k.name} at {r.bindings_text()} ({r.steps_text()}): {r.flag}"
            for k in self.kernels
            for r in k.rows
            if r.flag
        ]


def step_ledger(profile: Profile, workspace: Workspace | None = None) -> Ledger:
    """The ledger of a report of an LLM's steps and the workspace it was profiled from
    (``workspace``, else the one the profile was opened with)."""
    report = profile.paths[0]
    workspace = workspace or profile.workspace
    if workspace is None:
        raise KernelscopeError(
            f"the step ledger of {report.name} needs the workspace it was profiled from "
            "(its operators and symbolic shapes)",
            hint="pass -w WORKSPACE, or open the report from WORKSPACE/profiles; to make one: "
            + PROFILE_WITH_STEPS.format(ws="WORKSPACE"),
        )
    steps = report_steps(profile, workspace.path)
    manifest = workspace.manifest
    infos = {k.name: k for k in manifest.kernels}
    groupings: dict[str, Grouping] = {}
    rows: dict[str, dict[tuple[tuple[str, int], ...], BindingRow]] = {}
    out_steps: list[StepLedger] = []
    graph_nodes: dict[int, int] = {}
    for step in steps:
        totals = {g: GroupTotal() for g in GROUPS}
        nodes = graph_regions(step, manifest)
        graph_nodes.update(nodes)
        for launch in step.launches:
            info = infos.get(launch.name)
            grouping = groupings.get(launch.name)
            if grouping is None:
                grouping = groupings[launch.name] = kernel_group(info)
            total = totals[grouping.group]
            total.launches += 1
            total.duration_ns += launch.duration_ns or 0.0
            bindings = launch_bindings(step, info, manifest)
            by_binding = rows.setdefault(launch.name, {})
            row = by_binding.get(tuple(bindings.items()))
            if row is None:
                row = by_binding[tuple(bindings.items())] = BindingRow(bindings, [], [])
                row.expected_grid = _expected_grid(info, step, bindings)
            if step.label not in row.steps:
                row.steps.append(step.label)
            row.launch_ids.append(launch.id)
            row.graph_launches += launch.id in nodes
            row.duration_ns += launch.duration_ns or 0.0
            if launch.grid is not None and launch.grid not in row.grids:
                row.grids.append(launch.grid)
        out_steps.append(
            StepLedger(
                name=step.name,
                index=step.index,
                seq_len=step.seq_len,
                batch=step.batch,
                tokens=step.tokens,
                total_len=step.total_len,
                launches=len(step.launches),
                duration_ns=step.duration_ns,
                groups={g: t for g, t in totals.items() if t.launches},
                graph_launches=len(nodes),
                graph_ns=sum(x.duration_ns or 0.0 for x in step.launches if x.id in nodes),
                cuda_graph=step.cuda_graph,
            )
        )
    kernels = []
    for name, by_binding in rows.items():
        for row in by_binding.values():
            row.flag = _grid_flag(row, infos.get(name))
        grouping = groupings[name]
        kernels.append(KernelLedger(name, grouping.group, grouping.why, list(by_binding.values())))
    kernels.sort(key=lambda k: -k.duration_ns)
    return Ledger(report, workspace.path, out_steps, kernels, graph_nodes)


def graph_regions(step: StepLaunches, manifest: Manifest) -> dict[int, int]:
    """The launches of ``step`` that ran as CUDA graph nodes (launch ID -> region), from the
    build's IR (see the module's docstring); none in a build without graphs."""
    function = _function(manifest, step.name)
    if function is None or not function.graphs:
        return {}
    regions: dict[str, list[int | None]] = {}
    for prim, region in zip(function.calls, function.call_graphs, strict=False):
        regions.setdefault(prim, []).append(region)
    infos = {k.name: k for k in manifest.kernels}
    seen: dict[str, int] = {}
    out: dict[int, int] = {}
    for launch in step.launches:
        info = infos.get(launch.name)
        if info is None or info.primfunc not in regions:
            continue  # not a call of the step function's own (embed's, the KV cache's)
        k = seen.get(launch.name, 0)
        seen[launch.name] = k + 1
        region = regions[info.primfunc][k] if k < len(regions[info.primfunc]) else None
        if region is not None:
            out[launch.id] = region
    return out


def _function(manifest: Manifest, name: str) -> FunctionInfo | None:
    return next((f for f in manifest.functions if f.name == name), None)


def launch_bindings(
    step: StepLaunches, info: KernelInfo | None, manifest: Manifest
) -> dict[str, int]:
    """The symbolic values a launch of ``info`` in ``step`` ran at: the variables of the
    function that launched it (the step's own, or ``embed`` making the step's input) as the
    runner bound them, and for a kernel the KV cache launches, the tokens the cache held after
    the step (``cached``)."""
    out: dict[str, int] = {}
    function = _function(manifest, _launcher(step.name, info))
    if function is not None:
        out.update(_function_bindings(function, step))
    elif step.seq_len is not None:
        out["seq_len"] = step.seq_len
    if step.batch is not None and step.batch != 1 and "batch_size" not in out:
        out["batch"] = step.batch
    if info is not None and _runtime_role(info) and step.total_len is not None:
        out["cached"] = step.total_len
    return out


def _launcher(step: str, info: KernelInfo | None) -> str:
    """The function whose call in ``step`` launched ``info``: the step's own if it launches
    the kernel (or nothing says), else the first that does (``embed``, called by the runner
    for the step's input)."""
    functions = [s.function for s in info.launched_by] if info is not None else []
    return step if not functions or step in functions else functions[0]


def _function_bindings(function: FunctionInfo, step: StepLaunches) -> dict[str, int]:
    """The runner's sizing of the step function's first input (``runner.steps``): a symbolic
    batch dimension is the sequences, a symbolic token dimension the tokens a call takes
    (all of the step's when the batch dimension is 1: the sequences packed one after the
    other)."""
    tensors = [p for p in function.params if p.kind == "tensor" and len(p.shape) >= 2]
    if not tensors or step.batch is None or step.seq_len is None:
        return {}
    first, second = tensors[0].shape[:2]
    out: dict[str, int] = {}
    if isinstance(first, str):
        out[first] = step.batch
    if isinstance(second, str):
        out[second] = step.seq_len if first != 1 else step.batch * step.seq_len
    return out


def _runtime_role(info: KernelInfo) -> str:
    return next((s.role for s in info.launched_by if s.via != "call_tir" and s.role), "")


def _expected_grid(
    info: KernelInfo | None, step: StepLaunches, bindings: dict[str, int]
) -> Dim3 | None:
    """The grid ``info.grid_expr`` gives at ``bindings`` (``info.grid`` when every extent is a
    number); for a runtime-launched kernel, its variables are the runtime's own (``B``,
    ``ntoken``), bound to what they count. None when
    one of its variables has no value, or the runtime sizes a kernel the manifest gives
    numbers for."""
    if info is None:
        return None
    role = _runtime_role(info)
    if not info.grid_expr:  # a grid of numbers: the launches of the build's own calls have it
        return (info.grid[0], info.grid[1], info.grid[2]) if not role and all(info.grid) else None
    if role:
        counted = step.batch if _ROLE_GRID.get(role) == "batch" else step.tokens
        if counted is None:
            return None
        values: dict[str, int] | int = counted
    else:
        values = bindings
    grid = [evaluate_extent(e, values) for e in info.grid_expr]
    if any(g is None for g in grid) or len(grid) != 3:
        return None
    return (int(grid[0] or 0), int(grid[1] or 0), int(grid[2] or 0))


def _grid_flag(row: BindingRow, info: KernelInfo | None) -> str:
    expected = row.expected_grid
    if expected is None or not row.grids or row.grids == [expected]:
        return ""
    recorded = ", ".join("x".join(str(d) for d in g) for g in row.grids)
    written = "x".join(info.grid_expr) if info is not None else "?"
    return (
        f"grid {recorded} recorded, the build's {written} gives "
        f"{'x'.join(str(d) for d in expected)}"
    )


_BINARY: dict[type[ast.operator], Callable[[int, int], int]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}


def evaluate_extent(text: str, values: dict[str, int] | int) -> int | None:
    """A grid extent as TVM wrote it (``(seq_len + 127) // 128``) at ``values`` (a variable's
    value by name, or one value for every variable); None for a variable without a value or
    an expression beyond integer arithmetic, min and max."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        return None

    def walk(node: ast.AST) -> int | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.Name):
            return values if isinstance(values, int) else values.get(node.id)
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            left, right = walk(node.left), walk(node.right)
            if left is None or right is None or (right == 0 and type(node.op) is not ast.Add):
                return None
            return _BINARY[type(node.op)](left, right)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in {"min", "max", "T.min", "T.max"}
            and not node.keywords
        ):
            args = [walk(a) for a in node.args]
            if not args or any(a is None for a in args):
                return None
            pick = min if node.func.id.endswith("min") else max
            return pick(a for a in args if a is not None)
        return None

    return walk(tree.body)


# ---- which report -------------------------------------------------------------------------------
def stepped_reports(workspace: Workspace) -> list[Path]:
    """The reports attached to ``workspace`` that were profiled step by step, oldest first."""
    return [p for p in workspace.profiles() if steps_path(p).is_file()]


def workspace_stepped_reports(path: Path) -> tuple[list[Path], Workspace]:
    """The workspace at ``path`` and its reports profiled step by step (oldest first), or
    why there are none and how to make one."""
    ws = Workspace.open(path)
    reports = stepped_reports(ws)
    if not reports:
        raise KernelscopeError(
            f"{path} has no report profiled step by step", hint=PROFILE_WITH_STEPS.format(ws=path)
        )
    return reports, ws


def ledger_input(path: Path, workspace: Path | None = None) -> tuple[Path, Workspace]:
    """The report and workspace ``kernelscope steps PATH [-w WS]`` means: a workspace's newest
    report with steps, or a report (its workspace: ``-w``, else the one it sits in)."""
    if path.is_dir():
        reports, ws = workspace_stepped_reports(path)
        return reports[-1], ws
    if not path.is_file():
        raise KernelscopeError(f"{path}: no such report or workspace")
    if workspace is None:
        folder = path.resolve().parent
        if folder.name == PROFILES and (folder.parent / MANIFEST).is_file():
            workspace = folder.parent
    if workspace is None:
        raise KernelscopeError(
            f"the step ledger of {path.name} needs the workspace it was profiled from "
            "(its operators and symbolic shapes)",
            hint="pass -w WORKSPACE; to profile with steps: "
            + PROFILE_WITH_STEPS.format(ws="WORKSPACE"),
        )
    return path, Workspace.open(workspace)


def group_shares(steps: Sequence[StepLedger]) -> dict[str, float]:
    """Each group's share of the steps' time together (0-1), in ``GROUPS`` order."""
    total = sum(s.duration_ns for s in steps)
    out: dict[str, float] = {}
    for g in GROUPS:
        ns = sum(s.groups[g].duration_ns for s in steps if g in s.groups)
        if ns:
            out[g] = ns / total if total else 0.0
    return out
