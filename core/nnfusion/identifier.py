"""NNFusion identifiers for TVM kernels, from the Relax operators a kernel was fused from.

NNFusion finds a kernel in its cache only by ``(Identifier, DeviceType)``, recomputing the
identifier from its own graph node (``KernelContext::generate_identifier``)::

    OpType + ";".join(input shapes) + ";" + ";".join(output shapes)
           + C type of every input, then every output + op-specific suffix

with shapes printed as ``1,64,56,56`` and the suffixes printed by NNFusion's ``operator<<``
(``Strides{1, 1}``: comma *and space* inside the braces). One character off and the row is
never used, so this module is exact about the few op kinds NNFusion accepts
(``SupportOpList``): ``Dot``, ``Convolution``, the ``Convolution+Add+Relu`` and
``Convolution+Relu`` patterns, ``MaxPool``/``AvgPool`` and single element-wise ops. Every
other kernel gets a ``kernelscope:``-prefixed identifier that can never collide with one
NNFusion computes (a row whose OpType NNFusion does not know makes it discard *every* row
with that identifier) and a list of reasons.

The mapping also decides which kernel parameter is ``input<i>``/``output<i>``: TVM orders
kernel parameters by name, NNFusion passes inputs in graph order, then outputs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..workspace import KernelInfo, OpInfo, TensorInfo

FOREIGN_PREFIX = "kernelscope:"
# The note on Convolution+Add+Relu kernels that read a per-channel bias: what the NNFusion
# command line needs for them (kernel_db.nnfusion_flags looks for it).
BIAS_NOTE = (
    "the kernel reads a per-channel bias: run NNFusion with -fbiasadd_fix=true "
    "-fconst_folding_backend=CPU so that the Add operand holds the bias in its first C elements"
)

# element::Type::c_type_string() spellings.
C_TYPES = {
    "float32": "float",
    "float64": "double",
    "float16": "half",
    "bfloat16": "bfloat16",
    "bool": "char",
    "int8": "int8_t",
    "int16": "int16_t",
    "int32": "int32_t",
    "int64": "int64_t",
    "uint8": "uint8_t",
    "uint16": "uint16_t",
    "uint32": "uint32_t",
    "uint64": "uint64_t",
}

# Relax element-wise operators and the CudaElementOpMap name NNFusion gives them.
ELEMENTWISE = {
    "relax.abs": "Abs",
    "relax.acos": "Acos",
    "relax.asin": "Asin",
    "relax.atan": "Atan",
    "relax.ceil": "Ceiling",
    "relax.cos": "Cos",
    "relax.cosh": "Cosh",
    "relax.erf": "Erf",
    "relax.exp": "Exp",
    "relax.floor": "Floor",
    "relax.log": "Log",
    "relax.sin": "Sin",
    "relax.sinh": "Sinh",
    "relax.sqrt": "Sqrt",
    "relax.rsqrt": "Rsqrt",
    "relax.square": "Square",
    "relax.tan": "Tan",
    "relax.tanh": "Tanh",
    "relax.power": "Power",
    "relax.subtract": "Subtract",
    "relax.divide": "Divide",
    "relax.sign": "Sign",
    "relax.astype": "Convert",
    "relax.equal": "Equal",
    "relax.not_equal": "NotEqual",
    "relax.nn.gelu": "Gelu",
    "relax.greater": "Greater",
    "relax.greater_equal": "GreaterEq",
    "relax.less": "Less",
    "relax.less_equal": "LessEq",
    "relax.nn.relu": "Relu",
    "relax.logical_not": "Not",
    "relax.negative": "Negative",
    "relax.where": "Select",
    "relax.logical_and": "And",
    "relax.logical_or": "Or",
    "relax.add": "Add",
    "relax.multiply": "Multiply",
    "relax.minimum": "Minimum",
    "relax.maximum": "Maximum",
    "relax.sigmoid": "Sigmoid",
}
_COMMUTATIVE = {"Add", "Multiply", "Minimum", "Maximum", "And", "Or", "Equal", "NotEqual"}
# What a flagged kernel's OpType is called, for browsing (never looked up by NNFusion).
_DISPLAY = {
    "relax.matmul": "Dot",
    "relax.nn.conv2d": "Convolution",
    "relax.nn.max_pool2d": "MaxPool",
    "relax.nn.avg_pool2d": "AvgPool",
    **ELEMENTWISE,
}
_WHY_NOT = {
    "relax.nn.softmax": "NNFusion takes no Softmax kernels from its cache",
    "relax.nn.log_softmax": "NNFusion takes no Softmax kernels from its cache",
    "relax.permute_dims": "NNFusion takes no layout transforms (Transpose) from its cache",
    "relax.reshape": "NNFusion takes no layout transforms (Reshape) from its cache",
    "relax.nn.layer_norm": "NNFusion takes no LayerNorm kernels from its cache",
    "relax.sum": "NNFusion takes no reductions from its cache",
    "relax.mean": "NNFusion takes no reductions from its cache, except a mean over H and W "
    "of an NCHW tensor (its global AvgPool)",
    "relax.max": "NNFusion takes no reductions from its cache",
    "relax.take": "NNFusion takes no gather (take) kernels from its cache",
}


@dataclass
class NNFusionOp:
    """How one kernel appears to NNFusion (or why it cannot)."""

    op_type: str  # KernelCache.OpType
    identifier: str  # KernelCache.Identifier; FOREIGN_PREFIX-ed when not usable
    supported: bool
    reasons: list[str] = field(default_factory=list)  # why NNFusion cannot use it
    notes: list[str] = field(default_factory=list)  # caveats for a usable kernel
    attributes: dict[str, Any] = field(default_factory=dict)  # KernelCache.Attributes
    # canonical name ("input0", "output0") of each kernel parameter, in kernel order
    param_names: list[str] = field(default_factory=list)
    pattern: bool = False  # a Convolution pattern: NNFusion's pattern pass looks it up too
    extra_tags: list[str] = field(default_factory=list)
    # Why NNFusion may run this kernel for a different computation with the same identifier
    # (a Dot whose transpose the shapes do not fix; a Convolution+Add+Relu whose Add reads a
    # whole tensor). Such rows are kept from NNFusion unless the user allows them.
    ambiguity: str = ""


class _NotUsable(Exception):
    pass


def c_type(dtype: str) -> str:
    try:
        return C_TYPES[dtype]
    except KeyError:
        raise _NotUsable(f"dtype {dtype} has no NNFusion element type") from None


def shape_text(shape: list[int | str]) -> str:
    return ",".join(str(d) for d in shape)


def braced(kind: str, values: list[int]) -> str:
    """NNFusion's ``operator<<`` for Shape/Strides/CoordinateDiff: ``Strides{1, 1}``."""
    return kind + "{" + ", ".join(str(v) for v in values) + "}"


