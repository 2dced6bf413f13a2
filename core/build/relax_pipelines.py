"""The compilation pipelines a build can use (``build --pipeline NAME``).

* ``default``: TVM's default CUDA pipeline (``tvm.compile``'s: legalize, fuse, DLight,
  lower). Weights stay parameters in the layout the model has, so an ``nn.Linear`` weight
  (``[out, in]``) is transposed by a kernel on every call: in a decode step of a small Llama
  on an H200 60 % of the time went to such ``transpose`` kernels.
* ``mlc-llm``: what MLC-LLM's own pipeline (``mlc_llm/compiler_pass/pipeline.py``) does about
  that: ``relax.transform.FuseTransposeMatmul`` before legalization (its "phase 1"; TVM 0.27
  ships the pass), so that ``permute_dims(W)`` followed by ``matmul`` becomes one ``NT_matmul``
  kernel reading the weight as it is stored; then TVM's default pipeline. The functions keep
  their signatures (the packed weights go in as they are).
* ``lift-params``: ``relax.transform.LiftTransformParams`` before TVM's default pipeline: each
  function's computations on weights alone (the transposes) move into a function
  ``<name>_transform_params``, run once at load time; ``<name>`` then takes its results as its
  weights (``FunctionInfo.transforms_params``).

The default for a Python (Relax) model that creates a paged KV cache (an LLM the MLC-LLM way)
is ``mlc-llm``: it is the pipeline a TVM LLM user compiles with, its decode step has no
per-call weight transposes, and its functions are called as exported, with no weight
preprocessing step to run. Any other model (ONNX, a Python model without a KV cache) keeps
``default``, which builds what it always built.
"""

from __future__ import annotations

from typing import Any

from ..errors import KernelscopeError
from . import kv_cache_launches

PIPELINES = ("default", "mlc-llm", "lift-params")
LIFTED_SUFFIX = "_transform_params"  # LiftTransformParams' name for a lifted function


def check_pipeline(name: str) -> None:
    """Refuse a pipeline name kernelscope does not know ("" is the model's default)."""
    if name and name not in PIPELINES:
        raise KernelscopeError(
            f"--pipeline {name}: no such pipeline",
            hint=f"choose one of {', '.join(PIPELINES)}",
        )


def resolve(name: str, model_format: str, builtins: set[str]) -> str:
    """The pipeline a build uses: ``name``, or the model's default when it is "" (see the
    module's docstring); ``builtins``: the runtime builtins the model's functions call."""
    if name:
        return name
    llm = model_format == "relax-py" and kv_cache_launches.CREATE in builtins
    return "mlc-llm" if llm else "default"


def prepare(mod: Any, name: str) -> Any:
    """``mod`` after the pipeline's passes that run before TVM's default pipeline (``mod``
    itself may change: the build hands it to TVM and reads the loaded module no more)."""
    from tvm import relax

    if name == "mlc-llm":
        return relax.transform.FuseTransposeMatmul()(mod)
    if name == "lift-params":
        # Only functions with weights get a transform function (TVM makes an empty one for
        # every function with a num_input, the KV cache's creation too).
        for gvar, func in list(mod.functions.items()):
            attrs = getattr(func, "attrs", None)
            if (
                type(func).__name__ == "Function"
                and attrs
                and "num_input" in attrs
                and int(attrs["num_input"]) >= len(func.params)
            ):
                mod[gvar] = func.without_attr("num_input")
        return relax.transform.LiftTransformParams()(mod)
    return mod
