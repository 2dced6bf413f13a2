"""Where kernelscope keeps caches: platformdirs' user cache folder, or $KERNELSCOPE_CACHE_DIR."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs


def cache_root() -> Path:
    override = os.environ.get("KERNELSCOPE_CACHE_DIR")
    root = Path(override) if override else Path(platformdirs.user_cache_dir("kernelscope"))
    root.mkdir(parents=True, exist_ok=True)
    return root