def identifier(
    op_type: str, inputs: list[TensorInfo], outputs: list[TensorInfo], suffix: str = ""
) -> str:
    """The generic rule of KernelContext::generate_identifier."""
    return (
        op_type
        + ";".join(shape_text(t.shape) for t in inputs)
        + ";"
        + ";".join(shape_text(t.shape) for t in outputs)
        + "".join(c_type(t.dtype) for t in [*inputs, *outputs])
        + suffix
    )


def conv_suffix(strides: list[int], dilation: list[int], padding_below: list[int]) -> str:
    return (
        braced("Strides", strides)
        + braced("Strides", dilation)
        + braced("CoordinateDiff", padding_below)
    )


def pool_suffix(window: list[int], strides: list[int], below: list[int], above: list[int]) -> str:
    return (
        braced("Shape", window)
        + braced("Strides", strides)
        + braced("Shape", below)
        + braced("Shape", above)
    )


def map_kernel(kernel: KernelInfo, written: set[int] | None = None) -> NNFusionOp:
    """Map a built kernel onto NNFusion's op kinds.

    ``written`` holds the indices of the kernel parameters the body stores into; it picks
    the output when shapes alone cannot (a residual Add has three tensors of one shape).
    """
    try:
        return _map(kernel, written or set())
    except _NotUsable as exc:
        return _foreign(kernel, [str(exc)])


def _display_type(ops: list[OpInfo]) -> str:
    names = [_DISPLAY.get(o.op) or _camel(o.op) for o in ops]
    return names[0] if len(names) == 1 else "Fused_" + "_".join(names)


