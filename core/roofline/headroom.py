"""The headroom list: per kernel, the time it took, the time the roofline allows for the work
it did, the time its operators need, and how many microseconds the model could save.

* *measured*: the kernel's launches' durations, summed;
* *roofline*: ``max(FLOPs / peak, bytes / bandwidth)`` over the work and traffic the counters
  measured (``model.RooflinePoint.roofline_time_ns``): what a perfect schedule of *this*
  kernel's instructions would take;
* *operator*: ``max(FLOPs / peak, minimal bytes / DRAM bandwidth)`` from the analytic cost of
  the fused Relax operators (``opcost``) or, for the KV cache's kernels (attention, rope,
  append, merge), of their role (``attention_cost``), summed over the launches: what the
  operators themselves need, whatever the schedule. Each launch is costed at the symbolic
  values of the step it ran in (a report with steps: ``seq_len``, ``batch_size``, the cached
  tokens), else at the build's ``--shape`` bindings where those suffice;
* *savings* = measured − operator (measured − roofline when the operators cannot be costed).

Sorted by savings, so the first rows are where tuning or a better schedule pays most.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from ..errors import KernelscopeError
from ..formatting import format_us
from ..ncu import Profile, StepLaunches
from ..ncu.ledger import launch_bindings
from ..workspace import KernelInfo, Workspace, never_launched_why
from .attention_cost import KVLayout, StepSizes, attention_cost, build_sizes, kv_role
from .model import Ceilings, Roofline, roofline
from .opcost import NO_SHAPES, RUN_NO_SHAPES, KernelCost, OpCost, kernel_cost

_TENSOR_PATH = {
    "float16": "fp16",
    "bfloat16": "bf16_dst_fp32",
    "int8": "int8",
    "float8_e4m3fn": "fp8_sparsity_off",
    "float8_e5m2": "fp8_sparsity_off",
}
_PRECISION = {"float64": "fp64", "float16": "fp16", "bfloat16": "fp16"}
# Below this, a kernel's time is mostly launch and tail latency (the shortest kernels in the
# H200 fixtures take 2.4 us): no schedule removes that, fusing the kernel into another does.
SHORT_KERNEL_NS = 4000.0


@dataclass
class HeadroomRow:
    kernel: str
    launches: int
    ops: list[str]  # each fused operator with its shapes
    measured_ns: float
    roofline_ns: float | None
    operator_ns: float | None
    savings_ns: float
    bound: str = ""  # what limits the measured work on the roofline (compute, dram, l2, l1)
    operator_bound: str = ""  # "compute" or "memory" for the operators' own needs
    flops: float | None = None  # measured floating-point operations (all launches)
    operator_flops: float | None = None
    operator_bytes: float | None = None
    launched: bool = True
    note: str = ""  # why a column is empty

    @property
    def savings_us(self) -> float:
        return self.savings_ns / 1000


@dataclass
class Headroom:
    rows: list[HeadroomRow]  # most savings first; kernels never launched last
    ceilings: Ceilings
    measured_ns: float
    notes: list[str] = field(default_factory=list)

    @property
    def savings_ns(self) -> float:
        return sum(r.savings_ns for r in self.rows)

    def summary(self) -> str:
        """The total in words, saying what it is measured against (the CLI and the window):
        the operator-bound ideal, which no schedule reaches, so the savings are an upper
        bound, not a forecast."""
        launched = [r for r in self.rows if r.launched]
        if not launched:
            return "no launched kernel has a time"
        costed = sum(1 for r in launched if r.operator_ns is not None)
        ideal = (
            "the roofline time of the work each kernel did"
            if not costed
            else "the operator-bound ideal: each kernel's operators at the GPU's peak FLOP "
            "rate or moving their minimal bytes at DRAM bandwidth, whichever takes longer"
            + (
                ""
                if costed == len(launched)
                else " (the roofline time where they cannot be costed)"
            )
        )
        return (
            f"{format_us(self.savings_ns)} of {format_us(self.measured_ns)} µs measured is "
            f"above {ideal} ({format_us(self.measured_ns - self.savings_ns)} µs in all): an "
            f"upper bound on what tuning could save, since no schedule reaches it "
            f"({len(launched)} kernels)"
        )

    def to_json(self) -> dict:
        return {
            "ceilings": self.ceilings.to_json(),
            "measured_ns": self.measured_ns,
            "savings_ns": self.savings_ns,
            "notes": self.notes,
            "kernels": [asdict(r) for r in self.rows],
        }


def _op_peak(op: OpCost, ceilings: Ceilings) -> float | None:
    if op.uses_tensor_cores:
        path = _TENSOR_PATH.get(op.dtype)
        if path in ceilings.tensor:
            return ceilings.tensor[path]
    return ceilings.peak_for(_PRECISION.get(op.dtype, "fp32"))


def operator_time_ns(cost: KernelCost, ceilings: Ceilings) -> tuple[float | None, str]:
    """One launch's operator time and whether compute or memory bounds it."""
    if not cost.known:
        return None, ""
    compute = 0.0
    for op in cost.ops:
        if not op.flops:
            continue
        peak = _op_peak(op, ceilings)
        if not peak:
            return None, ""
        compute += op.flops / peak
    bandwidth = ceilings.bandwidth.get("dram")
    if not bandwidth:
        return None, ""
    memory = cost.bytes / bandwidth
    return max(compute, memory) * 1e9, "compute" if compute > memory else "memory"


