"""TVM against Inductor on the same model: kernels matched by the operators they implement.

Both compilers fuse, differently, so kernels are not matched one to one but put into operator
groups: each kernel goes to the first group (in ``GROUPS`` order) one of its operators belongs
to, a TVM kernel by the Relax operators of its manifest, an Inductor kernel by the ATen
operators Inductor says it fuses (a library kernel by its extern call: ``mm`` is a matmul).
Per group: both compilers' kernels, their summed time over one forward pass as each report
measured it, and the faster one. ``operator_group`` is the one classification.

What a group holds differs where the compilers place work differently, and the table says so
rather than hiding it: Inductor adds a linear layer's bias in a Triton kernel after cuBLAS's
GEMM (ATen's ``addmm`` split in two; that kernel counts by what else it does, see
``triton_group``), and keeps eval-mode batch norm as
its own elementwise kernels where an ONNX export folds it into the convolution's weights.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import KernelscopeError
from ..ncu import Profile
from ..workspace import Workspace
from .launches import tie_launches
from .run_folder import InductorRun, is_run_folder, open_run

# group -> operator names (normalised: no "relax."/"aten." prefix, no leading "_", no overload)
GROUPS: dict[str, frozenset[str]] = {
    "conv2d": frozenset({"nn.conv2d", "conv2d", "convolution", "cudnn_convolution"}),
    "matmul": frozenset(
        {"matmul", "nn.dense", "linear", "mm", "addmm", "bmm", "baddbmm", "permute_matmul"}
    ),
    "attention": frozenset(
        {
            "scaled_dot_product_flash_attention",
            "scaled_dot_product_efficient_attention",
            "scaled_dot_product_cudnn_attention",
            "nn.attention",
        }
    ),  # fmt: skip
    "softmax": frozenset({"nn.softmax", "softmax", "log_softmax", "nn.log_softmax"}),
    "layer_norm": frozenset({"nn.layer_norm", "native_layer_norm", "layer_norm"}),
    "pool": frozenset(
        {
            "nn.max_pool2d",
            "nn.avg_pool2d",
            "nn.adaptive_avg_pool2d",
            "max_pool2d_with_indices",
            "avg_pool2d",
            "adaptive_avg_pool2d",
            "mean",
        }
    ),  # fmt: skip
    "batch_norm": frozenset(
        {"nn.batch_norm", "native_batch_norm_legit_no_training", "native_batch_norm", "batch_norm"}
    ),
    "elementwise": frozenset(
        {
            "add",
            "multiply",
            "mul",
            "subtract",
            "sub",
            "divide",
            "div",
            "nn.relu",
            "relu",
            "nn.gelu",
            "gelu",
            "tanh",
            "sigmoid",
            "exp",
            "rsqrt",
            "sqrt",
            "erf",
            "where",
            "clip",
            "clamp",
            "maximum",
            "minimum",
            "power",
            "pow",
            "amax",
            "sum",
            "max",
        }
    ),  # fmt: skip
    "layout": frozenset(
        {
            "reshape",
            "view",
            "permute_dims",
            "permute",
            "transpose",
            "split",
            "select",
            "clone",
            "expand",
            "squeeze",
            "unsqueeze",
            "expand_dims",
            "concat",
            "cat",
            "slice",
            "t",
            "strided_slice",
            "unsafe_view",
            "flatten",
            "copy",
            "contiguous",
        }
    ),  # fmt: skip
}
OTHER = "other"


def normalise(op: str) -> str:
    """``relax.nn.conv2d`` -> ``nn.conv2d``, ``aten._softmax.default`` -> ``softmax``."""
    for prefix in ("relax.", "aten.", "torch.ops.aten.", "extern_kernels."):
        if op.startswith(prefix):
            op = op[len(prefix) :]
    head, _, tail = op.rpartition(".")
    if head and tail in ("default", "Tensor", "Scalar", "int", "out", "self"):
        op = head
    return op.lstrip("_")


def operator_group(ops: Iterable[str]) -> str:
    """The group of a kernel fusing ``ops``: the first of ``GROUPS`` one of them is in."""
    names = {normalise(o) for o in ops}
    for group, members in GROUPS.items():
        if names & members:
            return group
    return OTHER


_LIBRARY_OPS = GROUPS["conv2d"] | GROUPS["matmul"]


def triton_group(aten: Sequence[str]) -> str:
    """The group of an Inductor Triton kernel (not a template). Its ATen list names the
    GEMM or convolution whose output it finishes (``addmm``: the bias add after cuBLAS's
    ``mm``), which ran in the library: the kernel counts by what it does itself, and only a
    kernel doing nothing else (a layout copy for a convolution) by that operator."""
    own = [a for a in aten if normalise(a) not in _LIBRARY_OPS]
    return operator_group(own) if own else operator_group(aten)


@dataclass
class Side:
    """One compiler's kernels of a group: (kernel name, time in ns) per launch."""

    launches: list[tuple[str, float]] = field(default_factory=list)

    @property
    def time_ns(self) -> float:
        return sum(t for _, t in self.launches)

    @property
    def kernels(self) -> list[str]:
        return list(dict.fromkeys(n for n, _ in self.launches))

    def slowest(self) -> str | None:
        """The kernel with the most time in the group (the one to look at first)."""
        per: dict[str, float] = {}
        for n, t in self.launches:
            per[n] = per.get(n, 0.0) + t
        return max(per, key=lambda n: per[n]) if per else None


