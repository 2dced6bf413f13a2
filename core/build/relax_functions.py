"""The Relax functions of a module as kernelscope records them: their parameters (tensors,
packed tuples of any nesting, objects, shapes, primitive values), their symbolic variables,
the weights they take flattened to named tensors, and ``--shape`` bound to those variables.

Reads TVM objects (a Relax ``IRModule``); called where TVM is imported (the build child).
"""

from __future__ import annotations

from typing import Any

from ..errors import KernelscopeError
from ..workspace import FunctionInfo, ParamInfo, TensorInfo


def _dim(d: Any) -> int | str:
    value = getattr(d, "value", d)
    return int(value) if isinstance(value, int) else str(d)


def param_info(name: str, ty: Any) -> ParamInfo:
    """A parameter's ``ParamInfo`` from its Relax type (``Var.ty``)."""
    kind = type(ty).__name__
    if "Tensor" in kind:
        shape = getattr(ty, "shape", None)
        values = getattr(shape, "values", None) or []
        return ParamInfo(name, "tensor", [_dim(d) for d in values], str(ty.dtype))
    if "Tuple" in kind:
        fields = [param_info(f"{name}.{i}", f) for i, f in enumerate(ty.fields)]
        return ParamInfo(name, "tuple", fields=fields)
    if "Shape" in kind:
        return ParamInfo(name, "shape", [_dim(d) for d in (getattr(ty, "values", None) or [])])
    if "Prim" in kind:
        return ParamInfo(name, "prim", dtype=str(getattr(ty, "dtype", "")))
    return ParamInfo(name, "object")


def is_entry_function(func: Any) -> bool:
    """A Relax function a user calls (not a fused primitive FuseOps made)."""
    return type(func).__name__ == "Function" and (
        func.attrs is None or "Primitive" not in func.attrs
    )


def signatures(mod: Any) -> list[FunctionInfo]:
    """Every callable Relax function of ``mod``, in the module's order, with its parameters
    and symbols (``calls`` and ``builtins`` empty: the build fills them from its own IR)."""
    infos = []
    for gvar, func in mod.functions.items():
        if not is_entry_function(func):
            continue
        params = [param_info(str(p.name), p.ty) for p in func.params]
        attrs = func.attrs or {}
        num_input = int(attrs["num_input"]) if "num_input" in attrs else len(params)
        infos.append(FunctionInfo(gvar.name_hint, params, num_input, [], [], symbols_of(params)))
    return infos


def symbols_of(params: list[ParamInfo]) -> list[str]:
    """The symbolic variables of ``params``' shapes, in order of first appearance."""
    found: list[str] = []
    for p in params:
        for d in p.shape:
            if isinstance(d, str) and d.isidentifier() and d not in found:
                found.append(d)
        found += [s for s in symbols_of(p.fields) if s not in found]
    return found


def flat_tensors(params: list[ParamInfo]) -> list[ParamInfo]:
    """The tensors of ``params``, tuples opened (``packed_params.0``...), in order."""
    return [t for p in params for t in ([p] if p.kind != "tuple" else flat_tensors(p.fields))]


def weights_of(func: FunctionInfo) -> list[ParamInfo]:
    """A function's weight parameters, flattened; raises for one no value can be made for."""
    weights = []
    for p in func.params[func.num_input :]:
        for t in [p] if p.kind != "tuple" else flat_tensors(p.fields):
            if t.kind != "tensor" and t.kind != "tuple":
                raise KernelscopeError(
                    f"{func.name}: its weight {t.name!r} is {_kind_text(t)}, not a tensor; "
                    "kernelscope makes values only for tensor weights",
                    hint="give the function a num_input that counts it among the inputs, or "
                    "make it a tensor",
                )
            weights.append(t)
    return weights


def _kind_text(p: ParamInfo) -> str:
    return {"object": "an object", "shape": "a shape", "prim": "a primitive value"}[p.kind]


def tensor_info(p: ParamInfo, symbols: dict[str, int] | None = None) -> TensorInfo:
    """A tensor parameter as a ``TensorInfo``, its bound symbols replaced by their values."""
    bound = symbols or {}
    return TensorInfo(
        [bound.get(d, d) if isinstance(d, str) else d for d in p.shape], p.dtype, p.name
    )


def bind_shapes(functions: list[FunctionInfo], shapes: dict[str, list[int]]) -> dict[str, int]:
    """``--shape`` of a Python model as symbol bindings: ``NAME=N`` binds the symbolic
    variable NAME; ``INPUT=D0,D1,...`` binds an input's shape, and with it the variables of
    its dims. Anything else is an error naming the functions and their variables."""
    variables = {s for f in functions for s in f.symbols}
    inputs = {p.name: p for f in functions for p in f.params[: f.num_input] if p.kind == "tensor"}
    bound: dict[str, int] = {}
    for name, dims in shapes.items():
        if name in variables:
            if len(dims) != 1:
                raise KernelscopeError(
                    f"--shape {name}={','.join(map(str, dims))}: {name} is a symbolic variable; "
                    "give it one value",
                    hint=f"e.g. --shape {name}={dims[0]}",
                )
            _bind(bound, name, dims[0], name)
        elif name in inputs:
            _bind_input(bound, inputs[name], dims)
        else:
            raise KernelscopeError(
                f"--shape {name}=...: the model has no symbolic variable or input called {name!r}",
                hint="its functions and their variables: "
                + "; ".join(f"{f.name} ({', '.join(f.symbols) or 'none'})" for f in functions),
            )
    return bound


def _bind(bound: dict[str, int], name: str, value: int, given: str) -> None:
    if value < 1:
        raise KernelscopeError(f"--shape {given}: {name} must be at least 1 (got {value})")
    if bound.get(name, value) != value:
        raise KernelscopeError(
            f"--shape {given}: {name} is bound to both {bound[name]} and {value}",
        )
    bound[name] = value


def _bind_input(bound: dict[str, int], param: ParamInfo, dims: list[int]) -> None:
    given = f"{param.name}={','.join(map(str, dims))}"
    if len(dims) != len(param.shape):
        raise KernelscopeError(
            f"--shape {given}: input {param.name!r} has {len(param.shape)} dims {param.shape}",
        )
    for want, got in zip(param.shape, dims, strict=True):
        if isinstance(want, int) and want != got:
            raise KernelscopeError(
                f"--shape {given}: input {param.name!r} is {param.shape}; only its symbolic "
                "dims can be chosen",
            )
        if isinstance(want, str):
            if not want.isidentifier():
                raise KernelscopeError(
                    f"--shape {given}: dim {want!r} of {param.name!r} is an expression; bind "
                    "its variables instead (--shape NAME=N)",
                )
            _bind(bound, want, got, given)