def operator_bound_us(workspace: Workspace, ceilings: Ceilings) -> dict[str, float]:
    """Each launched kernel's operator time (µs, one launch) at ``ceilings``, where its
    operators can be costed at the build's bindings: what its fused operators need whatever
    the schedule, the estimate of a kernel's time when nothing was measured."""
    out = {}
    manifest = workspace.manifest
    layout = KVLayout.of(manifest.kernels)
    for info in manifest.kernels:
        if info.launched:
            cost = kernel_cost(info, bindings=manifest.symbols)
            if kv_role(info):
                functions = {s.function for s in info.launched_by}
                sizes = (
                    build_sizes(manifest, functions.pop()) if len(functions) == 1 else StepSizes()
                )
                cost = attention_cost(info, layout, sizes)
            once, _bound = operator_time_ns(cost, ceilings)
            if once is not None:
                out[info.name] = once / 1000
    return out


class _LaunchCosts:
    """Kernels costed per launch, at the symbolic values of the step each launch ran in (a
    report with steps), else at the build's bindings: the KV cache's kernels from their role
    and page layout (``attention_cost``), the others from their operators (``kernel_cost``)."""

    def __init__(self, profile: Profile, workspace: Workspace, no_shapes: str) -> None:
        self.manifest = workspace.manifest
        self.no_shapes = no_shapes
        self.layout = KVLayout.of(self.manifest.kernels)
        self.step_of: dict[int, StepLaunches] = {}
        self.note = ""
        if profile.step_markers:
            from ..ncu import report_steps

            try:
                steps = report_steps(profile, workspace.path)
            except KernelscopeError as exc:  # the step list is missing: lengths unknown
                self.note = f"every launch costed at the build's bindings: {exc.message}"
                steps = []
            for step in steps:
                for launch in step.launches:
                    self.step_of[launch.id] = step

    def _sizes(self, step: StepLaunches) -> StepSizes:
        tokens = (
            step.batch * step.seq_len
            if step.batch is not None and step.seq_len is not None
            else None
        )
        return StepSizes(step.batch, tokens, step.total_len)

    def launch_costs(self, info: KernelInfo, launch_ids: list[int]) -> list[KernelCost]:
        if not kv_role(info):
            costs = {}  # launches at the same bindings cost the same
            out = []
            for i in launch_ids:
                step = self.step_of.get(i)
                values = (
                    launch_bindings(step, info, self.manifest)
                    if step is not None
                    else self.manifest.symbols
                )
                key = tuple(sorted(values.items()))
                if key not in costs:
                    costs[key] = kernel_cost(info, self.no_shapes, values)
                out.append(costs[key])
            return out
        functions = {s.function for s in info.launched_by}
        fallback = (
            build_sizes(self.manifest, next(iter(functions)))
            if len(functions) == 1
            else StepSizes()
        )
        if not self.step_of and len(functions) > 1:
            why = (
                f"launched by {' and '.join(sorted(functions))}: which launch is which needs "
                "a report with steps (kernelscope profile WS --steps ... --profile-steps ...)"
            )
            return [KernelCost(info.name, [], 0.0, 0.0, "", why=why)]
        return [
            attention_cost(
                info, self.layout, self._sizes(s) if (s := self.step_of.get(i)) else fallback
            )
            for i in launch_ids
        ]

    def time_ns(
        self, info: KernelInfo, launch_ids: list[int], ceilings: Ceilings
    ) -> tuple[KernelCost, float | None, str]:
        """The first launch's cost (what the row shows) and all launches' operator time."""
        costs = self.launch_costs(info, launch_ids)
        unknown = next((c for c in costs if not c.known), None)
        if unknown is not None:
            return unknown, None, ""
        total = 0.0
        bound = ""
        for cost in costs:
            once, bound = operator_time_ns(cost, ceilings)
            if once is None:
                return cost, None, ""
            total += once
        summed = KernelCost(
            info.name,
            costs[0].ops,
            sum(c.flops for c in costs),
            sum(c.bytes for c in costs),
            costs[0].dtype,
            unknown=costs[0].unknown,
        )
        return summed, total, bound


