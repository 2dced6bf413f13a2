"""Whole-model coverage: what NNFusion will look up for a model, which rows serve it, and
building the missing ones.

API for the CLI and the DB panel::

    cov = model_coverage("resnet50.onnx", "kernels.db", product_name=None)
    cov.items          # one CoverageItem per distinct lookup (identifier, DeviceType)
    cov.counts()       # {"covered": 33, "missing": 20, "nnfusion": 31, ...}
    cov.command        # the NNFusion command line the coverage assumes
    report = build_missing("resnet50.onnx", "kernels.db", workspace="missing.kscope")
    report.before, report.after, report.built, report.skipped

Statuses: ``covered`` (NNFusion takes a row), ``wrong`` (it takes a row that computes
something else: an allowed ambiguous row of the other transpose or Add kind), ``flagged``
(kernelscope holds a kernel for it but kept it from NNFusion, with the reasons), ``missing``
(a SupportOpList type without a row: ``--build-missing`` builds it), ``nnfusion`` (not a type
NNFusion takes from its cache: its own kernels run).
"""

from __future__ import annotations

import collections
import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import KernelscopeError
from ..nnfusion import missing_ops
from ..nnfusion.command import Flags
from ..nnfusion.compiler import NNFusionLog
from ..nnfusion.onnx_graph import SUPPORT_OP_LIST, Lookup, NNFusionGraph, nnfusion_graph
from ..tasks import Cancel, ProgressFn, check_cancel, no_progress
from .export import PATTERN_DEVICE_TYPE, entries_from_workspace
from .settings import NNFusionSettings, nnfusion_settings, row_kind
from .store import CacheRow, KernelDB

STATUSES = ("covered", "wrong", "flagged", "missing", "nnfusion")


@dataclass
class CoverageItem:
    lookup: Lookup
    status: str
    row: CacheRow | None = None  # the row NNFusion takes (covered, wrong) or kept (flagged)
    why: str = ""  # for wrong, flagged, missing and nnfusion

    @property
    def identifier(self) -> str:
        return self.lookup.identifier


@dataclass
class LookupCheck:
    """Where kernelscope's predicted lookups and the real NNFusion's differ."""

    only_kernelscope: list[str] = field(default_factory=list)  # "[DeviceType] identifier"
    only_nnfusion: list[str] = field(default_factory=list)

    @property
    def same(self) -> bool:
        return not self.only_kernelscope and not self.only_nnfusion


@dataclass
class Coverage:
    model: str
    db_path: Path
    settings: NNFusionSettings
    graph: NNFusionGraph
    items: list[CoverageItem] = field(default_factory=list)

    @property
    def command(self) -> list[str]:
        return self.settings.command(self.db_path, self.model)

    def counts(self) -> dict[str, int]:
        found = collections.Counter(i.status for i in self.items)
        return {s: found.get(s, 0) for s in STATUSES}

    def cache_lookups(self) -> list[CoverageItem]:
        """The lookups a DB row could serve (SupportOpList types)."""
        return [i for i in self.items if i.status != "nnfusion"]

    def check(self, log: NNFusionLog) -> LookupCheck:
        """These predicted lookups against what the real NNFusion logged."""
        mine = {(i.identifier, i.lookup.device_type) for i in self.items}
        real = set(log.kernel_lookups())
        return LookupCheck(
            only_kernelscope=sorted(f"[{d}] {i}" for i, d in mine - real),
            only_nnfusion=sorted(f"[{d}] {i}" for i, d in real - mine),
        )

    def summary_line(self) -> str:
        c = self.counts()
        cache = len(self.cache_lookups())
        return (
            f"{self.model}: NNFusion looks up {len(self.items)} distinct kernels; {cache} of "
            f"them a DB can serve: {c['covered']} covered, {c['missing']} missing, "
            f"{c['flagged']} kept from NNFusion, {c['wrong']} served by a row computing "
            f"something else; {c['nnfusion']} are NNFusion's own"
        )