@dataclass
class GroupRow:
    group: str
    tvm: Side
    inductor: Side

    @property
    def winner(self) -> str:
        """ "TVM", "Inductor", "-" (one side has none) or "tie" (within 3 %)."""
        a, b = self.tvm.time_ns, self.inductor.time_ns
        if not self.tvm.launches or not self.inductor.launches:
            return "-"
        if abs(a - b) <= 0.03 * max(a, b):
            return "tie"
        return "TVM" if a < b else "Inductor"

    @property
    def ratio(self) -> float | None:
        """The slower side's time over the faster one's."""
        a, b = self.tvm.time_ns, self.inductor.time_ns
        if a <= 0 or b <= 0:
            return None
        return max(a, b) / min(a, b)


@dataclass
class Versus:
    tvm_workspace: Workspace
    tvm_report: str
    run: InductorRun
    inductor_report: str
    rows: list[GroupRow]
    notes: list[str]

    @property
    def tvm_total_ns(self) -> float:
        return sum(r.tvm.time_ns for r in self.rows)

    @property
    def inductor_total_ns(self) -> float:
        return sum(r.inductor.time_ns for r in self.rows)


def versus_tvm(
    ws: Workspace, tvm_profile: Profile, run: InductorRun, inductor_profile: Profile
) -> Versus:
    """The per-group table of a TVM workspace's profile against a torch.compile run's."""
    rows: dict[str, GroupRow] = {g: GroupRow(g, Side(), Side()) for g in [*GROUPS, OTHER]}
    notes: list[str] = []
    ops = {k.name: [o.op for o in k.ops] for k in ws.manifest.kernels}
    for launch in tvm_profile.launches:
        group = operator_group(ops.get(launch.name, ()))
        rows[group].tvm.launches.append((launch.name, launch.duration_ns or 0.0))
    untied = 0
    templates = {k.name for k in run.kernels if k.kind == "template"}
    for tied in tie_launches(run, inductor_profile):
        if tied.call is None:
            untied += 1
        if not tied.triton:
            group = operator_group((tied.operator, *tied.aten))
        elif tied.name in templates:
            group = operator_group(tied.aten)
        else:
            group = triton_group(tied.aten)
        rows[group].inductor.launches.append((tied.name, tied.duration_ns or 0.0))
    if untied:
        notes.append(
            f"{untied} launches of the Inductor report are not in this run's wrapper: "
            "counted under 'other' (a report of another compile?)"
        )
    if rows["batch_norm"].inductor.launches and not rows["batch_norm"].tvm.launches:
        notes.append(
            "batch_norm: Inductor runs eval-mode batch norm (with the ReLU and residual add "
            "after it) as Triton kernels; the ONNX model TVM built has it folded into the "
            "convolutions' weights"
        )
    if any("aten.addmm" in k.aten for k in run.kernels) and rows["matmul"].inductor.launches:
        notes.append(
            "matmul: Inductor's linear layers are a cuBLAS GEMM and a Triton kernel that adds "
            "the bias (with what follows: GELU, the residual, a layer norm), counted by what "
            "it does; TVM fuses the bias and activation into its GEMM kernel"
        )
    tf32 = sorted({n for r in rows.values() for n, _ in r.inductor.launches if "tf32" in n})
    if tf32:
        notes.append(
            f"{len(tf32)} of Inductor's library kernels compute in TF32 on tensor cores "
            "(PyTorch allows TF32 for cuDNN convolutions by default; "
            "torch.backends.cudnn.allow_tf32 = False makes them FP32): "
            "TVM's kernels here compute in FP32"
        )
    if tvm_profile.step_markers or inductor_profile.step_markers:
        notes.append(
            "the reports were profiled step by step: this table sums every step each one "
            "profiled; kernelscope diff WS RUN --steps compares them step by step"
        )
    kept = [r for r in rows.values() if r.tvm.launches or r.inductor.launches]
    return Versus(ws, str(tvm_profile.name), run, str(inductor_profile.name), kept, notes)