def _camel(op: str) -> str:
    return "".join(w[:1].upper() + w[1:] for w in op.rsplit(".", 1)[-1].split("_"))


def _foreign(kernel: KernelInfo, reasons: list[str]) -> NNFusionOp:
    op_type = _display_type(kernel.ops) if kernel.ops else "Unknown"
    ins = [p for p in kernel.params]
    try:
        ident = identifier(op_type, ins, [])
    except _NotUsable:
        ident = op_type + ";".join(shape_text(p.shape) for p in ins)
    return NNFusionOp(
        op_type=op_type,
        identifier=f"{FOREIGN_PREFIX}{kernel.name}:{ident}",
        supported=False,
        reasons=reasons,
        attributes={
            "input_shape": [p.shape for p in kernel.params],
            "relax_ops": [o.op for o in kernel.ops],
        },
    )


def _static(t: TensorInfo | None, what: str) -> TensorInfo:
    if t is None:
        raise _NotUsable(f"the shape of {what} is unknown")
    if any(not isinstance(d, int) for d in t.shape):
        raise _NotUsable(f"{what} has a symbolic shape {t.shape}; NNFusion needs static shapes")
    return t


def _same(a: TensorInfo, b: TensorInfo) -> bool:
    return list(a.shape) == list(b.shape) and a.dtype == b.dtype


def _pair(value: Any, n: int = 2) -> list[int]:
    vals = [int(v) for v in (value if isinstance(value, list | tuple) else [value])]
    return vals * n if len(vals) == 1 else vals


def _padding(value: Any, n: int = 2) -> tuple[list[int], list[int]]:
    vals = [int(v) for v in (value if isinstance(value, list | tuple) else [value])]
    if len(vals) == 1:
        vals = vals * n
    if len(vals) == n:
        return vals, vals
    if len(vals) == 2 * n:
        return vals[:n], vals[n:]
    raise _NotUsable(f"padding {value} is not 2-D")


def _map(kernel: KernelInfo, written: set[int]) -> NNFusionOp:
    ops = kernel.ops
    if not ops:
        raise _NotUsable("the build recorded no Relax operator for this kernel")
    if not kernel.launched:
        raise _NotUsable("the model never launches this kernel, so it has no launch sizes")
    names = [o.op for o in ops]
    out = _static(ops[-1].output, "the output")
    if names[0] == "relax.nn.conv2d" and names[1:] in (
        [],
        ["relax.nn.relu"],
        ["relax.add", "relax.nn.relu"],
    ):
        return _conv(kernel, ops, out, written)
    if len(ops) > 1:
        kinds = "+".join(_DISPLAY.get(n) or _camel(n) for n in names)
        raise _NotUsable(
            f"fused {kinds}: NNFusion's cache patterns are only Convolution+Add+Relu and "
            "Convolution+Relu"
        )
    op = ops[0]
    if op.op == "relax.matmul":
        return _dot(kernel, op, out, written)
    if op.op == "relax.einsum":
        return _einsum(kernel, op, out, written)
    if op.op == "relax.mean":
        return _global_avg_pool(kernel, op, out, written)
    if op.op in ("relax.nn.max_pool2d", "relax.nn.avg_pool2d"):
        return _pool(kernel, op, out, written)
    if op.op in ELEMENTWISE:
        return _elementwise(kernel, op, out, written)
    raise _NotUsable(_WHY_NOT.get(op.op, f"NNFusion takes no {op.op} kernels from its cache"))


def _assign(
    kernel: KernelInfo,
    inputs: list[TensorInfo],
    output: TensorInfo,
    written: set[int],
    commutative: bool = False,
) -> list[str]:
    """Canonical name per kernel parameter: which parameter is input<i>, which output0."""
    params = kernel.params
    if len(params) != len(inputs) + 1:
        raise _NotUsable(
            f"the kernel takes {len(params)} parameters, the operators {len(inputs) + 1} tensors"
        )
    names: list[str | None] = [None] * len(params)
    outs = [i for i in written if _same(params[i], output)]
    if len(outs) != 1:
        outs = [i for i, p in enumerate(params) if _same(p, output)]
    if len(outs) != 1:
        raise _NotUsable("cannot tell which kernel parameter is the output")
    names[outs[0]] = "output0"
    for k, t in enumerate(inputs):
        free = [i for i, p in enumerate(params) if names[i] is None and _same(p, t)]
        twins = [u for u in inputs if _same(u, t)]
        if len(free) != 1 and not (commutative and len(free) == len(twins)):
            raise _NotUsable(f"cannot tell which kernel parameter is input {k} (shape {t.shape})")
        names[free[0]] = f"input{k}"
    return [n for n in names if n is not None]