def _fetch(rows: list[CacheRow]) -> list[CacheRow]:
    """KernelCacheManager::fetch_all: one row of an unknown OpType discards all of them."""
    return [] if any(r.op_type not in SUPPORT_OP_LIST for r in rows) else rows


def _transposes(row: CacheRow) -> tuple[bool, bool]:
    params = row.attributes.get("parameters", {}) if isinstance(row.attributes, dict) else {}
    params = params if isinstance(params, dict) else {}
    return (
        bool(params.get("transpose_A", "transA" in row.tags)),
        bool(params.get("transpose_B", "transB" in row.tags)),
    )


def _mismatch(lookup: Lookup, row: CacheRow) -> str:
    """Why ``row`` computes something other than ``lookup``'s node ("" when it does not)."""
    attrs = lookup.attributes
    if lookup.op_type == "Dot":
        want = (bool(attrs.get("transpose_A")), bool(attrs.get("transpose_B")))
        have = _transposes(row)
        if want != have:
            return (
                f"the model's Dot is {_product(*want)}, the row's kernel computes "
                f"{_product(*have)} (NNFusion's Dot identifier has no transpose)"
            )
    if lookup.op_type == "Fused_Convolution_Add_Relu" and row.op_type == lookup.op_type:
        kind = row_kind(row)
        operand = attrs.get("add_operand")
        if operand == "tensor" and kind == "bias":
            return "the model's Add reads a tensor, the row's kernel a per-channel bias"
        if operand == "constant" and kind == "tensor":
            return "the model's Add is a bias, the row's kernel reads a whole tensor"
    return ""


def _product(ta: bool, tb: bool) -> str:
    return f"A{'ᵀ' if ta else ''}·B{'ᵀ' if tb else ''}"


def _item(lookup: Lookup, rows: list[CacheRow], flagged: list[CacheRow]) -> CoverageItem:
    if not lookup.supported:
        return CoverageItem(
            lookup, "nnfusion", why=f"{lookup.op_type} is not a type NNFusion takes from a DB"
        )
    fetched = _fetch(rows)
    if rows and not fetched:
        odd = sorted({r.op_type for r in rows if r.op_type not in SUPPORT_OP_LIST})
        return CoverageItem(
            lookup, "missing", why=f"a row of OpType {', '.join(odd)} hides every row of it"
        )
    if lookup.device_type == PATTERN_DEVICE_TYPE:
        chosen = fetched[0] if fetched else None
    else:
        chosen = next(
            (r for r in fetched if r.source == "External" and "BlockCudaEmitter" in r.tags), None
        )
    if chosen is not None:
        why = "; ".join([_mismatch(lookup, chosen), *lookup.conflicts]).strip("; ")
        return CoverageItem(lookup, "wrong" if why else "covered", chosen, why)
    if lookup.conflicts:
        return CoverageItem(
            lookup, "missing", why="no single kernel is right for all its nodes: "
            + "; ".join(lookup.conflicts)
        )  # fmt: skip
    kept = [r for r in flagged if r.nnfusion_identifier == lookup.identifier and not r.usable]
    if kept:
        return CoverageItem(lookup, "flagged", kept[0], "; ".join(kept[0].reasons))
    return CoverageItem(lookup, "missing", why="no row")


def _open_rows(db_path: Path) -> list[CacheRow]:
    if not db_path.exists():
        return []  # a DB not written yet covers nothing
    with KernelDB.open(db_path) as db:
        return db.cache_rows()


