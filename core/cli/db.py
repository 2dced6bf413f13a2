"""``kernelscope export-db`` and ``kernelscope db list|show|delete``: the NNFusion kernel DB."""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path

from ..formatting import format_dims, format_number
from ..kernel_db import (
    EntryDetail,
    EntryFilters,
    EntrySummary,
    KernelDB,
    NNFusionSettings,
    ProfileFacts,
    default_db_path,
    describe_line_summary,
    describe_tuning,
    export_workspace,
    is_held_back,
    load_operator_times,
    nnfusion_settings,
    profile_facts,
)
from ..workspace import Workspace
from .table import format_table


def register(sub: argparse._SubParsersAction) -> None:
    default = str(default_db_path())
    p = sub.add_parser(
        "export-db",
        help="export kernels of a workspace into an NNFusion kernel DB",
        description="Write kernels of a build workspace into an NNFusion-compatible kernel "
        "cache (SQLite). Kernels NNFusion cannot use are stored for browsing and flagged.",
    )
    p.add_argument("workspace", type=Path)
    p.add_argument("--db", type=Path, default=Path(default), help=f"default: {default}")
    p.add_argument(
        "--kernels",
        action="append",
        metavar="GLOB",
        help="only kernels whose name matches (repeatable), e.g. 'fused_conv2d*'",
    )
    p.add_argument(
        "--profile",
        type=Path,
        metavar="REPORT",
        help="Nsight Compute report (.ncu-rep) or CSV export giving each kernel's mean time",
    )
    p.add_argument(
        "--replace",
        action="store_true",
        help="delete other rows with the same identifier (NNFusion takes the first it reads)",
    )
    p.add_argument(
        "--allow-ambiguous",
        action="store_true",
        help="let NNFusion use rows whose identifier it shares with another computation "
        "(a Dot with K == N or M == K, a Conv+Add+Relu whose Add reads a whole tensor)",
    )
    p.add_argument(
        "--nnfusion-model",
        type=Path,
        metavar="OUT.onnx",
        help="also write the model NNFusion should compile: the workspace's ONNX with every "
        "weight an initializer holding the value of the workspace's build",
    )
    p.add_argument(
        "--model",
        type=Path,
        metavar="MODEL.onnx",
        help="the ONNX the workspace was built from (default: its name next to the workspace)",
    )
    p.add_argument(
        "--product-name",
        metavar="GPU",
        help="GPU whose times NNFusion should rank rows by (default: the one they were "
        "measured on), e.g. 'NVIDIA H200'",
    )
    p.add_argument(
        "--hold-back-against",
        type=Path,
        metavar="TIMES.json",
        help="NNFusion's own per-operator times without the DB (scripts/"
        "nnfusion_optimes.py): a row slower than NNFusion's kernel for its operator on that "
        "GPU is held back (stored for browsing, not for NNFusion)",
    )
    p.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for a lock")
    p.add_argument("--json", action="store_true", help="print the changes as JSON")
    p.set_defaults(func=_export)

    db = sub.add_parser("db", help="browse or edit a kernel DB")
    dbsub = db.add_subparsers(dest="db_command", metavar="ACTION", required=True)

    ls = dbsub.add_parser("list", help="list entries")
    ls.add_argument("--db", type=Path, default=Path(default))
    ls.add_argument("--op", help="op type, e.g. Convolution (also matches fused ones)")
    ls.add_argument("--device", help="DeviceType (CUDA_GPU) or GPU name (NVIDIA H200)")
    ls.add_argument("--shape", help="an input or output shape, e.g. 1,64,56,56")
    ls.add_argument("--search", help="text in kernel name, identifier, op, model")
    ls.add_argument("--usable", action="store_true", help="only rows NNFusion can use")
    ls.add_argument("--limit", type=int, default=200)
    ls.add_argument("--offset", type=int, default=0)
    ls.add_argument("--json", action="store_true")
    ls.set_defaults(func=_list)

    show = dbsub.add_parser("show", help="show one entry with its Function JSON and sources")
    show.add_argument("--db", type=Path, default=Path(default))
    show.add_argument("entry", help="key, unique key prefix, or identifier")
    show.add_argument("--json", action="store_true")
    show.add_argument("--source", action="store_true", help="also print the source files")
    show.add_argument("--product-name", metavar="GPU", help="GPU for -fproduct_name")
    show.set_defaults(func=_show)

    rm = dbsub.add_parser("delete", help="delete entries (with their pattern copies)")
    rm.add_argument("--db", type=Path, default=Path(default))
    rm.add_argument("entries", nargs="+", help="keys, unique key prefixes or identifiers")
    rm.add_argument("--timeout", type=float, default=10.0)
    rm.set_defaults(func=_delete)


def _facts(report: Path | None, workspace: Path) -> ProfileFacts:
    if report is None:
        return ProfileFacts({}, None, {})
    from ..ncu import Profile  # only when a profile is given
    from ..workspace import Workspace

    return profile_facts(Profile.open(report, workspace=Workspace.open(workspace)))


