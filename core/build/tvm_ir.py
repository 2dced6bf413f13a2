"""Launch facts of every kernel, read from TVM's IR while ``tvm.compile`` runs.

A pass instrument keeps three snapshots of the module:

* before ``LegalizeOps``: Relax operator calls with their attributes and tensor types;
* after ``FuseOps``: which legalized PrimFuncs each fused function calls, in order;
* after ``tirx.SplitHostDevice``: each host PrimFunc launches its device kernels with
  ``T.call_ffi_kernel(name, *buffers, *extents, launch_params=[...])``; the host function's
  parameters carry the buffer shapes and dtypes.

``LegalizeOps`` rewrites each binding ``v = R.op(...)`` into ``v = R.call_tir(prim, ...)``
keeping the bound variable's name, which is how a legalized PrimFunc is traced back to
the operator it came from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..workspace import OpInfo, TensorInfo

_SNAPSHOTS = {
    "before:LegalizeOps",
    "after:LegalizeOps",
    "after:FuseOps",
    "after:RewriteDataflowReshape",
    "after:tirx.SplitHostDevice",
}


@dataclass
class Launch:
    kernel: str
    primfunc: str
    grid: list[int]
    block: list[int]
    dynamic_smem_bytes: int
    params: list[TensorInfo]


@dataclass
class IRFacts:
    launches: dict[str, Launch] = field(default_factory=dict)
    ops_by_primfunc: dict[str, list[OpInfo]] = field(default_factory=dict)
    called_primfuncs: set[str] | None = None  # None: not known
    # Relax function -> the PrimFuncs it calls, in program order (a PrimFunc TVM reuses for
    # several layers appears once per call)
    calls: dict[str, list[str]] = field(default_factory=dict)


def make_instrument(snapshots: dict[str, Any]) -> Any:
    """A pass instrument that stores the module at the points listed above."""
    import tvm

    @tvm.ir.instrument.pass_instrument
    class _Snapshots:
        def run_before_pass(self, mod: Any, info: Any) -> None:
            if f"before:{info.name}" in _SNAPSHOTS:
                snapshots[f"before:{info.name}"] = mod

        def run_after_pass(self, mod: Any, info: Any) -> None:
            if f"after:{info.name}" in _SNAPSHOTS:
                snapshots[f"after:{info.name}"] = mod

    return _Snapshots()


def extract(snapshots: dict[str, Any]) -> IRFacts:
    facts = IRFacts()
    split = snapshots.get("after:tirx.SplitHostDevice")
    if split is not None:
        facts.launches = _launches(split)
    final = snapshots.get("after:RewriteDataflowReshape")
    if final is not None:
        facts.calls = {
            gvar.name_hint: [prim for b in _bindings(func) if (prim := _call_tir_prim(b.value))]
            for gvar, func in final.functions.items()
            if type(func).__name__ == "Function"
        }
        facts.called_primfuncs = {prim for calls in facts.calls.values() for prim in calls}
    stages = [
        snapshots.get(k) for k in ("before:LegalizeOps", "after:LegalizeOps", "after:FuseOps")
    ]
    if all(stage is not None for stage in stages):
        facts.ops_by_primfunc = _ops_by_primfunc(*stages)
    return facts


# --- TIR side -------------------------------------------------------------------------


def _calls(node: Any) -> list[Any]:
    """Every tirx Call reachable through statement bodies (host functions are shallow)."""
    found: list[Any] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if n is None:
            continue
        if type(n).__name__ == "Call":
            found.append(n)
            continue
        for attr in ("seq", "body", "then_case", "else_case", "value", "block"):
            child = getattr(n, attr, None)
            if child is None:
                continue
            if attr == "seq":
                stack.extend(reversed(list(child)))
            else:
                stack.append(child)
    return found


def _int(expr: Any) -> int:
    value = getattr(expr, "value", expr)
    return int(value) if isinstance(value, int) else -1


def _dims(expr: Any) -> list[int | str]:
    return [_int(d) if _int(d) >= 0 else str(d) for d in expr]


def _launches(mod: Any) -> dict[str, Launch]:
    launches: dict[str, Launch] = {}
    for gvar, func in mod.functions.items():
        if type(func).__name__ != "PrimFunc" or func.attrs is None:
            continue
        if "tirx.is_global_func" in func.attrs:
            continue  # a device kernel itself
        params = {p.name: p for p in func.params}
        for call in _calls(func.body):
            if getattr(call.op, "name", "") != "tirx.call_ffi_kernel":
                continue
            kernel = str(call.args[0].value)
            launch_params = [str(p) for p in call.attrs.launch_params]
            n_ext = len(launch_params)
            buffers, extents = call.args[1 : len(call.args) - n_ext], call.args[-n_ext:]
            grid, block, smem = [1, 1, 1], [1, 1, 1], 0
            for tag, ext in zip(launch_params, extents, strict=True):
                value = _int(ext)
                if tag.startswith("blockIdx."):
                    grid["xyz".index(tag[-1])] = value
                elif tag.startswith("threadIdx."):
                    block["xyz".index(tag[-1])] = value
                elif "dyn_shared" in tag:
                    smem = value
            launches[kernel] = Launch(
                kernel=kernel,
                primfunc=gvar.name_hint,
                grid=grid,
                block=block,
                dynamic_smem_bytes=smem,
                params=[_buffer_info(arg, params) for arg in buffers],
            )
    return launches


def _buffer_info(arg: Any, host_params: dict[str, Any]) -> TensorInfo:
    var = arg.args[0] if type(arg).__name__ == "Call" and arg.args else arg
    name = getattr(var, "name", str(var))
    source = host_params.get(name, var)
    shape = _dims(getattr(source, "shape", []) or [])
    return TensorInfo(shape=shape, dtype=str(getattr(source, "dtype", "")), name=name)


# --- Relax side -----------------------------------------------------------------------


def _bindings(func: Any) -> list[Any]:
    body = getattr(func, "body", None)
    return [b for block in getattr(body, "blocks", []) for b in block.bindings]


def _var_name(var: Any) -> str:
    return str(getattr(var, "name_hint", None) or var.name)


def _tensor_info(expr: Any) -> TensorInfo | None:
    ty = getattr(expr, "struct_info", None) or getattr(expr, "ty", None)
    shape = getattr(ty, "shape", None)
    if ty is None or shape is None:
        return None
    values = getattr(shape, "values", shape)
    try:
        return TensorInfo(shape=_dims(values), dtype=str(ty.dtype))
    except (TypeError, AttributeError):
        return None


def _jsonable(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if hasattr(value, "value") and isinstance(value.value, int | float | str):
        return value.value
    if hasattr(value, "items"):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if hasattr(value, "__iter__") and not hasattr(value, "keys"):
        return [_jsonable(v) for v in value]
    return str(value)


def _attrs(call: Any) -> dict[str, Any]:
    attrs = getattr(call, "attrs", None)
    if attrs is None:
        return {}
    if hasattr(attrs, "keys"):
        return {str(k): _jsonable(attrs[k]) for k in attrs.keys()}  # noqa: SIM118 (an FFI map)
    fields = {}
    for name in dir(attrs):
        if name.startswith("_") or name == "id_":
            continue
        value = getattr(attrs, name, None)
        if not callable(value):
            fields[name] = _jsonable(value)
    return fields


def _operands(call: Any) -> list[Any]:
    """A call's arguments, with a tuple argument (einsum's, concat's operands) spread out."""
    return [f for a in call.args for f in (getattr(a, "fields", None) or [a])]


