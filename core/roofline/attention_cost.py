"""What the KV cache's own kernels cost: attention, rope, append, merge (issue 33, item 2).

TVM's runtime launches these TIR kernels (``core.build.kv_cache_launches``); they fuse no
Relax operator, so their cost comes from their role, the cache's page layout (read from
the kernels' parameters: ``pages`` is ``[pages, 2, kv_heads, page_size, head_dim]``, ``q``
``[tokens, heads, head_dim]``) and the lengths a launch ran at (``StepSizes``).

Notation: ``H`` heads, ``G`` KV heads, ``D`` head dim, ``b`` bytes per element, ``B``
sequences, ``T`` new tokens of the step (all sequences), ``t = T/B`` per sequence, ``L``
tokens a sequence holds in the cache after the step (``cached/B``), ``P = L - t`` those it
held before. Sequences are taken as equally long. A multiply-add is 2 FLOPs; softmax's
exp/max/sum (a few per score) are left out, as a matmul's epilogue is.

* ``attention_decode`` (one new token per sequence, appended before the attention, so
  ``L`` includes it): per sequence ``q·Kᵀ`` is ``2·H·L·D`` and ``p·V`` ``2·H·L·D``:
  **4·H·L·D FLOPs per token**, ``4·H·L·D·B`` per launch. Bytes: the K and V of the cached
  length read once per KV head, ``2·G·L·D·b`` per sequence (the ``H/G`` query heads of a
  group share them), plus ``q`` and the output (``H·D·b`` each) and the log-sum-exp
  (``4·H``).
* ``attention_prefill_ragged`` (the new tokens attending each other, causal): query ``i``
  sees ``i`` keys, ``t(t+1)/2`` scores per head, each ``2·D`` FLOPs for ``q·k`` and ``2·D``
  for ``p·v``: **2·2·H·D·t(t+1)/2 = 2·H·D·t(t+1)** per sequence (``≈ 2·2·H·t²·D/2``).
  Bytes: ``q``, ``k``, ``v`` and the output of the new tokens once,
  ``T·(2·H + 2·G)·D·b + 4·T·H``.
* ``attention_prefill`` (paged: the new tokens attending the ``P`` tokens cached before):
  ``4·H·D·t·P`` per sequence; bytes ``2·G·P·D·b`` per sequence plus ``q``, output, lse.
* ``attention_merge`` (the two partial attentions combined, per token and head):
  ``V = a·V₁ + c·V₂``, 3 FLOPs per output element, ``3·T·H·D``; bytes: both partials and
  their lse read, one written, ``3·T·H·D·b + 12·T·H``.
* ``rope`` (rotating ``q`` and ``k``, splitting ``qkv``): ``x·cos ± x'·sin``, 3 FLOPs per
  rotated element, ``3·T·(H + G)·D``; bytes: ``qkv`` read, ``q``, ``k``, ``v`` written,
  ``2·T·(H + 2·G)·D·b``, plus the positions (``4·T``).
* ``append`` (``k`` and ``v`` of the new tokens copied into their pages): no FLOPs; bytes
  ``2·(2·T·G·D·b)`` plus the positions (``4·T``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..workspace import FunctionInfo, KernelInfo, Manifest
from .opcost import _DTYPE_BYTES, KernelCost, OpCost

COSTED_ROLES = (
    "attention_decode",
    "attention_prefill_ragged",
    "attention_prefill",
    "attention_merge",
    "rope",
    "append",
)
NO_CACHED = (
    "the decode attention's cost needs the tokens the KV cache held, which a build does not "
    "bind: profile with steps (kernelscope profile WS --steps prefill=128,decode=32 "
    "--profile-steps decode:0-3)"
)
NO_PRIOR = (
    "the paged prefill attention's cost needs the tokens the KV cache held before the step, "
    "which a build does not bind: profile with steps"
)


@dataclass(frozen=True)
class KVLayout:
    """The paged KV cache's shape, from its kernels' parameters."""

    heads: int
    kv_heads: int
    head_dim: int
    page_size: int
    dtype: str

    @classmethod
    def of(cls, kernels: Sequence[KernelInfo]) -> KVLayout | None:
        """Read from the KV cache's kernels (``pages`` and ``q``); None without them."""
        pages = queries = None
        for k in kernels:
            if not kv_role(k):
                continue
            for p in k.params:
                dims = p.shape
                if (
                    p.name == "pages"
                    and len(dims) == 5
                    and all(isinstance(d, int) for d in dims[1:])
                ):
                    pages = p
                if p.name.lower() == "q" and len(dims) == 3 and isinstance(dims[1], int):
                    queries = p
        if pages is None or queries is None:
            return None
        _, _, kv_heads, page_size, head_dim = pages.shape
        return cls(int(queries.shape[1]), int(kv_heads), int(head_dim), int(page_size), pages.dtype)


