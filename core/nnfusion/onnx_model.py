"""The model NNFusion should compile for a workspace: its ONNX with every weight an initializer
and every bias already broadcast to the shape of what it is added to.

NNFusion gives TVM's Convolution+bias kernels the right bias only when the Add's operand is a
constant (``-fbiasadd_fix`` rewrites it); with the weights as graph inputs (PyTorch's
``export_params=False``) no flag does. NNFusion imports a Conv bias as a Broadcast of it,
which only ``-fconst_folding_backend=CPU`` turns into a constant, with slow reference kernels
(hours for ResNet-50 on a busy 2-core machine); a Conv whose bias is an Add of a constant of
the output's shape, and a Gemm whose C has the output's shape, give NNFusion exactly that
constant at once: the same graph, the same identifiers, ``-fbiasadd_fix=true`` alone. The
values come from the workspace (``params.npz``): the weights its TVM build ran with, so
NNFusion's outputs and TVM's can be compared for the same input.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..build.model_loader import load_onnx, weight_name
from ..errors import KernelscopeError
from ..workspace import Workspace
from .onnx_graph import weight_inputs


@dataclass
class InitializerModel:
    path: Path
    source: Path  # the ONNX file the workspace was built from
    initializers: int
    moved: list[str] = field(default_factory=list)  # graph inputs that became initializers
    inputs: list[str] = field(default_factory=list)  # what is left as graph inputs
    broadcast_biases: int = 0  # Conv biases and Gemm Cs written in their output's shape
    identities: int = 0  # Identity nodes of weights dropped, their readers reading the weight
    padded_pools: list[str] = field(default_factory=list)  # "node: how", ceil_mode made padding

    def changes(self) -> list[str]:
        """What the copy changed, in words (the CLI and the window say the same)."""
        out = []
        if self.moved:
            out.append(f"{len(self.moved)} graph inputs became initializers")
        if self.broadcast_biases:
            out.append(f"{self.broadcast_biases} biases broadcast to their outputs' shape")
        if self.identities:
            out.append(f"{self.identities} Identity nodes of weights read through")
        out += [f"{pool} (NNFusion ignores ceil_mode)" for pool in self.padded_pools]
        return out


def find_model(ws: Workspace, model: str | os.PathLike[str] | None = None) -> Path:
    """The ONNX file ``ws`` was built from (``Workspace.model_file``: ``model``, else where
    the build found it, else beside the workspace), checked against the manifest's digest."""
    manifest = ws.manifest
    if manifest.model_format != "onnx":
        raise KernelscopeError(
            f"{ws.path} was built from a {manifest.model_format} model; NNFusion reads ONNX",
            hint="build the ONNX export of the model and export that workspace",
        )
    return ws.model_file(model)


def nnfusion_copy_path(ws: Workspace) -> Path:
    """Where the window writes the model NNFusion should compile for ``ws``: next to the
    workspace, as MODEL-nnfusion.onnx."""
    return ws.path.resolve().parent / f"{Path(ws.manifest.model).stem}-nnfusion.onnx"


def write_initializer_model(
    ws: Workspace,
    out: str | os.PathLike[str],
    model: str | os.PathLike[str] | None = None,
    broadcast_biases: bool = True,
) -> InitializerModel:
    """Write ``ws``'s model to ``out`` with every weight an initializer holding the value the
    workspace's build used (and, with ``broadcast_biases``, the biases in their output's
    shape). Raises when a weight has no value."""
    import onnx
    from onnx import external_data_helper, numpy_helper

    source = find_model(ws, model)
    out_path = Path(out).expanduser()
    if out_path.resolve() == source.resolve():
        raise KernelscopeError(
            f"{out_path} is the model itself; refusing to overwrite it",
            hint="write the copy under another name",
        )
    proto = load_onnx(source)
    values: dict[str, np.ndarray] = {}
    if "params" in ws.manifest.files:
        with np.load(ws.path / ws.manifest.files["params"]) as stored:
            values = {k: stored[k] for k in stored.files}
    graph = proto.graph
    for init in graph.initializer:
        if weight_name(init.name) in values:
            value = values[weight_name(init.name)]
            if list(value.shape) != list(init.dims):
                raise KernelscopeError(
                    f"weight {init.name}: the workspace holds {list(value.shape)}, the model "
                    f"{list(init.dims)}; the workspace is not a build of this model"
                )
            init.CopyFrom(numpy_helper.from_array(value.astype(value.dtype), init.name))
    weights = set(weight_inputs(proto))
    moved = []
    for vi in [vi for vi in graph.input if vi.name in weights]:
        name = weight_name(vi.name)
        if name not in values:
            raise _no_value(ws, vi.name, name, values)
        graph.initializer.append(numpy_helper.from_array(values[name], vi.name))
        graph.input.remove(vi)
        moved.append(vi.name)
    identities = _read_through_identities(proto)
    padded = _explicit_pool_padding(proto)
    spread = _broadcast_biases(proto) if broadcast_biases else 0
    external_data_helper.convert_model_from_external_data(proto)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = out_path.with_name(f".{out_path.name}.tmp")
    try:
        onnx.save(proto, str(tmp))
        os.replace(tmp, out_path)
    except (OSError, ValueError) as exc:
        tmp.unlink(missing_ok=True)
        raise KernelscopeError(f"cannot write {out_path}: {exc}") from exc
    return InitializerModel(
        path=out_path,
        source=source,
        initializers=len(graph.initializer),
        moved=moved,
        inputs=[
            vi.name for vi in graph.input if vi.name not in {i.name for i in graph.initializer}
        ],
        broadcast_biases=spread,
        identities=identities,
        padded_pools=padded,
    )


