"""How much of a step's kernel work leads back to a line of the user's model file.

A kernel leads to a model line when one of the Relax operators fused into it has an
``origin`` (``OpInfo.origin``) or, for a kernel TVM's runtime launches (the KV cache's
attention, rope and append), when the model line calling that builtin is known
(``LaunchSite.origin``). Each kernel counts with the launches one call of the function makes
(its ``call_tir`` sites, or one per builtin call) and, where a report gives them, its
profiled times (``times``: kernel name -> µs of one launch).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .manifest import KernelInfo, Manifest


@dataclass(frozen=True)
class ModelLineShare:
    function: str
    weighed_by: str  # "time" (a report's µs) or "launches"
    with_line: float  # µs or launches of kernels that lead to a model line
    total: float
    missing: tuple[str, ...]  # the kernels without one

    @property
    def share(self) -> float:
        return self.with_line / self.total if self.total else 0.0

    def text(self) -> str:
        unit = "of the kernel time" if self.weighed_by == "time" else "of the launches"
        line = f"model lines: {self.share:.1%} {unit} of one {self.function} call"
        return line + (f" (none for {', '.join(self.missing)})" if self.missing else "")


def kernel_origin(kernel: KernelInfo, function: str = "") -> str:
    """The model line a kernel leads to (its first operator with one, else the line calling
    the builtin that launches it, in ``function`` when given); "" when none is known."""
    for op in kernel.ops:
        if op.origin:
            return op.origin
    for site in kernel.launched_by:
        if site.origin and (not function or site.function == function):
            return site.origin
    return ""


def model_lines(kernel: KernelInfo) -> tuple[str, ...]:
    """Each model line a kernel's operators came from, once, in program order, as people
    read it: ``llama_mlc.py:73  return self.down_proj(op.silu(gate) * up)``; for a kernel
    the KV cache's runtime launches, the line calling it."""
    found = {op.origin: op.origin_text for op in kernel.ops if op.origin}
    if not found:
        found = {s.origin: s.origin_text for s in kernel.launched_by if s.origin}
    return tuple(f"{where}  {text}" for where, text in found.items())


def launches_per_call(manifest: Manifest, kernel: KernelInfo, function: str) -> int:
    """How often one call of ``function`` launches ``kernel`` (0: it does not)."""
    func = next((f for f in manifest.functions if f.name == function), None)
    if func is None:
        return 0
    count = 0
    for site in kernel.launched_by:
        if site.function != function:
            continue
        if site.via == "call_tir":
            count += func.calls.count(kernel.primfunc)
        else:
            count += func.builtins.count(site.via)
    return count


def model_line_share(
    manifest: Manifest, function: str, times: Mapping[str, float] | None = None
) -> ModelLineShare | None:
    """The share of one ``function`` call's kernel launches (or, with ``times``, kernel
    time) that leads to a model line; None when the manifest records no model lines (not a
    ``tvm.relax.frontend.nn`` model, or built before they were recorded), no such function,
    or ``times`` lacks one of its kernels (a report of other steps)."""
    if not any(op.origin for k in manifest.kernels for op in k.ops):
        return None
    with_line = total = 0.0
    missing: list[str] = []
    for kernel in manifest.kernels:
        n = launches_per_call(manifest, kernel, function)
        if not n:
            continue
        if times is not None and kernel.name not in times:
            return None  # the report did not run this function's calls
        weight = n * times.get(kernel.name, 0.0) if times is not None else float(n)
        total += weight
        if kernel_origin(kernel, function):
            with_line += weight
        else:
            missing.append(kernel.name)
    if not total:
        return None
    return ModelLineShare(
        function, "time" if times is not None else "launches", with_line, total, tuple(missing)
    )