def _ops_by_primfunc(before: Any, legalized: Any, fused: Any) -> dict[str, list[OpInfo]]:
    """Fused or plain PrimFunc name -> the Relax operators it computes, in order."""
    op_of_var: dict[str, Any] = {}
    for func in before.functions.values():
        for b in _bindings(func):
            op = getattr(getattr(b.value, "op", None), "name", None)
            if op and op != "relax.call_tir" and type(b.value).__name__ == "Call":
                op_of_var[_var_name(b.var)] = b.value
    op_of_prim: dict[str, OpInfo] = {}
    for func in legalized.functions.values():
        for b in _bindings(func):
            prim = _call_tir_prim(b.value)
            call = op_of_var.get(_var_name(b.var))
            if prim and call is not None and prim not in op_of_prim:
                op_of_prim[prim] = OpInfo(
                    op=call.op.name,
                    prim=prim,
                    inputs=[t for a in _operands(call) if (t := _tensor_info(a))],
                    output=_tensor_info(b.var),
                    attrs=_attrs(call),
                )

    def op_info(binding: Any, prim: str) -> OpInfo:
        if prim in op_of_prim:
            return op_of_prim[prim]
        # Not traced back to a Relax operator (a PrimFunc the model itself contained).
        args = binding.value.args[1] if len(binding.value.args) > 1 else []
        inputs = [t for t in (_tensor_info(a) for a in getattr(args, "fields", [])) if t]
        return OpInfo(op=prim, prim=prim, inputs=inputs, output=_tensor_info(binding.var))

    fused_funcs = {
        gv.name_hint: f
        for gv, f in fused.functions.items()
        if type(f).__name__ == "Function" and f.attrs is not None and "Primitive" in f.attrs
    }
    result: dict[str, list[OpInfo]] = {}
    for func in fused.functions.values():
        if type(func).__name__ != "Function":
            continue
        for b in _bindings(func):
            prim = _call_tir_prim(b.value)
            callee = getattr(getattr(b.value, "op", None), "name_hint", None)
            if prim:
                result.setdefault(prim, [op_info(b, prim)])
            elif callee in fused_funcs:
                inner = _bindings(fused_funcs[callee])
                ops = [op_info(i, p) for i in inner if (p := _call_tir_prim(i.value))]
                result.setdefault(callee, ops)
    return result


def _call_tir_prim(value: Any) -> str | None:
    if type(value).__name__ != "Call" or getattr(value.op, "name", None) != "relax.call_tir":
        return None
    return str(value.args[0].name_hint)
