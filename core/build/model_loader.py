"""Loading a model into a Relax IRModule with its weights as runtime parameters.

Formats: ONNX (initializers, external data files, or weights that are graph inputs) and a
Python file that defines a Relax ``IRModule`` at module level (for example the result of
``nn.Module.export_tvm``; every Relax function of it is built: an MLC-style LLM's embed,
prefill, decode and KV cache creation). Weights stay runtime parameters of the functions
(``num_input`` tells inputs from weights; packed tuples of weights are flattened to
``packed_params.0``...), so a build never bakes megabytes of constants into the kernels and
the same build serves any weight values. ``--shape`` binds a Python model's symbolic
variables (``seq_len=128``) without specialising its kernels: they stay symbolic, and the
bindings give launch grids and inputs their sizes.
"""

from __future__ import annotations

import runpy
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import KernelscopeError
from ..workspace import FunctionInfo, TensorInfo
from . import relax_functions
from .provenance import Provenance, recording

if TYPE_CHECKING:  # numpy loads in the build (child), not with the package
    import numpy as np

PARAMS_MODES = ("random", "runtime")


@dataclass
class LoadedModel:
    mod: Any  # tvm.IRModule
    entry: str
    format: str
    inputs: list[TensorInfo]  # runtime inputs, in call order
    weights: list[TensorInfo]  # parameters after the inputs, in call order
    weight_values: dict[str, np.ndarray]  # name -> value for every weight that has one
    params_mode: str  # "model" | "random" | "runtime" | "none"
    notes: list[str] = field(default_factory=list)
    functions: list[FunctionInfo] = field(default_factory=list)  # calls/builtins not yet known
    symbols: dict[str, int] = field(default_factory=dict)  # --shape bindings of variables
    weights_on_host: bool = False  # too big to carry: the GPU host makes them (seeded)
    # A Python model's lines that emitted its Relax bindings (None for ONNX)
    provenance: Provenance | None = None


def parse_shapes(items: list[str]) -> dict[str, list[int]]:
    """``["x=1,3,224,224", "seq_len=128"]`` (from --shape or the Build dialog) -> {name:
    dims}: an input's shape, or (Python models) the value of a symbolic variable."""
    shapes: dict[str, list[int]] = {}
    for item in items:
        name, sep, dims = (part.strip() for part in item.partition("="))
        try:
            if not sep or not name:
                raise ValueError
            shapes[name] = [int(d) for d in dims.split(",")]
        except ValueError:
            raise KernelscopeError(
                f"shape {item.strip()!r}: expected NAME=D0,D1,... e.g. input=1,3,224,224"
            ) from None
    return shapes


