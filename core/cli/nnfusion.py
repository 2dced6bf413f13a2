"""``kernelscope nnfusion-coverage`` and ``kernelscope nnfusion-compile``: a model in NNFusion
with a kernel DB -- what it will look up, which rows serve it, building what is missing, and
running the real compiler."""

from __future__ import annotations

import argparse
import dataclasses
import json
import tempfile
from pathlib import Path
from typing import Any

from ..kernel_db import (
    BuildMissingReport,
    CompileReport,
    Coverage,
    build_missing,
    compile_with_db,
    default_db_path,
    default_missing_workspace,
    model_coverage,
)
from ..nnfusion import shell_text
from .db import print_command
from .progress import TerminalProgress
from .table import format_table


def register(sub: argparse._SubParsersAction) -> None:
    default = str(default_db_path())
    cov = sub.add_parser(
        "nnfusion-coverage",
        help="what NNFusion looks up in a kernel DB for an ONNX model, and what serves it",
        description="List every kernel NNFusion will look up for the model (computed by "
        "kernelscope from the ONNX with NNFusion's rules and the DB's command line) and the "
        "row that serves it. --build-missing builds the missing ones that NNFusion takes from "
        "its DB as single-operator TVM kernels and exports them.",
    )
    cov.add_argument("model", type=Path, help="the ONNX model NNFusion compiles")
    cov.add_argument("--db", type=Path, default=Path(default), help=f"default: {default}")
    cov.add_argument("--product-name", metavar="GPU", help="GPU for -fproduct_name")
    cov.add_argument(
        "--build-missing",
        action="store_true",
        help="build the missing kernels with TVM and export them into the DB",
    )
    cov.add_argument(
        "--workspace",
        type=Path,
        metavar="WS",
        help="workspace for the built kernels (default: MODEL-missing.kscope next to the DB)",
    )
    cov.add_argument("--arch", help="GPU architecture for the build, e.g. sm_90")
    cov.add_argument(
        "--allow-ambiguous",
        action="store_true",
        help="export built kernels NNFusion could also pick for another computation",
    )
    cov.add_argument(
        "--check",
        action="store_true",
        help="also run the real NNFusion and compare its lookups with kernelscope's",
    )
    cov.add_argument("--nnfusion", type=Path, metavar="PATH", help="the nnfusion binary")
    cov.add_argument("--all", action="store_true", help="also list NNFusion's own kernels")
    cov.add_argument("--json", action="store_true")
    cov.set_defaults(func=_coverage)

    comp = sub.add_parser(
        "nnfusion-compile",
        help="compile an ONNX model with the real NNFusion and a kernel DB",
        description="Run NNFusion on the model with the DB and the command line it needs, and "
        "say which rows it used (their kernels are in the generated CUDA project).",
    )
    comp.add_argument("model", type=Path)
    comp.add_argument("--db", type=Path, default=Path(default), help=f"default: {default}")
    comp.add_argument("-o", "--output", type=Path, required=True, help="output folder")
    comp.add_argument("--product-name", metavar="GPU", help="GPU for -fproduct_name")
    comp.add_argument("--nnfusion", type=Path, metavar="PATH", help="the nnfusion binary")
    comp.add_argument("--timeout", type=float, help="seconds to give NNFusion")
    comp.add_argument("--json", action="store_true")
    comp.set_defaults(func=_compile)


def _coverage(args: argparse.Namespace) -> int:
    built: BuildMissingReport | None = None
    if args.build_missing:
        ws = args.workspace or default_missing_workspace(args.model, args.db)
        with TerminalProgress(quiet_when_piped=True) as progress:
            built = build_missing(
                args.model,
                args.db,
                ws,
                product_name=args.product_name,
                allow_ambiguous=args.allow_ambiguous,
                arch=args.arch,
                progress=progress,
            )
        cov = built.after
    else:
        cov = model_coverage(args.model, args.db, args.product_name)
    check = _check(cov, args) if args.check else None
    if args.json:
        data: dict[str, Any] = {
            "model": str(args.model),
            "db": str(args.db),
            "command": cov.command,
            "counts": cov.counts(),
            "unmodelled": cov.graph.unmodelled,
            "crashes": cov.graph.crashes,
            "departures": cov.graph.departures,
            "lookups": [_item_json(i) for i in cov.items],
        }
        if built is not None:
            data["before"] = built.before.counts()
            data["built"] = built.built
            data["flagged"] = built.flagged
            data["skipped"] = built.skipped
            data["workspace"] = str(built.workspace) if built.workspace else None
        if check is not None:
            data["check"] = check
        print(json.dumps(data, indent=1))
        return 0
    _print_coverage(cov, args.all)
    if built is not None:
        print(f"before --build-missing: {built.before.summary_line()}")
        print(f"built into {built.workspace}: {len(built.built)} kernels now serve NNFusion"
              if built.workspace else "nothing to build")  # fmt: skip
        for ident, reasons in built.flagged.items():
            print(f"  built but kept from NNFusion: {ident[:90]}: {'; '.join(reasons)}")
        for ident, why in built.skipped.items():
            print(f"  not built: {ident[:90]}: {why}")
    if check is not None:
        _print_check(check)
    return 0


