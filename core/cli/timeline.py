"""``kernelscope timeline WS|TIMELINE.json|REPORT.sqlite|REPORT.nsys-rep``: a model's kernel
calls in time order with their durations and time shares, and Nsight Compute on one call."""

from __future__ import annotations

import argparse
import json
import shlex
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import KernelscopeError
from ..formatting import format_number, format_signed
from ..workspace import MANIFEST
from .profile import add_step_arguments, step_options
from .progress import TerminalProgress
from .remote import add_ssh_arguments, host_options, target_from
from .table import format_table

if TYPE_CHECKING:
    from ..timeline import (
        Agreement,
        CallAgreement,
        KernelSelection,
        StepComparison,
        StepTime,
        Timeline,
    )


def register(sub: argparse._SubParsersAction) -> None:
    t = sub.add_parser(
        "timeline",
        help="every kernel call of one forward pass with its duration (measured with CUDA "
        "events, or from an Nsight Systems export), and time shares",
    )
    t.add_argument(
        "source",
        type=Path,
        help="a workspace (measure it), a saved timeline .json, or an Nsight Systems "
        "report (.sqlite export or .nsys-rep)",
    )
    t.add_argument("-w", "--workspace", type=Path, help="workspace for operator types (nsys)")
    m = t.add_argument_group("measuring")
    m.add_argument("--host", help="measure on this SSH host (user@gpu)")
    m.add_argument("--warmup", type=int, default=3, help="forward passes first (default 3)")
    m.add_argument("--repeat", type=int, default=10, help="timed passes (default 10)")
    m.add_argument("--inputs", type=Path, help=".npz with the model's inputs by name")
    m.add_argument("--seed", type=int, default=0, help="seed of random inputs")
    m.add_argument("--name", help="file name in WS/timelines (default: timeline-<date>-<time>)")
    m.add_argument("--no-save", action="store_true", help="do not keep it in the workspace")
    add_step_arguments(t)
    add_ssh_arguments(t, ncu=True)
    o = t.add_argument_group("output")
    o.add_argument("--calls", action="store_true", help="list every call")
    o.add_argument("--top", type=int, default=10, help="rows of the share tables (default 10)")
    o.add_argument("--json", action="store_true", help="machine-readable output")
    o.add_argument(
        "--against",
        type=Path,
        metavar="TIMELINE",
        help="compare each step with another timeline of the same steps (a saved .json): "
        "e.g. a --cuda-graph build's decode step against the plain build's",
    )
    p = t.add_argument_group("one call under Nsight Compute")
    p.add_argument("--select", type=int, metavar="N", help="print the ncu selection of call N")
    p.add_argument(
        "--profile",
        type=int,
        metavar="N",
        help="profile call N with ncu (on --host, else where a saved timeline was measured)",
    )
    p.add_argument("--kernel", help="with --select/--profile: which kernel of the call")
    p.add_argument("--set", default="full", help="ncu section set for --profile (default full)")
    p.add_argument(
        "--profile-warmup", type=int, default=1, help="passes before the profiled one (default 1)"
    )
    t.set_defaults(func=_timeline)


def _against(timeline: Timeline, other: Path) -> list[StepComparison]:
    from ..timeline import compare_steps, open_timeline

    return compare_steps(timeline, open_timeline(other))


def _print_against(rows: list[StepComparison], other: Path) -> None:
    def graphs(t: StepTime) -> str:
        return f"{t.graph_replays} ({t.cuda_graph})" if t.cuda_graph else "-"

    table = [
        (
            c.label,
            f"{c.this.gpu_us:.1f}",
            f"{c.other.gpu_us:.1f}",
            f"{100 * c.gpu_change:+.1f} %",
            f"{c.this.wall_us:.0f}",
            f"{c.other.wall_us:.0f}",
            f"{100 * c.wall_change:+.1f} %",
            f"{c.this.calls} / {c.other.calls}",
            f"{graphs(c.this)} / {graphs(c.other)}",
        )
        for c in rows
    ]
    head = ("step", "GPU us", "other", "change", "wall us", "other", "change", "calls",
            "graph replays")  # fmt: skip
    print(f"\nagainst {other.name}")
    print(format_table(head, table, right=set(range(1, 8))))
    print(
        "GPU us: CUDA events around the whole step; wall us: the host's time for it; a graph "
        "replay is one call, its kernel nodes not split (kernelscope steps has them per node)"
    )