def _dot(kernel: KernelInfo, op: OpInfo, out: TensorInfo, written: set[int]) -> NNFusionOp:
    if len(op.inputs) != 2:
        raise _NotUsable("matmul without two tensor operands")
    a, b = (_static(t, "a matmul operand") for t in op.inputs)
    if len(a.shape) != 2 or len(b.shape) != 2:
        raise _NotUsable(
            f"batched matmul {a.shape} x {b.shape}: NNFusion maps it to BatchMatMul, which it "
            "takes from its cache only as Dot of 2-D operands"
        )
    return _dot_op(kernel, a, b, out, written, False, False)


def _einsum(kernel: KernelInfo, op: OpInfo, out: TensorInfo, written: set[int]) -> NNFusionOp:
    """A two-operand einsum that is a matrix product, possibly of transposed operands."""
    subscripts = str(op.attrs.get("subscripts", "")).replace(" ", "")
    if len(op.inputs) != 2:
        raise _NotUsable(f"einsum {subscripts!r} of {len(op.inputs)} operands is not a Dot")
    a, b = (_static(t, "an einsum operand") for t in op.inputs)
    lhs, _, result = subscripts.partition("->")
    terms = lhs.split(",")
    if len(terms) != 2 or any(len(t) != 2 for t in [*terms, result]):
        raise _NotUsable(f"einsum {subscripts!r} is not a product of two matrices")
    ta, tb = terms
    m, n = result[0], result[1]
    shared = set(ta) & set(tb)
    if len(shared) != 1 or len(set(ta)) != 2 or len(set(tb)) != 2:
        raise _NotUsable(f"einsum {subscripts!r} is not a product of two matrices")
    (k,) = shared
    if ta.replace(k, "") != m or tb.replace(k, "") != n:
        raise _NotUsable(f"einsum {subscripts!r} is not a product of two matrices")
    return _dot_op(kernel, a, b, out, written, ta[0] == k, tb[1] == k)


def _product(ta: bool, tb: bool) -> str:
    return f"A{'ᵀ' if ta else ''}·B{'ᵀ' if tb else ''}"


def dot_transposes(
    a: list[int | str], b: list[int | str], out: list[int | str]
) -> list[tuple[bool, bool]]:
    """Every (transpose_A, transpose_B) for which Dot of stored shapes ``a``, ``b`` gives ``out``.

    NNFusion's Dot identifier holds only these three shapes, so when more than one pair fits,
    the same identifier stands for different products (K == N admits A·B and A·Bᵀ).
    """
    fits = []
    for ta in (False, True):
        for tb in (False, True):
            m, k = (a[1], a[0]) if ta else (a[0], a[1])
            k2, n = (b[1], b[0]) if tb else (b[0], b[1])
            if k == k2 and [m, n] == list(out):
                fits.append((ta, tb))
    return fits


def _dot_op(
    kernel: KernelInfo,
    a: TensorInfo,
    b: TensorInfo,
    out: TensorInfo,
    written: set[int],
    trans_a: bool,
    trans_b: bool,
) -> NNFusionOp:
    ident = identifier("Dot", [a, b], [out])
    others = [p for p in dot_transposes(a.shape, b.shape, out.shape) if p != (trans_a, trans_b)]
    ambiguity = ""
    if others:
        ambiguity = (
            f"Dot {shape_text(a.shape)} x {shape_text(b.shape)}: NNFusion's Dot identifier has "
            f"no transpose, so {' and '.join(_product(*p) for p in others)} of these shapes "
            f"(e.g. a Gemm with {_gemm_flags(*others[0])}) looks up this same identifier and "
            f"would run this kernel, which computes {_product(trans_a, trans_b)}"
        )
    return NNFusionOp(
        op_type="Dot",
        identifier=ident,
        supported=True,
        attributes={
            "input_shape": [a.shape, b.shape],
            "output_shape": [out.shape],
            "parameters": {"transpose_A": trans_a, "transpose_B": trans_b},
        },
        param_names=_assign(kernel, [a, b], out, written),
        extra_tags=["transA"] * trans_a + ["transB"] * trans_b,
        ambiguity=ambiguity,
    )