class WeightsAsInputs(KernelscopeError):
    """A model whose weights are graph inputs: NNFusion needs the initializer copy
    (``nnfusion.write_initializer_model`` from a build of it)."""

    def __init__(self, model: str, names: list[str]) -> None:
        shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
        super().__init__(
            f"{model}: {len(names)} weights are graph inputs ({shown}); NNFusion needs them as "
            "initializers: it folds only constants (so the identifiers differ), gives TVM's "
            "Convolution+bias kernels their bias only from a constant, and crashes with "
            "-fbiasadd_fix=true on one that is not",
            hint="write a copy with the weights as initializers from a build of it: kernelscope "
            "build MODEL -o WS, then kernelscope export-db WS --db DB --nnfusion-model COPY.onnx",
            window_hint="open (or build) the workspace built from this model, then write the "
            "copy NNFusion needs with Write the NNFusion copy (Kernel DB, Coverage tab)",
        )
        self.model = model
        self.names = names


def check_weights(graph: NNFusionGraph) -> None:
    """Refuse a model whose weights are graph inputs, offering the initializer copy."""
    if graph.weights_as_inputs:
        raise WeightsAsInputs(graph.model, list(graph.weights_as_inputs))


def model_coverage(
    model: str | os.PathLike[str],
    db_path: str | os.PathLike[str],
    product_name: str | None = None,
    *,
    settings: NNFusionSettings | None = None,
    extra_rows: set[tuple[str, str]] | None = None,
) -> Coverage:
    """What NNFusion looks up for ``model`` with the DB and its command line, and which rows
    serve it. ``extra_rows`` pretends rows exist (planning what to build)."""
    path = Path(db_path).expanduser()
    rows = _open_rows(path)
    settings = (settings or nnfusion_settings(rows, product_name)).for_model(model)
    by_key: dict[tuple[str, str], list[CacheRow]] = collections.defaultdict(list)
    for r in rows:
        by_key[(r.identifier, r.device_type)].append(r)
    pretend = extra_rows or set()

    def has_row(identifier: str, device: str) -> bool:
        return bool(_fetch(by_key.get((identifier, device), []))) or (identifier, device) in (
            pretend
        )

    flags = settings.flags
    graph = nnfusion_graph(
        Path(model), has_row, const_folding=flags.bias_fix and flags.const_folding,
        bias_fix=flags.bias_fix,
    )  # fmt: skip
    check_weights(graph)
    real = {r.nnfusion_identifier: r for r in rows if not r.usable}
    items = []
    for lk in graph.lookups:
        flagged = [real[lk.identifier]] if lk.identifier in real else []
        items.append(_item(lk, by_key.get((lk.identifier, lk.device_type), []), flagged))
    items.sort(key=lambda i: (STATUSES.index(i.status), i.lookup.op_type, i.identifier))
    return Coverage(str(model), path, settings, graph, items)


# --- building what is missing ---------------------------------------------------------


@dataclass
class BuildMissingReport:
    before: Coverage
    after: Coverage
    workspace: Path | None
    built: list[str] = field(default_factory=list)  # identifiers now served by new rows
    flagged: dict[str, list[str]] = field(default_factory=dict)  # built but kept: reasons
    skipped: dict[str, str] = field(default_factory=dict)  # identifier -> why not built
    model_file: Path | None = None


