"""The NNFusion command line a kernel DB needs, derived from its rows.

* ``-fproduct_name``: the GPU the rows' times were measured on. NNFusion reads a row's time
  only under that name; a row without one counts as 10 µs. What it does with the times
  (checked with the real NNFusion, tests/test_nnfusion_real.py): its kernel selection takes
  the *first* External row of an identifier (SQLite's rowid order) whatever the times; only
  block fusion ranks rows, when kernels that run side by side need more than 4 x 80 blocks:
  it re-fetches each and takes the row with the smallest time x resource, and uses that time
  to schedule the fused kernel. Without ``-fproduct_name`` (or with another GPU's name) no
  row has a time and the first one stays.
* ``-fbiasadd_fix=true -fconst_folding_backend=CPU``: when a usable Convolution+Add+Relu row
  reads a per-channel bias (TVM's kernels, and the sample kernels of NNFusion's own tool).
  A row whose Add reads a whole tensor (kept from NNFusion unless allowed) needs the
  opposite, so a DB holding both kinds cannot give both the right numbers in one run.
"""

from __future__ import annotations

import collections
import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import KernelscopeError
from ..nnfusion.compiler import Flags, command_line, shell_text
from .export import AMBIGUITY_ALLOWED, DEVICE_TYPE
from .store import CacheRow

MODEL_PLACEHOLDER = "MODEL.onnx"


@dataclass
class NNFusionSettings:
    flags: Flags
    times: dict[str, int]  # GPU name -> usable rows with a time measured on it
    usable: int  # rows NNFusion's kernel selection can take (External, CUDA_GPU)
    untimed: int
    bias_rows: int  # Convolution+Add+Relu rows that read a per-channel bias
    tensor_add_rows: int  # Convolution+Add+Relu rows whose Add reads a whole tensor
    warnings: list[str] = field(default_factory=list)

    def for_model(self, model: str | os.PathLike[str] | None) -> NNFusionSettings:
        """These settings for one model: the bias fix needs constant folding only when the
        model's biases are not constants of the output's shape yet."""
        if model is None or not self.flags.bias_fix:
            return self
        from ..nnfusion.onnx_graph import nnfusion_graph

        folding = nnfusion_graph(Path(model)).constant_broadcasts > 0
        return dataclasses.replace(
            self, flags=dataclasses.replace(self.flags, const_folding=folding)
        )

    def command(
        self,
        db: str | os.PathLike[str],
        model: str | os.PathLike[str] = MODEL_PLACEHOLDER,
        binary: str = "nnfusion",
    ) -> list[str]:
        return command_line(model, Path(db).expanduser().resolve(), self.flags, binary)

    def describe(self, db: str | os.PathLike[str], model: str | None = None) -> list[str]:
        """The command and why each flag is there, one line each (for the CLI)."""
        lines = [shell_text(self.command(db, model or MODEL_PLACEHOLDER))]
        if model is None:
            lines.append(
                f"  {MODEL_PLACEHOLDER}: the model with its weights as initializers "
                "(export-db WS --nnfusion-model OUT.onnx writes the workspace's)"
            )
        if self.flags.product_name:
            lines.append(
                f"  -fproduct_name: {self.times.get(self.flags.product_name, 0)} of "
                f"{self.usable} usable rows carry a time measured on {self.flags.product_name}"
            )
        elif self.usable:
            lines.append("  no row carries a measured time: NNFusion ranks every row as 10 µs")
        if self.flags.bias_fix:
            lines.append(
                f"  -fbiasadd_fix=true: {self.bias_rows} Convolution+Add+Relu rows read a "
                "per-channel bias"
                + (
                    "; -fconst_folding_backend=CPU makes the model's bias a constant for it "
                    "(slow: export-db --nnfusion-model writes a model that needs no folding)"
                    if self.flags.const_folding
                    else ""
                )
            )
        lines += [f"  warning: {w}" for w in self.warnings]
        return lines


def row_kind(row: CacheRow) -> str:
    """For a Convolution+Add+Relu row: what its Add reads, "bias" or "tensor"."""
    if row.op_type != "Fused_Convolution_Add_Relu":
        return ""
    allowed_tensor = any(n.startswith(AMBIGUITY_ALLOWED) for n in row.notes)
    return "tensor" if allowed_tensor else "bias"


def usable_for_selection(row: CacheRow) -> bool:
    """What NNFusion's kernel selection takes: External CUDA_GPU rows with the emitter tag."""
    return (
        row.device_type == DEVICE_TYPE
        and row.source == "External"
        and "BlockCudaEmitter" in row.tags
        and row.usable
        and row.twin_of is None
    )


def nnfusion_settings(rows: list[CacheRow], product_name: str | None = None) -> NNFusionSettings:
    """The flags for a DB (or some of its rows); ``product_name`` overrides the GPU."""
    usable = [r for r in rows if usable_for_selection(r)]
    times: collections.Counter[str] = collections.Counter()
    for r in usable:
        times.update(r.times.keys())
    warnings: list[str] = []
    product = product_name
    if product_name is not None and times and product_name not in times:
        raise KernelscopeError(
            f"no row of this DB has a time measured on {product_name!r}; its times are for "
            + ", ".join(f"{g} ({n} rows)" for g, n in times.most_common())
            + f" (with -fproduct_name={product_name} NNFusion would rank every row as 10 µs)",
            hint="give one of those GPU names, or export times measured on that GPU "
            "(kernelscope export-db WS --profile REPORT)",
        )
    if product is None and times:
        product = times.most_common(1)[0][0]
        if len(times) > 1:
            warnings.append(
                "times were measured on several GPUs: "
                + ", ".join(f"{g} ({n} rows)" for g, n in times.most_common())
                + f"; using {product} (--product-name chooses)"
            )
    kinds = collections.Counter(row_kind(r) for r in usable)
    if kinds["bias"] and kinds["tensor"]:
        warnings.append(
            f"{kinds['tensor']} Convolution+Add+Relu rows read a whole tensor in their Add and "
            f"{kinds['bias']} a per-channel bias: -fbiasadd_fix=true (needed by the latter) "
            "hands the former the wrong data"
        )
    return NNFusionSettings(
        flags=Flags(product_name=product, bias_fix=bool(kinds["bias"])),
        times=dict(times),
        usable=len(usable),
        untimed=sum(1 for r in usable if not r.times),
        bias_rows=kinds["bias"],
        tensor_add_rows=kinds["tensor"],
        warnings=warnings,
    )