def _no_value(ws: Workspace, onnx_name: str, name: str, values: dict[str, Any]) -> KernelscopeError:
    """Why the workspace holds no value for a weight NNFusion needs as an initializer."""
    shown = f"{onnx_name!r}" + (f" ({name!r} in the workspace)" if name != onnx_name else "")
    if ws.manifest.params_mode == "runtime":
        return KernelscopeError(
            f"the workspace has no value for the weight {shown}: it was built with --params "
            "runtime (weights without values stay inputs); NNFusion needs every weight as an "
            "initializer",
            hint="rebuild with --params random (seeded values), or from a model whose "
            "weights are initializers",
            window_hint="rebuild it with Weights: random in Build & Profile, or from a model "
            "whose weights are initializers",
        )
    held = ", ".join(sorted(values)[:5]) + (" and more" if len(values) > 5 else "")
    return KernelscopeError(
        f"the workspace has no value for the weight {shown} (it holds {len(values)} "
        f"weights{': ' + held if held else ''}); it is not a build of this model",
        hint="give the model the workspace was built from with --model, or rebuild",
        window_hint="choose the model the workspace was built from, or rebuild it",
    )


def _read_through_identities(proto: Any) -> int:
    """Identity nodes of an initializer (PyTorch shares equal weights through them) dropped,
    their readers reading the initializer itself: a Conv bias read through one is then a
    constant NNFusion needs no folding for, and can be broadcast."""
    graph = proto.graph
    alias = {i.name: i.name for i in graph.initializer}
    results = {o.name for o in graph.output}
    kept = []
    for node in graph.node:
        if node.op_type == "Identity" and node.input[0] in alias and node.output[0] not in results:
            alias[node.output[0]] = alias[node.input[0]]
        else:
            kept.append(node)
    for node in kept:
        node.input[:] = [alias.get(name, name) for name in node.input]
    dropped = len(graph.node) - len(kept)
    del graph.node[:]
    graph.node.extend(kept)
    return dropped


