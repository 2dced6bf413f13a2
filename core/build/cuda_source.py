"""The CUDA source TVM generated, read out of what it built (TVM is imported only when called)."""

from __future__ import annotations

from typing import Any

from ..errors import KernelscopeError

NO_CUDA_IN_BUILD = "TVM's build holds no CUDA module: nothing to run on the GPU"


def cuda_source(built: Any, missing: str = NO_CUDA_IN_BUILD) -> str:
    """The source of the first CUDA module in ``built``'s import tree, breadth first.

    ``built`` is either what ``tvm.compile``/``relax.build`` return for a model (a
    ``tvm.runtime.Executable``: the build pipeline, the benchmarks) or a runtime module, as
    MetaSchedule's builder hands a built candidate to its export (``tuning.batch``); for an
    executable the search starts at its module. ``missing`` is the error's message when there
    is none, so that each caller says it in its own words.
    """
    from tvm.runtime import Executable

    pending = [built.mod if isinstance(built, Executable) else built]
    while pending:
        module = pending.pop(0)
        if "cuda" in str(module.kind):
            return str(module.inspect_source("cuda"))
        pending.extend(module.imports)
    raise KernelscopeError(missing)
