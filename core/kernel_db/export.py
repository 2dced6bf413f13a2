"""Turn the kernels of a build workspace into kernel DB rows, and export them.

For each kernel: its NNFusion identifier and parameter order (``nnfusion_ident``), its
``Function`` JSON (``nnfusion_function``), ``Miscs.external_profile`` from a measured mean
time, and kernelscope's record (all source files, SASS, provenance). A kernel NNFusion
cannot use is still stored, for browsing, but as ``Source="kernelscope"`` with no emitter
tags and a ``kernelscope:``-prefixed identifier NNFusion never computes, with the reasons
in ``Miscs.kernelscope.reasons``: an ``External`` row without ``BlockCudaEmitter`` would
abort NNFusion, and a row of an unknown OpType would hide every other row of its identifier.

Convolution patterns (Conv+Relu, Conv+Add+Relu) get a second row with DeviceType ``CUDA``:
NNFusion's pattern pass looks them up under ``CUDA``, its kernel selector under
``CUDA_GPU`` (kernel_db reference, 5.2).
"""

from __future__ import annotations

import dataclasses
import fnmatch
import hashlib
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import KernelscopeError
from ..nnfusion import cuda_scan as nnfusion_cuda
from ..nnfusion import function_json as nnfusion_function
from ..nnfusion import identifier as nnfusion_ident
from ..nnfusion.onnx_model import InitializerModel, find_model, write_initializer_model
from ..tasks import ProgressFn
from ..workspace import KernelInfo, KernelSass, Workspace
from .holdback import OperatorTimes, compare, is_held_back, note, reason
from .records import describe_tuning
from .store import DbEntry, EntryChange, KernelDB

EMITTER_TAGS = ["KernelEmitter", "CudaEmitter", "BlockCudaEmitter"]
AMBIGUITY_ALLOWED = "usable although NNFusion may run it for another computation: "
AMBIGUITY_KEPT = " (export with --allow-ambiguous to use it anyway)"  # ends such a reason
DEVICE_TYPE = "CUDA_GPU"
PATTERN_DEVICE_TYPE = "CUDA"

# kernel name -> (device name as CUDA reports it, e.g. "NVIDIA H200", mean time in ns)
KernelTimes = Mapping[str, tuple[str, float]]
# kernel name -> its line summary from the profile (``summaries.profile_line_summaries``)
KernelMetrics = Mapping[str, dict[str, Any]]


@dataclass
class ExportReport:
    db_path: Path
    changes: list[EntryChange] = field(default_factory=list)
    nnfusion_model: InitializerModel | None = None  # the model written for NNFusion, if asked

    @property
    def primary(self) -> list[EntryChange]:
        """One change per kernel (without the DeviceType="CUDA" pattern copies)."""
        return [c for c in self.changes if not c.kernel_name.endswith(" [CUDA]")]

    def summary(self) -> str:
        rows = self.primary
        counts = {s: sum(c.status == s for c in rows) for s in ("added", "updated", "unchanged")}
        flagged = [c for c in rows if not c.usable]
        held = [c for c in flagged if is_held_back(c.reasons)]
        lines = [
            f"{self.db_path}: {len(rows)} kernels: {counts['added']} added, "
            f"{counts['updated']} updated, {counts['unchanged']} unchanged; "
            f"{len(rows) - len(flagged)} usable by NNFusion, {len(flagged)} stored for "
            "browsing only"
            + (f" ({len(held)} held back: slower than NNFusion without them)" if held else "")
        ]
        for c in rows:
            what = c.status + (f" ({', '.join(c.changed)})" if c.changed else "")
            lines.append(f"  {c.kernel_name}: {what}  {c.identifier[:90]}")
            if not c.usable:
                lines += [
                    f"      {'HELD BACK' if is_held_back([r]) else 'not for NNFusion'}: "
                    f"{r.removeprefix('held back: ')}"
                    for r in c.reasons
                ]
            if c.replaced:
                lines.append(f"      replaced {len(c.replaced)} older row(s) of this identifier")
            if c.others_for_identifier:
                lines.append(
                    f"      note: {c.others_for_identifier} other row(s) have this identifier; "
                    "NNFusion's kernel selection takes the first it reads whatever the times "
                    "(only block fusion ranks them): --replace keeps only this one"
                )
        return "\n".join(lines)


def select_kernels(ws: Workspace, patterns: Sequence[str] | None) -> list[KernelInfo]:
    kernels = ws.manifest.kernels
    if not patterns:
        return list(kernels)
    chosen = [k for k in kernels if any(fnmatch.fnmatchcase(k.name, p) for p in patterns)]
    if not chosen:
        raise KernelscopeError(
            f"no kernel of {ws.path} matches {', '.join(patterns)}",
            hint="kernels: " + ", ".join(k.name for k in kernels),
        )
    return chosen


