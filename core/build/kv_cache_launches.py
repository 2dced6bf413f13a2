"""Which of a paged KV cache's kernels TVM's runtime launches, and for which calls.

``TIRPagedKVCache`` (``tvm.relax.frontend.nn.llm.kv_cache``) hands its TIR PrimFuncs to
``vm.builtin.paged_attention_kv_cache_create``; from then on the runtime, not ``call_tir``,
launches them. What follows is read from TVM 0.27's runtime, ``src/runtime/vm/
paged_kv_cache.cc`` in the wheel (the create builtin's argument list, ``AttentionWithFusedQKV``,
``AttentionInternal``, ``MHASelfAttnInternal``, ``MHACrossAttnInternal``, ``BeginForward``),
and ``kv_state.cc`` (the builtins' names); this module is the one place kernelscope keeps it.

* The creation builtin's arguments 13-27 are the kernels, by position (``ROLE_OF_ARG``); some
  are passed inside tuples (``("tirx", f)``, the merge functions' tuple).
* ``vm.builtin.attention_kv_cache_attention_with_fused_qkv`` always runs the rope
  (``f_split_rotary``) and the append (``f_transpose_append_mha``). A *decode-shaped* step
  (every sequence appends one token, no sliding window) appends before the attention and runs
  the paged decode attention only. A *prefill-shaped* step runs the ragged prefill over the
  new tokens (self attention), the paged prefill over the cached pages (cross attention),
  merges the two (``f_merge_inplace[0]``) and appends afterwards.
* The sliding-window kernels run only for a cache created with ``support_sliding_window=1``;
  the tree-mask kernels only for speculative token trees (``begin_forward`` with a token
  tree); the MLA kernels only for MLA attention; ``copy_single_page`` only when a sequence is
  forked, ``compact_kv_copy`` only when accepted tree tokens are committed, ``debug_get_kv``
  only by ``vm.builtin.attention_kv_cache_debug_get_kv``. None of these runs in a plain
  prefill/decode loop.

Which shape a Relax function's calls have is read from its first tensor input of rank >= 2,
whose dim 1 is the tokens per sequence in the layout MLC-LLM's models use (``[batch, seq,
...]``): 1, or a symbolic variable bound to 1, is decode-shaped; anything else prefill-shaped.
"""

from __future__ import annotations

CREATE = "vm.builtin.paged_attention_kv_cache_create"
ATTENTION_FUSED_QKV = "vm.builtin.attention_kv_cache_attention_with_fused_qkv"

# Position in the creation builtin's arguments -> the kernel's role.
ROLE_OF_ARG = {
    13: "append",
    14: "append_mla",
    15: "attention_prefill_ragged",
    16: "attention_prefill",
    17: "attention_decode",
    18: "attention_prefill_sliding_window",
    19: "attention_decode_sliding_window",
    20: "attention_prefill_tree_mask_paged",
    21: "attention_prefill_tree_mask",
    22: "attention_prefill_mla",
    23: "attention_merge",
    24: "rope",
    25: "copy_single_page",
    26: "debug_get_kv",
    27: "compact_kv_copy",
}

# Position in the creation builtin's arguments -> the model's size it is (after the sizes
# ``ShapeExpr`` and the layer partition ``[0, layers]``; ``dtype``: a zero of the cache's dtype).
SIZE_OF_ARG = {
    1: "layer_partition",
    2: "heads",
    3: "kv_heads",
    4: "qk_head_dim",
    5: "v_head_dim",
    8: "rope_mode",
    9: "rope_scale",
    10: "rope_theta",
    12: "dtype",
}
ROPE_NORMAL = 1  # RopeMode.NORMAL: Llama's rotation of the halves

# What each builtin launches, by the shape of the call.
_DECODE = ("rope", "append", "attention_decode")
_PREFILL = (
    "rope",
    "attention_prefill_ragged",
    "attention_prefill",
    "attention_merge",
    "append",
)
LAUNCHES = {ATTENTION_FUSED_QKV: {"decode": _DECODE, "prefill": _PREFILL}}

# Why a role is never launched by a plain prefill/decode loop.
NOT_LAUNCHED = {
    "append_mla": "only for MLA attention",
    "attention_prefill_sliding_window": "only for a KV cache created with support_sliding_window=1",
    "attention_decode_sliding_window": "only for a KV cache created with support_sliding_window=1",
    "attention_prefill_tree_mask_paged": "only for speculative token trees",
    "attention_prefill_tree_mask": "only for speculative token trees",
    "attention_prefill_mla": "only for MLA attention",
    "copy_single_page": "only when a sequence is forked (vm.builtin.kv_state_fork_sequence)",
    "debug_get_kv": "only by vm.builtin.attention_kv_cache_debug_get_kv (debugging)",
    "compact_kv_copy": "only when accepted token-tree nodes are committed",
}


def launched_roles(builtin: str, shape: str) -> tuple[str, ...]:
    """The roles of the kernels ``builtin`` launches for a call of ``shape`` ("decode" or
    "prefill"); () for a builtin that launches none of the KV cache's kernels."""
    return LAUNCHES.get(builtin, {}).get(shape, ())


def call_shape(tokens_per_sequence: int | None) -> str:
    """ "decode" for one token per sequence, else "prefill" (None: not known, a prefill)."""
    return "decode" if tokens_per_sequence == 1 else "prefill"
