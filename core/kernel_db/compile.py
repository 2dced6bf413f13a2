"""Compiling a model with the real NNFusion and the DB, and what it did with each row.

Per row NNFusion's kernel selection can take: whether NNFusion looked its identifier up,
fetched it, substituted a pattern with it (DeviceType ``CUDA`` copies) and put its body into
the code it generated; then every identifier it looked up and found nothing for.
"""

from __future__ import annotations

import collections
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..nnfusion.compiler import NNFusionRun, run_nnfusion
from ..nnfusion.onnx_graph import nnfusion_graph
from ..tasks import Cancel
from .coverage import check_weights
from .settings import NNFusionSettings, nnfusion_settings, usable_for_selection
from .store import CacheRow, KernelDB


@dataclass
class RowUse:
    row: CacheRow
    looked_up: int  # times NNFusion asked for its identifier (under its DeviceType)
    fetched: bool
    substituted: bool  # DeviceType "CUDA" rows: the pattern was replaced
    in_code: bool  # its block body is in the generated code


@dataclass
class CompileReport:
    run: NNFusionRun
    settings: NNFusionSettings
    rows: list[RowUse] = field(default_factory=list)
    missed: collections.Counter[tuple[str, str]] = field(default_factory=collections.Counter)

    @property
    def usable(self) -> list[RowUse]:
        return [u for u in self.rows if usable_for_selection(u.row)]

    @property
    def used(self) -> list[RowUse]:
        return [u for u in self.usable if u.in_code]

    def summary_line(self) -> str:
        return (
            f"NNFusion used {len(self.used)} of the {len(self.usable)} rows it could take "
            f"(their kernels are in the generated code); it found no row for "
            f"{len(self.missed)} identifiers; project: {self.run.codegen_dir}"
        )


def _normalise(text: str) -> str:
    return re.sub(r"\s+", "", text)


def compile_with_db(
    model: str | os.PathLike[str],
    db_path: str | os.PathLike[str],
    out_dir: str | os.PathLike[str],
    *,
    product_name: str | None = None,
    binary: str | os.PathLike[str] | None = None,
    timeout: float | None = None,
    cancel: Cancel | None = None,
) -> CompileReport:
    """Run NNFusion on ``model`` with the DB and the command line it needs (``settings``).

    A model whose weights are graph inputs is refused first (see ``coverage``)."""
    check_weights(nnfusion_graph(Path(model)))
    with KernelDB.open(db_path) as db:
        rows = db.cache_rows()
        functions = db.functions(r.key for r in rows)
    settings = nnfusion_settings(rows, product_name).for_model(model)
    run = run_nnfusion(model, db_path, out_dir, settings.flags, binary, timeout, cancel)
    code = [_normalise(t) for t in run.generated_code().values()]
    log = run.log
    report = CompileReport(run, settings)
    for r in rows:
        body = _normalise(str(functions.get(r.key, {}).get("block_function_body", "")))
        report.rows.append(
            RowUse(
                row=r,
                looked_up=log.lookups.get((r.identifier, r.device_type), 0),
                fetched=(r.identifier, r.device_type) in log.fetched,
                substituted=r.device_type == "CUDA" and r.identifier in log.substituted,
                in_code=bool(body) and any(body in c for c in code),
            )
        )
    known = {(r.identifier, r.device_type) for r in rows}
    report.missed = collections.Counter(
        {k: n for k, n in log.kernel_lookups().items() if k not in known}
    )
    return report