def _timeline(args: argparse.Namespace) -> int:
    from ..timeline import TimelineRequest, measure_timeline, open_timeline
    from ..workspace import Workspace

    source: Path = args.source
    if source.is_dir() and (source / MANIFEST).is_file():
        request = TimelineRequest(
            workspace=source,
            warmup=args.warmup,
            repeat=args.repeat,
            inputs=args.inputs,
            seed=args.seed,
            name=args.name,
            save=not args.no_save,
            llm=step_options(args),
            host=host_options(args),
        )
        with TerminalProgress(quiet_when_piped=True) as progress:
            timeline = measure_timeline(request, progress=progress)
        workspace: Path | None = source
    elif source.is_dir():
        raise KernelscopeError(f"{source} is a folder but not a workspace (no {MANIFEST})")
    else:
        with TerminalProgress(quiet_when_piped=True) as progress:
            timeline = open_timeline(source, progress=progress)
        workspace = args.workspace
        if workspace is None and timeline.source == "runner":
            workspace = Path(timeline.origin)
        if args.workspace is not None:
            timeline.annotate(Workspace.open(args.workspace))
    agreement = None
    stepped = bool(timeline.meta.get("steps"))
    if workspace is not None and (workspace / MANIFEST).is_file() and not stepped:
        from ..timeline import ncu_agreement

        agreement = ncu_agreement(timeline, workspace)
    chosen = args.profile if args.profile is not None else args.select
    selection = None
    if chosen is not None:
        selection = timeline.selection(chosen, args.kernel, warmup=args.profile_warmup)
    if args.json:
        out = timeline.to_dict()
        out["kernel_shares"] = [asdict(s) for s in timeline.kernel_shares()]
        out["op_shares"] = [asdict(s) for s in timeline.op_shares()]
        out["step_shares"] = [asdict(s) for s in timeline.step_shares()]
        if selection is not None:
            out["selection"] = asdict(selection)
        if agreement is not None:
            out["ncu"] = agreement.to_dict()
        if args.against is not None:
            out["against"] = [asdict(c) for c in _against(timeline, args.against)]
        print(json.dumps(out, indent=1))
    else:
        _print(timeline, args, agreement)
        if args.against is not None:
            _print_against(_against(timeline, args.against), args.against)
        if selection is not None:
            _print_selection(timeline, chosen, selection, workspace, args)
    if args.profile is not None:
        return _profile(args, timeline, workspace)
    return 0


def _print(timeline: Timeline, args: argparse.Namespace, agreement: Agreement | None) -> None:
    meta = timeline.meta
    if timeline.source == "runner":
        how = f"CUDA events, median of {meta.get('repeat', '?')} passes on {meta.get('host')}"
    elif timeline.source == "torch":  # kernelscope profile-torch --timeline
        how = f"torch.profiler, median of {meta.get('repeat', '?')} calls on {meta.get('host')}"
    else:
        how = f"Nsight Systems {meta.get('nsys_version', '')}".rstrip()
    print(f"{Path(timeline.origin).name} on {timeline.device} ({how})")
    kernels = len({k for c in timeline.calls for k in c.kernels})
    print(
        f"{len(timeline.calls)} calls of {kernels} kernels: {timeline.kernel_time_us / 1000:.3f} "
        f"ms in kernels, {timeline.span_us / 1000:.3f} ms from first start to last end"
    )
    if meta.get("cuda_graphs"):  # an Nsight Systems trace of CUDA graphs
        print(f"note: {meta['cuda_graphs']}")
    if timeline.source == "runner":
        if not all(meta.get("saturated", [True])):
            print(
                "warning: in some passes the GPU waited for the CPU to launch kernels; their "
                "times include launch gaps"
            )
        if "plain_gpu_us" in meta:
            print(
                f"a plain pass: {meta['plain_gpu_us'] / 1000:.3f} ms on the GPU without per-call "
                f"events, {meta['plain_wall_ms']:.3f} ms wall clock"
            )
    if meta.get("file"):
        print(f"saved: {meta['file']}")
    if meta.get("steps"):
        _print_steps(meta["steps"])
    compared = agreement is not None and agreement.report is not None
    if agreement is not None:
        print(agreement.describe().replace("µs", "us"))
    if args.calls:
        print()
        ncu = {a.index: a for a in agreement.calls} if agreement is not None else {}
        rows = []
        for c in timeline.calls:
            row = [str(c.index), format_number(c.start_us), format_number(c.duration_us)]
            a = ncu.get(c.index)
            if compared:
                row += _ncu_cells(a)
            rows.append((*row, c.name, c.ops or c.op_type or "-"))
        head = ["#", "start us", "time us"] + (["ncu us", "diff us"] if compared else [])
        numbers = set(range(len(head)))
        print(format_table((*head, "kernel", "operators"), rows, numbers))
    tables = [("kernel", timeline.kernel_shares()), ("operator type", timeline.op_shares())]
    if meta.get("step_source"):  # an Nsight Systems trace's steps
        tables.append((f"step ({meta['step_source']})", timeline.step_shares()))
    for title, shares in tables:
        if title == "operator type" and all(s.name == "(unknown)" for s in shares):
            continue
        print()
        rows = [
            (
                s.name,
                str(s.calls),
                format_number(s.total_us),
                f"{100 * s.share:.1f}%",
                format_number(s.mean_us),
            )
            for s in shares[: args.top]
        ]
        print(format_table((title, "calls", "total us", "share", "mean us"), rows, {1, 2, 3, 4}))
        if len(shares) > args.top:
            print(f"... and {len(shares) - args.top} more")


