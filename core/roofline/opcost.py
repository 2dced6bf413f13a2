"""What a TVM operator costs by itself: floating-point operations and the minimal bytes, from
the Relax operators, attributes and shapes a workspace's manifest records for each kernel.

Conventions (hand-checkable, see tests/roofline/test_roofline_opcost.py):

* a multiply-add is 2 FLOPs; ``matmul`` of ``[..., M, K] @ [..., K, N]`` is ``2·M·N·K`` per
  batch element of the (broadcast) output;
* ``conv{1,2,3}d``: ``2 · output elements · (input channels / groups) · kernel window``,
  read layout-free as ``2 · |output| · |weight| / out_channels``; ``conv*_transpose``:
  ``2 · |input| · |weight| / in_channels``;
* pooling: one operation per window element per output (``|output| · window``); global and
  adaptive pooling: one per input element;
* reductions (sum, mean, max, min, prod, variance, std, argmax...): one per input element
  (variance and std: three);
* ``softmax``: 5 per element (max, subtract, exp, sum, divide); ``layer_norm``/``group_norm``/
  ``rms_norm``/``batch_norm``: 8, 8, 4, 2 per element;
* element-wise: one per output element (a transcendental counts as one), sigmoid 4, gelu 8,
  silu 5; data movement (reshape, permute_dims, take, concat, cast...) does none.

Minimal bytes of an operator: every input read once and the output written once (a gather,
``take`` or a copy, reads only the elements it writes: one row of an embedding table per
token). Minimal
bytes of a fused kernel: its tensor parameters (what it reads and writes) once each; the
intermediates of fused operators never leave the chip.

Symbolic dimensions (``seq_len``, ``batch_size`` of an LLM's functions) are costed at the
values a launch ran at (``bindings``: a step of a stepped report, else the build's
``--shape`` bindings); a kernel whose shapes keep an unbound symbol says which.

Measured FLOPs (Nsight Compute's FADD/FMUL/FFMA counters) differ from these by design:
compares and max/min (``relu``, ``max_pool``) are FMNMX, not counted; exp/rsqrt run on the
MUFU pipe plus a few FMULs; TVM's GEMM schedules pad M, N and K to tile multiples
(``reindex_pad``) and multiply the zeros too.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from ..workspace import KernelInfo, OpInfo, TensorInfo

_DTYPE_BYTES = {
    "float64": 8,
    "float32": 4,
    "float16": 2,
    "bfloat16": 2,
    "float8_e4m3fn": 1,
    "float8_e5m2": 1,
    "int64": 8,
    "int32": 4,
    "int16": 2,
    "int8": 1,
    "uint8": 1,
    "uint32": 4,
    "bool": 1,
}

MOVEMENT = frozenset(
    {
        "reshape",
        "permute_dims",
        "transpose",
        "take",
        "expand_dims",
        "squeeze",
        "concat",
        "split",
        "strided_slice",
        "dynamic_strided_slice",
        "broadcast_to",
        "astype",
        "flatten",
        "tile",
        "repeat",
        "gather_elements",
        "gather_nd",
        "scatter_elements",
        "scatter_nd",
        "flip",
        "layout_transform",
        "zeros",
        "ones",
        "full",
        "zeros_like",
        "ones_like",
        "full_like",
        "arange",
        "tril",
        "triu",
        "one_hot",
        "pad",
        "wrap_param",
        "copy",  # a PrimFunc that only copies elements (core.build.tir_ops.COPY)
    }
)
ELEMENTWISE_FLOPS = {
    "sigmoid": 4.0,
    "gelu": 8.0,
    "gelu_tanh": 10.0,
    "silu": 5.0,
    "softplus": 3.0,
    "leakyrelu": 2.0,
    "prelu": 2.0,
}
ELEMENTWISE = frozenset(
    {
        "add",
        "subtract",
        "multiply",
        "divide",
        "floor_divide",
        "power",
        "maximum",
        "minimum",
        "mod",
        "floor_mod",
        "relu",
        "relu6",
        "negative",
        "abs",
        "exp",
        "log",
        "sqrt",
        "rsqrt",
        "tanh",
        "sin",
        "cos",
        "erf",
        "clip",
        "where",
        "round",
        "floor",
        "ceil",
        "sign",
        "square",
        "equal",
        "not_equal",
        "less",
        "less_equal",
        "greater",
        "greater_equal",
        "logical_and",
        "logical_or",
        "logical_not",
        "isnan",
        "isinf",
        *ELEMENTWISE_FLOPS,
    }
)
REDUCTIONS = {
    "sum": 1.0,
    "mean": 1.0,
    "max": 1.0,
    "min": 1.0,
    "prod": 1.0,
    "argmax": 1.0,
    "argmin": 1.0,
    "variance": 3.0,
    "std": 3.0,
    "cumsum": 1.0,
    "cumprod": 1.0,
}
NORMS = {
    "softmax": 5.0,
    "log_softmax": 6.0,
    "layer_norm": 8.0,
    "group_norm": 8.0,
    "instance_norm": 8.0,
    "rms_norm": 4.0,
    "batch_norm": 2.0,
}


@dataclass
class OpCost:
    op: str  # the Relax operator, "relax.nn.conv2d"
    kind: str  # matmul, conv, pool, reduce, norm, elementwise, movement
    flops: float
    bytes: float  # inputs read once, output written once
    dtype: str  # of the output (the compute precision)
    shapes: str = ""  # "[8,3,56,56] x [32,3,3,3] -> [8,32,56,56]"

    @property
    def uses_tensor_cores(self) -> bool:
        """Could run on tensor cores: a matmul or convolution in 16 bits or narrower."""
        return self.kind in ("matmul", "conv") and self.dtype in (
            "float16",
            "bfloat16",
            "int8",
            "float8_e4m3fn",
            "float8_e5m2",
        )


@dataclass
class KernelCost:
    """A fused kernel's operators, their FLOPs summed, and the kernel's minimal bytes."""

    kernel: str
    ops: list[OpCost]
    flops: float
    bytes: float
    dtype: str
    unknown: list[str] = field(default_factory=list)  # operators kernelscope cannot cost
    why: str = ""  # why there is no cost (empty when there is one)

    @property
    def known(self) -> bool:
        return not self.why


def _volume(t: TensorInfo) -> float:
    """Elements of a tensor whose dimensions are known (the caller checked)."""
    return float(math.prod(int(d) for d in t.shape))


def numel(t: TensorInfo) -> int | None:
    """Elements of a tensor; None when a dimension is symbolic."""
    dims = [d for d in t.shape if isinstance(d, int) and d >= 0]
    return math.prod(dims) if len(dims) == len(t.shape) else None


def nbytes(t: TensorInfo) -> int | None:
    n = numel(t)
    size = _DTYPE_BYTES.get(t.dtype)
    return n * size if n is not None and size is not None else None


def _short(op: str) -> str:
    return op.removeprefix("relax.").split(".")[-1]


def _shape(t: TensorInfo) -> str:
    return "[" + ",".join(str(d) for d in t.shape) + "]"


def describe(op: OpInfo) -> str:
    """``matmul [512,256] x [256,256] -> [512,256]``."""
    ins = " x ".join(_shape(t) for t in op.inputs)
    out = f" -> {_shape(op.output)}" if op.output is not None else ""
    return f"{_short(op.op)} {ins}{out}".rstrip()


def _read_bytes(op: OpInfo, t: TensorInfo) -> int | None:
    """Bytes ``op`` must read of its input ``t``: all of it, but for a gather (``take``'s
    table, a copy's source) only as many elements as it writes."""
    name = _short(op.op)
    gathered = (name == "take" and op.inputs and t is op.inputs[0]) or name == "copy"
    full = nbytes(t)
    if not gathered or op.output is None or full is None:
        return full
    written = numel(op.output)
    size = _DTYPE_BYTES.get(t.dtype)
    return min(full, written * size) if written is not None and size is not None else full


def op_cost(op: OpInfo) -> OpCost | None:
    """The cost of one operator; None when its kind or its shapes are unknown."""
    name = _short(op.op)
    out = op.output
    if out is None and name in MOVEMENT and op.inputs:  # split: a tuple of its input's parts
        read = [nbytes(t) for t in op.inputs]
        if any(b is None for b in read):
            return None
        moved = 2.0 * sum(read)  # type: ignore[arg-type]
        return OpCost(op.op, "movement", 0.0, moved, op.inputs[0].dtype, describe(op))
    if out is None or numel(out) is None:
        return None
    ins = [t for t in op.inputs if numel(t) is not None]
    if len(ins) != len(op.inputs):
        return None
    in_bytes = [_read_bytes(op, t) for t in ins]
    out_bytes = nbytes(out)
    if out_bytes is None or any(b is None for b in in_bytes):
        return None
    moved = float(sum(in_bytes) + out_bytes)  # type: ignore[arg-type]
    n_out = float(numel(out) or 0)
    n_in = float(numel(ins[0]) or 0) if ins else 0.0
    kind, flops = _flops(name, op, ins, n_in, n_out)
    if kind is None:
        return None
    return OpCost(op.op, kind, flops, moved, out.dtype, describe(op))


def _flops(
    name: str, op: OpInfo, ins: Sequence[TensorInfo], n_in: float, n_out: float
) -> tuple[str | None, float]:
    attrs = op.attrs or {}
    if name in ("matmul", "dense", "linear") and len(ins) >= 2:
        a, b = ins[0].shape, ins[1].shape
        k = b[-1] if name != "matmul" else (a[-1] if a else 1)  # dense/linear: weight [N, K]
        return "matmul", 2.0 * n_out * float(k)
    if name.startswith("conv") and len(ins) >= 2:
        weight = ins[1]
        layout = str(attrs.get("kernel_layout") or "OIHW")
        if name.endswith("_transpose"):
            c = weight.shape[layout.index("I")] if "I" in layout else weight.shape[0]
            return "conv", 2.0 * n_in * _volume(weight) / float(c)
        o = weight.shape[layout.index("O")] if "O" in layout else weight.shape[0]
        return "conv", 2.0 * n_out * _volume(weight) / float(o)
    if "pool" in name:
        if name.startswith(("adaptive", "global")):
            return "pool", n_in
        window = math.prod(int(s) for s in attrs.get("pool_size") or [1])
        return "pool", n_out * window
    if name in REDUCTIONS:
        return "reduce", n_in * REDUCTIONS[name]
    if name in NORMS:
        return "norm", n_out * NORMS[name]
    if name in ELEMENTWISE:
        return "elementwise", n_out * ELEMENTWISE_FLOPS.get(name, 1.0)
    if name in MOVEMENT:
        return "movement", 0.0
    return None, 0.0


NO_SHAPES = (
    "the manifest has no operator shapes (a hand-made or older workspace); rebuild it with "
    "kernelscope build"
)
# A torch.compile run's workspace: Inductor's wrapper names each kernel's ATen operators only.
RUN_NO_SHAPES = "torch.compile names the ATen operators, not their shapes: no operator bound"


UNBOUND = (
    "its shapes depend on {names}, which nothing binds: profile with steps (kernelscope "
    "profile WS --steps prefill=128,decode=32 --profile-steps decode:0-3) or build with "
    "--shape {first}=N"
)


def bind(t: TensorInfo, values: Mapping[str, int]) -> TensorInfo:
    """``t`` with its symbolic dimensions that ``values`` names set."""
    if not values or all(isinstance(d, int) for d in t.shape):
        return t
    return replace(t, shape=[values.get(d, d) if isinstance(d, str) else d for d in t.shape])


def _bind_op(op: OpInfo, values: Mapping[str, int]) -> OpInfo:
    if not values:
        return op
    output = bind(op.output, values) if op.output is not None else None
    return replace(op, inputs=[bind(t, values) for t in op.inputs], output=output)


def unbound(info: KernelInfo, bindings: Mapping[str, int] | None = None) -> list[str]:
    """The symbolic dimensions of a kernel's operators ``bindings`` leaves without a value."""
    values = bindings or {}
    tensors = [t for o in info.ops for t in (*o.inputs, o.output) if t is not None]
    names = (d for t in tensors for d in t.shape if isinstance(d, str) and d not in values)
    return list(dict.fromkeys(names))


def kernel_cost(
    info: KernelInfo, no_shapes: str = NO_SHAPES, bindings: Mapping[str, int] | None = None
) -> KernelCost:
    """The operators fused into one kernel, costed at ``bindings`` (a value per symbolic
    dimension); ``why`` says what is missing (``no_shapes`` where the manifest lists
    operators without shapes, the symbols left unbound where there are some)."""
    if not info.ops:
        return KernelCost(info.name, [], 0.0, 0.0, "", why="the manifest lists no operators")
    if all(not o.inputs and o.output is None for o in info.ops):
        return KernelCost(
            info.name,
            [],
            0.0,
            0.0,
            "",
            why=no_shapes,
        )
    values = bindings or {}
    symbols = unbound(info, values)
    if symbols:
        why = UNBOUND.format(names=", ".join(symbols), first=symbols[0])
        return KernelCost(info.name, [], 0.0, 0.0, "", why=why)
    ops = [_bind_op(o, values) for o in info.ops]
    costs: list[OpCost] = []
    unknown: list[str] = []
    for op in ops:
        c = op_cost(op)
        if c is None:
            unknown.append(_short(op.op))
        else:
            costs.append(c)
    # the tensors it reads and writes; its scalar parameters (a symbolic size) move nothing
    tensors = [bind(t, values) for t in info.params if t.dtype]
    param_bytes = [nbytes(t) for t in tensors]
    if tensors and all(b is not None for b in param_bytes):
        moved = float(sum(param_bytes)) - _not_gathered(ops, tensors)  # type: ignore[arg-type]
    else:  # no usable parameter list: the first operator's inputs and the last one's output
        moved = costs[0].bytes if len(costs) == 1 else _fused_bytes(ops)
    dtype = next((c.dtype for c in reversed(costs) if c.kind != "movement"), "")
    dtype = dtype or (costs[-1].dtype if costs else "")
    why = ""
    if unknown and not costs:
        why = f"kernelscope has no cost model for {', '.join(dict.fromkeys(unknown))}"
    return KernelCost(
        info.name,
        costs,
        sum(c.flops for c in costs),
        moved,
        dtype,
        unknown=list(dict.fromkeys(unknown)),
        why=why,
    )


def _not_gathered(ops: Sequence[OpInfo], params: Sequence[TensorInfo]) -> float:
    """Bytes of the kernel's parameters that its gathers (an embedding's ``take``) leave
    unread: a decode step's embedding reads one row of the table, not the table."""
    left = 0.0
    shapes = [(t.shape, t.dtype) for t in params]
    for op in ops:
        for t in op.inputs:
            read, full = _read_bytes(op, t), nbytes(t)
            if read is not None and full is not None and (t.shape, t.dtype) in shapes:
                left += full - read
    return left


def _fused_bytes(ops: Sequence[OpInfo]) -> float:
    """Bytes of the tensors a chain of fused operators reads from outside and writes last:
    every input that is no earlier operator's output, plus the last output."""
    produced: list[tuple[list[int | str], str]] = []
    total = 0.0
    for op in ops:
        for t in op.inputs:
            key = (t.shape, t.dtype)
            if key in produced:
                produced.remove(key)
                continue
            total += nbytes(t) or 0
        if op.output is not None:
            produced.append((op.output.shape, op.output.dtype))
    last = ops[-1].output if ops else None
    return total + float(nbytes(last) or 0) if last is not None else total
