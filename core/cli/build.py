"""``kernelscope build`` and the kernel table of a workspace."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import TextIO

from ..build import PIPELINES, parse_shapes
from ..formatting import format_dims
from ..workspace import (
    TUNED_TIMES_NOTE,
    KernelInfo,
    Manifest,
    Workspace,
    kernel_origin,
    model_line_share,
)
from .progress import TerminalProgress
from .table import format_table


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "build",
        help="build a model with TVM into per-kernel .cu files, a cubin with line info and SASS",
    )
    p.add_argument("model", type=Path, help="an .onnx file or a .py file defining a Relax IRModule")
    p.add_argument("-o", "--output", type=Path, help="workspace folder (default: MODEL.kscope)")
    p.add_argument(
        "--arch", help="CUDA architecture, e.g. sm_90 (default: the local GPU's, else sm_90)"
    )
    p.add_argument(
        "--shape",
        action="append",
        default=[],
        metavar="NAME=D0,D1,...",
        help="size of an input with dynamic dimensions, or (Python models) the value of a "
        "symbolic variable, e.g. seq_len=128 (repeatable)",
    )
    p.add_argument(
        "--params",
        choices=("random", "runtime"),
        default="random",
        help="weights the model has no values for: give them seeded random values (default) "
        "or keep them as runtime inputs",
    )
    p.add_argument("--seed", type=int, default=0, help="seed for random weights (default 0)")
    p.add_argument("--no-cache", action="store_true", help="rebuild even if nothing changed")
    add_force_argument(p)
    p.add_argument(
        "--tuning-db",
        type=Path,
        metavar="DIR",
        help="build from MetaSchedule tuning records (kernelscope tune's or TVM's tune_relax's "
        "work_dir), as TVM's compile_relax does; kernels no record covers keep the default "
        "schedule",
    )
    p.add_argument(
        "--pipeline",
        choices=PIPELINES,
        help="the compilation pipeline: default (TVM's), mlc-llm (MLC-LLM's transpose-into-"
        "matmul fusion first) or lift-params (weight transforms lifted into functions run "
        "once at load); default: mlc-llm for a Python model with a paged KV cache, else default",
    )
    p.add_argument(
        "--cuda-graph",
        action="store_true",
        help="run the decode step's kernels as CUDA graphs, as MLC-LLM does (Relax's "
        "RewriteCUDAGraph: captured on the first call, replayed after); needs --shape for "
        "the decode function's batch_size (the graph's memory is planned for it)",
    )
    p.add_argument("--json", action="store_true", help="print the kernel table as JSON")
    p.set_defaults(func=_build)


def _build(args: argparse.Namespace) -> int:
    from ..build import BuildRequest, build_in_child, default_workspace

    output = args.output or default_workspace(args.model)
    request = BuildRequest(
        model=args.model,
        output=output,
        arch=args.arch,
        shapes=parse_shapes(args.shape),
        params=args.params,
        seed=args.seed,
        use_cache=not args.no_cache,
        replace_other_model=args.force,
        tuning_db=args.tuning_db,
        pipeline=args.pipeline or "",
        cuda_graph=args.cuda_graph,
    )
    with TerminalProgress() as progress:
        ws = build_in_child(request, progress=progress)
    if args.json:
        print(json.dumps([asdict(k) for k in ws.manifest.kernels], indent=1))
    else:
        print_kernel_table(ws)
    return 0


def add_force_argument(parser: argparse.ArgumentParser) -> None:
    """``--force``: the commands that build may replace a workspace of another model."""
    parser.add_argument(
        "--force",
        action="store_true",
        help="replace the workspace even when it holds the build of another model (its "
        "profiles go with it); a rebuild of the same model needs no --force",
    )


def kernel_rows(kernels: list[KernelInfo]) -> list[list[str]]:
    rows = []
    for k in kernels:
        smem = (k.static_smem_bytes or 0) + k.dynamic_smem_bytes
        rows.append(
            [
                k.name,
                k.grid_text(),
                format_dims(k.block),
                "-" if k.registers is None else str(k.registers),
                str(smem),
                str(k.source_lines),
                str(k.sass_instructions),
                "+".join(o.op.removeprefix("relax.") for o in k.ops) or "-",
            ]
        )
    return rows


def schedule_of(kernel: KernelInfo) -> str:
    """Where a kernel's schedule came from in a build with a tuning database."""
    tuned = kernel.tuned
    if tuned is None:
        return "default"
    if tuned.default_kept:
        return tuned.kept_text()
    best = f", {tuned.best_us:.2f} µs" if tuned.best_us is not None else ""
    default = f" (default {tuned.default_us:.2f})" if tuned.default_us is not None else ""
    return f"record: {tuned.trials} trials{best}{default}"