def _print_steps(steps: list[dict[str, Any]]) -> None:
    """Per-step totals of a timeline of an LLM's steps (``--steps``)."""
    print()
    rows = [
        (
            f"{s['name']} {s['index']}",
            format_number(s.get("seq_len"), "-"),
            format_number(s.get("batch"), "-"),
            format_number(s.get("total_len"), "-"),
            str(s.get("calls", "-")),
            format_number(s.get("gpu_us"), "-"),
            format_number(s.get("calls_us"), "-"),
            format_number(s.get("wall_ms"), "-"),
        )
        for s in steps
    ]
    head = ("step", "seq len", "batch", "cached", "calls", "gpu us", "calls us", "wall ms")
    print(format_table(head, rows, set(range(1, len(head)))))
    if not all(s.get("saturated", True) for s in steps):
        late = ", ".join(f"{s['name']} {s['index']}" for s in steps if not s.get("saturated"))
        print(f"warning: the GPU waited for the CPU in {late}: their call times hold launch gaps")


def _ncu_cells(a: CallAgreement | None) -> list[str]:
    if a is None or a.ncu_us is None or a.diff_us is None:
        return ["-", "-"]
    return [format_number(a.ncu_us), format_signed(a.diff_us)]


def _ncu_options(args: argparse.Namespace, timeline: Timeline) -> dict[str, Any]:
    """The ProfileRequest fields --profile takes from the command line (beside the call):
    the host is --host, else the one a saved runner timeline was measured on (where the
    window's Profile This Kernel runs too)."""
    from ..profiling import NcuOptions

    measured_on = timeline.meta.get("host") if timeline.source == "runner" else None
    host = args.host or (measured_on if measured_on != "localhost" else None)
    return {
        "ncu": NcuOptions(set=None if args.set == "none" else args.set),
        "inputs": args.inputs,
        "seed": args.seed,
        "host": target_from(args, host) if host else None,
    }


def _print_selection(
    timeline: Timeline,
    index: int,
    selection: KernelSelection,
    workspace: Path | None,
    args: argparse.Namespace,
) -> None:
    from ..profiling import profile_command

    call = timeline.calls[index]
    print()
    print(
        f"call {index}: {selection.kernel} at {call.start_us:.1f} us, "
        f"{call.duration_us:.2f} us (kernel launch {selection.launch_skip + 1} of the run, "
        f"launch {selection.occurrence + 1} of this kernel)"
    )
    print("ncu " + shlex.join(selection.ncu_arguments()))
    if workspace is not None and timeline.source == "runner":
        request = selection.profile_request(workspace, **_ncu_options(args, timeline))
        print(shlex.join(profile_command(request)))


def _profile(args: argparse.Namespace, timeline: Timeline, workspace: Path | None) -> int:
    from ..timeline import profile_call
    from .ncu import print_hot_lines

    if workspace is None:
        raise KernelscopeError(
            "--profile needs the workspace the timeline belongs to", hint="give it with -w WS"
        )
    with TerminalProgress() as progress:
        result = profile_call(
            timeline,
            args.profile,
            workspace,
            kernel=args.kernel,
            warmup=args.profile_warmup,
            progress=progress,
            **_ncu_options(args, timeline),
        )
    print(f"profiled {result.launches} kernel launch in {result.seconds:.1f} s: {result.report}")
    return print_hot_lines([result.report], workspace=workspace, top=args.top)
