"""A Llama decoder written the way MLC-LLM writes its models (``tvm.relax.frontend.nn``):
``embed``, ``prefill`` over a symbolic ``seq_len``, ``decode``, ``create_tir_paged_kv_cache``,
weights packed into one tuple parameter, and TVM's own paged KV cache (``TIRPagedKVCache``),
whose attention, rope and append kernels TVM's runtime launches.

kernelscope builds this file as it is (``mod`` below, a tiny configuration). Other
configurations (``LLAMA_3_2_1B``) are exported by files that run this one under the name
``llama_defs`` and call ``export``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tvm import relax, te
from tvm import target as tvm_target
from tvm.relax.frontend import nn
from tvm.relax.frontend.nn import Tensor, op
from tvm.relax.frontend.nn.llm.kv_cache import PagedKVCache, RopeMode, TIRPagedKVCache


@dataclass(frozen=True)
class Config:
    vocab: int
    hidden: int
    intermediate: int
    layers: int
    heads: int
    kv_heads: int
    dtype: str = "float16"
    rope_theta: int = 500000

    @property
    def head_dim(self) -> int:
        return self.hidden // self.heads


TINY = Config(vocab=512, hidden=256, intermediate=512, layers=2, heads=4, kv_heads=2)
LLAMA_3_2_1B = Config(vocab=128256, hidden=2048, intermediate=8192, layers=16, heads=32, kv_heads=8)


class RMSNorm(nn.Module):
    def __init__(self, cfg: Config) -> None:
        self.weight = nn.Parameter((cfg.hidden,), cfg.dtype)

    def forward(self, x: Tensor) -> Tensor:
        return op.rms_norm(x, self.weight, axes=[-1], epsilon=1e-5)


class Attention(nn.Module):
    def __init__(self, cfg: Config) -> None:
        self.cfg = cfg
        qkv = (cfg.heads + 2 * cfg.kv_heads) * cfg.head_dim
        self.qkv_proj = nn.Linear(cfg.hidden, qkv, bias=False, dtype=cfg.dtype)
        self.o_proj = nn.Linear(cfg.heads * cfg.head_dim, cfg.hidden, bias=False, dtype=cfg.dtype)

    def forward(self, x: Tensor, cache: PagedKVCache, layer: int) -> Tensor:
        cfg = self.cfg
        b, s, _ = x.shape
        qkv = op.reshape(self.qkv_proj(x), (b, s, cfg.heads + 2 * cfg.kv_heads, cfg.head_dim))
        out = cache.attention_with_fused_qkv(layer, qkv, cfg.heads, 1.0 / math.sqrt(cfg.head_dim))
        return self.o_proj(op.reshape(out, (b, s, cfg.heads * cfg.head_dim)))


class MLP(nn.Module):
    def __init__(self, cfg: Config) -> None:
        self.gate_up_proj = nn.Linear(cfg.hidden, 2 * cfg.intermediate, bias=False, dtype=cfg.dtype)
        self.down_proj = nn.Linear(cfg.intermediate, cfg.hidden, bias=False, dtype=cfg.dtype)

    def forward(self, x: Tensor) -> Tensor:
        gate, up = op.split(self.gate_up_proj(x), 2, axis=-1)
        return self.down_proj(op.silu(gate) * up)


class Layer(nn.Module):
    def __init__(self, cfg: Config) -> None:
        self.input_norm = RMSNorm(cfg)
        self.attn = Attention(cfg)
        self.post_norm = RMSNorm(cfg)
        self.mlp = MLP(cfg)

    def forward(self, x: Tensor, cache: PagedKVCache, layer: int) -> Tensor:
        x = x + self.attn(self.input_norm(x), cache, layer)
        return x + self.mlp(self.post_norm(x))


class Llama(nn.Module):
    def __init__(self, cfg: Config, target: tvm_target.Target) -> None:
        self.cfg = cfg
        self.target = target
        self.embed_tokens = nn.Embedding(cfg.vocab, cfg.hidden, dtype=cfg.dtype)
        self.layers = nn.ModuleList([Layer(cfg) for _ in range(cfg.layers)])
        self.norm = RMSNorm(cfg)
        self.lm_head = nn.Linear(cfg.hidden, cfg.vocab, bias=False, dtype=cfg.dtype)

    def _decoder(self, x: Tensor, cache: PagedKVCache) -> Tensor:
        for i, layer in enumerate(self.layers):
            x = layer(x, cache, i)
        return self.norm(x)

    def embed(self, input_ids: Tensor) -> Tensor:
        return self.embed_tokens(input_ids)

    def prefill(self, embeddings: Tensor, cache: PagedKVCache) -> tuple[Tensor, PagedKVCache]:
        def last_token(x: te.Tensor) -> te.Tensor:  # as MLC-LLM: logits of the last token only
            b, s, d = x.shape
            return te.compute((b, 1, d), lambda i, _, k: x[i, s - 1, k], name="index")

        hidden = self._decoder(embeddings, cache)
        hidden = op.tensor_expr_op(last_token, name_hint="index", args=[hidden])
        return self.lm_head(hidden).astype("float32"), cache

    def decode(self, embeddings: Tensor, cache: PagedKVCache) -> tuple[Tensor, PagedKVCache]:
        return self.lm_head(self._decoder(embeddings, cache)).astype("float32"), cache

    def create_tir_paged_kv_cache(  # noqa: ANN001 - symbolic sizes (tirx.Var)
        self,
        max_batch_size,
        max_total_seq_len,
        prefill_chunk_size,
        page_size,
        support_sliding_window,
    ) -> PagedKVCache:
        cfg = self.cfg
        return TIRPagedKVCache(
            attn_kind="mha",
            max_batch_size=max_batch_size,
            max_total_seq_len=max_total_seq_len,
            prefill_chunk_size=prefill_chunk_size,
            page_size=page_size,
            support_sliding_window=support_sliding_window,
            layer_partition=relax.ShapeExpr([0, cfg.layers]),
            num_hidden_layers=cfg.layers,
            num_attention_heads=cfg.heads,
            num_key_value_heads=cfg.kv_heads,
            qk_head_dim=cfg.head_dim,
            v_head_dim=cfg.head_dim,
            mla_original_qk_head_dim=0,
            mla_original_v_head_dim=0,
            rope_mode=RopeMode.NORMAL,
            rope_scale=1,
            rope_theta=cfg.rope_theta,
            rope_scaling={},
            rope_ext_factors=relax.op.null_value(),
            rotary_dim=cfg.head_dim,
            enable_disaggregation=False,
            dtype=cfg.dtype,
            target=self.target,
        )


def export(cfg: Config, target: str | dict | None = None):  # noqa: ANN201 - (IRModule, params)
    """The IRModule and the named parameters of ``cfg``, its KV cache's kernels made for
    ``target`` (default: CUDA sm_90)."""
    tgt = tvm_target.Target(target or {"kind": "cuda", "arch": "sm_90"})
    model = Llama(cfg, tgt)
    seq = "seq_len"
    hidden = cfg.hidden
    packed = {"$": {"param_mode": "packed", "effect_mode": "none"}}
    spec = {
        "embed": {"input_ids": nn.spec.Tensor([1, seq], "int32"), **packed},
        "prefill": {
            "embeddings": nn.spec.Tensor([1, seq, hidden], cfg.dtype),
            "cache": nn.spec.Object(object_type=PagedKVCache),
            **packed,
        },
        "decode": {
            "embeddings": nn.spec.Tensor(["batch_size", 1, hidden], cfg.dtype),
            "cache": nn.spec.Object(object_type=PagedKVCache),
            **packed,
        },
        "create_tir_paged_kv_cache": {
            "max_batch_size": int,
            "max_total_seq_len": int,
            "prefill_chunk_size": int,
            "page_size": int,
            "support_sliding_window": int,
            "$": {"param_mode": "none", "effect_mode": "none"},
        },
    }
    return model.export_tvm(spec)


if __name__ != "llama_defs":
    mod, named_params = export(TINY)
