"""Whether a model runs as an LLM's steps (``--steps``) rather than as one call: what the
window asks before it shows its LLM steps options."""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import KernelscopeError
from ..workspace import Workspace

# A Relax model file with a KV cache (``tvm.relax.frontend.nn.llm.kv_cache``'s
# ``PagedKVCache``, or a ``create_*_kv_cache`` function) is exported as several functions
# around it: prefill, decode, the cache's creation.
_KV_CACHE = re.compile(r"\bPagedKVCache\b|\bcreate_\w*kv_cache\b")


def step_functions(path: Path) -> list[str]:
    """The Relax functions of ``path`` that run as steps (a workspace of several functions
    and no one entry: its functions; a Relax .py model with a KV cache: ["prefill",
    "decode"] until it is built), or [] for a model run as one call. Never raises: a path
    that is neither says []."""
    if (path / "manifest.json").is_file():
        try:
            manifest = Workspace.open(path).manifest
        except (KernelscopeError, OSError, ValueError):
            return []
        return [] if manifest.entry else [f.name for f in manifest.functions]
    if path.suffix != ".py" or not path.is_file():
        return []
    try:
        with path.open(encoding="utf-8", errors="replace") as f:
            text = f.read(1 << 20)
    except OSError:
        return []
    return ["prefill", "decode"] if _KV_CACHE.search(text) else []
