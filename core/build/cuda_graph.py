"""CUDA graphs the way MLC-LLM runs an LLM (``build --cuda-graph``).

TVM 0.27's Relax pipeline has ``RewriteCUDAGraph`` in its finalising passes; it acts only
when the PassContext says ``relax.backend.use_cuda_graph``. It lifts each run of kernel
calls whose memory is planned statically into a function ``<fn>_cuda_graph_capture<i>``
called through ``vm.builtin.cuda_graph.run_or_capture``: the first call captures the
region into a CUDA graph, later calls replay it (one ``cudaGraphLaunch``); the region's
storage comes from ``vm.builtin.cuda_graph.get_cached_alloc``, allocated once. What reads
the step's inputs or writes its outputs, and the KV cache's attention builtin (its kernels
are launched by the runtime between the regions), stays outside the graphs.

A decode function's intermediate sizes depend on its symbolic ``batch_size``, so nothing is
static and nothing would be captured. MLC-LLM attaches two function attributes first
(``AttachVariableBounds``, ``AttachCUDAGraphSymbolicCaptureHints``), and so does this
build: ``tir_var_upper_bound`` (the sizes memory is planned for: the ``--shape`` bindings)
and ``relax.rewrite_cuda_graph.capture_symbolic_vars`` (a graph is captured per value of
those variables), on each decode function: one taking the KV cache whose first input has
one token a sequence (``[batch, 1, ...]``).
"""

from __future__ import annotations

from typing import Any

from ..errors import KernelscopeError
from ..workspace import FunctionInfo

CONFIG_KEY = "relax.backend.use_cuda_graph"
RUN_OR_CAPTURE = "vm.builtin.cuda_graph.run_or_capture"
GET_CACHED_ALLOC = "vm.builtin.cuda_graph.get_cached_alloc"
CAPTURE_VARS = "relax.rewrite_cuda_graph.capture_symbolic_vars"
UPPER_BOUND = "tir_var_upper_bound"
PASS_NAME = "RewriteCUDAGraph"


def pass_config(enabled: bool) -> dict[str, Any]:
    return {CONFIG_KEY: True} if enabled else {}


def decode_functions(functions: list[FunctionInfo]) -> list[FunctionInfo]:
    """The functions that run one token a sequence against a KV cache."""
    out = []
    for f in functions:
        inputs = f.params[: f.num_input]
        tensors = [p for p in inputs if p.kind == "tensor" and len(p.shape) >= 2]
        if any(p.kind == "object" for p in inputs) and tensors and tensors[0].shape[1] == 1:
            out.append(f)
    return out


def attach_hints(mod: Any, functions: list[FunctionInfo], symbols: dict[str, int]) -> Any:
    """``mod`` with MLC-LLM's two hints on each decode function (see the module's docstring);
    a decode variable without a ``--shape`` value (its upper bound) is refused."""
    decode = decode_functions(functions)
    if not decode:
        names = ", ".join(f.name for f in functions) or "none"
        raise KernelscopeError(
            f"--cuda-graph: the model has no decode function to capture (one that takes a KV "
            f"cache and one token a sequence; its functions: {names})",
            hint="build without --cuda-graph; CUDA graphs are for an LLM's decode step",
            window_hint="untick CUDA graphs: they are for an LLM's decode step",
        )
    for f in decode:
        inputs = [p for p in f.params[: f.num_input] if p.kind == "tensor"]
        variables = [d for p in inputs for d in p.shape if isinstance(d, str)]
        variables = list(dict.fromkeys(variables))
        unbound = [v for v in variables if v not in symbols]
        if unbound:
            raise KernelscopeError(
                f"--cuda-graph: {f.name}'s {', '.join(unbound)} has no upper bound to plan "
                "the graph's memory for",
                hint=f"give it with --shape (--shape {unbound[0]}=1): the graph is captured "
                "for each value up to it",
                window_hint=f"give {unbound[0]} a value under Shapes (e.g. {unbound[0]}=1)",
            )
        gvar = mod.get_global_var(f.name)
        attrs = {
            UPPER_BOUND: {v: symbols[v] for v in variables},
            CAPTURE_VARS: variables,
        }
        mod[gvar] = mod[gvar].with_attrs(attrs)
    return mod