def _export(args: argparse.Namespace) -> int:
    ws = Workspace.open(args.workspace)
    hold_back = load_operator_times(args.hold_back_against) if args.hold_back_against else None
    facts = _facts(args.profile, args.workspace)
    report = export_workspace(
        ws,
        args.db,
        args.kernels,
        facts.times,
        ncu_version=facts.ncu_version,
        replace_identifier=args.replace,
        timeout=args.timeout,
        metrics=facts.line_summaries,
        allow_ambiguous=args.allow_ambiguous,
        nnfusion_model=args.nnfusion_model,
        source_model=args.model,
        hold_back=hold_back,
    )
    model = report.nnfusion_model
    with KernelDB.open(args.db) as db:
        settings = nnfusion_settings(db.cache_rows(), args.product_name)
    settings = settings.for_model(model.path if model else None)
    if args.json:
        print(json.dumps([dataclasses.asdict(c) for c in report.changes], indent=1))
        return 0
    print(report.summary())
    if model is not None:
        print(f"wrote {model.path}: {model.source.name} with {model.initializers} "
              + "; ".join(["initializers", *model.changes()]))  # fmt: skip
    print_command(settings, args.db, str(model.path.resolve()) if model else None)
    return 0


def print_command(settings: NNFusionSettings, db: Path, model: str | None) -> None:
    """The NNFusion command line that uses the DB correctly, with why each flag is there."""
    if not settings.usable:
        print("NNFusion can take no row of this DB")
        return
    lines = settings.describe(db, model)
    print(f"NNFusion: {lines[0]}")
    for line in lines[1:]:
        print(line)


def _list(args: argparse.Namespace) -> int:
    with KernelDB.open(args.db) as db:
        filters: EntryFilters = {
            "op": args.op,
            "device": args.device,
            "shape": args.shape,
            "search": args.search,
            "usable": True if args.usable else None,
        }
        rows = db.list_entries(**filters, limit=args.limit, offset=args.offset)
        total = db.count_entries(**filters)
        if args.json:
            print(json.dumps([{**dataclasses.asdict(r), "schedule": r.schedule} for r in rows],
                             indent=1))  # fmt: skip
            return 0
        print(_table(rows))
        shown = f"{len(rows)} of {total}" if total != len(rows) else str(total)
        print(f"{shown} entries in {db.path}")
        if db.unindexed:
            print(f"({db.unindexed} rows written by other tools are not indexed: the file is "
                  "read-only)")  # fmt: skip
    return 0


def _table(rows: list[EntrySummary]) -> str:
    header = ("key", "op type", "kernel", "time µs", "grid", "block", "schedule", "NNFusion")
    body = [
        (
            r.key[:12],
            r.op_type,
            r.kernel_name or "-",
            format_number(r.time_us, "-"),
            format_dims(r.grid),
            format_dims(r.block),
            r.schedule or "-",
            "yes" if r.usable else "held back" if is_held_back(r.reasons) else "no",
        )
        for r in rows
    ]
    return format_table(header, body)


def _show(args: argparse.Namespace) -> int:
    with KernelDB.open(args.db) as db:
        d = db.get(args.entry)
        settings = nnfusion_settings(db.cache_rows(), args.product_name)
    command = settings.command(args.db) if d.usable and settings.usable else None
    if args.json:
        data = {**dataclasses.asdict(d), "schedule": d.schedule}
        if not args.source:
            data.pop("sources")
            data.pop("sass")
        data["nnfusion_command"] = command
        print(json.dumps(data, indent=1))
        return 0
    print(_describe(d, args.source))
    if command is not None:
        print_command(settings, args.db, None)
    return 0


def _describe(d: EntryDetail, with_source: bool) -> str:
    f = d.function
    lines = [
        f"key          {d.key}",
        f"identifier   {d.identifier}",
        f"op type      {d.op_type}    device type {d.device_type}    source {d.source}",
        f"tags         {','.join(d.tags) or '-'}",
        f"NNFusion     {'usable' if d.usable else _kept(d.reasons)}",
    ]
    lines += [f"  reason     {r}" for r in d.reasons]
    lines += [f"  note       {n}" for n in d.notes]
    if d.kernel_name:
        lines.append(f"kernel       {d.kernel_name}  from {d.model}")
    lines += [
        f"launch       grid {f.get('grid_dim')}  block {f.get('block_dim')}  "
        f"syncthreads {f.get('num_syncthreads')}",
        f"shared       {json.dumps(f.get('shared_memory'))}",
        f"profile      {json.dumps(d.miscs.get('external_profile'))}",
        f"signature    {f.get('function_signature')}",
    ]
    lines += [f"{k:<12} {v}" for k, v in d.provenance.items()]
    if d.tuning:
        lines.append(f"schedule     {describe_tuning(d.tuning)}")
    lines += [f"measured     {text}" for text in describe_line_summary(d.metrics)[:1]]
    lines += [f"  hot        {text}" for text in describe_line_summary(d.metrics)[1:]]
    if d.twins:
        lines.append(f"CUDA copy    {', '.join(t[:12] for t in d.twins)}")
    if with_source:
        for path, text in d.sources.items():
            lines += ["", f"==> {path} <==", text]
    else:
        lines.append(f"sources      {', '.join(d.sources) or '-'}  (--source prints them)")
    return "\n".join(lines)


def _kept(reasons: list[str]) -> str:
    if is_held_back(reasons):
        return "held back (slower than NNFusion without it; stored for browsing)"
    return "not usable (stored for browsing)"


def _delete(args: argparse.Namespace) -> int:
    with KernelDB.open(args.db, write=True, timeout=args.timeout) as db:
        keys = [db.get(e).key for e in args.entries]
        removed = db.delete(keys)
    print(f"deleted {removed} rows from {args.db}")
    return 0
