"""What NNFusion looks up in its kernel DB for an ONNX model, computed without NNFusion.

NNFusion (microsoft/nnfusion main, 00c1317) turns an ONNX graph into its own operators and
rewrites that graph before it asks the DB for kernels. This module follows the steps that
decide which identifiers it asks for, with the identifier code the exporter uses
(``identifier.identifier``), so "what will NNFusion want" and "what did kernelscope write"
come from one implementation:

1. the ONNX importer (``frontend/onnx_import``): a Conv with bias is a ``Convolution`` plus a
   ``Broadcast`` of the bias and an ``Add``; a Gemm is a ``Dot`` of the stored operands with
   its transpose flags (not in the identifier), then the bias the same way; GlobalAveragePool
   is an ``AvgPool`` over the whole plane with stride 1; Flatten and Reshape are ``Reshape``;
   numpy broadcasting inserts ``Reshape`` + ``Broadcast``;
2. ``RuntimeConstantFoldingPass`` (only with ``-fconst_folding_backend``): a node whose inputs
   are all constants becomes a constant (the bias broadcasts vanish);
3. ``PatternSubstitutionPass``: Convolution+Add+Relu, then Convolution+Relu chains are looked
   up under DeviceType ``CUDA``; where the DB has a row, the chain becomes one node whose
   identifier is the concatenation;
4. ``KernelFusionPass``: element-wise operators processed one after another (its ready
   queues, ported here) with equal output size fuse into ``ElementWiseFused`` nodes, which no
   DB row can serve (not in ``SupportOpList``);
5. ``FetchBasedSelector``: every remaining node is looked up under ``CUDA_GPU``.

ONNX operators this module does not follow are reported in ``NNFusionGraph.unmodelled``; the
lookups are then incomplete. Tests compare the result with the real NNFusion's log.
"""

from __future__ import annotations

import collections
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..build.model_loader import load_onnx
from ..errors import KernelscopeError
from ..workspace import TensorInfo
from .identifier import C_TYPES, conv_suffix, identifier, pool_suffix

# CudaElementOpMap + the fixed names (engine/cache/manager.cpp): what a DB row may be.
SUPPORT_OP_LIST = {
    "Abs", "Acos", "Asin", "Atan", "Ceiling", "Cos", "Cosh", "Erf", "Exp", "Floor", "Log",
    "Max", "Min", "Sin", "Sinh", "Sqrt", "Rsqrt", "Square", "Tan", "Tanh", "Power",
    "PowerBackwardBase", "PowerBackwardExponent", "Subtract", "Divide", "DivNoNan", "Sign",
    "Convert", "Equal", "NotEqual", "Gelu", "GeluGrad", "Greater", "GreaterEq", "Less",
    "LessEq", "Relu", "Relu6", "Not", "Negative", "Select", "ReluBackprop", "Relu6Backprop",
    "And", "Or", "Add", "Multiply", "Minimum", "Maximum", "Nop", "Sigmoid", "SigmoidBackprop",
    "Dot", "Convolution", "AvgPool", "MaxPool", "Fused_Convolution_Relu",
    "Fused_Convolution_Add_Relu", "Matched_Pattern",
}  # fmt: skip
# Operators deriving from NNFusion's ElementwiseArithmetic (what KernelFusionPass fuses).
ELEMENTWISE = {
    "Abs", "Acos", "Add", "Asin", "Atan", "Ceiling", "Cos", "Cosh", "Divide", "Erf", "Exp",
    "Floor", "Gelu", "Log", "Maximum", "Minimum", "Multiply", "Negative", "Power", "Relu",
    "Rsqrt", "Sigmoid", "Sign", "Sin", "Sinh", "Sqrt", "Square", "Subtract", "Tan", "Tanh",
}  # fmt: skip
PATTERNS = (("Convolution", "Add", "Relu"), ("Convolution", "Relu"))
PATTERN_OP_TYPES = {
    ("Convolution", "Add", "Relu"): "Fused_Convolution_Add_Relu",
    ("Convolution", "Relu"): "Fused_Convolution_Relu",
}
_UNARY = {
    "Relu": "Relu", "Sigmoid": "Sigmoid", "Tanh": "Tanh", "Exp": "Exp", "Log": "Log",
    "Abs": "Abs", "Neg": "Negative", "Sqrt": "Sqrt", "Erf": "Erf", "Floor": "Floor",
    "Ceil": "Ceiling", "Sin": "Sin", "Cos": "Cos", "Tan": "Tan", "Sign": "Sign",
}  # fmt: skip
_BINARY = {
    "Add": "Add", "Sub": "Subtract", "Mul": "Multiply", "Div": "Divide", "Pow": "Power",
    "Max": "Maximum", "Min": "Minimum",
}  # fmt: skip