def _explicit_pool_padding(proto: Any) -> list[str]:
    """A MaxPool with ceil_mode whose output ceil_mode enlarges -> a Pad with -inf at the end
    of each axis and a MaxPool without it: the same values, and the shape NNFusion computes
    (its importer ignores ceil_mode; ``onnx_graph`` says where that changes the result)."""
    import onnx
    from onnx import helper, numpy_helper
    from onnx.shape_inference import InferenceError

    from .onnx_graph import pool_output

    if next((o.version for o in proto.opset_import if o.domain in ("", "ai.onnx")), 0) < 11:
        return []  # Pad takes its sizes as an input from opset 11 on
    graph = proto.graph
    try:
        inferred = onnx.shape_inference.infer_shapes(proto).graph
    except InferenceError:  # an operator of a domain onnx does not know: pools as they are
        return []
    types = {vi.name: vi.type.tensor_type for vi in [*inferred.value_info, *inferred.input]}
    taken = {i.name for i in graph.initializer} | {o for n in graph.node for o in n.output}
    nodes, done = [], []
    for node in graph.node:
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        tensor = types.get(node.input[0]) if node.input else None
        dims = [d.dim_value for d in tensor.shape.dim] if tensor is not None else []
        if (
            node.op_type != "MaxPool"
            or not attrs.get("ceil_mode")
            or len(dims) < 3
            or not all(dims)
        ):
            nodes.append(node)
            continue
        window = list(attrs["kernel_shape"])
        axes = len(window)
        strides = list(attrs.get("strides", [1] * axes))
        pads = list(attrs.get("pads", [0] * 2 * axes))
        begin, end = pads[:axes], pads[axes:]
        size = dims[2:]
        ceil = pool_output(size, window, strides, begin, end, ceil_mode=True)
        if any(d != 1 for d in attrs.get("dilations", [1] * axes)) or ceil == pool_output(
            size, window, strides, begin, end, ceil_mode=False
        ):
            nodes.append(node)  # NNFusion ignores ceil_mode and computes the same shape
            continue
        extra = [
            max(0, (o - 1) * s + k - (n + b + e))
            for o, s, k, n, b, e in zip(ceil, strides, window, size, begin, end, strict=True)
        ]
        name = node.name or node.output[0]
        padded, sizes, value = (
            _fresh(f"{name}_padded", dict.fromkeys(taken)),
            _fresh(f"{name}_pads", dict.fromkeys(taken)),
            _fresh(f"{name}_pad_value", dict.fromkeys(taken)),
        )
        taken |= {padded, sizes, value}
        dtype = onnx.helper.tensor_dtype_to_np_dtype(tensor.elem_type)  # type: ignore[union-attr]
        after = [e + x for e, x in zip(end, extra, strict=True)]
        sizes_value = np.array([0, 0, *begin, 0, 0, *after], dtype=np.int64)
        graph.initializer.extend(
            [
                numpy_helper.from_array(sizes_value, sizes),
                numpy_helper.from_array(np.array(-np.inf, dtype=dtype), value),
            ]
        )
        nodes.append(
            # mode spelled out: NNFusion's importer crashes (segfault) on a Pad without it
            helper.make_node(
                "Pad", [node.input[0], sizes, value], [padded], name=f"{name}_pad", mode="constant"
            )
        )
        pool = helper.make_node("MaxPool", [padded], list(node.output), name=node.name)
        pool.attribute.extend(
            helper.make_attribute(k, v)
            for k, v in attrs.items()
            if k not in ("ceil_mode", "pads", "auto_pad")
        )
        nodes.append(pool)
        done.append(f"{name}: ceil_mode as -inf padding of {'x'.join(map(str, extra))} at the end")
    del graph.node[:]
    graph.node.extend(nodes)
    return done


def _broadcast_biases(proto: Any) -> int:
    """Conv(x, w, b) -> Add(Conv(x, w), B) and a Gemm's C -> C broadcast, B and C constants of
    the output's shape (so that NNFusion needs no constant folding for ``-fbiasadd_fix``)."""
    import onnx
    from onnx import helper, numpy_helper
    from onnx.shape_inference import InferenceError

    graph = proto.graph
    inits = {i.name: i for i in graph.initializer}
    try:
        inferred = onnx.shape_inference.infer_shapes(proto)
    except InferenceError:  # an operator of a domain onnx does not know: model as it is
        return 0
    shapes = {
        vi.name: [d.dim_value for d in vi.type.tensor_type.shape.dim]
        for vi in [*inferred.graph.value_info, *inferred.graph.output]
    }
    used = {name for n in graph.node for name in n.input}
    count = 0
    nodes = []
    for node in graph.node:
        out = node.output[0] if node.output else ""
        shape = shapes.get(out, [])
        bias = node.input[2] if len(node.input) > 2 else ""
        if not shape or not all(shape) or bias not in inits:
            nodes.append(node)
            continue
        value = numpy_helper.to_array(inits[bias])
        if node.op_type == "Conv" and value.ndim == 1 and len(shape) >= 3:
            full = np.broadcast_to(value.reshape([1, -1] + [1] * (len(shape) - 2)), shape)
            name = _fresh(f"{bias}_{out}_broadcast", inits)
            plain = _fresh(f"{out}_without_bias", inits)
            conv = helper.make_node("Conv", list(node.input[:2]), [plain], name=node.name)
            conv.attribute.extend(node.attribute)
            add = helper.make_node("Add", [plain, name], [out], name=f"{node.name}_bias")
            nodes += [conv, add]
        elif node.op_type == "Gemm" and list(value.shape) != shape:
            full = np.broadcast_to(value, shape)
            name = _fresh(f"{bias}_broadcast", inits)
            node.input[2] = name
            nodes.append(node)
        else:
            nodes.append(node)
            continue
        tensor = numpy_helper.from_array(np.ascontiguousarray(full, dtype=value.dtype), name)
        graph.initializer.append(tensor)
        inits[name] = tensor
        count += 1
    del graph.node[:]
    graph.node.extend(nodes)
    still = {name for n in graph.node for name in n.input}
    for init in [i for i in graph.initializer if i.name in used and i.name not in still]:
        graph.initializer.remove(init)
    return count


def _fresh(name: str, taken: dict[str, Any]) -> str:
    out, i = name, 1
    while out in taken:
        out, i = f"{name}{i}", i + 1
    return out