def print_kernel_table(ws: Workspace, out: TextIO | None = None) -> None:
    out = out or sys.stdout
    header = ["kernel", "grid", "block", "regs", "smem B", "lines", "SASS", "fused from"]
    rows = kernel_rows(ws.manifest.kernels)
    if ws.manifest.tuning_db:
        header.append("schedule")
        rows = [[*row, schedule_of(k)] for row, k in zip(rows, ws.manifest.kernels, strict=True)]
    if len(ws.manifest.functions) > 1:
        header.append("launched by")
        rows = [
            [*row, k.launched_by_text()] for row, k in zip(rows, ws.manifest.kernels, strict=True)
        ]
    if any(kernel_origin(k) for k in ws.manifest.kernels):
        header.append("model line")
        rows = [
            [*row, kernel_origin(k) or "-"]
            for row, k in zip(rows, ws.manifest.kernels, strict=True)
        ]
    print(format_table(header, rows, {1, 2, 3, 4, 5, 6}), file=out)
    m = ws.manifest
    print(
        f"\n{len(m.kernels)} kernels, {m.target['arch']}, TVM {m.versions.get('tvm')}, "
        f"nvcc {m.versions.get('nvcc')}; workspace {ws.path}",
        file=out,
    )
    if m.tuning_db:
        tuned = sum(1 for k in m.kernels if k.tuned is not None and not k.tuned.default_kept)
        kept = sum(1 for k in m.kernels if k.tuned is not None and k.tuned.default_kept)
        kept_text = f" ({kept} kept it: no candidate beat it)" if kept else ""
        print(
            f"{tuned} of {len(m.kernels)} kernels from tuning records in {m.tuning_db}; "
            f"the others have the default schedule{kept_text}",
            file=out,
        )
        print(f"schedule µs: {TUNED_TIMES_NOTE}", file=out)
    print_function_summary(m, out)
    for f in m.functions:
        share = model_line_share(m, f.name)
        if share is not None:
            print(share.text(), file=out)
    for note in m.notes:
        print(f"note: {note}", file=out)


def print_function_summary(m: Manifest, out: TextIO) -> None:
    """One line per Relax function of a module with several: what it launches, and how."""
    if len(m.functions) < 2:
        return
    bound = ", ".join(f"{k}={v}" for k, v in m.symbols.items())
    print(
        f"\n{len(m.functions)} functions, pipeline {m.pipeline}"
        + (", CUDA graphs" if m.cuda_graph else "")
        + (f", {bound}" if bound else ""),
        file=out,
    )
    for f in m.functions:
        direct = sum(
            1
            for k in m.kernels
            if any(s.function == f.name and s.via == "call_tir" for s in k.launched_by)
        )
        runtime = sum(
            1
            for k in m.kernels
            if any(s.function == f.name and s.via != "call_tir" for s in k.launched_by)
        )
        what = [f"{len(f.calls)} calls of {direct} kernels"]
        if runtime:
            what.append(f"{runtime} KV cache kernels through the runtime")
        if f.creates_kv_cache:
            what.append("creates the KV cache")
        if f.graphs:
            nodes = sum(len(g) for g in f.graphs)
            what.append(f"{nodes} of its calls in {len(f.graphs)} CUDA graphs")
        if f.transforms_params:
            what.append("transforms the weights (run once at load)")
        symbols = f" ({', '.join(f.symbols)})" if f.symbols else ""
        print(f"  {f.name}{symbols}: {'; '.join(what)}", file=out)
    idle = sum(1 for k in m.kernels if not k.launched)
    if idle:
        print(f"  {idle} kernels are never launched (kernelscope kernels WS says why)", file=out)
