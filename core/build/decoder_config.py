"""A Llama-style decoder's configuration, read from its Relax module, so that its twin in
another framework (``transformers``' ``LlamaForCausalLM`` under ``torch.compile``) is the same
model without the numbers being typed twice.

Read from the IR, not from the file's names: the KV cache's creation builtin gives the layers
(its layer partition), the query and key/value heads, the head size, the rope mode and theta
(``kv_cache_launches.SIZE_OF_ARG``); the ``decode`` function's input gives the hidden size, its
result the vocabulary; its packed weights the MLP's intermediate size (the one 2-D weight
``[hidden, N]`` with ``N`` not the hidden size: ``down_proj``); its ``rms_norm`` calls the
epsilon.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import KernelscopeError
from . import kv_cache_launches
from .tvm_ir import _bindings, _builtin


def _info(expr: Any) -> Any:
    """An expression's type (``ty`` in TVM 0.27, ``struct_info`` before)."""
    return getattr(expr, "struct_info", None) or getattr(expr, "ty", None)


def _ints(expr: Any) -> list[int]:
    values = getattr(expr, "values", None)
    if values is not None:
        return [int(v) for v in values]
    return [int(expr.value)]


def _kv_sizes(mod: Any) -> dict[str, Any]:
    for _, func in mod.functions.items():
        if type(func).__name__ != "Function":
            continue
        for b in _bindings(func):
            if _builtin(b.value) != kv_cache_launches.CREATE:
                continue
            args = b.value.args
            found: dict[str, Any] = {}
            for position, key in kv_cache_launches.SIZE_OF_ARG.items():
                expr = args[position + 1]  # IR argument 0 names the builtin
                if key == "dtype":
                    found[key] = str(_info(expr).dtype)
                elif key == "layer_partition":
                    found["layers"] = _ints(expr)[-1]
                else:
                    found[key] = _ints(expr)[0]
            return found
    raise KernelscopeError(
        "the model creates no paged KV cache (vm.builtin.paged_attention_kv_cache_create): "
        "its decoder configuration cannot be read",
        hint="the twin is made for MLC-style models built with TIRPagedKVCache",
    )


def _shape(sinfo: Any) -> list[int | str]:
    shape = getattr(sinfo, "shape", None)
    values = getattr(shape, "values", None) or []
    return [int(v) if hasattr(v, "value") else str(v) for v in values]


def _tensors(sinfo: Any) -> list[Any]:
    fields = getattr(sinfo, "fields", None)
    if fields is not None:
        return [t for f in fields for t in _tensors(f)]
    return [sinfo] if getattr(sinfo, "ndim", None) is not None else []


def decoder_config(mod: Any, function: str = "decode") -> dict[str, Any]:
    """The configuration of the Llama-style decoder ``mod`` holds (see the module's
    docstring): vocab, hidden, intermediate, layers, heads, kv_heads, head_dim, rope_theta,
    rms_eps, dtype."""
    kv = _kv_sizes(mod)
    names = {g.name_hint for g in mod.functions}
    if function not in names:
        raise KernelscopeError(
            f"the model has no {function!r} function (it has {', '.join(sorted(names))})",
            hint="the twin reads the sizes from the decode step's function, named decode "
            "as in MLC-LLM's models",
        )
    if kv["rope_mode"] != kv_cache_launches.ROPE_NORMAL or kv["rope_scale"] != 1:
        raise KernelscopeError(
            f"the KV cache applies rope mode {kv['rope_mode']} with scale {kv['rope_scale']}; "
            "the twin has Llama's rope only (RopeMode.NORMAL, scale 1)"
        )
    func = mod[function]
    num_input = int(func.attrs["num_input"]) if func.attrs and "num_input" in func.attrs else 1
    first = _shape(_info(func.params[0]))
    hidden = first[-1]
    ret = getattr(func, "ret_ty", None) or getattr(func, "ret_struct_info", None)
    logits = _tensors(ret)
    vocab = _shape(logits[0])[-1] if logits else None
    weights = [_shape(t) for p in func.params[num_input:] for t in _tensors(_info(p))]
    inner = {w[1] for w in weights if len(w) == 2 and w[0] == hidden and w[1] != hidden}
    eps = {
        float(b.value.attrs.epsilon)
        for b in _bindings(func)
        if getattr(getattr(b.value, "op", None), "name", "") == "relax.nn.rms_norm"
    }
    if not isinstance(hidden, int) or not isinstance(vocab, int) or len(inner) != 1:
        raise KernelscopeError(
            f"{function}: cannot read the decoder's sizes (input {first}, logits "
            f"{_shape(logits[0]) if logits else 'none'}, MLP widths {sorted(inner)})",
            hint="the twin is made for Llama-style models: embeddings [batch, 1, hidden] in, "
            "logits [batch, 1, vocab] out, one down projection [hidden, intermediate]",
        )
    return {
        "vocab": vocab,
        "hidden": hidden,
        "intermediate": inner.pop(),
        "layers": kv["layers"],
        "heads": kv["heads"],
        "kv_heads": kv["kv_heads"],
        "head_dim": kv["qk_head_dim"],
        "rope_theta": kv["rope_theta"],
        "rms_eps": min(eps) if eps else 1e-5,
        "dtype": kv["dtype"],
    }


def read_decoder_config(model: Path) -> dict[str, Any]:
    """I/O: ``decoder_config`` of the Relax module a model file defines (the file runs, as
    ``kernelscope build`` runs it)."""
    from .model_loader import _relax_module

    mod, _, _ = _relax_module(model)
    return decoder_config(mod)
