"""``kernelscope details`` (one kernel's Details, or the headroom list) and
``kernelscope roofline``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..errors import KernelscopeError
from ..formatting import format_us
from ..ncu import (
    DetailMetric,
    KernelDetails,
    Profile,
    format_value,
    kernel_details,
    stall_breakdown,
)
from ..roofline import (
    LEVEL_LABEL,
    LEVELS,
    Headroom,
    Roofline,
    RooflinePoint,
    describe,
    headroom,
    render_png,
    roofline,
)
from ..workspace import Workspace, model_line_share
from .kernel_choice import one_kernel
from .table import format_table

_BAR = 24  # characters of the widest bar in text bar charts


def register(sub: argparse._SubParsersAction) -> None:
    d = sub.add_parser(
        "details",
        help="one kernel's Details (--kernel), or the headroom list: the microseconds each "
        "kernel could save",
    )
    d.add_argument(
        "inputs",
        nargs="+",
        type=Path,
        help="REPORT.ncu-rep, CSV exports or a torch.compile run folder",
    )
    d.add_argument("-w", "--workspace", type=Path, help="the build workspace (operators, shapes)")
    d.add_argument("--kernel", metavar="REGEX", help="show this kernel's Details")
    d.add_argument("--launch", type=int, help="one launch (result ID) instead of all combined")
    d.add_argument(
        "--line",
        metavar="[FILE:]LINE",
        help="with --kernel: every stall reason of this source line (of the kernel's file)",
    )
    d.add_argument(
        "--sass",
        metavar="OFFSET",
        help="with --kernel: every stall reason of the SASS instruction at this offset (0x1a0)",
    )
    d.add_argument("--json", action="store_true", help="machine-readable output")
    d.set_defaults(func=_details)

    r = sub.add_parser(
        "roofline",
        help="every kernel on the roofline (FLOP/s against FLOP/byte at DRAM, L2, L1)",
    )
    r.add_argument(
        "inputs",
        nargs="+",
        type=Path,
        help="REPORT.ncu-rep, CSV exports or a torch.compile run folder",
    )
    r.add_argument("-w", "--workspace", type=Path, help="the build workspace")
    r.add_argument("--kernel", metavar="REGEX", help="one kernel, a point per launch")
    r.add_argument("--png", type=Path, metavar="FILE", help="also draw the plot into FILE")
    r.add_argument("--dark", action="store_true", help="dark background for --png")
    r.add_argument("--json", action="store_true", help="machine-readable output")
    r.set_defaults(func=_roofline)


def _open(args: argparse.Namespace) -> tuple[Profile, Workspace | None]:
    from ..inductor import is_run_folder, open_workspace, run_report

    ws = open_workspace(args.workspace) if args.workspace else None
    inputs = args.inputs
    if len(inputs) == 1 and is_run_folder(inputs[0]):  # a torch.compile run and its report
        report, ws = run_report(inputs[0])
        inputs = [report]
    profile = Profile.open(inputs, workspace=ws)
    for w in profile.warnings:
        print(f"kernelscope: warning: {w}", file=sys.stderr)
    return profile, ws


def pick_kernel(profile: Profile, ws: Workspace | None, pattern: str) -> str:
    """The one kernel a regex names, among the profile's and the workspace's kernels."""
    profiled = [k.name for k in profile.kernels()]
    built = [k.name for k in ws.manifest.kernels] if ws else []
    name = one_kernel(pattern, list(dict.fromkeys(profiled + built)), profile.name)
    if name not in profiled:
        info = ws.manifest.kernel(name) if ws else None
        why = (
            "the model never launches it (TVM keeps kernels that run as views)"
            if info is not None and not info.launched
            else "the profile did not capture a launch of it"
        )
        raise KernelscopeError(
            f"{name} has no launches in {profile.name}: {why}",
            hint="profile the model again to see it"
            if info is None or info.launched
            else "nothing to show: it never runs",
        )
    return name


# ---- details ---------------------------------------------------------------------------------
def _details(args: argparse.Namespace) -> int:
    profile, ws = _open(args)
    if args.kernel is None:
        if args.line or args.sass or args.launch is not None:
            raise KernelscopeError("--line, --sass and --launch need --kernel")
        _print_headroom(headroom(profile, ws), args.json)
        if ws is not None and not args.json:
            _print_model_line_shares(profile, ws)
        return 0
    name = pick_kernel(profile, ws, args.kernel)
    if args.line or args.sass:
        return _print_stalls(profile, name, args)
    details = kernel_details(profile, name, launch=args.launch)
    point = _point(profile, name, args.launch)
    ops = _ops(ws, name)
    if args.json:
        out = details.to_json()
        out["ops"] = ops
        out["roofline"] = point.to_json() if point is not None else None
        out["descriptions"] = {
            m.name: m.description for m in details.metrics.values() if m.description
        }
        print(json.dumps(out, indent=1, default=str))
        return 0
    print(_details_text(details, ops, point))
    return 0


def _point(profile: Profile, name: str, launch: int | None) -> RooflinePoint | None:
    roof = roofline(profile, name)
    if launch is not None:
        return next((p for p in roof.launches if p.launch_ids == [launch]), None)
    return roof.points[0] if roof.points else None


def _ops(ws: Workspace | None, name: str) -> list[str]:
    if ws is None:
        return []
    try:
        info = ws.manifest.kernel(name)
    except KeyError:
        return []
    ops = [
        describe(o) + (f"  <- {o.origin}: {o.origin_text}" if o.origin else "") for o in info.ops
    ]
    sites = [s for s in info.launched_by if s.origin and s.via != "call_tir"]
    return ops or [f"KV cache {s.role}  <- {s.origin}: {s.origin_text}" for s in sites[:1]]


def _metric_line(m: DetailMetric, width: int) -> str:
    flag = "  (varies by launch)" if m.varies else ""
    return f"  {m.label:<{width}}  {m.text()}{flag}"


def _bars(rows: list[DetailMetric], top: int = 12) -> list[str]:
    rows = [r for r in rows if isinstance(r.value, int | float) and r.value > 0][:top]
    if not rows:
        return []
    biggest = max(float(r.value) for r in rows) or 1.0  # type: ignore[arg-type]
    width = max(len(r.label) for r in rows)
    return [
        f"    {r.label:<{width}}  {r.text():>14}  "
        + "█" * max(1, round(_BAR * float(r.value) / biggest))  # type: ignore[arg-type]
        for r in rows
    ]


_GROUP_TITLES = {
    "compute": "compute breakdown",
    "memory": "memory breakdown",
    "pipes": "pipe utilisation (% of peak, active cycles)",
    "stalls": "stall reasons (warp cycles per issued instruction)",
    "opcodes": "executed instructions by opcode",
}


def _details_text(d: KernelDetails, ops: list[str], point: RooflinePoint | None) -> str:
    launches = (
        f"launch {d.launch_ids[0]}"
        if len(d.launch_ids) == 1
        else f"{len(d.launch_ids)} launches ({', '.join(map(str, d.launch_ids))}) combined"
    )
    lines = [
        f"{d.kernel} — {launches}, {format_value(d.duration_ns, 'ns')}"
        + (f", {d.device}" if d.device else ""),
    ]
    if d.source == "details":
        lines.append("  (from a details page alone: header metrics only, rounded as printed)")
    for op in ops:
        lines.append(f"  op: {op}")
    if d.source == "none":
        lines.append(f"  note: {d.views[0].note}")
        return "\n".join(lines)
    for view in d.views:
        lines.append("")
        lines.append(view.title)
        if view.rows:
            width = max(len(r.label) for r in view.rows)
            lines.extend(_metric_line(r, width) for r in view.rows)
        for key, rows in view.groups.items():
            bars = _bars(rows, top=8 if key in ("compute", "memory") else 12)
            if bars:
                lines.append(f"  {_GROUP_TITLES.get(key, key)}:")
                lines.extend(bars)
        for curve in view.curves:
            peak = max((y for _, y in curve.points), default=0)
            at = f", this kernel at {curve.current:g}" if curve.current is not None else ""
            lines.append(f"  curve {curve.label}: {len(curve.points)} points, max {peak:g}{at}")
        if view.note:
            lines.append(f"  note: {view.note}")
    lines.append("")
    lines.append("Roofline")
    if point is None or point.missing:
        lines.append(
            "  note: no FLOP/byte counters; collect --section SpeedOfLight_RooflineChart "
            "--section SpeedOfLight_HierarchicalSingleRooflineChart (or --set full)"
        )
    else:
        lines.append(_point_text(point))
    lines.append("")
    launch = f" (launch {d.rules_launch})" if len(d.launch_ids) > 1 else ""
    lines.append(f"Rules{launch}")
    if not d.rules:
        lines.append("  none")
    for rule in sorted(d.rules, key=lambda r: -(r.speedup_pct or 0.0)):
        speedup = (
            f" est. speedup {rule.speedup_pct:.0f}% ({rule.speedup_type})"
            if rule.speedup_pct
            else ""
        )
        lines.append(f"  {rule.kind} {rule.rule}{speedup}: {rule.message}")
    if d.markers:
        lines.append(f"Source markers{launch}")
        for m in d.markers:
            where = (
                f"{Path(m.file).name}:{m.line}"
                if m.file
                else f"SASS +0x{m.offset:x}"
                if m.offset is not None
                else "?"
            )
            lines.append(f"  {where}  {m.rule}: {m.message}")
    if d.missing_sections:
        lines.append("")
        lines.append(
            "missing sections: "
            + ", ".join(d.missing_sections)
            + "; collect them with "
            + " ".join(f"--section {s}" for s in d.missing_sections)
            + " (or --set full)"
        )
    return "\n".join(lines)


def _point_text(p: RooflinePoint) -> str:
    ai = ", ".join(
        f"{LEVEL_LABEL[lv]} {p.intensity(lv):.3g}" for lv in LEVELS if p.intensity(lv) is not None
    )
    roof = p.roofline_time_ns
    pct = f" ({100 * roof / p.duration_ns:.0f}% of the measured time)" if roof else ""
    return (
        f"  {p.flops_per_s / 1e9:.4g} GFLOP/s, {p.total_flops:.4g} FLOP; intensity (FLOP/byte): "
        f"{ai or '-'}\n  bound by {p.bound}; roofline time {format_value(roof, 'ns')}{pct}"
    )


def _print_stalls(profile: Profile, name: str, args: argparse.Namespace) -> int:
    table = profile.instructions(name, args.launch)
    if table is None:
        raise KernelscopeError(
            f"{name}: {profile.correlation_problem(name) or 'no per-instruction metrics'}"
        )
    if args.sass:
        try:
            offset = int(args.sass, 0)
        except ValueError as exc:
            raise KernelscopeError(f"--sass {args.sass!r} is not an offset like 0x1a0") from exc
        row = table.row(offset)
        if not row:
            raise KernelscopeError(f"{name} has no instruction at offset 0x{offset:x}")
        where = f"SASS +0x{offset:x}"
        breakdown = stall_breakdown([row])
    else:
        file, _, number = args.line.rpartition(":")
        try:
            line = int(number)
        except ValueError as exc:
            raise KernelscopeError(f"--line {args.line!r} is not FILE:LINE or LINE") from exc
        files = profile.source_files(name, args.launch)
        if file:
            files = [f for f in files if f == file or f.endswith("/" + file)] or [file]
        lines = profile.lines(name, files[0] if files else None, args.launch)
        lm = lines.get((files[0], line)) if files else None
        if lm is None:
            raise KernelscopeError(
                f"{name}: line {line} of {Path(files[0]).name if files else '?'} has no "
                "instructions",
                hint="lines with SASS: "
                + ", ".join(str(n) for f, n in sorted(lines) if files and f == files[0])[:300],
            )
        where = f"{Path(files[0]).name}:{line}"
        breakdown = stall_breakdown([lm.values])
    if args.json:
        print(json.dumps({"kernel": name, "where": where, **_asdict(breakdown)}, indent=1))
        return 0
    print(f"{name} {where}: {breakdown.total:g} stall samples")
    if not breakdown.reasons:
        print("  no samples")
    biggest = breakdown.reasons[0].samples if breakdown.reasons else 1.0
    for s in breakdown.reasons:
        bar = "█" * max(1, round(_BAR * s.samples / biggest))
        print(f"  {s.label:<24} {s.samples:>8g} {100 * s.share:5.1f}%  {bar}  {s.description}")
    return 0


def _asdict(obj: object) -> dict:
    from dataclasses import asdict

    return asdict(obj)  # type: ignore[call-overload]


# ---- headroom --------------------------------------------------------------------------------
def _print_headroom(h: Headroom, as_json: bool) -> int:
    if as_json:
        print(json.dumps(h.to_json(), indent=1))
        return 0
    header = [
        "kernel",
        "launches",
        "measured us",
        "roofline us",
        "operator us",
        "saves us",
        "bound",
    ]
    rows = []
    for r in h.rows:
        rows.append(
            [
                r.kernel if r.launched else f"({r.kernel})",
                str(r.launches),
                format_us(r.measured_ns) if r.launched else "-",
                format_us(r.roofline_ns),
                format_us(r.operator_ns),
                format_us(r.savings_ns) if r.launched else "-",
                r.bound or "-",
            ]
        )
    print(format_table(header, rows, right={1, 2, 3, 4, 5}))
    print()
    print(f"model: {h.summary()}")
    print()
    for r in h.rows:
        detail = "; ".join(r.ops)
        if detail or r.note:
            print(f"{r.kernel}: {detail}" + (f"  [{r.note}]" if r.note else ""))
    for note in h.notes:
        print(f"note: {note}")
    return 0


def _print_model_line_shares(profile: Profile, ws: Workspace) -> None:
    """Per function of the build, the share of one call's kernel time (each kernel's mean
    launch in the report) that leads to a line of the model file."""
    times = {
        k.name: (k.duration_ns or 0.0) / len(k.launches) / 1000
        for k in profile.kernels()
        if k.launches
    }
    for f in ws.manifest.functions:
        share = model_line_share(ws.manifest, f.name, times)
        if share is not None and share.total:
            print(share.text())


# ---- roofline --------------------------------------------------------------------------------
def _roofline(args: argparse.Namespace) -> int:
    profile, ws = _open(args)
    name = pick_kernel(profile, ws, args.kernel) if args.kernel else None
    roof = roofline(profile, name)
    if args.png:
        render_png(roof, args.png, kernel=name, dark=args.dark)
    if args.json:
        print(json.dumps(roof.to_json(), indent=1))
        return 0
    _print_roofline(roof, by_launch=name is not None)
    if args.png:
        print(f"plot: {args.png}")
    return 0


def _print_roofline(roof: Roofline, by_launch: bool) -> None:
    c = roof.ceilings
    peaks = ", ".join(f"{k.upper()} {v / 1e12:.1f} TFLOP/s" for k, v in c.compute.items())
    bws = ", ".join(f"{LEVEL_LABEL[k]} {v / 1e12:.2f} TB/s" for k, v in c.bandwidth.items())
    if peaks or bws:
        known = "; ".join(x for x in (peaks, bws) if x)
        print(f"{c.device or 'GPU'} ceilings ({c.source}): {known}")
    else:
        print("ceilings: unknown (the profile has neither roofline sections nor device attributes)")
    header = ["kernel", "time us", "%", "GFLOP/s", "AI DRAM", "AI L2", "AI L1", "bound", "roof %"]
    rows = []
    for p in roof.launches if by_launch else roof.points:
        name = f"{p.kernel} [{p.launch_ids[0]}]" if by_launch else p.kernel
        if p.missing:
            rows.append([name, format_us(p.duration_ns), f"{100 * p.share:.1f}"] + ["-"] * 6)
            continue
        roof_t = p.roofline_time_ns
        rows.append(
            [
                name,
                format_us(p.duration_ns),
                f"{100 * p.share:.1f}",
                f"{p.flops_per_s / 1e9:.4g}",
                *(_ai(p.intensity(lv)) for lv in LEVELS),
                p.bound,
                f"{100 * roof_t / p.duration_ns:.0f}" if roof_t and p.duration_ns else "-",
            ]
        )
    print(format_table(header, rows, right={1, 2, 3, 4, 5, 6, 8}))
    if roof.note:
        print(f"note: {roof.note}")


def _ai(value: float | None) -> str:
    return "-" if value is None else f"{value:.3g}"