@dataclass(eq=False)
class GNode:
    """One node of NNFusion's graph (single output)."""

    id: int
    op_type: str
    inputs: list[GNode]
    shape: list[int]
    dtype: str  # numpy name, e.g. "float32"
    attrs: dict[str, Any] = field(default_factory=dict)
    origin: str = ""  # the ONNX node it comes from
    parts: list[GNode] = field(default_factory=list)  # what a fused node replaced
    pattern_identifier: str = ""  # Matched_Pattern: the concatenated identifier

    @property
    def constant(self) -> bool:
        return self.op_type == "Constant"

    def tensor(self) -> TensorInfo:
        return TensorInfo(shape=list(self.shape), dtype=self.dtype)


@dataclass
class Lookup:
    """One identifier NNFusion asks the DB for, and where in the model it comes from."""

    identifier: str
    device_type: str  # "CUDA_GPU" (kernel selection) or "CUDA" (pattern substitution)
    op_type: str  # the graph node's type; Matched_Pattern nodes get their pattern's OpType
    count: int
    origins: list[str]  # ONNX nodes
    supported: bool  # a DB row may serve it (SupportOpList)
    attributes: dict[str, Any] = field(default_factory=dict)  # what a kernel must compute
    # Nodes of this identifier that need a different computation than the first (a MatMul
    # and a Gemm with transB=1 of square weights): no single row is right for all of them.
    conflicts: list[str] = field(default_factory=list)


@dataclass
class NNFusionGraph:
    """NNFusion's graph for a model, and what it looks up for which node."""

    model: str
    nodes: list[GNode]
    outputs: list[GNode]
    lookups: list[Lookup]
    unmodelled: list[str]  # "node (why)": ONNX nodes not followed (their lookups not listed)
    weights_as_inputs: list[str]  # weights without values, graph inputs (``weight_inputs``)
    crashes: list[str]  # where NNFusion would abort with these flags (and why)
    # Broadcasts of constants the importer makes (a Conv bias): -fbiasadd_fix needs them
    # folded (-fconst_folding_backend) unless the model holds its biases broadcast already.
    constant_broadcasts: int = 0
    # Nodes from which NNFusion computes something else than the model (and why).
    departures: list[str] = field(default_factory=list)

    def kernel_lookups(self) -> collections.Counter[tuple[str, str]]:
        return collections.Counter(
            {(lk.identifier, lk.device_type): lk.count for lk in self.lookups}
        )


class _NotModelled(Exception):
    pass


# The operands that hold a layer's weights: where a graph input read there is a weight
# without a value (PyTorch's export_params=False), not data. Any operand of an element-wise
# Add, Sub, Mul or Div counts (a MatMul's bias, a scale), and a Gather's table (embeddings).
WEIGHT_OPERANDS = {
    "Conv": (1, 2), "ConvTranspose": (1, 2), "Gemm": (1, 2), "MatMul": (1,),
    "BatchNormalization": (1, 2, 3, 4), "InstanceNormalization": (1, 2),
    "LayerNormalization": (1, 2), "Add": (0, 1), "Sub": (0, 1), "Mul": (0, 1), "Div": (0, 1),
    "Pow": (1,), "PRelu": (1,), "Gather": (0,), "LSTM": (1, 2, 3), "GRU": (1, 2, 3),
    "RNN": (1, 2, 3),
}  # fmt: skip


def weight_inputs(proto: Any) -> list[str]:
    """The graph inputs of an ONNX model that hold weights but have no value (no
    initializer): those after the first (the model's data, as the build takes it) that some
    node reads as a weight operand (``WEIGHT_OPERANDS``), in graph input order. What coverage
    refuses and what the copy for NNFusion makes initializers: one count for both."""
    graph = proto.graph
    initialized = {i.name for i in graph.initializer}
    inputs = [vi.name for vi in graph.input if vi.name not in initialized]
    read = {
        node.input[i]
        for node in graph.node
        for i in WEIGHT_OPERANDS.get(node.op_type, ())
        if i < len(node.input)
    }
    return [name for name in inputs[1:] if name in read]


# --- the graph --------------------------------------------------------------------------


class _Graph:
    def __init__(self) -> None:
        self.nodes: list[GNode] = []
        self._next = 0

    def add(
        self,
        op_type: str,
        inputs: list[GNode],
        shape: list[int],
        dtype: str,
        origin: str,
        **attrs: Any,
    ) -> GNode:
        node = GNode(self._next, op_type, list(inputs), list(shape), dtype, attrs, origin)
        self._next += 1
        self.nodes.append(node)
        return node

    def consumers(self, node: GNode) -> list[GNode]:
        """Destination of every out-edge of ``node``, in edge order (duplicates kept)."""
        return [n for n in self.nodes for i in n.inputs if i is node]

    def replace_uses(self, old: GNode, new: GNode) -> None:
        for n in self.nodes:
            n.inputs = [new if i is old else i for i in n.inputs]

    def remove(self, dead: Iterable[GNode]) -> None:
        gone = {id(n) for n in dead}
        self.nodes = [n for n in self.nodes if id(n) not in gone]


def _np_dtype(elem_type: int) -> str:
    from onnx import helper

    return str(helper.tensor_dtype_to_np_dtype(elem_type))