def headroom(
    profile: Profile, workspace: Workspace | None = None, roof: Roofline | None = None
) -> Headroom:
    roof = roof or roofline(profile)
    infos: dict[str, KernelInfo] = (
        {k.name: k for k in workspace.manifest.kernels} if workspace is not None else {}
    )
    notes = []
    if roof.note:
        notes.append(roof.note)
    # a torch.compile run's workspace is in kernelscope's cache: the run folder is what to name
    run = workspace.manifest.torch_compile_run if workspace is not None else None
    no_shapes = NO_SHAPES if run is None else RUN_NO_SHAPES
    symbols = workspace.manifest.symbols if workspace is not None else {}
    if workspace is None:
        notes.append(
            "no workspace given (-w): the operator column needs the build's manifest "
            "(the fused Relax operators and their shapes)"
        )
    elif not any(kernel_cost(k, no_shapes, symbols).known for k in infos.values()):
        where = run or workspace.path
        notes.append(
            f"{where}: {kernel_cost(next(iter(infos.values())), no_shapes, symbols).why}"
            if infos
            else f"{where}: the manifest lists no kernels"
        )
    if roof.ceilings.source == "device attributes":
        notes.append(
            "ceilings from device attributes (DRAM bandwidth, FP32 peak): the profile has no "
            "roofline sections"
        )
    kv = _LaunchCosts(profile, workspace, no_shapes) if workspace is not None else None
    if kv is not None and kv.note:
        notes.append(kv.note)
    rows: list[HeadroomRow] = []
    for point in roof.points:
        k = profile.kernel(point.kernel)
        info = infos.get(point.kernel)
        row = HeadroomRow(
            kernel=point.kernel,
            launches=len(k.launches),
            ops=[],
            measured_ns=point.duration_ns,
            roofline_ns=point.roofline_time_ns,
            operator_ns=None,
            savings_ns=0.0,
            bound=point.bound if not point.missing else "",
            flops=point.total_flops if not point.missing else None,
        )
        notes_row = []
        if info is None:
            if workspace is not None:
                notes_row.append("not in the workspace's manifest (another build?)")
        elif kv is not None:
            cost, total, row.operator_bound = kv.time_ns(
                info, [x.id for x in k.launches], roof.ceilings
            )
            row.ops = [o.shapes for o in cost.ops] + [f"{u} (no cost model)" for u in cost.unknown]
            if total is not None:
                row.operator_ns = total
                row.operator_flops = cost.flops
                row.operator_bytes = cost.bytes
            elif cost.why:
                if cost.why != RUN_NO_SHAPES:  # a run's: said once, in the notes
                    notes_row.append(cost.why)
            else:
                notes_row.append("no ceilings to turn the operators' cost into time")
            if cost.unknown and cost.known:
                notes_row.append(f"not costed: {', '.join(cost.unknown)}")
        target = row.operator_ns if row.operator_ns is not None else row.roofline_ns
        if target is not None:
            row.savings_ns = max(0.0, row.measured_ns - target)
            if row.operator_ns is not None and row.measured_ns < row.operator_ns:
                notes_row.append("faster than the DRAM bound: its data came from L2")
        if row.operator_ns is None and row.roofline_ns is not None:
            notes_row.append("savings from the roofline time")
        if row.measured_ns / max(row.launches, 1) < SHORT_KERNEL_NS:
            notes_row.append(
                "short kernel: mostly launch latency, which fusing it into a neighbour removes"
            )
        row.note = "; ".join(notes_row)
        rows.append(row)
    profiled = {r.kernel for r in rows}
    for info in infos.values():
        if info.name in profiled:
            continue
        why = (
            f"never launched: {never_launched_why(info.about)}"
            if not info.launched
            else "not in the profile"
        )
        rows.append(
            HeadroomRow(
                kernel=info.name,
                launches=0,
                ops=[o.shapes for o in kernel_cost(info, bindings=symbols).ops],
                measured_ns=0.0,
                roofline_ns=None,
                operator_ns=None,
                savings_ns=0.0,
                launched=False,
                note=why,
            )
        )
    rows.sort(key=lambda r: (not r.launched, -r.savings_ns, -r.measured_ns, r.kernel))
    return Headroom(
        rows=rows,
        ceilings=roof.ceilings,
        measured_ns=sum(p.duration_ns for p in roof.points),
        notes=notes,
    )
