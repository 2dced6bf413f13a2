"""The ``Function`` JSON of a KernelCache row, as NNFusion's ``CacheBlockCudaEmitter`` reads it.

Fields (kernel_db reference, section 4): ``function_signature`` (nameless; NNFusion inserts
its own kernel name before the last ``(``), ``function_body`` (the original body),
``block_function_body`` (parameter aliases, then the body without its static
``__shared__`` declarations), ``shared_memory`` (those declarations as three parallel
lists), ``num_syncthreads``, ``grid_dim``, ``block_dim``.

The text follows ``convert_external.py`` where it is specific (alias lines in reverse
parameter order, the signature spellings per op type), so rows written here and rows
written by NNFusion's own tool look alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import cuda_scan as cuda


@dataclass
class FunctionJson:
    function: dict[str, Any]
    block_fusion: bool  # may carry the BlockCudaEmitter tag
    reasons: list[str] = field(default_factory=list)  # why it may not
    notes: list[str] = field(default_factory=list)
    kernel: cuda.KernelSource | None = None


def canonical_order(param_names: list[str]) -> list[int]:
    """Kernel parameter indices sorted as NNFusion passes them: input0.., then output0.."""

    def rank(i: int) -> tuple[int, int]:
        kind, _, index = param_names[i].partition("put")
        return (0 if kind == "in" else 1), int(index)

    return sorted(range(len(param_names)), key=rank)


def signature(
    op_type: str, kernel: cuda.KernelSource, param_names: list[str], canonical: bool = True
) -> str:
    """``extern "C" __global__  void (float* input0, ...)`` in canonical parameter order."""
    order = canonical_order(param_names) if canonical else list(range(len(param_names)))
    if op_type == "Dot":  # convert_external.py's spelling for Dot
        args = ",  ".join(f"{kernel.params[i].ctype} __restrict__ {param_names[i]}" for i in order)
    else:
        args = ", ".join(f"{kernel.params[i].ctype} {param_names[i]}" for i in order)
    return f'extern "C" __global__  void ({args})'


def block_body(kernel: cuda.KernelSource, param_names: list[str], body_without_shared: str) -> str:
    """Alias lines (``float* x_ptr = input0;``), last parameter first, then the body."""
    text = body_without_shared
    for param, name in zip(kernel.params, param_names, strict=True):
        if param.name != name:
            text = f"{param.ctype} {param.name} = {name};\n" + text
    return text


def make_function(
    source_text: str,
    op_type: str,
    param_names: list[str] | None,
    grid: list[int],
    block: list[int],
    dynamic_smem_bytes: int = 0,
    prelude: str = "",
) -> FunctionJson:
    """Build the Function JSON of one kernel file and decide whether block fusion may take it.

    ``param_names`` (canonical name per kernel parameter) is None for a kernel NNFusion
    cannot use; its Function is still written, with its own parameter names, for browsing.
    """
    kernel = cuda.parse_kernel(source_text)
    names = param_names or [p.name for p in kernel.params]
    reasons: list[str] = []
    notes: list[str] = []
    own_body, inlined = cuda.inline_prelude_helpers(kernel.body, prelude)
    if inlined:
        notes.append(
            f"{', '.join(inlined)} (device functions of TVM's prelude header, which NNFusion's "
            "generated code does not include) inlined into the body"
        )
    deps = cuda.prelude_dependencies(own_body, prelude)
    if deps:
        reasons.append(
            f"the body uses {', '.join(deps)} from TVM's prelude header, which NNFusion's "
            "generated code does not include"
        )
    body = cuda.expand_type_macros(own_body)
    if body != own_body:
        notes.append("uint/uchar/ushort (macros of TVM's prelude) expanded in the bodies")
    scan = cuda.scan_shared(body)
    reasons += scan.problems
    if scan.dropped_alignment:
        notes.append(
            "alignas() of the shared arrays is dropped: NNFusion places them in its own buffer"
        )
    if dynamic_smem_bytes:
        reasons.append(
            f"the kernel needs {dynamic_smem_bytes} bytes of dynamic shared memory; NNFusion "
            "launches cached kernels with 0"
        )
    syncs = cuda.count_syncthreads(own_body, source_text)
    if syncs.count is None:
        reasons.append(
            f"the number of __syncthreads() per thread cannot be established exactly "
            f"({syncs.reason}); a wrong count deadlocks block-fused kernels"
        )
    function = {
        "function_signature": signature(op_type, kernel, names, param_names is not None),
        "function_body": body,
        "grid_dim": list(grid),
        "block_dim": list(block),
        "block_function_body": block_body(kernel, names, scan.body_without),
        "shared_memory": {
            "symbol": [a.symbol for a in scan.arrays],
            "dtype": [a.dtype for a in scan.arrays],
            "size": [a.size for a in scan.arrays],
        },
        "num_syncthreads": syncs.count if syncs.count is not None else -1,
    }
    return FunctionJson(function, not reasons, reasons, notes, kernel)