def _gemm_flags(ta: bool, tb: bool) -> str:
    return f"transA={int(ta)}, transB={int(tb)}"


def _conv(kernel: KernelInfo, ops: list[OpInfo], out: TensorInfo, written: set[int]) -> NNFusionOp:
    conv = ops[0]
    attrs = conv.attrs
    if len(conv.inputs) != 2:
        raise _NotUsable("conv2d without data and weight operands")
    data, weight = (_static(t, "a conv2d operand") for t in conv.inputs)
    conv_out = _static(conv.output, "the conv2d output")
    layouts = (attrs.get("data_layout", "NCHW"), attrs.get("kernel_layout", "OIHW"))
    if layouts != ("NCHW", "OIHW") or attrs.get("out_layout", "NCHW") not in ("NCHW", ""):
        raise _NotUsable(f"conv2d layout {layouts}: NNFusion's Convolution is NCHW/OIHW")
    if int(attrs.get("groups", 1)) != 1:
        raise _NotUsable(f"grouped conv2d (groups={attrs.get('groups')}) is not a Convolution")
    strides = _pair(attrs.get("strides", [1, 1]))
    dilation = _pair(attrs.get("dilation", [1, 1]))
    below, above = _padding(attrs.get("padding", [0, 0]))
    if below != above:
        raise _NotUsable(
            f"asymmetric padding {below}/{above}: NNFusion pads such a Convolution with a "
            "separate Pad node and looks up a Convolution without padding"
        )
    conv_ident = identifier("Convolution", [data, weight], [conv_out]) + conv_suffix(
        strides, dilation, below
    )
    parameters = {
        "window_movement_strides": strides,
        "window_dilation_strides": dilation,
        "padding_below_diff": below,
        "padding_above_diff": above,
    }
    notes: list[str] = []
    inputs = [data, weight]
    ident = conv_ident
    op_type = "Convolution"
    ambiguity = ""
    if len(ops) == 3:
        add = ops[1]
        others = [t for t in add.inputs if not _same(t, conv_out)] or add.inputs[1:]
        if len(add.inputs) != 2 or len(others) != 1:
            raise _NotUsable("the Add of the Convolution pattern does not take one other tensor")
        addend = _static(others[0], "the Add operand")
        if _same(addend, out):
            ambiguity = (
                "its Add reads a whole tensor of the output's shape; NNFusion's identifier is "
                "the same as for Convolution+bias+Relu, and the command line that gives bias "
                "kernels their bias (-fbiasadd_fix=true) hands this one the wrong data"
            )
        elif _is_channel_bias(addend, out):
            notes.append(BIAS_NOTE)
        else:
            raise _NotUsable(f"the Add operand {addend.shape} is neither {out.shape} nor a bias")
        inputs.append(addend)
        # In NNFusion's graph the Add operand is already broadcast to the output shape.
        full = TensorInfo(shape=out.shape, dtype=addend.dtype)
        ident += identifier("Add", [out, full], [out]) + identifier("Relu", [out], [out])
        op_type = "Fused_Convolution_Add_Relu"
    elif len(ops) == 2:
        ident += identifier("Relu", [out], [out])
        op_type = "Fused_Convolution_Relu"
    in_shapes = [data.shape, weight.shape] + ([out.shape] if len(ops) == 3 else [])
    return NNFusionOp(
        op_type=op_type,
        identifier=ident,
        supported=True,
        notes=notes,
        attributes={
            "input_shape": in_shapes,
            "output_shape": [out.shape],
            "parameters": parameters,
        },
        param_names=_assign(kernel, inputs, out, written),
        pattern=len(ops) > 1,
        ambiguity=ambiguity,
    )


def _is_channel_bias(t: TensorInfo, out: TensorInfo) -> bool:
    channels = out.shape[1]
    return (
        t.dtype == out.dtype
        and math.prod(t.shape) == channels
        and (list(t.shape) in ([channels], [channels, 1, 1], [1, channels, 1, 1]))
    )