def _dims(value_info: Any) -> list[int | str]:
    dims: list[int | str] = []
    for d in value_info.type.tensor_type.shape.dim:
        dims.append(int(d.dim_value) if d.HasField("dim_value") else (d.dim_param or "?"))
    return dims


def _attr(node: Any, name: str, default: Any = None) -> Any:
    from onnx import helper

    for a in node.attribute:
        if a.name == name:
            return helper.get_attribute_value(a)
    return default


def pool_output(
    size: Iterable[int], window: Iterable[int], strides: Iterable[int], begin: Iterable[int],
    end: Iterable[int], *, ceil_mode: bool,
) -> list[int]:  # fmt: skip
    """A pool's output extent per axis (ONNX's rule; NNFusion always floors)."""
    out = []
    for n, k, s, b, e in zip(size, window, strides, begin, end, strict=True):
        span = n + b + e - k
        steps = -(-span // s) if ceil_mode else span // s
        if ceil_mode and steps * s >= n + b:  # the last window would start in the end padding
            steps -= 1
        out.append(steps + 1)
    return out


def _inferred_shapes(model: Any) -> dict[str, tuple[list[int], str]]:
    """Value name -> (shape, numpy dtype) where ONNX's shape inference knows them fully."""
    import onnx

    try:
        inferred = onnx.shape_inference.infer_shapes(model)
    except Exception:  # an operator onnx cannot infer: none known
        return {}
    known = {}
    for vi in [*inferred.graph.value_info, *inferred.graph.output]:
        dims = _dims(vi)
        if dims and all(isinstance(d, int) and d > 0 for d in dims):
            known[vi.name] = ([int(d) for d in dims], _np_dtype(vi.type.tensor_type.elem_type))
    return known


def _text(value: Any) -> Any:
    return value.decode() if isinstance(value, bytes) else value


# --- importing ONNX ---------------------------------------------------------------------


class _Importer:
    def __init__(self, model: Any) -> None:
        self.model = model
        self.g = _Graph()
        self.values: dict[str, GNode] = {}
        self.consts: dict[str, Any] = {}  # name -> numpy value (for shapes of Reshape)
        self.unmodelled: list[str] = []  # "node (why)": nodes not followed
        self.first_input: GNode | None = None
        self.crashes: list[str] = []  # what NNFusion's importer crashes on
        self.departures: list[str] = []  # where NNFusion computes other shapes than ONNX
        self._inferred: dict[str, tuple[list[int], str]] | None = None

    def run(self) -> list[GNode]:
        from onnx import numpy_helper

        graph = self.model.graph
        for init in graph.initializer:
            value = numpy_helper.to_array(init)
            self.consts[init.name] = value
            self.values[init.name] = self.g.add(
                "Constant", [], list(value.shape), str(value.dtype), init.name
            )
        for vi in graph.input:
            if vi.name in self.values:
                continue
            dims = _dims(vi)
            if any(not isinstance(d, int) or d <= 0 for d in dims):
                raise KernelscopeError(
                    f"input {vi.name!r} has a dynamic shape {dims}; NNFusion compiles fixed sizes",
                    hint="export the model with fixed input sizes",
                )
            self.values[vi.name] = self.g.add(
                "Parameter", [], [int(d) for d in dims], _np_dtype(vi.type.tensor_type.elem_type),
                vi.name,
            )  # fmt: skip
            self.first_input = self.first_input or self.values[vi.name]
        for i, node in enumerate(graph.node):
            origin = node.name or f"{node.op_type}#{i}"
            try:
                outs = self._convert(node, origin)
            except _NotModelled as exc:
                opaque = self._opaque(node, origin)
                if opaque is None:  # its output's shape is unknown: nothing after it is listed
                    self.unmodelled.append(
                        f"{origin} ({exc or node.op_type}; ONNX cannot infer its output's "
                        "shape, so nothing after it is listed)"
                    )
                    return []
                self.unmodelled.append(f"{origin} ({exc or node.op_type})")
                outs = opaque
            for name, out in zip(node.output, outs, strict=False):
                self.values[name] = out
        outputs = []
        for vi in graph.output:
            if vi.name not in self.values:
                continue
            out = self.values[vi.name]
            outputs.append(self.g.add("Result", [out], out.shape, out.dtype, vi.name))
        return outputs

    def _opaque(self, node: Any, origin: str) -> list[GNode] | None:
        """A node kernelscope does not follow, as a node of ONNX's inferred output shapes
        (so what follows it is still listed); None when ONNX cannot infer them."""
        if self._inferred is None:
            self._inferred = _inferred_shapes(self.model)
        inputs = [self.values[name] for name in node.input if name in self.values]
        outs = []
        for name in node.output:
            known = self._inferred.get(name)
            if known is None:
                break  # the outputs after it are not known either
            outs.append(self.g.add(node.op_type, inputs, *known, origin, unmodelled=True))
        return outs or None

    def _in(self, node: Any, i: int) -> GNode:
        if i >= len(node.input) or not node.input[i]:
            raise _NotModelled(f"{node.op_type} without input {i}")
        if node.input[i] not in self.values:  # an output of a node not followed
            raise _NotModelled(f"{node.op_type} of an input kernelscope does not know")
        return self.values[node.input[i]]

    def _convert(self, node: Any, origin: str) -> list[GNode]:
        op = node.op_type
        g = self.g
        if op == "Conv":
            return [self._conv(node, origin)]
        if op in _UNARY:
            x = self._in(node, 0)
            return [g.add(_UNARY[op], [x], x.shape, x.dtype, origin)]
        if op in _BINARY:
            return [self._binary(_BINARY[op], self._in(node, 0), self._in(node, 1), origin)]
        if op in ("MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool"):
            return [self._pool(node, origin)]
        if op == "Flatten":
            x = self._in(node, 0)
            axis = int(_attr(node, "axis", 1)) % max(len(x.shape), 1)
            shape = [math.prod(x.shape[:axis]), math.prod(x.shape[axis:])]
            return [self._reshape(x, shape, origin)]
        if op == "Reshape":
            return [self._reshape_op(node, origin)]
        if op in ("Identity", "Dropout"):
            if op == "Dropout" and len(node.output) > 1 and node.output[1]:
                raise _NotModelled("Dropout with a mask output")
            return [self._in(node, 0)]
        if op == "Gemm":
            return [self._gemm(node, origin)]
        if op == "MatMul":
            a, b = self._in(node, 0), self._in(node, 1)
            if len(a.shape) != 2 or len(b.shape) != 2:
                raise _NotModelled("MatMul of operands that are not 2-D")
            return [self._dot(a, b, False, False, origin)]
        if op == "Pad":
            return [self._pad(node, origin)]
        if op == "Concat":
            parts = [self._in(node, i) for i in range(len(node.input))]
            axis = int(_attr(node, "axis", 0)) % len(parts[0].shape)
            shape = list(parts[0].shape)
            shape[axis] = sum(p.shape[axis] for p in parts)
            return [g.add("Concat", parts, shape, parts[0].dtype, origin, axis=axis)]
        if op == "Softmax":
            x = self._in(node, 0)
            return [g.add("Softmax", [x], x.shape, x.dtype, origin)]
        raise _NotModelled(op)

    def _conv(self, node: Any, origin: str) -> GNode:
        data, weight = self._in(node, 0), self._in(node, 1)
        if len(data.shape) != 4:
            raise _NotModelled("Conv that is not 2-D")
        if int(_attr(node, "group", 1)) != 1:
            raise _NotModelled("grouped Conv")
        if _text(_attr(node, "auto_pad", "NOTSET")) not in ("NOTSET", ""):
            raise _NotModelled("Conv with auto_pad")  # NNFusion itself refuses it
        kernel = [int(v) for v in _attr(node, "kernel_shape", weight.shape[2:])]
        strides = [int(v) for v in _attr(node, "strides", [1] * len(kernel))]
        dilations = [int(v) for v in _attr(node, "dilations", [1] * len(kernel))]
        pads = [int(v) for v in _attr(node, "pads", [0] * 2 * len(kernel))]
        begin, end = pads[: len(kernel)], pads[len(kernel) :]
        if begin != end:
            raise _NotModelled("Conv with asymmetric padding")  # NNFusion inserts a Pad
        n, _, h, w = data.shape
        out_hw = [
            (size + 2 * p - d * (k - 1) - 1) // s + 1
            for size, p, d, k, s in zip((h, w), begin, dilations, kernel, strides, strict=True)
        ]
        conv = self.g.add(
            "Convolution", [data, weight], [n, weight.shape[0], *out_hw], data.dtype, origin,
            strides=strides, dilations=dilations, padding_below=begin, padding_above=end,
        )  # fmt: skip
        if len(node.input) > 2 and node.input[2]:
            bias = self._in(node, 2)
            bc = self.g.add("Broadcast", [bias], conv.shape, bias.dtype, origin)
            return self.g.add("Add", [conv, bc], conv.shape, conv.dtype, origin)
        return conv

    def _pool(self, node: Any, origin: str) -> GNode:
        x = self._in(node, 0)
        if len(x.shape) != 4:
            raise _NotModelled(f"{node.op_type} that is not 2-D")
        op_type = "MaxPool" if "Max" in node.op_type else "AvgPool"
        if node.op_type.startswith("Global"):
            window, strides, begin, end = list(x.shape[2:]), [1, 1], [0, 0], [0, 0]
        else:
            if any(int(d) != 1 for d in _attr(node, "dilations", [1, 1])):
                raise _NotModelled(f"dilated {node.op_type}")
            if _text(_attr(node, "auto_pad", "NOTSET")) not in ("NOTSET", ""):
                raise _NotModelled(f"{node.op_type} with auto_pad")
            window = [int(v) for v in _attr(node, "kernel_shape")]
            strides = [int(v) for v in _attr(node, "strides", [1, 1])]
            pads = [int(v) for v in _attr(node, "pads", [0, 0, 0, 0])]
            begin, end = pads[:2], pads[2:]
        out_hw = pool_output(x.shape[2:], window, strides, begin, end, ceil_mode=False)
        if not node.op_type.startswith("Global") and int(_attr(node, "ceil_mode", 0)):
            onnx_hw = pool_output(x.shape[2:], window, strides, begin, end, ceil_mode=True)
            if onnx_hw != out_hw:
                # NNFusion's importer ignores ceil_mode (seen in its log: 6x6, window 3,
                # stride 2 gives 2x2 there, 3x3 in ONNX)
                self.departures.append(
                    f"{origin} ({node.op_type} with ceil_mode=1): the model computes "
                    f"{'x'.join(map(str, onnx_hw))}, NNFusion ignores ceil_mode and computes "
                    f"{'x'.join(map(str, out_hw))}, so its result differs from the model "
                    "from this node on"
                    + (
                        "; the copy for NNFusion kernelscope writes from a build of the model "
                        "pads its input explicitly instead"
                        if op_type == "MaxPool"
                        else "; export the model without ceil_mode"
                    )
                )
        attrs: dict[str, object] = {
            "window": window,
            "strides": strides,
            "padding_below": begin,
            "padding_above": end,
        }
        if op_type == "AvgPool":
            attrs["include_padding"] = bool(int(_attr(node, "count_include_pad", 0)))
        return self.g.add(op_type, [x], [*x.shape[:2], *out_hw], x.dtype, origin, **attrs)

    def _pad(self, node: Any, origin: str) -> GNode:
        """A constant Pad: NNFusion's Pad of the data and the padding value (a scalar)."""
        x = self._in(node, 0)
        if _attr(node, "mode") is None:
            self.crashes.append(
                f"{origin}: a Pad without its mode attribute (ONNX's default is constant): "
                "NNFusion's importer crashes (segfault) on it; give mode='constant'"
            )
        if _text(_attr(node, "mode", "constant")) != "constant":
            raise _NotModelled(f"Pad of mode {_text(_attr(node, 'mode'))}")
        pads = _attr(node, "pads")
        if len(node.input) > 1 and node.input[1]:
            pads = self.consts.get(node.input[1])
            if pads is None:
                raise _NotModelled("Pad by computed sizes")
        if pads is None or len(node.input) > 3 and node.input[3]:
            raise _NotModelled("Pad of some axes")
        pads = [int(p) for p in list(pads)]
        rank = len(x.shape)
        shape = [d + pads[i] + pads[i + rank] for i, d in enumerate(x.shape)]
        if len(node.input) > 2 and node.input[2]:
            value = self._in(node, 2)
        else:
            value = self.g.add("Constant", [], [], x.dtype, origin)
        return self.g.add("Pad", [x, value], shape, x.dtype, origin)

    def _reshape(self, x: GNode, shape: list[int], origin: str) -> GNode:
        if list(shape) == list(x.shape):
            return x
        return self.g.add("Reshape", [x], shape, x.dtype, origin, transpose=False)

    def _reshape_op(self, node: Any, origin: str) -> GNode:
        x = self._in(node, 0)
        target = self.consts.get(node.input[1]) if len(node.input) > 1 else None
        if target is None:
            raise _NotModelled("Reshape to a computed shape")
        dims = [int(d) for d in target.reshape(-1)]
        dims = [x.shape[i] if d == 0 else d for i, d in enumerate(dims)]
        if -1 in dims:
            known = math.prod(d for d in dims if d != -1)
            dims[dims.index(-1)] = math.prod(x.shape) // max(known, 1)
        return self._reshape(x, dims, origin)

    def _broadcast(self, x: GNode, out: list[int], full: list[int], origin: str) -> GNode:
        """onnx_import's ``broadcast``: squeeze the size-1 axes, then Broadcast to ``out``."""
        if list(x.shape) == list(out):
            return x
        squeezed = [d for d in full if d != 1]
        y = self._reshape(x, squeezed, origin)
        return self.g.add("Broadcast", [y], out, x.dtype, origin)

    def _binary(self, op_type: str, a: GNode, b: GNode, origin: str) -> GNode:
        if a.shape != b.shape:
            rank = max(len(a.shape), len(b.shape))
            fa = [1] * (rank - len(a.shape)) + list(a.shape)
            fb = [1] * (rank - len(b.shape)) + list(b.shape)
            out = [max(x, y) for x, y in zip(fa, fb, strict=True)]
            a = self._broadcast(a, out, fa, origin)
            b = self._broadcast(b, out, fb, origin)
        return self.g.add(op_type, [a, b], a.shape, a.dtype, origin)

    def _dot(self, a: GNode, b: GNode, ta: bool, tb: bool, origin: str) -> GNode:
        m = a.shape[1] if ta else a.shape[0]
        n = b.shape[0] if tb else b.shape[1]
        return self.g.add("Dot", [a, b], [m, n], a.dtype, origin, transpose_A=ta, transpose_B=tb)

    def _gemm(self, node: Any, origin: str) -> GNode:
        a, b = self._in(node, 0), self._in(node, 1)
        if len(a.shape) != 2 or len(b.shape) != 2:
            raise _NotModelled("Gemm of operands that are not 2-D")
        alpha, beta = float(_attr(node, "alpha", 1.0)), float(_attr(node, "beta", 1.0))
        ta, tb = bool(int(_attr(node, "transA", 0))), bool(int(_attr(node, "transB", 0)))
        out = self._dot(a, b, ta, tb, origin)
        if abs(alpha - 1.0) > 1e-7:
            scale = self.g.add("Constant", [], out.shape, out.dtype, origin)
            out = self.g.add("Multiply", [out, scale], out.shape, out.dtype, origin)
        if beta != 0 and (len(node.input) < 3 or not node.input[2]):
            self.crashes.append(
                f"{origin}: a Gemm without C and beta={beta:g} (ONNX's default is 1): "
                "NNFusion's importer reads the missing C and crashes (segfault); give beta=0"
            )
        if beta != 0 and len(node.input) > 2 and node.input[2]:
            c = self._in(node, 2)
            if abs(beta - 1.0) > 1e-7:
                scale = self.g.add("Constant", [], c.shape, c.dtype, origin)
                c = self.g.add("Multiply", [c, scale], c.shape, c.dtype, origin)
            out = self._binary("Add", out, c, origin)
        return out


# --- NNFusion's passes ------------------------------------------------------------------


def _fold_constants(g: _Graph) -> None:
    """RuntimeConstantFoldingPass: nodes whose inputs are all constants become constants."""
    changed = True
    while changed:
        changed = False
        for n in g.nodes:
            if (
                n.op_type not in ("Constant", "Parameter", "Result")
                and n.inputs
                and all(i.constant for i in n.inputs)
            ):
                n.op_type, n.inputs, n.attrs = "Constant", [], {}
                changed = True


def _simplify_broadcasts(g: _Graph) -> None:
    """A Broadcast that only adds size-1 axes is a Reshape; Reshape of Reshape is one."""
    for n in g.nodes:
        if n.op_type == "Broadcast" and math.prod(n.shape) == math.prod(n.inputs[0].shape):
            n.op_type, n.attrs = "Reshape", {"transpose": False}
    for n in g.nodes:
        if n.op_type == "Reshape" and n.inputs and n.inputs[0].op_type == "Reshape":
            n.inputs = [n.inputs[0].inputs[0]]
    used = {id(i) for n in g.nodes for i in n.inputs}
    g.remove(n for n in g.nodes if n.op_type == "Reshape" and id(n) not in used)
    for n in list(g.nodes):
        if n.op_type == "Reshape" and n.inputs and n.shape == n.inputs[0].shape:
            g.replace_uses(n, n.inputs[0])
            g.remove([n])


def node_identifier(n: GNode) -> str:
    """KernelContext::generate_identifier for a node of this graph."""
    if n.op_type == "Matched_Pattern":
        return n.pattern_identifier
    if n.op_type == "Constant":
        _check_element_types(n, [n.tensor()])
        return f"Constant;{','.join(map(str, n.shape))}{C_TYPES[n.dtype]}"
    ins = [i.tensor() for i in n.inputs]
    out = [n.tensor()]
    _check_element_types(n, [*ins, *out])
    suffix = ""
    if n.op_type == "Convolution":
        suffix = conv_suffix(n.attrs["strides"], n.attrs["dilations"], n.attrs["padding_below"])
    elif n.op_type in ("AvgPool", "MaxPool"):
        a = n.attrs
        suffix = pool_suffix(a["window"], a["strides"], a["padding_below"], a["padding_above"])
    return identifier(n.op_type, ins, out, suffix)


def _check_element_types(n: GNode, tensors: list[TensorInfo]) -> None:
    """NNFusion's importer has no element type for some tensors (complex, strings): it
    cannot compile the model, so no identifier says what it would look up."""
    missing = sorted({t.dtype for t in tensors if t.dtype not in C_TYPES})
    if missing:
        raise KernelscopeError(
            f"{n.origin}: NNFusion has no element type for {', '.join(missing)} tensors, "
            "so it cannot compile this model",
            hint=f"NNFusion compiles tensors of {', '.join(C_TYPES)}",
        )


Fetch = Callable[[str, str], bool]  # (identifier, device type) -> the DB has a row for it


def _substitute_patterns(
    g: _Graph, has_row: Fetch, bias_fix: bool, lookups: list[tuple[str, str, GNode]],
    crashes: list[str],
) -> None:  # fmt: skip
    for pattern in PATTERNS:
        for start in [n for n in g.nodes if n.op_type == pattern[0]]:
            if start not in g.nodes:
                continue
            matched: list[GNode] = []
            tn: GNode | None = start
            for i, op in enumerate(pattern):
                outs = g.consumers(tn) if tn is not None else []
                if tn is None or tn.op_type != op or (i < len(pattern) - 1 and len(outs) != 1):
                    matched = []
                    break
                matched.append(tn)
                tn = outs[-1] if outs else None
            if not matched:
                continue
            ident = "".join(node_identifier(m) for m in matched)
            node = _pattern_node(g, matched, ident, pattern)
            lookups.append((ident, "CUDA", node))
            if not has_row(ident, "CUDA"):
                g.remove([node])
                continue
            add = next((m for m in matched if m.op_type == "Add"), None)
            if bias_fix and add is not None and not add.inputs[1].constant:
                crashes.append(
                    f"{start.origin}: the Add of this Convolution+Add+Relu reads "
                    f"{add.inputs[1].op_type} {add.inputs[1].origin!r}, not a constant; "
                    "-fbiasadd_fix=true makes NNFusion crash (segfault) on it"
                )
            g.replace_uses(matched[-1], node)
            g.remove(matched)


def _pattern_node(g: _Graph, matched: list[GNode], ident: str, pattern: tuple[str, ...]) -> GNode:
    inputs = list(matched[0].inputs)
    for m in matched:
        if m.op_type == "Add":
            inputs.append(m.inputs[1])
    last = matched[-1]
    node = g.add("Matched_Pattern", inputs, last.shape, last.dtype, matched[0].origin)
    node.parts = list(matched)
    node.pattern_identifier = ident
    node.attrs = {"pattern": PATTERN_OP_TYPES[pattern], **matched[0].attrs}
    return node


def _fusable(n: GNode) -> bool:
    if n.op_type in ELEMENTWISE:
        return True
    return (
        n.op_type == "Reshape"
        and not n.attrs.get("transpose")
        and math.prod(n.shape) == math.prod(n.inputs[0].shape)
    )


def _fuse_elementwise(g: _Graph) -> None:
    """KernelFusionPass at its default level 3 (ExtractFusionGroups, the Reshape pruning,
    SplitIndependentGroups, FuseElementGroupOnGraph) for a graph on one GPU."""
    remaining = {id(n): len(n.inputs) for n in g.nodes}
    visited: set[int] = set()
    ready = collections.deque(n for n in g.nodes if not n.inputs)
    elem_ready: collections.deque[GNode] = collections.deque()
    consumers = {id(n): g.consumers(n) for n in g.nodes}
    groups: list[list[list[GNode]]] = []
    cur_group: list[list[GNode]] | None = None
    cur_elem: list[GNode] | None = None
    cur_size = -1
    state = "ready"

    def append_elem() -> None:
        nonlocal cur_group, cur_elem
        if cur_elem:
            cur_group = cur_group if cur_group is not None else []
            cur_group.append(cur_elem)
        cur_elem = None

    while True:
        tn: GNode | None = None
        if state == "ready":
            if not ready:
                if not elem_ready:
                    break
                state = "fusable"
                continue
            tn = ready.popleft()
        elif state == "fusable":
            if elem_ready:
                state = "elem"
                continue
            if cur_group and sum(len(e) for e in cur_group) > 1:
                groups.append(cur_group)
            cur_group = None
            state = "ready"
            continue
        else:
            if not elem_ready:
                append_elem()
                state = "fusable"
                continue
            tn = elem_ready.popleft()
            size = math.prod(tn.shape)
            if cur_elem is not None and cur_size != size:
                append_elem()
            cur_elem = cur_elem if cur_elem is not None else []
            cur_elem.append(tn)
            cur_size = size
        visited.add(id(tn))
        for dst in consumers[id(tn)]:
            remaining[id(dst)] -= 1
            if id(dst) not in visited and remaining[id(dst)] <= 0:
                if _fusable(dst):
                    elem_ready.appendleft(dst)
                else:
                    ready.append(dst)

    for group in groups:
        for elem in group:
            kept = [n for n in elem if n.op_type in ELEMENTWISE]
            feeding = set()
            for n in kept:
                for i in n.inputs:
                    while i.op_type == "Reshape":
                        feeding.add(id(i))
                        i = i.inputs[0]
            members = [n for n in elem if n.op_type in ELEMENTWISE or id(n) in feeding]
            for part in _components(members):
                if len(part) > 1:
                    _fuse(g, part)


def _components(members: list[GNode]) -> list[list[GNode]]:
    """SplitIndependentGroups: join members connected by edges, in member order."""
    group_of: dict[int, list[GNode]] = {}
    for n in members:
        joined: list[GNode] | None = None
        for i in n.inputs:
            other = group_of.get(id(i))
            if other is None:
                continue
            if joined is None:
                joined = other
            elif other is not joined:
                joined.extend(other)
                for m in other:
                    group_of[id(m)] = joined
        joined = joined if joined is not None else []
        joined.append(n)
        group_of[id(n)] = joined
    seen: list[list[GNode]] = []
    for part in group_of.values():
        if not any(part is s for s in seen):
            seen.append(part)
    return seen


def _fuse(g: _Graph, part: list[GNode]) -> None:
    order = [n for n in g.nodes if any(n is p for p in part)]
    inside = {id(n) for n in order}
    inputs = [i for n in order for i in n.inputs if id(i) not in inside]
    outputs = [n for n in order if any(id(c) not in inside for c in g.consumers(n))]
    fused = g.add("ElementWiseFused", inputs, outputs[0].shape, outputs[0].dtype, order[0].origin)
    fused.parts = order
    fused.attrs = {"outputs": [o.tensor() for o in outputs]}
    for o in outputs:
        g.replace_uses(o, fused)
    g.remove(order)


def _fused_identifier(n: GNode) -> str:
    outs = n.attrs["outputs"]
    ins = [i.tensor() for i in n.inputs]
    _check_element_types(n, [*ins, *outs])
    return identifier("ElementWiseFused", ins, outs)


# --- the whole thing --------------------------------------------------------------------


def nnfusion_graph(
    model: str | Path | Any,
    has_row: Fetch | None = None,
    *,
    const_folding: bool = False,
    bias_fix: bool = False,
) -> NNFusionGraph:
    """NNFusion's graph of ``model`` (a path or an onnx.ModelProto) and its DB lookups.

    ``has_row(identifier, device_type)`` says whether the DB holds a row NNFusion accepts
    (pattern substitution only happens where it does); ``const_folding`` and ``bias_fix``
    mirror ``-fconst_folding_backend`` and ``-fbiasadd_fix``.
    """
    name = Path(model).name if isinstance(model, str | Path) else model.graph.name
    proto = load_onnx(Path(model)) if isinstance(model, str | Path) else model
    importer = _Importer(proto)
    outputs = importer.run()
    g = importer.g
    weights = weight_inputs(proto)
    unmodelled = importer.unmodelled
    broadcasts = sum(
        1 for n in g.nodes if n.op_type == "Broadcast" and _constant_source(n.inputs[0])
    )
    if const_folding:
        _fold_constants(g)
    _simplify_broadcasts(g)
    raw: list[tuple[str, str, GNode]] = []
    crashes: list[str] = list(importer.crashes)
    _substitute_patterns(g, has_row or (lambda i, d: False), bias_fix, raw, crashes)
    _fuse_elementwise(g)
    for n in g.nodes:
        if n.op_type in ("Constant", "Parameter", "Result") or n.attrs.get("unmodelled"):
            continue
        ident = _fused_identifier(n) if n.op_type == "ElementWiseFused" else node_identifier(n)
        raw.append((ident, "CUDA_GPU", n))
    # The second pattern pass (after kernel selection) asks again for what is left.
    second: list[tuple[str, str, GNode]] = []
    _substitute_patterns(g, lambda i, d: False, False, second, [])
    raw += second
    return NNFusionGraph(
        name, g.nodes, outputs, _merge(raw), unmodelled, weights, crashes, broadcasts,
        importer.departures,
    )  # fmt: skip


def _constant_source(n: GNode) -> bool:
    while n.op_type == "Reshape" and n.inputs:
        n = n.inputs[0]
    return n.constant


def _merge(raw: list[tuple[str, str, GNode]]) -> list[Lookup]:
    merged: dict[tuple[str, str], Lookup] = {}
    for ident, device, node in raw:
        key = (ident, device)
        if key in merged:
            seen = merged[key]
            seen.count += 1
            if node.origin not in seen.origins:
                seen.origins.append(node.origin)
            semantics = _semantics(node)
            if semantics != seen.attributes:
                differ = sorted(k for k in {**semantics, **seen.attributes}
                                if semantics.get(k) != seen.attributes.get(k))  # fmt: skip
                seen.conflicts.append(
                    f"{node.origin} differs from {seen.origins[0]} in {', '.join(differ)}"
                )
            continue
        op_type = node.attrs.get("pattern", node.op_type)
        merged[key] = Lookup(
            identifier=ident,
            device_type=device,
            op_type=op_type,
            count=1,
            origins=[node.origin],
            supported=op_type in SUPPORT_OP_LIST,
            attributes=_semantics(node),
        )
    return list(merged.values())


def _semantics(n: GNode) -> dict[str, Any]:
    """What a kernel for this node must compute (shapes and the attributes that matter)."""
    parts = n.parts or [n]
    first = parts[0]
    out: dict[str, Any] = {
        "input_shape": [list(i.shape) for i in n.inputs],
        "output_shape": [list(n.shape)],
        "dtype": n.dtype,
    }
    if first.op_type == "Convolution":
        out.update(
            {k: first.attrs[k] for k in ("strides", "dilations", "padding_below", "padding_above")}
        )
    elif first.op_type in ("AvgPool", "MaxPool"):
        out.update(first.attrs)
    elif first.op_type == "Dot":
        out.update({k: first.attrs[k] for k in ("transpose_A", "transpose_B")})
    if n.op_type == "Matched_Pattern":
        out["pattern"] = [p.op_type for p in parts]
        if len(n.inputs) > 2:
            out["add_operand"] = "constant" if n.inputs[2].constant else "tensor"
    return out
