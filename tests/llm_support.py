"""The MLC-style Llama (tests/data/models/llama_mlc.py, its TINY configuration) built for the
CPU (llvm) into a folder the model runner reads as a workspace: the library and a
manifest.json with the function facts the LLM build records (``functions``, packed weights
flattened as ``packed_params.N``, ``params_mode`` random: the runner makes the values)."""

from __future__ import annotations

import json
import runpy
from pathlib import Path

from paths_support import DATA

from kernelscope.core.workspace import Workspace

LLAMA = DATA / "models" / "llama_mlc.py"


def _param(name: str, kind: str, shape: list | None = None, dtype: str = "", fields=None) -> dict:  # noqa: ANN001
    return {
        "name": name,
        "kind": kind,
        "shape": shape or [],
        "dtype": dtype,
        "fields": fields or [],
    }


def llama_functions(hidden: int, weights: list[dict], dtype: str = "float16") -> list[dict]:
    """The ``functions`` of the MLC-style Llama, as the manifest records them."""
    packed = _param(
        "packed_params",
        "tuple",
        fields=[_param(w["name"], "tensor", w["shape"], w["dtype"]) for w in weights],
    )
    cache = _param("cache", "object")

    def step(name: str, first: list) -> dict:
        return {
            "name": name,
            "params": [_param("embeddings", "tensor", first, dtype), cache, packed],
            "num_input": 2,
            "calls": [],
            "builtins": ["vm.builtin.attention_kv_cache_attention_with_fused_qkv"],
            "symbols": [d for d in first if isinstance(d, str)],
        }

    sizes = ["max_batch_size", "max_total_seq_len", "prefill_chunk_size", "page_size",
             "support_sliding_window"]  # fmt: skip
    return [
        {
            "name": "embed",
            "params": [_param("input_ids", "tensor", [1, "seq_len"], "int32"), packed],
            "num_input": 1,
            "calls": ["take"],
            "builtins": [],
            "symbols": ["seq_len"],
        },
        step("prefill", [1, "seq_len", hidden]),
        step("decode", ["batch_size", 1, hidden]),
        {
            "name": "create_tir_paged_kv_cache",
            "params": [_param(f"{s}_1", "shape", [s]) for s in sizes],
            "num_input": 5,
            "calls": [],
            "builtins": ["vm.builtin.paged_attention_kv_cache_create"],
            "symbols": sizes,
            "creates_kv_cache": True,
        },
    ]


def build_llama_cpu(folder: Path) -> Path:
    """Build TINY for llvm into ``folder`` (library + manifest.json); returns ``folder``."""
    import tvm

    ns = runpy.run_path(str(LLAMA), run_name="llama_defs")
    cfg = ns["TINY"]
    mod, named = ns["export"](cfg, target="llvm")
    folder.mkdir(parents=True, exist_ok=True)
    tvm.compile(mod, target="llvm").export_library(str(folder / "model.so"))
    weights = [
        {"name": f"packed_params.{i}", "shape": [int(d) for d in p.shape], "dtype": p.dtype}
        for i, (_, p) in enumerate(named)
    ]
    field_names = [name for name, _ in named]
    functions = llama_functions(cfg.hidden, weights)
    for f in functions:  # the tuple's fields carry the model's own parameter names
        for p in f["params"]:
            for field, name in zip(p["fields"], field_names, strict=False):
                field["name"] = name
    manifest = {
        "model": LLAMA.name,
        "entry": "decode",
        "inputs": [],
        "weights": weights,
        "params_mode": "random",
        "kernels": [],
        "files": {"library": "model.so"},
        "functions": functions,
        "symbols": {},
        "pipeline": "default",
        "versions": {"tvm": tvm.__version__},
    }
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return folder


def with_manifest(src: Path, dst: Path, **changes: object) -> Path:
    """A copy of the workspace ``src`` (the library linked) with manifest fields changed."""
    dst.mkdir(parents=True, exist_ok=True)
    (dst / "model.so").symlink_to(src / "model.so")
    manifest = json.loads((src / "manifest.json").read_text(encoding="utf-8"))
    manifest.update(changes)
    (dst / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return dst


def build_recorded_llama(out: Path) -> Workspace:
    """The build tests/data/llm's reports were profiled from: llama_mlc.py for sm_90, the
    mlc-llm pipeline, ``--shape seq_len=128 --shape batch_size=1`` (the build cache serves
    every test file after the first)."""
    from kernelscope.core.build import BuildRequest, build_in_child

    shapes = {"seq_len": [128], "batch_size": [1]}
    model = DATA / "models" / "llama_mlc.py"
    return build_in_child(BuildRequest(model=model, output=out, arch="sm_90", shapes=shapes))
