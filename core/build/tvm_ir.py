"""Launch facts of every kernel, read from TVM's IR while ``tvm.compile`` runs.

A pass instrument keeps three snapshots of the module:

* before ``LegalizeOps``: Relax operator calls with their attributes and tensor types;
* after ``FuseOps``: which legalized PrimFuncs each fused function calls, in order;
* after ``tirx.SplitHostDevice``: each host PrimFunc launches its device kernels with
  ``T.call_ffi_kernel(name, *buffers, *extents, launch_params=[...])``; the host function's
  parameters carry the buffer shapes and dtypes.

After ``RewriteDataflowReshape`` (the module as the VM will run it) each Relax function's
``call_tir`` calls, the runtime builtins it calls, the sizes its ``call_tir`` calls give the
PrimFuncs' symbolic variables (how a grid is computed for ``--shape`` bindings), and the
PrimFuncs handed to the KV cache's creation builtin (``kv_cache_launches``) are read.

``LegalizeOps`` rewrites each binding ``v = R.op(...)`` into ``v = R.call_tir(prim, ...)``
keeping the bound variable's name, which is how a legalized PrimFunc is traced back to
the operator it came from.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ..workspace import OpInfo, TensorInfo
from . import cuda_graph, kv_cache_launches, tir_ops
from .provenance import Origin, Provenance

_SNAPSHOTS = {
    "before:LegalizeOps",
    "after:LegalizeOps",
    "after:FuseOps",
    "after:RewriteDataflowReshape",
    "after:tirx.SplitHostDevice",
    "after:RewriteCUDAGraph",
}


@dataclass
class Launch:
    kernel: str
    primfunc: str
    grid: list[int]  # -1 where an extent is symbolic (``extents``)
    block: list[int]
    dynamic_smem_bytes: int
    params: list[TensorInfo]
    extents: list[Any] = field(default_factory=list)  # the grid's TIR expressions, x y z


@dataclass
class IRFacts:
    launches: dict[str, Launch] = field(default_factory=dict)
    ops_by_primfunc: dict[str, list[OpInfo]] = field(default_factory=dict)
    called_primfuncs: set[str] | None = None  # None: not known
    # Relax function -> the PrimFuncs it calls, in program order (a PrimFunc TVM reuses for
    # several layers appears once per call)
    calls: dict[str, list[str]] = field(default_factory=dict)
    # Relax function -> the runtime builtins it calls, in program order
    builtins: dict[str, list[str]] = field(default_factory=dict)
    # (Relax function, PrimFunc) -> the PrimFunc's symbolic variables as the function's
    # first call of it sizes them (Relax-side TIR expressions), by variable name
    sizes: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    # the Relax functions creating a KV cache -> {PrimFunc: its role}, from the creation
    # builtin's arguments
    kv_cache: dict[str, dict[str, str]] = field(default_factory=dict)
    # the PrimFuncs of the module after the build's Relax passes (targets read from attrs)
    primfuncs: dict[str, Any] = field(default_factory=dict)
    # (Relax function, runtime builtin) -> the model line of its first call there
    builtin_origins: dict[tuple[str, str], Origin] = field(default_factory=dict)
    # after RewriteCUDAGraph (``build --cuda-graph``): Relax function -> its PrimFunc calls
    # in program order, each with the CUDA graph region it runs in (None: launched directly)
    graph_calls: dict[str, list[tuple[str, int | None]]] = field(default_factory=dict)


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


def extract(snapshots: dict[str, Any], provenance: Provenance | None = None) -> IRFacts:
    facts = IRFacts()
    split = snapshots.get("after:tirx.SplitHostDevice")
    if split is not None:
        facts.launches = _launches(split)
    final = snapshots.get("after:RewriteDataflowReshape")
    if final is not None:
        _relax_facts(final, facts)
    stages = [
        snapshots.get(k) for k in ("before:LegalizeOps", "after:LegalizeOps", "after:FuseOps")
    ]
    before, legalized, fused = stages
    if before is not None and legalized is not None and fused is not None:
        facts.ops_by_primfunc = _ops_by_primfunc(before, legalized, fused, provenance)
    if provenance is not None and before is not None:
        facts.builtin_origins = _builtin_origins(before, provenance)
    rewritten = snapshots.get("after:RewriteCUDAGraph")
    if rewritten is not None:
        facts.graph_calls = _graph_calls(rewritten)
    return facts


def _graph_calls(mod: Any) -> dict[str, list[tuple[str, int | None]]]:
    """Each Relax function's PrimFunc calls after RewriteCUDAGraph, in program order, with
    the index of the captured region (``vm.builtin.cuda_graph.run_or_capture``) each runs
    in; the regions' own lifted functions are left out. After CallTIRRewrite a PrimFunc call
    is a call of its GlobalVar."""
    functions = {gv.name_hint: f for gv, f in mod.functions.items()}
    prims = {n for n, f in functions.items() if type(f).__name__ == "PrimFunc"}

    def direct(func: Any) -> list[str]:
        return [
            str(b.value.op.name_hint)
            for b in _bindings(func)
            if type(b.value).__name__ == "Call"
            and type(b.value.op).__name__ == "GlobalVar"
            and b.value.op.name_hint in prims
        ]

    out: dict[str, list[tuple[str, int | None]]] = {}
    regions = {n for n in functions if "_cuda_graph_capture" in n}
    for name, func in functions.items():
        if type(func).__name__ != "Function" or name in regions or name == "cuda_graph_alloc":
            continue
        calls: list[tuple[str, int | None]] = []
        region = 0
        for b in _bindings(func):
            value = b.value
            if type(value).__name__ != "Call":
                continue
            if type(value.op).__name__ == "GlobalVar" and value.op.name_hint in prims:
                calls.append((str(value.op.name_hint), None))
            elif _captured_region(value) is not None:
                calls += [(p, region) for p in direct(functions[_captured_region(value)])]
                region += 1
        out[name] = calls
    return out


def _captured_region(value: Any) -> str | None:
    """The lifted function a ``run_or_capture`` call runs (its first argument's first
    field), else None."""
    if getattr(value.op, "name", None) != "relax.call_builtin_with_ctx" or not value.args:
        return None
    if str(getattr(value.args[0], "global_symbol", "")) != cuda_graph.RUN_OR_CAPTURE:
        return None
    fields = getattr(value.args[1], "fields", None) or []
    return str(fields[0].name_hint) if fields and hasattr(fields[0], "name_hint") else None


def _relax_facts(final: Any, facts: IRFacts) -> None:
    """What the Relax functions of the module as the VM runs it call."""
    facts.primfuncs = {
        gv.name_hint: f for gv, f in final.functions.items() if type(f).__name__ == "PrimFunc"
    }
    for gvar, func in final.functions.items():
        if type(func).__name__ != "Function":
            continue
        name = gvar.name_hint
        calls, builtins = facts.calls.setdefault(name, []), facts.builtins.setdefault(name, [])
        for b in _bindings(func):
            prim = _call_tir_prim(b.value)
            if prim:
                calls.append(prim)
                if (name, prim) not in facts.sizes and prim in facts.primfuncs:
                    facts.sizes[name, prim] = _call_sizes(b, facts.primfuncs[prim])
            builtin = _builtin(b.value)
            if builtin:
                builtins.append(builtin)
            if builtin == kv_cache_launches.CREATE:
                facts.kv_cache[name] = _kv_cache_roles(b.value)
    facts.called_primfuncs = {prim for calls in facts.calls.values() for prim in calls}


def _builtin(value: Any) -> str | None:
    """The runtime function a ``call_packed``-like call names (``vm.builtin...``)."""
    if type(value).__name__ != "Call" or not getattr(value, "args", None):
        return None
    op = getattr(value.op, "name", "")
    if op not in ("relax.call_dps_packed", "relax.call_pure_packed", "relax.call_packed"):
        return None
    symbol = getattr(value.args[0], "global_symbol", None)
    return str(symbol) if symbol is not None else None


def _kv_cache_roles(call: Any) -> dict[str, str]:
    """PrimFunc -> role, for the PrimFuncs the creation builtin is given (IR argument i+1 is
    the runtime's argument i: the first IR argument names the builtin)."""
    roles: dict[str, str] = {}
    for position, role in kv_cache_launches.ROLE_OF_ARG.items():
        if position + 1 < len(call.args):
            for gvar in _global_vars(call.args[position + 1]):
                roles.setdefault(gvar, role)
    return roles


def _global_vars(expr: Any) -> list[str]:
    if type(expr).__name__ == "GlobalVar":
        return [expr.name_hint]
    return [g for f in getattr(expr, "fields", None) or [] for g in _global_vars(f)]


def _call_sizes(binding: Any, prim: Any) -> dict[str, Any]:
    """The PrimFunc's symbolic variables, by name, as a ``call_tir`` sizes them: its buffers'
    dims against the Relax arguments' and result's shapes, then its scalar parameters against
    the call's ``tir_vars``."""
    call = binding.value
    args = call.args[1]
    tensors = list(getattr(args, "fields", None) or [args])
    result = binding.var.ty
    tensors += list(getattr(result, "fields", None) or [result])
    # a buffer parameter is a Var with a shape (TVM 0.27's tirx has no buffer_map)
    buffers = [p for p in prim.params if getattr(p, "shape", None) is not None]
    sizes: dict[str, Any] = {}
    for buf, tensor in zip(buffers, tensors, strict=False):
        shape = getattr(getattr(tensor, "ty", tensor), "shape", None)
        dims = getattr(shape, "values", None)
        if dims is None or len(dims) != len(buf.shape):
            continue
        for mine, theirs in zip(buf.shape, dims, strict=True):
            if type(mine).__name__ in ("Var", "SizeVar"):
                sizes.setdefault(str(mine.name), theirs)
    scalars = [p for p in prim.params if getattr(p, "shape", None) is None]
    tir_vars = getattr(call.args[2], "values", None) if len(call.args) > 2 else None
    for var, value in zip(scalars, tir_vars or [], strict=False):
        sizes.setdefault(str(var.name), value)
    return sizes


def evaluate(expr: Any, values: dict[str, int]) -> int | None:
    """A TIR integer expression's value with its variables (by name) set; None when one is
    not set or the expression is not arithmetic kernelscope reads."""
    kind = type(expr).__name__
    if kind == "IntImm" or isinstance(expr, int):
        return int(getattr(expr, "value", expr))
    if kind in ("Var", "SizeVar"):
        return values.get(str(expr.name))
    if kind == "Cast":
        return evaluate(expr.value, values)
    ops: dict[str, Callable[[int, int], int | None]] = {
        "Add": lambda a, b: a + b,
        "Sub": lambda a, b: a - b,
        "Mul": lambda a, b: a * b,
        "FloorDiv": lambda a, b: a // b if b else None,
        "FloorMod": lambda a, b: a % b if b else None,
        "Div": lambda a, b: int(a / b) if b else None,
        "Min": min,
        "Max": max,
    }
    if kind not in ops:
        return None
    a, b = evaluate(expr.a, values), evaluate(expr.b, values)
    return None if a is None or b is None else ops[kind](a, b)


def expression_text(expr: Any) -> str:
    """A TIR expression as people write it: ``(seq_len + 127) // 128``."""
    return re.sub(r"T\.u?int(?:8|16|32|64)\((-?\d+)\)", r"\1", str(expr))


def grid_for(
    launch: Launch, sizes: list[dict[str, Any]], symbols: dict[str, int]
) -> tuple[list[int], list[str]]:
    """A launch's grid for the --shape bindings ``symbols``: the first call site (``sizes``:
    its PrimFunc variables as Relax expressions) that gives every extent a value; 0 for an
    extent none does. Also the grid as written (``[]`` when it has no symbolic extent)."""
    if not any(g < 0 for g in launch.grid) or not launch.extents:
        return launch.grid, []
    written = [expression_text(e) for e in launch.extents]
    best = [g if g >= 0 else 0 for g in launch.grid]
    for site in sizes:
        values = {name: v for name, e in site.items() if (v := evaluate(e, symbols)) is not None}
        grid = [evaluate(e, values) for e in launch.extents]
        if all(g is not None for g in grid):
            return [int(g) for g in grid if g is not None], written
    return best, written


def builtins_in(mod: Any) -> set[str]:
    """The runtime builtins the Relax functions of ``mod`` call."""
    return {
        name
        for func in mod.functions.values()
        if type(func).__name__ == "Function"
        for b in _bindings(func)
        if (name := _builtin(b.value))
    }


def kv_cache_target(mod: Any) -> dict[str, Any]:
    """The target the KV cache's kernels in ``mod`` were made for: the ``target`` attribute of
    its PrimFuncs where one records it ({"kind", "arch"}); else {"kind": "gpu"} when its
    decode attention is bound to GPU threads, {"kind": "llvm"} when not (TIRPagedKVCache made
    for the CPU). {} without a KV cache."""
    for func in mod.functions.values():
        if type(func).__name__ != "Function":
            continue
        for b in _bindings(func):
            if _builtin(b.value) != kv_cache_launches.CREATE:
                continue
            roles = _kv_cache_roles(b.value)
            prims = [mod[name] for name in roles if name in {g.name_hint for g in mod.functions}]
            for prim in prims:
                target = prim.attrs.get("target") if prim.attrs is not None else None
                if target is not None:
                    found = {"kind": str(target.kind.name)}
                    if "arch" in target.attrs:
                        found["arch"] = str(target.attrs["arch"])
                    return found
            attention = [mod[n] for n, r in roles.items() if r == "attention_decode"]
            bound = any("threadIdx" in prim.script() for prim in attention or prims)
            return {"kind": "gpu" if bound else "llvm"}
    return {}


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
            grid_exprs: list[Any] = [1, 1, 1]
            for tag, ext in zip(launch_params, extents, strict=True):
                value = _int(ext)
                if tag.startswith("blockIdx."):
                    grid["xyz".index(tag[-1])] = value
                    grid_exprs["xyz".index(tag[-1])] = ext
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
                extents=grid_exprs,
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


def _ops_by_primfunc(
    before: Any, legalized: Any, fused: Any, provenance: Provenance | None = None
) -> dict[str, list[OpInfo]]:
    """Fused or plain PrimFunc name -> the Relax operators it computes, in order, each with
    the model line that emitted it (at the kernel's first call) where ``provenance`` knows it."""
    # bound variables are named uniquely within a function, not across a module's functions
    # a name may be bound more than once in a function (``lv``): every candidate is kept and
    # the legalized PrimFunc's buffers pick the one it was made from
    op_of_var: dict[tuple[str, str], list[Any]] = {}
    lines = _Lines()
    for gvar, func in before.functions.items():
        origins = provenance.resolve(func) if provenance is not None else {}
        first_bound: dict[str, Any] = {}  # a name -> the first variable bound with it
        for b in _bindings(func):
            op = getattr(getattr(b.value, "op", None), "name", None)
            key = (gvar.name_hint, _var_name(b.var))
            first_bound.setdefault(key[1], b.var)
            # calls of PrimFuncs and of runtime functions are never legalized into call_tir
            if op and not op.startswith("relax.call_") and type(b.value).__name__ == "Call":
                op_of_var.setdefault(key, []).append(b.value)
            elif not _call_tir_prim(b.value):
                continue
            if b.var in origins:
                lines.origin.setdefault(key, origins[b.var])
                if prim := _call_tir_prim(b.value):
                    lines.first.setdefault(prim, origins[b.var])
            for arg in _operands(b.value):
                first = (
                    first_bound.get(_var_name(arg)) if type(arg).__name__.endswith("Var") else None
                )
                if first is not None and first.same_as(arg):  # the name's first binding
                    lines.readers.setdefault((key[0], _var_name(arg)), []).append(key[1])
    prims = {gv.name_hint: f for gv, f in legalized.functions.items()}
    op_of_prim: dict[str, OpInfo] = {}
    for gvar, func in legalized.functions.items():
        for b in _bindings(func):
            prim = _call_tir_prim(b.value)
            key = (gvar.name_hint, _var_name(b.var))
            if prim:
                lines.prim.setdefault(key, prim)
            if not prim or prim in op_of_prim:
                continue
            for call in op_of_var.get(key, []):
                op = OpInfo(
                    op=call.op.name,
                    prim=prim,
                    inputs=[t for a in _operands(call) if (t := _tensor_info(a))],
                    output=_tensor_info(b.var),
                    attrs=_attrs(call),
                )
                if prim not in prims or tir_ops.agrees(op, prims[prim]):
                    op_of_prim[prim] = op
                    break

    def op_infos(function: str, binding: Any, prim: str) -> list[OpInfo]:
        origin = lines.of(function, binding, prim)
        where = {"origin": origin.where, "origin_text": origin.text} if origin else {}
        if prim in op_of_prim:
            return [replace(op_of_prim[prim], **where)]
        if prim in prims:  # not legalized from a Relax operator: what its TIR computes
            return [replace(o, **where) for o in tir_ops.ops_of(prim, prims[prim])]
        args = binding.value.args[1] if len(binding.value.args) > 1 else []
        inputs = [t for t in (_tensor_info(a) for a in getattr(args, "fields", [])) if t]
        return [
            OpInfo(op=prim, prim=prim, inputs=inputs, output=_tensor_info(binding.var), **where)
        ]

    fused_funcs = {
        gv.name_hint: f
        for gv, f in fused.functions.items()
        if type(f).__name__ == "Function" and f.attrs is not None and "Primitive" in f.attrs
    }
    result: dict[str, list[OpInfo]] = {}
    for gvar, func in fused.functions.items():
        if type(func).__name__ != "Function":
            continue
        for b in _bindings(func):
            prim = _call_tir_prim(b.value)
            callee = getattr(getattr(b.value, "op", None), "name_hint", None)
            if prim and prim not in result:
                result[prim] = op_infos(gvar.name_hint, b, prim)
            elif isinstance(callee, str) and callee in fused_funcs and callee not in result:
                inner = _bindings(fused_funcs[callee])
                result[callee] = [
                    op
                    for i in inner
                    if (p := _call_tir_prim(i.value))
                    for op in op_infos(gvar.name_hint, i, p)
                ]
    return result


@dataclass
class _Lines:
    """The model lines of a module's bindings before legalization, by (function, variable
    name), and how to find a fused function's bindings among them: FuseOps keeps the names
    of the bindings it moves into the fused function except the last one's (``gv``), which
    is the binding of the outer function that reads an earlier one and calls the same
    PrimFunc. Names repeat within a function (``lv``: a rewrite's new bindings), so the
    first binding of a name counts and the PrimFunc it calls must agree; else a PrimFunc
    called before legalization (FuseTransposeMatmul's) takes its first call's line."""

    origin: dict[tuple[str, str], Origin] = field(default_factory=dict)
    first: dict[str, Origin] = field(default_factory=dict)  # PrimFunc -> its first call's
    readers: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    prim: dict[tuple[str, str], str] = field(default_factory=dict)  # after legalization

    def of(self, function: str, binding: Any, prim: str) -> Origin | None:
        name = _var_name(binding.var)
        if self.prim.get((function, name)) == prim:
            return self.origin.get((function, name))
        for arg in _operands(binding.value):
            if type(arg).__name__ not in ("Var", "DataflowVar"):
                continue  # the PrimFunc called
            for reader in self.readers.get((function, _var_name(arg)), []):
                if self.prim.get((function, reader)) == prim:
                    return self.origin.get((function, reader))
        return self.first.get(prim)


def _builtin_origins(before: Any, provenance: Provenance) -> dict[tuple[str, str], Origin]:
    """Where the model calls each runtime builtin (the KV cache's attention), per function."""
    found: dict[tuple[str, str], Origin] = {}
    for gvar, func in before.functions.items():
        origins = provenance.resolve(func)
        for b in _bindings(func):
            if (builtin := _builtin(b.value)) and b.var in origins:
                found.setdefault((gvar.name_hint, builtin), origins[b.var])
    return found


def _call_tir_prim(value: Any) -> str | None:
    if type(value).__name__ != "Call" or getattr(value.op, "name", None) != "relax.call_tir":
        return None
    return str(value.args[0].name_hint)