def model_format(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix == ".onnx":
        return "onnx"
    if suffix == ".py":
        return "relax-py"
    raise KernelscopeError(
        f"{path.name}: not a model kernelscope can read (expected .onnx or a .py file "
        "defining a Relax IRModule)",
    )


def load_model(
    path: Path,
    shapes: dict[str, list[int]] | None = None,
    params: str = "random",
    seed: int = 0,
) -> LoadedModel:
    if not path.is_file():
        raise KernelscopeError(f"{path}: no such file")
    if params not in PARAMS_MODES:
        raise KernelscopeError(f"--params must be one of {', '.join(PARAMS_MODES)}")
    fmt = model_format(path)
    if fmt == "onnx":
        model = _load_onnx(path, shapes or {}, params, seed)
    else:
        model = _load_relax_py(path, shapes or {}, params, seed)
    return model


# --- ONNX -----------------------------------------------------------------------------


def weight_name(onnx_name: str) -> str:
    """The name TVM's Relax ONNX frontend gives a weight, which the manifest's weights and
    ``params.npz`` use: kernelscope builds with ``keep_params_in_input=True`` and every weight
    an initializer (weights that were graph inputs get their values first), and TVM names an
    initializer's parameter after it without PyTorch's ``onnx::`` prefix (``onnx::Conv_497``
    -> ``Conv_497``; ``_parse_graph_initializers`` in tvm/relax/frontend/onnx/onnx_frontend.py).
    """
    return onnx_name.removeprefix("onnx::")


def load_onnx(path: Path) -> Any:
    """The ``onnx.ModelProto`` of ``path`` with its external data files read: the one way
    kernelscope reads an ONNX file (building, NNFusion's graph, the model written for NNFusion),
    so a missing file, a missing ``.data`` file or a file that is not ONNX read the same."""
    import onnx
    from onnx import external_data_helper

    if not path.is_file():
        raise KernelscopeError(f"{path}: no such file")
    try:
        proto = onnx.load(str(path), load_external_data=False)
    except Exception as exc:  # onnx raises DecodeError and friends
        raise KernelscopeError(f"{path.name}: not a readable ONNX model ({exc})") from exc
    # Looked for before reading: onnx reports a missing data file as a ValidationError
    # worded like any other, or as FileNotFoundError, depending on its version.
    for init in proto.graph.initializer:
        if external_data_helper.uses_external_data(init):
            location = external_data_helper.ExternalDataInfo(init).location
            if not (path.parent / location).is_file():
                raise KernelscopeError(
                    f"{path.name}: an external data file of this model is missing: {location}",
                    hint="keep the model's .data files next to the .onnx file",
                )
    try:
        external_data_helper.load_external_data_for_model(proto, str(path.parent))
    except Exception as exc:
        raise KernelscopeError(f"{path.name}: not a readable ONNX model ({exc})") from exc
    return proto


def _onnx_dims(value_info: Any) -> list[int | str]:
    dims: list[int | str] = []
    for d in value_info.type.tensor_type.shape.dim:
        if d.HasField("dim_value") and d.dim_value > 0:
            dims.append(int(d.dim_value))
        else:
            dims.append(d.dim_param or "?")
    return dims


def _load_onnx(path: Path, shapes: dict[str, list[int]], params: str, seed: int) -> LoadedModel:
    import numpy as np
    from onnx import helper, numpy_helper

    model = load_onnx(path)
    graph = model.graph
    initialized = {init.name for init in graph.initializer}
    graph_inputs = [i for i in graph.input if i.name not in initialized]
    if not graph_inputs and not graph.node:
        raise KernelscopeError(f"{path.name}: the ONNX graph is empty")
    notes: list[str] = []
    # Exporters that leave weights out (export_params=False) make them graph inputs after
    # the real inputs. The first graph input is the model's input; the others are weights.
    data_inputs = graph_inputs[:1]
    weight_inputs = graph_inputs[1:]
    for name in shapes:
        if name not in {i.name for i in graph_inputs}:
            raise KernelscopeError(
                f"--shape {name}=...: the model has no input called {name!r}",
                hint="its inputs are: " + ", ".join(i.name for i in data_inputs),
            )

    shape_dict: dict[str, list[int]] = {}
    for vi in data_inputs:
        dims = shapes.get(vi.name) or _onnx_dims(vi)
        if any(not isinstance(d, int) for d in dims):
            raise KernelscopeError(
                f"input {vi.name!r} has a dynamic shape {dims}; kernels are built for fixed sizes",
                hint=f"give its size, e.g. --shape {vi.name}="
                + ",".join(str(d) if isinstance(d, int) else "1" for d in dims),
                window_hint="give its size under Input shapes in Build & Profile, e.g. "
                f"{vi.name}=" + ",".join(str(d) if isinstance(d, int) else "1" for d in dims),
            )
        shape_dict[vi.name] = [int(d) for d in dims]

    if weight_inputs and params == "random":
        rng = np.random.default_rng(seed)
        for vi in weight_inputs:
            dims = _onnx_dims(vi)
            if any(not isinstance(d, int) for d in dims):
                raise KernelscopeError(f"weight {vi.name!r} has a dynamic shape {dims}")
            dtype = helper.tensor_dtype_to_np_dtype(vi.type.tensor_type.elem_type)
            value = (rng.standard_normal(dims) * 0.05).astype(dtype)
            graph.initializer.append(numpy_helper.from_array(value, vi.name))
        for vi in weight_inputs:
            graph.input.remove(vi)
        notes.append(
            f"{len(weight_inputs)} weights were graph inputs without values; they were given "
            f"seeded random values (seed {seed}), stored in params.npz"
        )
    elif weight_inputs:
        for vi in weight_inputs:
            shape_dict[vi.name] = [int(d) for d in _onnx_dims(vi) if isinstance(d, int)]
        notes.append(
            f"{len(weight_inputs)} weights have no values in the model; they stay runtime "
            "inputs that profiling must be given (an .npz with their names)"
        )
        data_inputs = graph_inputs

    mod = _from_onnx(model, shape_dict, path.name)

    from tvm import relax

    mod, detached = relax.frontend.detach_params(mod)
    entry = "main"
    func = mod[entry]
    num_input = int(func.attrs["num_input"]) if "num_input" in func.attrs else len(func.params)
    values = [np.asarray(v.numpy()) for v in detached.get(entry, [])]
    mode = ("random" if params == "random" else "runtime") if weight_inputs else "model"
    loaded = _loaded(mod, entry, "onnx", num_input, values, notes, mode)
    if mode == "runtime":  # the weights are among the inputs now, and have no values
        loaded.params_mode = "runtime"
    # TVM renames inputs whose names are not identifiers (fc1.weight -> fc1_weight); users
    # and their .npz files know the ONNX names.
    for info, vi in zip(loaded.inputs, data_inputs, strict=False):
        info.name = vi.name
    return loaded


def _from_onnx(model: Any, shape_dict: dict[str, list[int]], name: str) -> Any:
    from tvm.relax.frontend.onnx import from_onnx

    try:
        return from_onnx(model, shape_dict=shape_dict, keep_params_in_input=True)
    except Exception as exc:
        message = str(exc).strip().splitlines()
        first = message[-1] if message else type(exc).__name__
        unsupported = [
            n for n in model.graph.node if n.op_type in str(exc) and "not supported" in str(exc)
        ]
        if unsupported:
            nodes = ", ".join(f"{n.name or '(unnamed)'} ({n.op_type})" for n in unsupported[:10])
            raise KernelscopeError(
                f"{name}: TVM cannot convert these ONNX nodes: {nodes}",
                hint="the operator is not supported by TVM's Relax ONNX frontend; replace it "
                "in the exporter or open an issue with TVM",
                details=str(exc),
            ) from exc
        raise KernelscopeError(
            f"{name}: TVM's ONNX frontend failed: {first}", details=str(exc)
        ) from exc


# --- Relax Python file ----------------------------------------------------------------


def _load_relax_py(path: Path, shapes: dict[str, list[int]], params: str, seed: int) -> LoadedModel:
    import numpy as np

    chosen, namespace, provenance = _relax_module(path)
    functions = relax_functions.signatures(chosen)
    if not functions:
        raise KernelscopeError(f"{path.name}: its IRModule has no Relax function to build")
    symbols = relax_functions.bind_shapes(functions, shapes)
    names = [f.name for f in functions]
    # One function: the one to run, as always; several (an LLM's embed, prefill, decode and
    # KV cache creation): all are built, and whoever runs them reads ``functions``.
    entry = "main" if "main" in names else (names[0] if len(names) == 1 else "")
    weights = _model_weights(path, functions, symbols, params)
    given = namespace.get("params")
    notes: list[str] = []
    mode = "model" if isinstance(given, dict) else params
    values: list[np.ndarray] = []
    on_host = False
    if isinstance(given, dict):
        missing = [w.name for w in weights if w.name not in given]
        if missing:
            raise KernelscopeError(
                f"{path.name}: `params` has no value for {missing}",
                hint="name packed weights by their place, e.g. packed_params.0",
            )
        values = [np.asarray(given[w.name]) for w in weights]
    elif weights and params == "random":
        size = sum(_nbytes(w) for w in weights)
        if size > MAX_CARRIED_WEIGHTS:
            on_host = True
            notes.append(
                f"{len(weights)} weights ({size / 1e9:.2f} GB) are too big to carry: whoever "
                f"runs the model makes them, seeded (seed {seed}), on the GPU host"
            )
        else:
            values = random_weights(weights, seed)
            notes.append(
                f"{len(weights)} weights were given seeded random values (seed {seed}), "
                "stored in params.npz"
            )
    elif weights:
        notes.append(f"{len(weights)} weights stay runtime inputs without values")
    inputs: list[TensorInfo] = []
    if entry:
        func = functions[names.index(entry)]
        for p in func.params[: func.num_input]:
            inputs.append(relax_functions.tensor_info(p, symbols))
            if p.kind != "tensor" and len(functions) == 1:
                notes.append(
                    f"{entry} takes {p.name!r} ({p.kind}), which kernelscope cannot make; "
                    "running it needs a hook file that makes it"
                )
    return LoadedModel(
        mod=chosen,
        entry=entry,
        format="relax-py",
        inputs=inputs,
        weights=weights,
        weight_values={w.name: v for w, v in zip(weights, values, strict=False)},
        params_mode=mode if weights else "none",
        notes=notes,
        functions=functions,
        symbols=symbols,
        weights_on_host=on_host,
        provenance=provenance,
    )


# Random weights above this size are not carried in params.npz: the GPU host makes them.
MAX_CARRIED_WEIGHTS = 256 * 1024 * 1024


def random_weights(weights: list[TensorInfo], seed: int) -> list[np.ndarray]:
    """Seeded random values for ``weights``, in order (the recipe ``Manifest.weights_on_host``
    tells a GPU host to repeat)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    # float32 normals: a 1B-parameter model's weights are made in half the time of float64's
    return [
        (
            rng.standard_normal([int(d) for d in w.shape], dtype=np.float32) * np.float32(0.05)
        ).astype(w.dtype)
        for w in weights
    ]


def _nbytes(w: TensorInfo) -> int:
    import numpy as np

    return int(np.prod([int(d) for d in w.shape])) * np.dtype(w.dtype).itemsize


def _relax_module(path: Path) -> tuple[Any, dict[str, Any], Provenance]:
    import tvm

    try:
        with recording(path) as provenance:
            namespace = runpy.run_path(str(path), run_name="kernelscope_model")
    except Exception as exc:
        raise KernelscopeError(
            f"{path.name}: running the file failed: {type(exc).__name__}: {exc}"
        ) from exc
    modules = {k: v for k, v in namespace.items() if isinstance(v, tvm.IRModule)}
    if not modules:
        raise KernelscopeError(
            f"{path.name}: defines no Relax IRModule at module level",
            hint="define one, e.g. `mod, _ = MyModel().export_tvm(spec)` or an "
            "`@I.ir_module class Module`",
        )
    if len(modules) > 1:
        chosen = modules.get("Module") or modules.get("mod")
        if chosen is None:
            raise KernelscopeError(
                f"{path.name}: defines several IRModules ({', '.join(modules)}); "
                "name the one to build `mod` or `Module`"
            )
    else:
        chosen = next(iter(modules.values()))
    provenance.index(chosen)
    return chosen, namespace, provenance


def _model_weights(
    path: Path, functions: list[FunctionInfo], symbols: dict[str, int], params: str
) -> list[TensorInfo]:
    """The model's weights, flattened and named (``packed_params.0``...): the functions'
    weight parameters, each name once (the functions of an LLM share one packed tuple)."""
    weights: dict[str, TensorInfo] = {}
    for func in functions:
        for p in relax_functions.weights_of(func):
            info = relax_functions.tensor_info(p, symbols)
            held = weights.setdefault(info.name, info)
            if (held.shape, held.dtype) != (info.shape, info.dtype):
                raise KernelscopeError(
                    f"{path.name}: functions disagree about weight {info.name!r} "
                    f"({held.dtype}{held.shape} and, in {func.name}, {info.dtype}{info.shape})",
                )
            if not info.dtype or info.dtype == "void":
                raise KernelscopeError(
                    f"{path.name}: weight {info.name!r} of {func.name} has no dtype",
                    hint="give the parameter a dtype (R.Tensor(shape, dtype))",
                )
            unbound = [d for d in info.shape if isinstance(d, str)]
            if unbound and params == "random":
                raise KernelscopeError(
                    f"{path.name}: weight {info.name!r} of {func.name} has a symbolic shape "
                    f"{info.shape}; kernelscope cannot make values for it",
                    hint="bind its variables, e.g. --shape "
                    + ",".join(f"{d}=N" for d in unbound)
                    + ", or keep weights runtime inputs with --params runtime",
                )
    return list(weights.values())


def _param_info(var: Any) -> TensorInfo:
    ty = getattr(var, "struct_info", None) or getattr(var, "ty", None)
    shape = getattr(ty, "shape", None)
    values = getattr(shape, "values", shape) or []
    dims: list[int | str] = []
    for d in values:
        value = getattr(d, "value", d)
        dims.append(int(value) if isinstance(value, int) else str(d))
    name = str(getattr(var, "name_hint", None) or var.name)
    return TensorInfo(shape=dims, dtype=str(getattr(ty, "dtype", "")), name=name)


def _loaded(
    mod: Any,
    entry: str,
    fmt: str,
    num_input: int,
    values: list[np.ndarray],
    notes: list[str],
    mode: str,
) -> LoadedModel:
    params = [_param_info(p) for p in mod[entry].params]
    inputs, weights = params[:num_input], params[num_input:]
    weight_values = {w.name: v for w, v in zip(weights, values, strict=False)}
    mode = mode if weights else "none"
    functions = relax_functions.signatures(mod)
    return LoadedModel(mod, entry, fmt, inputs, weights, weight_values, mode, notes, functions)