@dataclass(frozen=True)
class StepSizes:
    """The lengths one launch ran at: sequences, new tokens (all sequences), and the tokens
    the cache held after the step (all sequences); None where not known."""

    batch: int | None = None
    tokens: int | None = None
    cached: int | None = None

    def text(self) -> str:
        parts = [f"{n}={v}" for n, v in vars(self).items() if v is not None]
        return ", ".join(parts) or "no lengths"


def kv_role(info: KernelInfo) -> str:
    """What the KV cache uses a kernel for ("" for a kernel ``call_tir`` launches)."""
    return next((s.role for s in info.launched_by if s.via != "call_tir" and s.role), "")


def build_sizes(manifest: Manifest, function: str) -> StepSizes:
    """The lengths a call of ``function`` has at the build's ``--shape`` bindings: its
    first input ``[batch, tokens per sequence, ...]`` sized by ``Manifest.symbols``; the
    cache's length is never bound by a build."""
    func: FunctionInfo | None = next((f for f in manifest.functions if f.name == function), None)
    tensors = [p for p in func.params if p.kind == "tensor" and len(p.shape) >= 2] if func else []
    if not tensors:
        return StepSizes()
    dims = [d if isinstance(d, int) else manifest.symbols.get(d) for d in tensors[0].shape[:2]]
    batch, per_sequence = dims
    tokens = batch * per_sequence if batch is not None and per_sequence is not None else None
    return StepSizes(batch=batch, tokens=tokens)


def attention_cost(info: KernelInfo, layout: KVLayout | None, sizes: StepSizes) -> KernelCost:
    """One launch of a KV-cache kernel, costed; ``why`` says what is missing."""
    role = kv_role(info)

    def none(why: str) -> KernelCost:
        return KernelCost(info.name, [], 0.0, 0.0, "", why=why)

    if role not in COSTED_ROLES:
        return none(f"kernelscope has no cost model for the KV cache's {role or 'kernel'}")
    if layout is None:
        return none("the KV cache's page layout is not in the manifest (rebuild the workspace)")
    B, T = sizes.batch, sizes.tokens  # noqa: N806 - the docstring's notation
    if B is None or T is None or B <= 0:
        return none(f"{role}: the step's sequences and tokens are not known ({sizes.text()})")
    H, G, D = layout.heads, layout.kv_heads, layout.head_dim  # noqa: N806
    b = _DTYPE_BYTES.get(layout.dtype, 2)
    t = T / B
    flops = moved = 0.0
    if role in ("attention_decode", "attention_prefill"):
        if sizes.cached is None:
            return none(NO_CACHED if role == "attention_decode" else NO_PRIOR)
        L = sizes.cached / B  # noqa: N806
        keys = L if role == "attention_decode" else max(L - t, 0.0)
        flops = 4.0 * H * D * t * keys * B
        moved = B * 2.0 * G * keys * D * b + T * (2.0 * H * D * b + 4.0 * H)
        shapes = f"{role} H={H} G={G} D={D} B={B} T={T} keys/seq={keys:g}"
    elif role == "attention_prefill_ragged":
        flops = 2.0 * H * D * t * (t + 1) * B
        moved = T * ((2.0 * H + 2.0 * G) * D * b + 4.0 * H)
        shapes = f"{role} causal H={H} G={G} D={D} B={B} t={t:g}"
    elif role == "attention_merge":
        flops = 3.0 * T * H * D
        moved = 3.0 * T * H * D * b + 12.0 * T * H
        shapes = f"{role} T={T} H={H} D={D}"
    elif role == "rope":
        flops = 3.0 * T * (H + G) * D
        moved = 2.0 * T * (H + 2.0 * G) * D * b + 4.0 * T
        shapes = f"{role} T={T} H={H}+{G} D={D}"
    else:  # append
        moved = 2.0 * (2.0 * T * G * D * b) + 4.0 * T
        shapes = f"{role} T={T} G={G} D={D}"
    kind = "attention" if role.startswith("attention") else "elementwise"
    kind = "movement" if role == "append" else kind
    op = OpCost(f"kv_cache.{role}", kind, flops, moved, layout.dtype, shapes)
    return KernelCost(info.name, [op], flops, moved, layout.dtype)