def _item_json(item: Any) -> dict[str, Any]:
    lk = item.lookup
    return {
        "status": item.status,
        "identifier": lk.identifier,
        "device_type": lk.device_type,
        "op_type": lk.op_type,
        "nodes": lk.count,
        "onnx_nodes": lk.origins,
        "row": item.row.key if item.row else None,
        "kernel": item.row.kernel_name if item.row else None,
        "time_us": next(iter(item.row.times.values()), None) if item.row else None,
        "why": item.why,
    }


def _print_coverage(cov: Coverage, show_all: bool) -> None:
    rows = [
        (
            i.status,
            i.lookup.device_type,
            i.lookup.op_type,
            str(i.lookup.count),
            (i.row.key[:12] + " " + (i.row.kernel_name or "")) if i.row else "-",
            (i.identifier[:70] + ("..." if len(i.identifier) > 70 else ""))
            + (f"  ({i.why})" if i.why and i.status not in ("covered", "nnfusion") else ""),
        )
        for i in cov.items
        if show_all or i.status != "nnfusion"
    ]
    if rows:
        header = ("status", "device", "op type", "nodes", "row", "identifier")
        print(format_table(header, rows, right={3}))
    print(cov.summary_line())
    for what in cov.graph.unmodelled:
        print(f"warning: kernelscope does not follow the ONNX node {what}: what NNFusion "
              "looks up for it is not listed (--check asks the real NNFusion)")  # fmt: skip
    for crash in cov.graph.crashes:
        print(f"warning: {crash}")
    for departure in cov.graph.departures:
        print(f"warning: {departure}")
    print_command(cov.settings, cov.db_path, str(cov.model))


def _check(cov: Coverage, args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="kernelscope-nnfusion-check-") as tmp:
        report = compile_with_db(
            args.model, args.db, tmp, product_name=args.product_name, binary=args.nnfusion
        )
    check = cov.check(report.run.log)
    return {"command": shell_text(report.run.command), "same": check.same,
            **dataclasses.asdict(check)}  # fmt: skip


def _print_check(check: dict[str, Any]) -> None:
    if check["same"]:
        print("the real NNFusion looked up exactly these identifiers")
        return
    print("the real NNFusion's lookups differ:")
    for text in check["only_nnfusion"]:
        print(f"  only NNFusion looked up {text[:150]}")
    for text in check["only_kernelscope"]:
        print(f"  only kernelscope predicted {text[:150]}")


def _compile(args: argparse.Namespace) -> int:
    report = compile_with_db(
        args.model,
        args.db,
        args.output,
        product_name=args.product_name,
        binary=args.nnfusion,
        timeout=args.timeout,
    )
    if args.json:
        print(json.dumps(_compile_json(report), indent=1))
        return 0
    body = [
        (
            u.row.key[:12],
            u.row.op_type,
            u.row.kernel_name or "-",
            f"x{u.looked_up}" if u.looked_up else "no",
            "yes" if u.fetched else "no",
            "yes" if u.in_code else "no",
        )
        for u in report.usable
    ]
    if body:
        print(format_table(("key", "op type", "kernel", "looked up", "fetched", "in code"), body))
    for (ident, device), n in sorted(report.missed.items()):
        print(f"  no row: x{n} [{device}] {ident[:120]}")
    print(f"NNFusion: {shell_text(report.run.command)}")
    print(report.summary_line())
    return 0


def _compile_json(report: CompileReport) -> dict[str, Any]:
    return {
        "command": report.run.command,
        "codegen_dir": str(report.run.codegen_dir),
        "usable": len(report.usable),
        "used": len(report.used),
        "rows": [
            {
                **dataclasses.asdict(u),
                "row": {
                    "key": u.row.key,
                    "kernel": u.row.kernel_name,
                    "op_type": u.row.op_type,
                    "device_type": u.row.device_type,
                },
            }
            for u in report.rows
        ],  # fmt: skip
        "missed": [
            {"identifier": i, "device_type": d, "lookups": n}
            for (i, d), n in sorted(report.missed.items())
        ],  # fmt: skip
    }
