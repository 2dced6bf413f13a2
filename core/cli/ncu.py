"""``kernelscope kernels``, ``kernelscope hot`` and ``kernelscope import``: Nsight Compute data."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ..errors import KernelscopeError
from ..formatting import format_dims, format_number, format_us
from ..inductor import is_run_folder
from ..ncu import (
    GROUPS,
    SAMPLES,
    HotLine,
    Launch,
    Profile,
    choose_step,
    import_report,
    label_of,
    ledger_input,
    report_steps,
    step_ledger,
)
from ..workspace import MANIFEST, Workspace
from .table import format_table


def register(sub: argparse._SubParsersAction) -> None:
    k = sub.add_parser(
        "kernels",
        help="list the kernels of a profile (.ncu-rep or CSV exports) or of a build workspace",
    )
    k.add_argument(
        "inputs",
        nargs="+",
        type=Path,
        help="REPORT.ncu-rep, CSV exports, a workspace or a torch.compile run folder",
    )
    k.add_argument("--by-kernel", action="store_true", help="one row per kernel, launches combined")
    k.add_argument("--rules", action="store_true", help="also print Nsight Compute's hints")
    k.add_argument(
        "--steps",
        action="store_true",
        help="a report of an LLM's steps (kernelscope profile --steps): per-step totals",
    )
    k.add_argument(
        "--step",
        metavar="NAME[:N]",
        help="with the per-step totals, this step's launches (decode:2)",
    )
    k.add_argument(
        "-w", "--workspace", type=Path, help="the workspace the report was profiled from"
    )
    k.add_argument("--json", action="store_true", help="machine-readable output")
    k.set_defaults(func=_kernels)

    h = sub.add_parser(
        "hot", help="the hottest source lines of a profile, with their stall reasons"
    )
    h.add_argument(
        "inputs",
        nargs="+",
        type=Path,
        help="REPORT.ncu-rep, CSV exports or a torch.compile run folder",
    )
    h.add_argument("--top", type=int, default=20, help="how many lines (default 20)")
    h.add_argument("--kernel", help="only this kernel (default: the whole model)")
    h.add_argument(
        "--metric",
        default=SAMPLES,
        help="rank by this metric: ncu name or Source-page label "
        "(default: warp-stall samples, smsp__pcsamp_sample_count)",
    )
    _source_options(h)
    h.add_argument("--json", action="store_true", help="machine-readable output")
    h.set_defaults(func=_hot)

    s = sub.add_parser(
        "steps",
        help="the step ledger of an LLM's profile: each step's time by operator group, each "
        "kernel's launches at the symbolic values each step ran at",
    )
    s.add_argument(
        "input", type=Path, help="REPORT.ncu-rep or a workspace (its newest report with steps)"
    )
    s.add_argument(
        "-w", "--workspace", type=Path, help="the workspace the report was profiled from"
    )
    s.add_argument("--json", action="store_true", help="machine-readable output")
    s.set_defaults(func=_steps)

    i = sub.add_parser("import", help="attach an Nsight Compute report to a build workspace")
    i.add_argument("report", type=Path, help="REPORT.ncu-rep")
    i.add_argument("-w", "--workspace", type=Path, required=True, help="the build workspace")
    i.add_argument(
        "--force", action="store_true", help="import even if no kernel matches the workspace"
    )
    i.add_argument("--json", action="store_true", help="machine-readable check results")
    i.set_defaults(func=_import)


def _source_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("-w", "--workspace", type=Path, help="a build workspace to find sources in")
    p.add_argument(
        "--source-path",
        action="append",
        default=[],
        type=Path,
        metavar="DIR",
        help="folder to look for source files the profile names (repeatable)",
    )


def _is_workspace(path: Path) -> bool:
    return path.is_dir() and (path / MANIFEST).is_file()


def _warn(profile: Profile) -> None:
    for w in profile.warnings:
        print(f"kernelscope: warning: {w}", file=sys.stderr)


def _num(value: float | None) -> str:
    return format_number(value, missing="-")


# ---- kernels ---------------------------------------------------------------------------------
def _kernels(args: argparse.Namespace) -> int:
    if len(args.inputs) == 1 and is_run_folder(args.inputs[0]):
        from .inductor import print_run_kernels

        return print_run_kernels(args.inputs[0], as_json=args.json)
    if len(args.inputs) == 1 and _is_workspace(args.inputs[0]):
        from .build import print_kernel_table

        ws = Workspace.open(args.inputs[0])
        if args.json:
            print(json.dumps([asdict(k) for k in ws.manifest.kernels], indent=1))
        else:
            print_kernel_table(ws)
        return 0
    if len(args.inputs) == 1 and args.inputs[0].is_dir():
        raise KernelscopeError(
            f"{args.inputs[0]} is a folder but not a kernelscope workspace (no {MANIFEST})",
            hint="pass a .ncu-rep report, CSV exports, or a workspace folder",
        )
    profile = Profile.open(args.inputs)
    _warn(profile)
    if args.steps or args.step:
        return _print_steps(profile, args)
    total = sum(x.duration_ns or 0.0 for x in profile.launches)
    if args.json:
        print(json.dumps(_kernels_json(profile, args.by_kernel), indent=1))
        return 0
    header = list(_LAUNCH_HEADER)
    rows = []
    if args.by_kernel:
        header[0] = "launches"
        for k in profile.kernels():
            rows.append(
                [
                    str(len(k.launches)),
                    k.name,
                    format_dims(k.grid),
                    format_dims(k.block),
                    format_us(k.duration_ns),
                    _num(k.share * 100),
                    _num(k.sm_throughput_pct),
                    _num(k.memory_throughput_pct),
                    _num(k.achieved_occupancy_pct),
                    _num(k.registers),
                    _smem(k.launches[0]),
                ]
            )
    else:
        rows = _launch_rows(profile.launches, total)
    print(format_table(header, rows, right={0, 2, 3, 4, 5, 6, 7, 8, 9, 10}))
    _print_summary(profile, total)
    if args.rules:
        _print_rules(profile.launches)
    return 0


_LAUNCH_HEADER = (
    "ID",
    "kernel",
    "grid",
    "block",
    "time us",
    "%",
    "SM %",
    "mem %",
    "occ %",
    "regs",
    "smem B",
)


def _launch_rows(launches: list[Launch], total: float) -> list[list[str]]:
    return [
        [
            str(x.id),
            x.name,
            format_dims(x.grid),
            format_dims(x.block),
            format_us(x.duration_ns),
            _num((x.duration_ns or 0.0) / total * 100 if total else None),
            _num(x.sm_throughput_pct),
            _num(x.memory_throughput_pct),
            _num(x.achieved_occupancy_pct),
            _num(x.registers),
            _smem(x),
        ]
        for x in launches
    ]


def _print_summary(profile: Profile, total: float) -> None:
    device = profile.launches[0].device_name or profile.session.get("display_name", "")
    print(
        f"\n{len(profile.launches)} launches of {len(profile.kernels())} kernels, "
        f"{format_us(total)} us in all{', ' + device if device else ''}; {profile.name}"
    )


def _print_rules(launches: list[Launch]) -> None:
    for x in launches:
        hints = sorted(
            (r for r in x.rules if r.kind in ("OPT", "WRN", "ERR")),
            key=lambda r: -(r.speedup_pct or 0.0),
        )
        if hints:
            print(f"\n[{x.id}] {x.name}")
        for r in hints:
            gain = f" (est. speedup {r.speedup_pct:.1f}% {r.speedup_type})" if r.speedup_pct else ""
            print(f"  {r.kind} {r.rule}{gain}: {r.message}")


def _print_steps(profile: Profile, args: argparse.Namespace) -> int:
    """Per-step totals of a report of an LLM's steps and, with --step, that step's launches."""
    steps = report_steps(profile, args.workspace)
    chosen = choose_step(steps, args.step) if args.step else None
    total = sum(s.duration_ns for s in steps)
    if args.json:
        out: dict[str, Any] = {"profile": [str(p) for p in profile.paths], "steps": []}
        for s in steps:
            out["steps"].append(
                {
                    "name": s.name,
                    "index": s.index,
                    "seq_len": s.seq_len,
                    "batch": s.batch,
                    "total_len": s.total_len,
                    "launches": len(s.launches),
                    "duration_ns": s.duration_ns,
                    "launch_ids": [x.id for x in s.launches],
                }
            )
        if chosen is not None:
            out["step"] = {"name": chosen.name, "index": chosen.index}
            out["step"]["launches"] = [asdict(x) for x in chosen.launches]
        print(json.dumps(out, indent=1))
        return 0
    rows = [
        (
            s.label,
            _num(s.seq_len),
            _num(s.batch),
            _num(s.total_len),
            str(len(s.launches)),
            format_us(s.duration_ns),
            _num(100 * s.duration_ns / total if total else None),
        )
        for s in steps
    ]
    head = ("step", "seq len", "batch", "cached", "launches", "time us", "%")
    print(format_table(head, rows, right={1, 2, 3, 4, 5, 6}))
    print(
        f"\n{len(steps)} steps, {sum(len(s.launches) for s in steps)} launches, "
        f"{format_us(total)} us in all (ncu: serialised launches, base clocks); {profile.name}"
    )
    if chosen is not None:
        step_total = chosen.duration_ns
        print(f"\n{chosen.label}: {len(chosen.launches)} launches, {format_us(step_total)} us")
        print(
            format_table(
                _LAUNCH_HEADER,
                _launch_rows(chosen.launches, step_total),
                right={0, 2, 3, 4, 5, 6, 7, 8, 9, 10},
            )
        )
        if args.rules:
            _print_rules(chosen.launches)
    return 0


def _steps(args: argparse.Namespace) -> int:
    """``kernelscope steps``: the step ledger."""
    report, workspace = ledger_input(args.input, args.workspace)
    profile = Profile.open(report, workspace=workspace)
    _warn(profile)
    ledger = step_ledger(profile)
    if args.json:
        print(json.dumps(asdict(ledger) | {"flags": ledger.flags}, indent=1, default=str))
        return 0
    groups = [g for g in GROUPS if any(g in s.groups for s in ledger.steps)]
    graphs = any(s.cuda_graph or s.graph_launches for s in ledger.steps)
    rows = [
        (
            s.label,
            _num(s.seq_len),
            _num(s.batch),
            _num(s.total_len),
            str(s.launches),
            *([f"{s.graph_launches} ({s.cuda_graph or '-'})"] if graphs else []),
            format_us(s.duration_ns),
            *(format_us(s.groups[g].duration_ns) if g in s.groups else "-" for g in groups),
        )
        for s in ledger.steps
    ]
    graph_head = ["graph nodes"] if graphs else []
    head = ("step", "seq len", "batch", "cached", "launches", *graph_head, "time us", *groups)
    print(format_table(head, rows, right=set(range(1, len(head)))))
    if graphs:
        print(
            "graph nodes: launches that ran inside a CUDA graph (the build's IR says which: "
            "ncu's report does not); capture: the step's call captured its graphs, replay: "
            "replayed them"
        )
    print(
        f"\n{len(ledger.steps)} steps, {format_us(ledger.duration_ns)} us in all "
        f"(ncu: serialised launches, base clocks); {profile.name}\n"
    )
    kernel_rows = [
        (
            k.name,
            k.group,
            r.bindings_text(),
            r.steps_text(),
            str(r.launches) + (f" ({r.graph_launches} in graphs)" if r.graph_launches else ""),
            format_us(r.duration_ns),
            ", ".join("x".join(str(d) for d in g) for g in r.grids) or "-",
            "GRID?" if r.flag else "",
        )
        for k in ledger.kernels
        for r in k.rows
    ]
    head = ("kernel", "group", "bindings", "steps", "launches", "time us", "grid", "")
    print(format_table(head, kernel_rows, right={4, 5}))
    for flag in ledger.flags:
        print(f"kernelscope: warning: bindings disagree with the grid: {flag}", file=sys.stderr)
    return 0


def _smem(x: Launch) -> str:
    if x.shared_static_bytes is None and x.shared_dynamic_bytes is None:
        return "-"
    return _num((x.shared_static_bytes or 0) + (x.shared_dynamic_bytes or 0))


def _kernels_json(profile: Profile, by_kernel: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"profile": [str(p) for p in profile.paths], "session": profile.session}
    if by_kernel:
        out["kernels"] = [
            {
                "name": k.name,
                "launch_ids": [x.id for x in k.launches],
                "duration_ns": k.duration_ns,
                "share": k.share,
                "sm_throughput_pct": k.sm_throughput_pct,
                "memory_throughput_pct": k.memory_throughput_pct,
                "achieved_occupancy_pct": k.achieved_occupancy_pct,
                "registers": k.registers,
            }
            for k in profile.kernels()
        ]
    else:
        out["launches"] = [asdict(x) for x in profile.launches]
    out["warnings"] = profile.warnings
    return out


# ---- hot -------------------------------------------------------------------------------------
def _hot(args: argparse.Namespace) -> int:
    return print_hot_lines(
        args.inputs,
        workspace=args.workspace,
        search_paths=args.source_path,
        metric=args.metric,
        top=args.top,
        kernel=args.kernel,
        as_json=args.json,
    )


def print_hot_lines(
    inputs: Sequence[Path],
    *,
    workspace: Path | None = None,
    search_paths: Sequence[Path] = (),
    metric: str = SAMPLES,
    top: int = 20,
    kernel: str | None = None,
    as_json: bool = False,
) -> int:
    """What ``kernelscope hot`` prints (also after ``profile`` and ``timeline --profile``)."""
    from ..inductor import open_run, open_workspace, report_problems, run_report

    ws = open_workspace(workspace) if workspace else None
    run_folder: Path | None = None
    if len(inputs) == 1 and is_run_folder(inputs[0]):  # a torch.compile run and its report
        run_folder = inputs[0]
        report, ws = run_report(run_folder)
        inputs = [report]
    profile = Profile.open(
        list(inputs),
        workspace=ws,
        search_paths=list(search_paths),
        kernel=kernel if run_folder is None else None,  # that kernel's launches alone
    )
    _warn(profile)
    if run_folder is not None:
        for problem in report_problems(open_run(run_folder), profile):
            print(f"kernelscope: warning: {problem}", file=sys.stderr)
    metric = profile.resolve_metric(metric)
    kernel = profile.kernel(kernel).name if kernel else None
    names = [kernel] if kernel else [k.name for k in profile.kernels()]
    profile.prefetch_kernels(names)  # at once
    problems = {n: p for n in names if (p := profile.correlation_problem(n))}
    for info in ws.manifest.kernels if run_folder is not None and ws is not None else ():
        if info.name in problems and info.start_line:  # cuBLAS, cuDNN: no lines of their own
            problems[info.name] = (
                "a library kernel without line information (SASS-level metrics only), "
                f"launched at {os.path.basename(info.file)}:{info.start_line}"
            )
    if len(problems) < len(names):
        for name, problem in problems.items():
            print(f"kernelscope: warning: {name}: {problem}", file=sys.stderr)
    if problems and len(problems) == len(names):
        raise KernelscopeError(
            f"no source-line metrics in {profile.name}: {next(iter(problems.values()))}"
        )
    hot = profile.hot_lines(metric=metric, top=top, kernel=kernel)
    if as_json:
        print(json.dumps(_hot_json(profile, hot, metric), indent=1))
        return 0
    if not hot:
        print(f"no line has a non-zero {label_of(metric)}")
        return 0
    rows = []
    for h in hot:
        stalls = ", ".join(f"{r} {s:.0%}" for r, _, s in h.stalls[:2])
        rows.append(
            [
                str(h.rank),
                f"{h.share:.1%}",
                _num(h.value),
                f"{os.path.basename(h.file)}:{h.line}",
                stalls or "-",
                (h.source or "").strip()[:70],
            ]
        )
    print(f"hottest lines by {label_of(metric)} ({metric})" + (f" in {kernel}" if kernel else ""))
    print(format_table(["#", "share", "value", "line", "top stalls", "source"], rows, {0, 1, 2}))
    missing = sorted({h.file for h in hot if h.source is None})
    for f in missing:
        if note := profile.source(f).note:  # "": found, and thought to fit (nothing to add)
            print(f"note: {f}: {note}", file=sys.stderr)
    for f in sorted({h.file for h in hot}):
        src = profile.source(f)
        if src.status == "changed":
            print(f"warning: {src.note}", file=sys.stderr)
    return 0


def _hot_json(profile: Profile, hot: list[HotLine], metric: str) -> dict[str, Any]:
    return {
        "profile": [str(p) for p in profile.paths],
        "metric": metric,
        "label": label_of(metric),
        "lines": [
            {
                "rank": h.rank,
                "kernel": h.kernel,
                "file": h.file,
                "line": h.line,
                "value": h.value,
                "share": h.share,
                "stalls": [{"reason": r, "samples": v, "share": s} for r, v, s in h.stalls],
                "source": h.source,
                "source_status": profile.source(h.file).status,
                "metrics": h.metrics.values,
                "categories": h.metrics.categories,
            }
            for h in hot
        ],
        "warnings": profile.warnings,
    }


# ---- import ----------------------------------------------------------------------------------
def _import(args: argparse.Namespace) -> int:
    done = import_report(args.report, Workspace.open(args.workspace), force=args.force)
    for w in done.warnings:
        print(f"kernelscope: warning: {w}", file=sys.stderr)
    if args.json:
        print(json.dumps({**done.check, "imported_as": str(done.attached)}, indent=1))
        return 0
    print("\n".join(done.summary()))
    return 0
