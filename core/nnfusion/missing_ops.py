"""Single-operator models for the kernels NNFusion looks up and a DB lacks.

Each lookup NNFusion may take from its cache (a ``SupportOpList`` type) becomes one Relax
operator with exactly the semantics of NNFusion's node, so that TVM builds one kernel whose
kernelscope identifier is the lookup's:

* ``Convolution`` -> ``conv2d`` without bias; the Convolution+Add+Relu pattern ->
  ``relu(conv2d + bias[1,C,1,1])`` (TVM fuses it into one kernel reading a per-channel bias,
  which ``-fbiasadd_fix`` serves); Convolution+Relu -> ``relu(conv2d)``;
* ``Dot`` -> ``matmul`` of the stored operands, or an ``einsum`` that reads the transposed
  operand as stored (a Gemm with transB=1 is ``einsum("mk,nk->mn")``, never a transpose
  kernel followed by a matmul);
* a global ``AvgPool`` (window = the whole plane, stride 1, no padding) -> ``mean`` over H and
  W; other ``AvgPool``/``MaxPool`` -> the pool with the same window, stride and padding;
* a single element-wise operator -> the Relax operator of the same name.

The model is written as a Python file (``module_source``) that kernelscope's build reads like
any Relax model: it defines ``mod`` with ``build_module``. All operands are inputs; there are
no weights, since only the kernels are wanted.
"""

from __future__ import annotations

from typing import Any

from .identifier import ELEMENTWISE

# NNFusion element-wise name -> Relax operator (the inverse of the exporter's table).
_RELAX_ELEMENTWISE = {nnf: relax for relax, nnf in ELEMENTWISE.items()}


def spec_for(op_type: str, attributes: dict[str, Any]) -> tuple[dict[str, Any] | None, str]:
    """The operator to build for a lookup (its Lookup.op_type and .attributes), or why none."""
    if attributes.get("dtype", "float32") != "float32":
        return None, f"{attributes.get('dtype')} kernels are not built (float32 only)"
    ins = attributes.get("input_shape", [])
    out = attributes.get("output_shape", [[]])[0]
    if op_type in ("Convolution", "Fused_Convolution_Relu", "Fused_Convolution_Add_Relu"):
        if attributes.get("padding_below") != attributes.get("padding_above"):
            return None, "asymmetric padding"
        spec = {
            "kind": "conv",
            "x": ins[0],
            "w": ins[1],
            "strides": attributes["strides"],
            "dilations": attributes["dilations"],
            "padding": attributes["padding_below"],
            "bias": op_type == "Fused_Convolution_Add_Relu",
            "relu": op_type != "Convolution",
        }
        if spec["bias"] and attributes.get("add_operand") != "constant":
            return None, (
                "the Add reads a tensor computed by the model, not a bias: a kernel for it "
                "would share its identifier with Convolution+bias+Relu kernels"
            )
        return spec, ""
    if op_type == "Dot":
        return {
            "kind": "dot",
            "a": ins[0],
            "b": ins[1],
            "transpose_A": bool(attributes.get("transpose_A")),
            "transpose_B": bool(attributes.get("transpose_B")),
        }, ""
    if op_type in ("AvgPool", "MaxPool"):
        x = ins[0]
        window, strides = attributes["window"], attributes["strides"]
        below, above = attributes["padding_below"], attributes["padding_above"]
        if op_type == "AvgPool":
            if list(window) == list(x[2:]) and list(strides) == [1, 1] and not any(below + above):
                return {"kind": "mean_hw", "x": x}, ""
            if any(below + above):
                return None, (
                    "padded AvgPool: NNFusion's identifier does not say whether the padding "
                    "counts in the average"
                )
        return {
            "kind": "max_pool" if op_type == "MaxPool" else "avg_pool",
            "x": x,
            "window": window,
            "strides": strides,
            "padding": [*below, *above],
        }, ""
    if op_type in _RELAX_ELEMENTWISE:
        if any(list(s) != list(out) for s in ins):
            return None, "operands of different shapes"
        return {"kind": "elementwise", "op": _RELAX_ELEMENTWISE[op_type], "inputs": ins}, ""
    return None, f"kernelscope does not build {op_type} kernels"


def module_source(specs: list[dict[str, Any]], title: str) -> str:
    """A Python file defining ``mod``: one output per spec (kernelscope builds it)."""
    return (
        f'"""{title}\n\nWritten by kernelscope nnfusion-coverage --build-missing: one operator '
        'per kernel, with NNFusion\'s semantics."""\n\n'
        "from kernelscope.core.nnfusion.missing_ops import build_module\n\n"
        "SPECS = [\n" + "".join(f"    {s!r},\n" for s in specs) + "]\n\n"
        "mod = build_module(SPECS)\n"
    )


def build_module(specs: list[dict[str, Any]]) -> Any:
    """The Relax IRModule of ``specs`` (needs TVM)."""
    from tvm import relax

    bb = relax.BlockBuilder()
    params: list[Any] = []

    def arg(shape: list[int]) -> Any:
        var = relax.Var(f"p{len(params)}", relax.TensorType(list(shape), "float32"))
        params.append(var)
        return var

    def op(name: str) -> Any:
        target: Any = relax.op
        for part in name.split(".")[1:]:
            target = getattr(target, part)
        return target

    exprs: list[Any] = []
    for s in specs:
        kind = s["kind"]
        if kind == "conv":
            p = s["padding"]
            y = relax.op.nn.conv2d(
                arg(s["x"]), arg(s["w"]), strides=s["strides"], padding=[*p, *p],
                dilation=s["dilations"],
            )  # fmt: skip
            if s["bias"]:
                y = relax.op.add(y, arg([1, s["w"][0], 1, 1]))
            exprs.append(relax.op.nn.relu(y) if s["relu"] else y)
        elif kind == "dot":
            a, b = arg(s["a"]), arg(s["b"])
            if not (s["transpose_A"] or s["transpose_B"]):
                exprs.append(relax.op.matmul(a, b))
            else:
                lhs = "km" if s["transpose_A"] else "mk"
                rhs = "nk" if s["transpose_B"] else "kn"
                exprs.append(relax.op.einsum([a, b], f"{lhs},{rhs}->mn"))
        elif kind == "mean_hw":
            exprs.append(relax.op.mean(arg(s["x"]), axis=[2, 3], keepdims=True))
        elif kind in ("max_pool", "avg_pool"):
            pool = relax.op.nn.max_pool2d if kind == "max_pool" else relax.op.nn.avg_pool2d
            exprs.append(
                pool(arg(s["x"]), pool_size=s["window"], strides=s["strides"], padding=s["padding"])
            )
        elif kind == "elementwise":
            exprs.append(op(s["op"])(*[arg(shape) for shape in s["inputs"]]))
        else:
            raise ValueError(f"unknown operator kind {kind!r}")
    with bb.function("main", params):
        with bb.dataflow():
            outs = [bb.emit(e) for e in exprs]
            result = bb.emit_output(relax.Tuple(outs) if len(outs) > 1 else outs[0])
        bb.emit_func_output(result)
    return bb.get()