def _pool(kernel: KernelInfo, op: OpInfo, out: TensorInfo, written: set[int]) -> NNFusionOp:
    attrs = op.attrs
    x = _static(op.inputs[0] if op.inputs else None, "the pool input")
    if attrs.get("layout", "NCHW") != "NCHW":
        raise _NotUsable(f"pool layout {attrs.get('layout')}: NNFusion pools are NCHW")
    if any(d != 1 for d in _pair(attrs.get("dilation", [1, 1]))):
        raise _NotUsable("dilated pooling has no NNFusion identifier")
    if attrs.get("ceil_mode"):
        raise _NotUsable("ceil_mode pooling: NNFusion's padding_above would differ")
    window = _pair(attrs.get("pool_size", [1, 1]))
    strides = _pair(attrs.get("strides", [1, 1]))
    below, above = _padding(attrs.get("padding", [0, 0]))
    op_type = "MaxPool" if op.op == "relax.nn.max_pool2d" else "AvgPool"
    if op_type == "AvgPool" and any(below + above):
        raise _NotUsable(
            "padded AvgPool: NNFusion's identifier does not say whether padding counts in the "
            "average, so the row could be used with the wrong semantics"
        )
    ident = identifier(op_type, [x], [out]) + pool_suffix(window, strides, below, above)
    return NNFusionOp(
        op_type=op_type,
        identifier=ident,
        supported=True,
        attributes={
            "input_shape": [x.shape],
            "output_shape": [out.shape],
            "parameters": {
                "window_shape": window,
                "window_stride": strides,
                "padding_below": below,
                "padding_above": above,
            },
        },
        param_names=_assign(kernel, [x], out, written),
    )


def _global_avg_pool(
    kernel: KernelInfo, op: OpInfo, out: TensorInfo, written: set[int]
) -> NNFusionOp:
    """TVM's ``mean`` over H and W of an NCHW tensor is NNFusion's global ``AvgPool``: ONNX's
    GlobalAveragePool becomes an AvgPool with the whole plane as window, stride 1, no padding."""
    x = _static(op.inputs[0] if op.inputs else None, "the mean input")
    rank = len(x.shape)
    axes = sorted(int(a) % rank for a in (op.attrs.get("axis") or [])) if rank else []
    if rank != 4 or axes != [2, 3]:
        raise _NotUsable(_WHY_NOT["relax.mean"])
    n, c, h, w = (int(d) for d in x.shape)
    pooled = TensorInfo(shape=[n, c, 1, 1], dtype=out.dtype)
    if math.prod(out.shape) != n * c:
        raise _NotUsable(f"mean of {x.shape} gives {out.shape}, not one value per channel")
    ident = identifier("AvgPool", [x], [pooled]) + pool_suffix([h, w], [1, 1], [0, 0], [0, 0])
    return NNFusionOp(
        op_type="AvgPool",
        identifier=ident,
        supported=True,
        notes=["TVM's mean over H and W, exported as NNFusion's global AvgPool"],
        attributes={
            "input_shape": [x.shape],
            "output_shape": [pooled.shape],
            "parameters": {
                "window_shape": [h, w],
                "window_stride": [1, 1],
                "padding_below": [0, 0],
                "padding_above": [0, 0],
            },
        },
        param_names=_assign(kernel, [x], out, written),
    )


def _elementwise(kernel: KernelInfo, op: OpInfo, out: TensorInfo, written: set[int]) -> NNFusionOp:
    op_type = ELEMENTWISE[op.op]
    inputs = [_static(t, f"an operand of {op.op}") for t in op.inputs]
    for t in inputs:
        if list(t.shape) != list(out.shape):
            raise _NotUsable(
                f"{op_type} broadcasts {t.shape} to {out.shape}; in NNFusion's graph the "
                "operand is broadcast first, so this kernel would read the wrong data"
            )
    return NNFusionOp(
        op_type=op_type,
        identifier=identifier(op_type, inputs, [out]),
        supported=True,
        attributes={"input_shape": [t.shape for t in inputs], "output_shape": [out.shape]},
        param_names=_assign(kernel, inputs, out, written, commutative=op_type in _COMMUTATIVE),
    )