def format_versus(v: Versus) -> list[list[str]]:
    """The table's rows as text cells: group, TVM kernels, TVM µs, Inductor kernels,
    Inductor µs, winner (with the ratio)."""
    cells = []
    for r in v.rows:
        ratio = f" {r.ratio:.2f}x" if r.ratio is not None and r.winner not in ("-", "tie") else ""
        cells.append(
            [
                r.group,
                str(len(r.tvm.launches)),
                f"{r.tvm.time_ns / 1000:.1f}",
                str(len(r.inductor.launches)),
                f"{r.inductor.time_ns / 1000:.1f}",
                r.winner + ratio,
            ]
        )
    cells.append(
        [
            "total",
            str(sum(len(r.tvm.launches) for r in v.rows)),
            f"{v.tvm_total_ns / 1000:.1f}",
            str(sum(len(r.inductor.launches) for r in v.rows)),
            f"{v.inductor_total_ns / 1000:.1f}",
            _total_winner(v),
        ]
    )
    return cells


def _total_winner(v: Versus) -> str:
    a, b = v.tvm_total_ns, v.inductor_total_ns
    if a <= 0 or b <= 0:
        return "-"
    return ("TVM" if a < b else "Inductor") + f" {max(a, b) / min(a, b):.2f}x"


VERSUS_HEADER: Sequence[str] = (
    "group",
    "TVM kernels",
    "TVM µs",
    "Inductor kernels",
    "Inductor µs",
    "winner",
)


def open_versus(first: Path, second: Path) -> Versus:
    """I/O: ``versus_tvm`` of a TVM workspace and a torch.compile run folder (either order),
    each with its newest report."""
    from .derived import run_workspace

    if is_run_folder(first) and not is_run_folder(second):
        first, second = second, first
    ws = Workspace.open(first)
    run = open_run(second)
    tvm_reports = ws.profiles()
    if not tvm_reports:
        raise KernelscopeError(
            f"{first} has no profile to compare",
            hint=f"profile it first: kernelscope profile {first}",
        )
    if run.report is None:
        raise KernelscopeError(
            f"{second} holds no Nsight Compute report to compare",
            hint="profile the compiled model's steady-state call into that folder: "
            "ncu --import-source yes -o RUN/profile python MODEL.py",
        )
    derived = run_workspace(run)
    return versus_tvm(
        ws,
        Profile.open(tvm_reports[-1], workspace=ws),
        run,
        Profile.open(run.report, workspace=derived),
    )


def versus_pair(shown: Path | None, chosen: Path) -> Versus | None:
    """I/O: the TVM-against-Inductor table when the workspace shown (a TVM workspace, or a run
    folder's workspace) and the folder chosen to compare with are one of each; None when
    they are not (an ordinary comparison of two profiles)."""
    from .derived import run_of

    if shown is None:
        return None
    if chosen.is_file() and is_run_folder(chosen.parent):  # the run's report: the run
        chosen = chosen.parent
    shown_run = run_of(shown)
    if shown_run is not None and not is_run_folder(chosen) and (chosen / "manifest.json").is_file():
        return open_versus(chosen, shown_run)
    if shown_run is None and is_run_folder(chosen):
        return open_versus(shown, chosen)
    return None
