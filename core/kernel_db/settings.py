"""Which NNFusion flags a kernel DB needs, derived from its rows, and why each is there
(the command line itself, and what each flag does, is ``nnfusion.command``).

* the GPU for ``-fproduct_name``: the one the rows' times were measured on. NNFusion reads a
  row's time only under that name; a row without one counts as 10 µs. What it does with the
  times (checked with the real NNFusion, tests/nnfusion/test_nnfusion_real.py): its kernel selection
  takes the *first* External row of an identifier (SQLite's rowid order) whatever the times;
  only block fusion ranks rows, when kernels that run side by side need more than 4 x 80
  blocks: it re-fetches each and takes the row with the smallest time x resource, and uses
  that time to schedule the fused kernel. Without ``-fproduct_name`` (or with another GPU's
  name) no row has a time and the first one stays.
* the bias fix: when a usable Convolution+Add+Relu row reads a per-channel bias (TVM's
  kernels, and the sample kernels of NNFusion's own tool). A row whose Add reads a whole
  tensor (kept from NNFusion unless allowed) needs the opposite, so a DB holding both kinds
  cannot give both the right numbers in one run.
"""

from __future__ import annotations

import collections
import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import KernelscopeError
from ..nnfusion.command import (
    BIAS_FLAG,
    FOLDING_FLAG,
    MODEL_PLACEHOLDER,
    Flags,
    command_line,
    shell_text,
)
from .export import AMBIGUITY_ALLOWED, AMBIGUITY_KEPT, DEVICE_TYPE
from .store import CacheRow

CLI_MODEL_HINT = (
    "the model with its weights as initializers "
    "(export-db WS --nnfusion-model OUT.onnx writes the workspace's)"
)


@dataclass
class NNFusionSettings:
    """What a DB's rows need of NNFusion's command line, with the counts that say why."""

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

    def explain(self, model: str | None = None) -> list[tuple[str, str]]:
        """Why each part of the command is there: (flag or argument, why), for the CLI's
        lines and the DB panel."""
        out: list[tuple[str, str]] = []
        if model is None:
            out.append(
                (
                    MODEL_PLACEHOLDER,
                    "the model with its weights as initializers and its biases broadcast "
                    "(written by an export with the NNFusion model option)",
                )
            )
        out.append(("-fkernel_cache_path", "NNFusion reads this DB instead of its default one"))
        if self.flags.product_name:
            out.append(
                (
                    f"-fproduct_name={self.flags.product_name}",
                    f"{self.times.get(self.flags.product_name, 0)} of {self.usable} usable rows "
                    f"carry a time measured on {self.flags.product_name}; rows without one "
                    "count as 10 µs where NNFusion ranks them (block fusion)",
                )
            )
        elif self.usable:
            out.append(
                ("(no -fproduct_name)", "no row carries a measured time: every row counts 10 µs")
            )
        if self.flags.bias_fix:
            out.append(
                (
                    BIAS_FLAG,
                    f"{self.bias_rows} Convolution+Add+Relu rows read a per-channel bias; "
                    "without it they read bias[c] from NNFusion's broadcast operand: wrong numbers",
                )
            )
            if self.flags.const_folding:
                out.append(
                    (
                        FOLDING_FLAG,
                        "makes the model's Conv biases constants for the bias fix (slow; the "
                        "model an export writes for NNFusion needs no folding)",
                    )
                )
        return out

    def describe(self, db: str | os.PathLike[str], model: str | None = None) -> list[str]:
        """The command and why each flag is there, one line each (for the CLI)."""
        lines = [shell_text(self.command(db, model or MODEL_PLACEHOLDER))]
        for flag, why in self.explain(model):
            if flag == MODEL_PLACEHOLDER:
                why = CLI_MODEL_HINT
            if flag != "-fkernel_cache_path":
                lines.append(f"  {flag}: {why}")
        lines += [f"  warning: {w}" for w in self.warnings]
        if len(self.times) > 1:
            lines.append("  --product-name GPU chooses another GPU's times")
        return lines


@dataclass(frozen=True)
class RowVerdict:
    """What NNFusion makes of one row, for the DB panel: ``state`` is "usable", "ambiguous"
    (usable, but NNFusion may run it for another computation), "kept" (kernelscope keeps it
    from NNFusion; ``ambiguous`` when only the ambiguity does), or "unusable" (another
    tool's row NNFusion's kernel selection cannot take); ``why`` says why."""

    state: str
    why: str = ""
    ambiguous: bool = False


def row_verdict(row: CacheRow) -> RowVerdict:
    """What NNFusion makes of ``row`` (the reasons without the CLI's --allow-ambiguous)."""
    allowed = [
        n.removeprefix(AMBIGUITY_ALLOWED) for n in row.notes if n.startswith(AMBIGUITY_ALLOWED)
    ]
    if usable_for_selection(row):
        if allowed:
            return RowVerdict("ambiguous", allowed[0], ambiguous=True)
        return RowVerdict("usable")
    if not row.usable:
        reasons = [r.removesuffix(AMBIGUITY_KEPT) for r in row.reasons]
        only_ambiguity = bool(reasons) and all(r.endswith(AMBIGUITY_KEPT) for r in row.reasons)
        return RowVerdict("kept", "; ".join(reasons) or "no reason recorded", only_ambiguity)
    if row.twin_of is not None:
        return RowVerdict("usable", "the copy NNFusion's pattern substitution looks up")
    return RowVerdict(
        "unusable",
        f"NNFusion's kernel selection takes only External {DEVICE_TYPE} rows tagged "
        "BlockCudaEmitter",
    )


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


class NoTimesFor(KernelscopeError):
    """The GPU asked for has no time in the DB, which has times of other GPUs: NNFusion
    would rank every row as 10 µs with its name (the DB's own GPU is what a window falls
    back to)."""


def nnfusion_settings(rows: list[CacheRow], product_name: str | None = None) -> NNFusionSettings:
    """The flags for a DB (or some of its rows); ``product_name`` overrides the GPU (a
    ``NoTimesFor`` when no row has a time measured on it but some have others')."""
    usable = [r for r in rows if usable_for_selection(r)]
    times: collections.Counter[str] = collections.Counter()
    for r in usable:
        times.update(r.times.keys())
    warnings: list[str] = []
    product = product_name
    if product_name is not None and times and product_name not in times:
        raise NoTimesFor(
            f"no row of this DB has a time measured on {product_name!r}; its times are for "
            + ", ".join(f"{g} ({n} row{'s' * (n != 1)})" for g, n in times.most_common())
            + f" (with -fproduct_name={product_name} NNFusion would rank every row as 10 µs)",
            hint="give one of those GPU names, or export times measured on that GPU "
            "(kernelscope export-db WS --profile REPORT)",
            window_hint="choose one of those GPUs, or export kernels from a profile made on "
            "that GPU (open it, then Export to Kernel DB)",
        )
    if product is None and times:
        product = times.most_common(1)[0][0]
        if len(times) > 1:
            warnings.append(
                "times were measured on several GPUs: "
                + ", ".join(f"{g} ({n} row{'s' * (n != 1)})" for g, n in times.most_common())
                + f"; the command uses {product}'s, and the other GPUs' rows count as 10 µs"
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