def plan_missing(
    model: str | os.PathLike[str],
    db_path: str | os.PathLike[str],
    product_name: str | None = None,
    allow_ambiguous: bool = False,
) -> tuple[Coverage, list[tuple[Lookup, dict[str, Any]]], dict[str, str]]:
    """Coverage now, and the operators to build.

    The plan assumes the command line the built rows will need (TVM's Convolution+Add+Relu
    kernels read a per-channel bias: ``-fbiasadd_fix``) and that the
    pattern rows it builds exist, since pattern substitution changes what else NNFusion
    looks up (a substituted Convolution is no longer looked up on its own). Lookups a kept
    row serves are rebuilt only with ``allow_ambiguous`` (the same kernel would be kept
    again); one a row of other semantics serves is reported, not built (NNFusion would still
    take the older row first).
    """
    before = model_coverage(model, db_path, product_name)
    target = dataclasses.replace(
        before.settings, flags=Flags(before.settings.flags.product_name, bias_fix=True)
    ).for_model(model)
    planned = model_coverage(model, db_path, settings=target)
    patterns = {
        (i.identifier, i.lookup.device_type)
        for i in planned.items
        if i.status == "missing" and i.lookup.device_type == PATTERN_DEVICE_TYPE
        and missing_ops.spec_for(i.lookup.op_type, i.lookup.attributes)[0] is not None
    }  # fmt: skip
    if patterns:
        planned = model_coverage(model, db_path, settings=target, extra_rows=patterns)
    plan: list[tuple[Lookup, dict[str, Any]]] = []
    skipped: dict[str, str] = {}
    wanted = ("missing", "flagged") if allow_ambiguous else ("missing",)
    for item in planned.items:
        if item.status not in wanted:
            continue
        if item.lookup.device_type == PATTERN_DEVICE_TYPE:
            continue  # built through its CUDA_GPU lookup; the CUDA copy comes with the row
        spec, why = missing_ops.spec_for(item.lookup.op_type, item.lookup.attributes)
        if item.lookup.conflicts:
            spec, why = None, "its nodes need different computations"
        if spec is None:
            skipped[item.identifier] = why
        else:
            plan.append((item.lookup, spec))
    return before, plan, skipped


def default_missing_workspace(
    model: str | os.PathLike[str], db_path: str | os.PathLike[str]
) -> Path:
    """Where ``build_missing`` builds when not told: MODEL-missing.kscope next to the DB."""
    return Path(db_path).expanduser().resolve().parent / f"{Path(model).stem}-missing.kscope"


def build_missing(
    model: str | os.PathLike[str],
    db_path: str | os.PathLike[str],
    workspace: str | os.PathLike[str],
    *,
    product_name: str | None = None,
    allow_ambiguous: bool = False,
    arch: str | None = None,
    progress: ProgressFn = no_progress,
    cancel: Cancel | None = None,
) -> BuildMissingReport:
    """Build every missing kernel NNFusion would take from the DB as a single-operator TVM
    kernel (one workspace for all of them, built in a child process like every build: a TVM
    crash is an error, Cancel stops it) and export those whose identifier is wanted."""
    from ..build import BuildRequest, build_in_child

    model_path = Path(model)
    before, plan, skipped = plan_missing(model_path, db_path, product_name, allow_ambiguous)
    out = Path(workspace).expanduser()
    if not plan:
        return BuildMissingReport(before, before, None, skipped=skipped)
    check_cancel(cancel, "build of the missing kernels")
    out.parent.mkdir(parents=True, exist_ok=True)
    source = out.parent / f"{out.stem}.py"
    source.write_text(
        missing_ops.module_source(
            [spec for _, spec in plan],
            f"The kernels NNFusion looks up for {model_path.name} and {Path(db_path).name} lacked",
        ),
        encoding="utf-8",
    )
    progress("build", 0.05, f"building {len(plan)} single-operator kernels with TVM")
    ws = build_in_child(
        BuildRequest(model=source, output=out, arch=arch),
        progress=lambda step, frac, msg: progress(
            step, None if frac is None else 0.05 + 0.85 * frac, msg
        ),
        cancel=cancel,
    )
    wanted = {lk.identifier for lk, _ in plan}
    entries = [
        e
        for e in entries_from_workspace(ws, allow_ambiguous=allow_ambiguous)
        if (e.nnfusion_identifier or e.identifier) in wanted
    ]
    progress("write", 0.95, f"exporting {len(entries)} rows into {db_path}")
    if entries:
        with KernelDB.open(db_path, write=True) as db:
            db.write(entries)
    built = sorted({e.identifier for e in entries if e.usable and e.twin_of is None})
    flagged = {
        e.nnfusion_identifier: e.reasons for e in entries if not e.usable and e.twin_of is None
    }
    for ident in wanted - set(built) - set(flagged):
        skipped[ident] = "TVM built no single kernel for it"
    after = model_coverage(model_path, db_path, product_name)
    return BuildMissingReport(before, after, out, built, flagged, skipped, source)