def entries_for_kernel(
    ws: Workspace,
    kernel: KernelInfo,
    time: tuple[str, float] | None = None,
    ncu_version: str | None = None,
    metrics: dict[str, Any] | None = None,
    allow_ambiguous: bool = False,
    hold_back: OperatorTimes | None = None,
) -> list[DbEntry]:
    """The row for one kernel, plus its DeviceType="CUDA" twin for Convolution patterns.

    A kernel whose identifier NNFusion shares with a different computation (``ambiguity``)
    is stored not usable, with the reason, unless ``allow_ambiguous``. With ``hold_back``
    (NNFusion's own per-operator times), a usable row slower than NNFusion's own kernel for
    its operator is stored not usable too (``holdback``).
    """
    text = ws.source_text(kernel)
    prelude_path, prelude = _prelude(ws, kernel)
    source = nnfusion_cuda.parse_kernel(text)
    written_names = nnfusion_cuda.written_params(source.body, [p.name for p in source.params])
    written = {i for i, p in enumerate(source.params) if p.name in written_names}
    op = nnfusion_ident.map_kernel(kernel, written)
    func = nnfusion_function.make_function(
        text,
        op.op_type,
        op.param_names if op.supported else None,
        kernel.grid,
        kernel.block,
        kernel.dynamic_smem_bytes,
        prelude,
    )
    usable = op.supported and func.block_fusion
    reasons = op.reasons + ([] if not op.supported else func.reasons)
    notes = op.notes + func.notes
    if usable and op.ambiguity:
        if allow_ambiguous:
            notes.append(f"{AMBIGUITY_ALLOWED}{op.ambiguity}")
        else:
            usable = False
            reasons.append(f"{op.ambiguity}{AMBIGUITY_KEPT}")
    tuning = tuning_provenance(ws, kernel)
    if usable and hold_back is not None:
        profile_us = (time[0], time[1] / 1000.0) if time else None
        verdict = compare(hold_back, op.identifier, tuning, profile_us)
        if verdict.held_back:
            usable = False
            reasons.append(reason(verdict, hold_back.device))
        else:
            notes.append(note(verdict, hold_back.device))
    nnfusion_identifier = op.identifier if op.supported else ""
    identifier = op.identifier
    if op.supported and not usable:
        identifier = f"{nnfusion_ident.FOREIGN_PREFIX}{kernel.name}:{op.identifier}"
    resource = math.ceil(math.prod(kernel.block) / 32) * 32 * math.prod(kernel.grid)
    device_name, time_us = (time[0], time[1] / 1000.0) if time else (None, None)
    miscs = {
        "external_profile": {
            "time": f"{device_name}:{time_us:.4f};" if time else "",
            "resource": resource,
        },
        "kernelscope": {
            "kernel": kernel.name,
            "model": ws.manifest.model,
            "usable": usable,
            "reasons": reasons,
            "notes": notes,
            # how it was scheduled, for readers of the DB that do not know ks_tuning
            **({"schedule": describe_tuning(tuning)} if kernel.tuned is not None else {}),
        },
    }
    manifest = ws.manifest
    entry = DbEntry(
        key=_key(identifier, DEVICE_TYPE, func.function["function_body"]),
        identifier=identifier,
        op_type=op.op_type,
        attributes=op.attributes,
        source="External" if usable else "kernelscope",
        device_type=DEVICE_TYPE,
        function=func.function,
        tags=EMITTER_TAGS + op.extra_tags if usable else [],
        miscs=miscs,
        kernel_name=kernel.name,
        usable=usable,
        reasons=reasons,
        notes=notes,
        nnfusion_identifier=nnfusion_identifier,
        relax_ops=[o.op for o in kernel.ops],
        shapes=[p.shape for p in kernel.params],
        provenance={
            "model": manifest.model,
            "model_sha256": manifest.model_sha256,
            "workspace": str(ws.path.resolve()),
            "arch": str(manifest.target.get("arch", "")),
            "tvm_version": manifest.versions.get("tvm", ""),
            "nvcc_version": manifest.versions.get("nvcc", ""),
            "ncu_version": ncu_version or "",
        },
        launch={
            "dynamic_smem_bytes": kernel.dynamic_smem_bytes,
            "static_smem_bytes": kernel.static_smem_bytes,
            "registers": kernel.registers,
            "sass_instructions": kernel.sass_instructions,
        },
        time_us=time_us,
        device_name=device_name,
        metrics=metrics,
        sources={kernel.file: text, **({prelude_path: prelude} if prelude_path else {})},
        sass=_sass_text(ws, kernel.name),
        tuning=tuning,
    )
    entries = [entry]
    if usable and op.pattern:
        key = _key(identifier, PATTERN_DEVICE_TYPE, func.function["function_body"])
        entries.append(
            dataclasses.replace(
                entry,
                key=key,
                device_type=PATTERN_DEVICE_TYPE,
                kernel_name=f"{kernel.name} [CUDA]",
                twin_of=entry.key,
                notes=[*notes, "copy for NNFusion's pattern substitution, which looks up 'CUDA'"],
            )
        )
    return entries


def tuning_provenance(ws: Workspace, kernel: KernelInfo) -> dict[str, Any]:
    """Where a kernel's schedule came from, as ``ks_tuning`` stores it: "tuned" with the
    tuning's trials and times when the build took it from a record, else "default" (with the
    database that had no record for it, when the build applied one; with the trials and
    times where the record applied was the default schedule itself, no candidate beating it)."""
    manifest = ws.manifest
    tuning: dict[str, Any] = {
        "schedule": "default",
        "tuning_db": manifest.tuning_db,
        "arch": str(manifest.target.get("arch", "")),
    }
    tuned = kernel.tuned
    if tuned is not None:
        tuning.update(
            schedule="default" if tuned.default_kept else "tuned",
            trials=tuned.trials,
            best_us=tuned.best_us,
            default_us=tuned.default_us,
            tuner="MetaSchedule",
            measured_on=tuned.measured_on,
        )
    return tuning


def entries_from_workspace(
    ws: Workspace,
    kernels: Sequence[str] | None = None,
    times: KernelTimes | None = None,
    ncu_version: str | None = None,
    progress: ProgressFn | None = None,
    metrics: KernelMetrics | None = None,
    allow_ambiguous: bool = False,
    hold_back: OperatorTimes | None = None,
) -> list[DbEntry]:
    times = times or {}
    metrics = metrics or {}
    chosen = select_kernels(ws, kernels)
    entries = []
    for i, k in enumerate(chosen):
        if progress is not None:
            progress("prepare", i / len(chosen), k.name)
        entries += entries_for_kernel(
            ws, k, times.get(k.name), ncu_version, metrics.get(k.name), allow_ambiguous,
            hold_back,
        )  # fmt: skip
    return entries


def export_workspace(
    workspace: str | os.PathLike[str] | Workspace,
    db_path: str | os.PathLike[str],
    kernels: Sequence[str] | None = None,
    times: KernelTimes | None = None,
    *,
    ncu_version: str | None = None,
    replace_identifier: bool = False,
    timeout: float = 10.0,
    progress: ProgressFn | None = None,
    metrics: KernelMetrics | None = None,
    allow_ambiguous: bool = False,
    nnfusion_model: str | os.PathLike[str] | None = None,
    source_model: str | os.PathLike[str] | None = None,
    hold_back: OperatorTimes | None = None,
) -> ExportReport:
    """Export kernels of a workspace into the DB at ``db_path`` in one transaction.

    ``progress`` hears ("prepare", fraction, kernel) per kernel, then ("write", None, path).
    ``metrics`` (``summaries.profile_line_summaries``) is stored with each kernel it names.
    ``allow_ambiguous`` lets NNFusion use rows whose identifier it shares with a different
    computation (see ``NNFusionOp.ambiguity``). ``nnfusion_model``: also write the model
    NNFusion should compile there (``write_initializer_model``, from ``source_model`` or the
    model found next to the workspace); a missing source model fails before anything is
    written. ``hold_back``: NNFusion's own per-operator times (``holdback``); rows slower
    than them are held back (stored for browsing, with the reason).
    """
    ws = workspace if isinstance(workspace, Workspace) else Workspace.open(workspace)
    if nnfusion_model is not None:
        find_model(ws, source_model)
    entries = entries_from_workspace(
        ws, kernels, times, ncu_version, progress, metrics, allow_ambiguous, hold_back
    )
    if progress is not None:
        progress("write", None, str(db_path))
    with KernelDB.open(db_path, write=True, timeout=timeout) as db:
        changes = db.write(entries, replace_identifier=replace_identifier)
    report = ExportReport(Path(db_path), changes)
    if nnfusion_model is not None:
        if progress is not None:
            progress("model", None, str(nnfusion_model))
        report.nnfusion_model = write_initializer_model(ws, nnfusion_model, source_model)
    return report


def _key(identifier: str, device_type: str, body: str) -> str:
    """KernelCache.Key: only has to be unique; a digest keeps it short enough to type."""
    return hashlib.sha256(f"{identifier}\n{device_type}\n{body}".encode()).hexdigest()


def _prelude(ws: Workspace, kernel: KernelInfo) -> tuple[str, str]:
    """The prelude header a kernel file includes (path relative to the workspace, text)."""
    files = ws.manifest.files
    if "prelude" in files:
        path = ws.path / files["prelude"]
        if path.is_file():
            return files["prelude"], path.read_text(encoding="utf-8")
    guess = (ws.path / kernel.file).parent.parent / "tvm_prelude.cuh"
    if guess.is_file():
        return guess.relative_to(ws.path).as_posix(), guess.read_text(encoding="utf-8")
    return "", ""


def _sass_text(ws: Workspace, name: str) -> str | None:
    try:
        ks: KernelSass = ws.sass(name)
    except (KeyError, OSError, ValueError):
        return None
    lines = []
    for ins in ks.instructions:
        where = f"  // {os.path.basename(ins.file)}:{ins.line}" if ins.file else ""
        lines.append(f"/*{ins.offset:04x}*/ {ins.text}{where}")
    return "\n".join(lines)
