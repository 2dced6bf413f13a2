"""``kernelscope diff BASE NEW``: per-kernel (and, with ``--kernel``, per-line and SASS) deltas
between two profiles of one model, as text, Markdown (for a pull request) or JSON; with
``--fail-above PCT`` a non-zero exit when the model or a kernel got slower than that."""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ..compare import (
    FASTER,
    ONLY_BASE,
    ONLY_NEW,
    SAME,
    SLOWER,
    WITHIN_NOISE,
    Comparison,
    KernelComparison,
    KernelDelta,
    LineChange,
    ProfileDiff,
    Side,
    TimeDelta,
    open_comparison,
)
from ..errors import KernelscopeError
from ..formatting import format_number, format_signed, format_us
from ..inductor import is_run_folder
from ..ncu import SAMPLES, label_of
from ..workspace import TUNED_TIMES_NOTE, KernelInfo
from .build import schedule_of
from .table import format_table

EXIT_REGRESSION = 3  # 1 is an error, 2 a usage error
STATUS = {
    SLOWER: "slower",
    FASTER: "faster",
    WITHIN_NOISE: "~ noise",
    ONLY_BASE: "only in base",
    ONLY_NEW: "only in new",
}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "diff",
        help="compare two profiles of a model (two runs, two builds): per-kernel time deltas "
        "with a noise band, per-line and SASS deltas with --kernel; a TVM workspace against "
        "a torch.compile run folder: both compilers' time per operator group",
        description="Compare two profiles. Kernels are matched by name, by structure (the "
        "workspaces' manifests) and by normalised source; times are each kernel's sum over "
        "its launches, per pass, and a delta is marked within noise when it is at most three "
        "standard deviations of what the same build measures run to run on the GPU that band "
        "was measured on (an H200); for reports of other GPUs, up to 15 % of the kernel's "
        "time (a conservative default, said in the notes). A kernel of one name and operator "
        "that TVM scheduled differently (another batch size) is one row, matched as different "
        "code: its lines are compared only where they correspond.",
    )
    p.add_argument("base", type=Path, help="the baseline: .ncu-rep, CSV export or workspace")
    p.add_argument(
        "new",
        type=Path,
        help="the profile to compare with it (a torch.compile run folder against a workspace "
        "BASE: TVM against Inductor)",
    )
    p.add_argument(
        "-w",
        "--workspace",
        "--w-base",
        dest="w_base",
        type=Path,
        help="BASE's build workspace (also used for NEW when it fits NEW and --w-new is absent)",
    )
    p.add_argument("--w-new", type=Path, help="NEW's build workspace")
    p.add_argument("--kernel", metavar="RE", help="per-line and SASS deltas of kernels matching RE")
    p.add_argument(
        "--metric",
        default=SAMPLES,
        help="per-line metric: ncu name or Source-page label (default: warp-stall samples)",
    )
    p.add_argument(
        "--hot",
        type=int,
        metavar="N",
        default=0,
        help="also list the N lines whose metric grew and shrank most",
    )
    p.add_argument("--all-lines", action="store_true", help="with --kernel: every source line")
    p.add_argument(
        "--steps",
        action="store_true",
        help="an LLM's steps: BASE a workspace (or its stepped report) and NEW a torch.compile "
        "run folder, both profiled with steps: per step and operator group, with the winner",
    )
    p.add_argument(
        "--passes",
        metavar="B[,N]",
        help="model iterations each report profiled (default: detected from the launch order)",
    )
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="machine-readable output")
    out.add_argument("--markdown", action="store_true", help="Markdown, e.g. for a pull request")
    p.add_argument(
        "--fail-above",
        type=float,
        metavar="PCT",
        help=f"exit {EXIT_REGRESSION} when the total or a matched kernel got slower by more "
        "than PCT percent and by more than the noise band",
    )
    p.set_defaults(func=_diff)


def _passes(text: str | None) -> tuple[int | None, int | None]:
    if not text:
        return None, None
    try:
        parts = [int(x) for x in text.split(",")]
    except ValueError:
        parts = []
    if len(parts) not in (1, 2) or min(parts) < 1:
        raise KernelscopeError(f"--passes {text}: give one or two positive integers, e.g. 1,3")
    return parts[0], parts[-1]


def _diff(args: argparse.Namespace) -> int:
    if args.steps:
        if not is_run_folder(args.new):
            raise KernelscopeError(
                f"--steps compares a TVM workspace with a torch.compile run folder; {args.new} "
                "is not a run folder",
                hint="kernelscope diff WS RUN --steps (kernelscope steps WS shows one side's "
                "ledger)",
            )
        from .inductor import print_versus_steps

        return print_versus_steps(args.base, args.new, args.w_base, as_json=args.json)
    if is_run_folder(args.base) or is_run_folder(args.new):  # TVM against torch.compile
        from .inductor import print_versus

        return print_versus(args.base, args.new, as_json=args.json)
    kernel_re = None
    if args.kernel:
        try:
            kernel_re = re.compile(args.kernel)
        except re.error as exc:
            raise KernelscopeError(
                f"--kernel {args.kernel!r} is not a regular expression: {exc}"
            ) from None
    cmp = open_comparison(
        args.base,
        args.new,
        base_workspace=args.w_base,
        new_workspace=args.w_new,
        passes=_passes(args.passes),
    )
    diff = cmp.summary()
    for side in (diff.base, diff.new):
        for w in side.warnings:
            print(f"kernelscope: warning: {side.role}: {w}", file=sys.stderr)
    metric = cmp.resolve_metric(args.metric) if kernel_re or args.hot else args.metric
    selected = [k for k in diff.kernels if kernel_re and _selected(k, kernel_re)]
    if kernel_re and not selected:
        known = ", ".join(k.match.label for k in diff.kernels)
        raise KernelscopeError(
            f"--kernel {args.kernel}: no kernel matches", hint=f"kernels: {known}"
        )
    kernels = [cmp.kernel(k) for k in selected if k.match.base and k.match.new]
    hot = cmp.line_changes(metric, args.hot) if args.hot else ([], [])
    tuned = schedules(cmp)
    if args.json:
        out = _json(diff, kernels, hot, metric)
        if tuned is not None:
            for row, k in zip(out["kernels"], diff.kernels, strict=True):
                row["schedule"] = {
                    side: _tuned_json(cmp, side, name) for side, name in _sides(k).items()
                }
        print(json.dumps(out, indent=1))
    elif args.markdown:
        print(_markdown(diff, kernels, hot, metric, args.all_lines, tuned))
    else:
        print(_text(diff, kernels, hot, metric, args.all_lines, selected, tuned))
    if args.fail_above is not None:
        failed = regressions(diff, args.fail_above)
        for line in failed:
            print(f"kernelscope: regression: {line}", file=sys.stderr)
        if failed:
            return EXIT_REGRESSION
    return 0


Schedules = dict[tuple[str | None, str | None], str]


def schedules(cmp: Comparison) -> Schedules | None:
    """Where each kernel's schedule came from, when a workspace was built with tuning records
    (``build --tuning-db``): per matched pair (base, new) "record: N trials..." or "default",
    as ``kernelscope build`` prints it, both sides' when both were; None when neither was."""
    tuned = [r for r, ws in cmp.workspaces.items() if ws is not None and ws.manifest.tuning_db]
    if not tuned:
        return None
    out: Schedules = {}
    for k in cmp.summary().kernels:
        said = []
        for side, name in _sides(k).items():
            info = _info(cmp, side, name)
            if side in tuned and info is not None:
                text = schedule_of(info)
                said.append(f"{side}: {text}" if len(tuned) > 1 else text)
        out[(k.match.base, k.match.new)] = "; ".join(said) or "-"
    return out


def _sides(k: KernelDelta) -> dict[str, str | None]:
    return {"base": k.match.base, "new": k.match.new}


def _info(cmp: Comparison, side: str, name: str | None) -> KernelInfo | None:
    ws = cmp.workspaces[side]
    if ws is None or name is None:
        return None
    try:
        return ws.manifest.kernel(name)
    except KeyError:
        return None


def _tuned_json(cmp: Comparison, side: str, name: str | None) -> dict[str, Any] | str | None:
    """A kernel's record (``TunedFrom``), "default", or None (no such kernel or workspace)."""
    info = _info(cmp, side, name)
    if info is None:
        return None
    return asdict(info.tuned) if info.tuned is not None else "default"


def _selected(k: KernelDelta, pattern: re.Pattern[str]) -> bool:
    return any(n and pattern.search(n) for n in (k.match.base, k.match.new))


def regressions(diff: ProfileDiff, pct: float) -> list[str]:
    """What got slower by more than ``pct`` percent and by more than its noise band."""
    out = []
    rows: list[tuple[str, TimeDelta]] = [("total", diff.total)]
    rows += [(k.match.label, k) for k in diff.matched]
    for label, d in rows:
        if d.status == SLOWER and d.pct is not None and d.pct > pct:
            out.append(
                f"{label} {_pct(d.pct)} ({format_us(d.base_per_pass_ns)} -> "
                f"{format_us(d.new_per_pass_ns)} us, noise +-{format_us(d.noise_ns)} us) "
                f"is over {pct:g}%"
            )
    return out


# ---- formatting ---------------------------------------------------------------------------------


def _pct(p: float | None) -> str:
    return "-" if p is None else f"{p:+.1f}%"


def _ratio(r: float | None) -> str:
    return "-" if r is None else f"{r:.2f}x"


def _num(v: float | None) -> str:
    return format_number(v, "-")


def _side_line(s: Side) -> str:
    passes = f"{s.passes} passes" if s.passes > 1 else "1 pass"
    model = f", {s.model}" if s.model else ""
    ws = f", workspace {s.workspace}" if s.workspace else ", no workspace"
    return (
        f"{s.role:4}  {s.name} ({s.kind}{model}{ws}): {s.device or 'unknown GPU'} "
        f"(cc {s.compute_capability or '?'}), {s.launches} launches of {s.kernels} kernels, "
        f"{passes}, {format_us(s.total_per_pass_ns)} us per pass"
    )


def _kernel_rows(diff: ProfileDiff, tuned: Schedules | None = None) -> list[list[str]]:
    rows = []
    for k in diff.kernels:
        schedule = [tuned.get((k.match.base, k.match.new), "-")] if tuned is not None else []
        rows.append(
            [
                k.match.label,
                k.match.how,
                _launches(k),
                format_us(k.base_per_pass_ns),
                format_us(k.new_per_pass_ns),
                format_us(k.delta_ns, signed=True),
                _pct(k.pct),
                _ratio(k.ratio),
                format_us(k.noise_ns),
                STATUS.get(k.status, k.status),
                *schedule,
            ]
        )
    t = diff.total
    rows.append(
        [
            "total (sum over kernels)",
            "",
            f"{diff.base.launches}/{diff.new.launches}",
            format_us(t.base_per_pass_ns),
            format_us(t.new_per_pass_ns),
            format_us(t.delta_ns, signed=True),
            _pct(t.pct),
            _ratio(t.ratio),
            format_us(t.noise_ns),
            STATUS.get(t.status, t.status),
            *([""] if tuned is not None else []),
        ]
    )
    return rows


def _launches(k: KernelDelta) -> str:
    return f"{k.base_launches}/{k.new_launches}"


KERNEL_HEADER = [
    "kernel",
    "match",
    "launches",
    "base us",
    "new us",
    "delta us",
    "delta",
    "ratio",
    "noise +-us",
    "",
]
TIMES_NOTE = (
    "Times: each kernel's sum over its launches, per pass; the total is the sum over all kernels."
)


def _evidence(diff: ProfileDiff) -> list[str]:
    """How the kernels that did not simply keep their name (or their code) were matched, or
    why not."""
    return [
        f"{k.match.label}: {k.match.how}: {k.match.evidence}"
        for k in diff.kernels
        if k.match.renamed or k.match.different_code or k.match.base is None or k.match.new is None
    ]


def _text(
    diff: ProfileDiff,
    kernels: list[KernelComparison],
    hot: tuple[list[LineChange], list[LineChange]],
    metric: str,
    all_lines: bool,
    selected: list[KernelDelta],
    tuned: Schedules | None = None,
) -> str:
    out = [_side_line(diff.base), _side_line(diff.new), ""]
    header = KERNEL_HEADER + (["schedule"] if tuned is not None else [])
    out.append(format_table(header, _kernel_rows(diff, tuned), right={2, 3, 4, 5, 6, 7, 8}))
    out += ["", f"{TIMES_NOTE} {diff.noise.describe()}"]
    if tuned is not None:
        out.append(f"schedule µs: {TUNED_TIMES_NOTE}")
    if evidence := _evidence(diff):
        out += ["", "matching:", *(f"  {e}" for e in evidence)]
    if diff.notes:
        out += ["", "notes:", *(f"  {n}" for n in diff.notes)]
    for k in selected:
        if k.match.base is None or k.match.new is None:
            out += ["", f"{k.match.label}: {STATUS[k.status]}; {k.match.evidence}"]
    for comp in kernels:
        out += ["", *_kernel_text(comp, metric, all_lines)]
    if hot[0] or hot[1]:
        out += ["", *_hot_text(hot, metric)]
    return "\n".join(out)


def _line_rows(comp: KernelComparison, metric: str, all_lines: bool) -> list[list[str]]:
    rows = []
    for row in comp.rows:
        a, b = comp.value(row, metric, "base"), comp.value(row, metric, "new")
        d = comp.delta(row, metric)
        if not all_lines and row.kind == SAME and not a and not b:
            continue
        noise = comp.noise_band(row, metric)
        rows.append(
            [
                str(row.base_line or ""),
                str(row.new_line or ""),
                row.kind,
                _num(a),
                _num(b),
                format_signed(d, "-"),
                "~" if d is not None and d != 0 and abs(d) <= noise else "",
                (row.new_text if row.new_text is not None else row.base_text or "").strip()[:90],
            ]
        )
    return rows


def _kernel_text(comp: KernelComparison, metric: str, all_lines: bool) -> list[str]:
    m = comp.kernel.match
    out = [f"== {m.label} ({m.how}: {m.evidence})"]
    out.append(
        f"sources: {_sources_state(comp)}; {label_of(metric)} ({metric}) per pass, kernel "
        f"total {_num(_total(comp, metric, 'base'))} -> {_num(_total(comp, metric, 'new'))}"
    )
    out += [f"note: {n}" for n in comp.notes]
    if comp.base_has_lines and comp.new_has_lines or all_lines:
        header = ["base", "new", "kind", "base", "new", "delta", "", "source (new)"]
        out.append(format_table(header, _line_rows(comp, metric, all_lines), right={0, 1, 3, 4, 5}))
    ops = [o for o in comp.opcodes if o.count_delta or o.executed_delta]
    if ops:
        out += ["", "SASS by opcode (static count; warp-level executions):"]
        out.append(
            format_table(
                ["opcode", "base", "new", "delta", "base exec", "new exec", "delta exec"],
                [
                    [
                        o.opcode,
                        str(o.base_count),
                        str(o.new_count),
                        f"{o.count_delta:+d}",
                        _num(o.base_executed),
                        _num(o.new_executed),
                        format_signed(o.executed_delta, "-"),
                    ]
                    for o in ops[:20]
                ],
                right={1, 2, 3, 4, 5, 6},
            )
        )
    elif comp.opcodes:
        measured = all(o.executed_delta is not None for o in comp.opcodes)
        what = "counts and executions" if measured else "counts (executions not measured on both)"
        out.append(f"SASS: the same opcodes and {what} on both sides")
    aligned = "aligned" if comp.instructions else "not aligned"
    out.append(f"SASS instructions {aligned}: {comp.instructions_aligned:.0%} in aligned rows")
    return out


def _sources_state(comp: KernelComparison) -> str:
    has_base = any(r.base_text is not None for r in comp.rows)
    has_new = any(r.new_text is not None for r in comp.rows)
    if not (has_base and has_new):
        return f"only {'base' if has_base else 'new'} has one" if has_base or has_new else "none"
    return "identical up to TVM's naming" if comp.sources_identical else "they differ"


def _total(comp: KernelComparison, metric: str, side: str) -> float | None:
    totals = comp.base_totals if side == "base" else comp.new_totals
    passes = comp.base_passes if side == "base" else comp.new_passes
    return totals[metric] / passes if metric in totals else None


def _hot_text(hot: tuple[list[LineChange], list[LineChange]], metric: str) -> list[str]:
    out = []
    for title, items in (("biggest regressions", hot[0]), ("biggest improvements", hot[1])):
        out.append(f"{title} by {label_of(metric)} per pass:")
        rows = [
            [
                str(c.rank),
                c.kernel,
                f"{c.row.base_line or '-'}->{c.row.new_line or '-'}",
                _num(c.base_value),
                _num(c.new_value),
                format_signed(c.delta, "-"),
                "~" if c.within_noise else "",
                (c.row.new_text or c.row.base_text or "").strip()[:70],
            ]
            for c in items
        ]
        if rows:
            header = ["#", "kernel", "lines", "base", "new", "delta", "", "source"]
            out.append(format_table(header, rows, right={0, 3, 4, 5}))
        else:
            out.append("  none")
    return out


def _md_table(header: list[str], rows: list[list[str]], right: set[int]) -> str:
    def cell(text: str) -> str:
        return text.replace("|", "\\|")

    align = ["---:" if i in right else "---" for i in range(len(header))]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(cell(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def _markdown(
    diff: ProfileDiff,
    kernels: list[KernelComparison],
    hot: tuple[list[LineChange], list[LineChange]],
    metric: str,
    all_lines: bool,
    tuned: Schedules | None = None,
) -> str:
    t = diff.total
    out = [
        f"### kernelscope diff: {_pct(t.pct)} total ({format_us(t.base_per_pass_ns)} -> "
        f"{format_us(t.new_per_pass_ns)} us per pass, {STATUS.get(t.status, t.status)})",
        "",
        f"- base: {_side_line(diff.base)[6:]}",
        f"- new: {_side_line(diff.new)[6:]}",
        *(f"- note: {n}" for n in diff.notes),
        "",
    ]
    header = [h or "status" for h in KERNEL_HEADER] + (["schedule"] if tuned is not None else [])
    rows = _kernel_rows(diff, tuned)
    rows = [
        [f"`{r[0]}`" if i < len(rows) - 1 else f"**{r[0]}**", *r[1:]] for i, r in enumerate(rows)
    ]
    out += [_md_table(header, rows, {2, 3, 4, 5, 6, 7, 8}), ""]
    out.append(f"{TIMES_NOTE} {diff.noise.describe()}")
    if tuned is not None:
        out.append(f"\nschedule µs: {TUNED_TIMES_NOTE}")
    if evidence := _evidence(diff):
        out += ["", "Matching:", "", *(f"- {e}" for e in evidence)]
    for comp in kernels:
        m = comp.kernel.match
        out += ["", f"#### `{m.label}`", "", f"{m.how}: {m.evidence}", ""]
        out += [f"- {n}" for n in comp.notes]
        header = ["base line", "new line", "kind", "base", "new", "delta", "noise", "source (new)"]
        rows = [[*r[:7], f"`{r[7]}`" if r[7] else ""] for r in _line_rows(comp, metric, all_lines)]
        out += [f"{label_of(metric)} per pass:", "", _md_table(header, rows, {0, 1, 3, 4, 5})]
    for title, items in (("Biggest regressions", hot[0]), ("Biggest improvements", hot[1])):
        if not items:
            continue
        rows = [
            [
                str(c.rank),
                f"`{c.kernel}`",
                f"{c.row.base_line or '-'}->{c.row.new_line or '-'}",
                _num(c.base_value),
                _num(c.new_value),
                format_signed(c.delta, "-"),
                "~" if c.within_noise else "",
            ]
            for c in items
        ]
        out += ["", f"{title} ({label_of(metric)} per pass):", ""]
        out.append(
            _md_table(["#", "kernel", "lines", "base", "new", "delta", "noise"], rows, {0, 3, 4, 5})
        )
    return "\n".join(out)


def _time_json(d: TimeDelta) -> dict[str, Any]:
    out = asdict(d)
    out.pop("match", None)
    out.update(ratio=d.ratio, pct=d.pct, within_noise=d.within_noise)
    return out


def _json(
    diff: ProfileDiff,
    kernels: list[KernelComparison],
    hot: tuple[list[LineChange], list[LineChange]],
    metric: str,
) -> dict[str, Any]:
    return {
        "base": {**asdict(diff.base), "total_per_pass_ns": diff.base.total_per_pass_ns},
        "new": {**asdict(diff.new), "total_per_pass_ns": diff.new.total_per_pass_ns},
        "times": "per kernel: the sum over its launches, per pass; total: the sum over kernels",
        "noise": asdict(diff.noise),
        "kernels": [{"match": asdict(k.match), **_time_json(k)} for k in diff.kernels],
        "total": _time_json(diff.total),
        "launches": [{**asdict(x), "delta_ns": x.delta_ns} for x in diff.launches],
        "notes": list(diff.notes),
        "metric": metric,
        "kernel_details": [_kernel_json(c, metric) for c in kernels],
        "regressions": [_change_json(c) for c in hot[0]],
        "improvements": [_change_json(c) for c in hot[1]],
    }


def _kernel_json(comp: KernelComparison, metric: str) -> dict[str, Any]:
    return {
        "base": comp.kernel.match.base,
        "new": comp.kernel.match.new,
        "base_file": comp.base_file,
        "new_file": comp.new_file,
        "sources_identical": comp.sources_identical,
        "notes": list(comp.notes),
        "base_totals": comp.base_totals,
        "new_totals": comp.new_totals,
        "lines": [
            {
                "kind": r.kind,
                "base_line": r.base_line,
                "new_line": r.new_line,
                "base_text": r.base_text,
                "new_text": r.new_text,
                "base": comp.value(r, metric, "base"),
                "new": comp.value(r, metric, "new"),
                "delta": comp.delta(r, metric),
                "noise": comp.noise_band(r, metric),
            }
            for r in comp.rows
        ],
        "opcodes": [asdict(o) for o in comp.opcodes],
        "instructions_aligned": comp.instructions_aligned,
        "instructions": [
            {
                "kind": r.kind,
                "base_offset": r.base_offset,
                "new_offset": r.new_offset,
                "base_text": r.base_text,
                "new_text": r.new_text,
                "base": comp.value(r, metric, "base"),
                "new": comp.value(r, metric, "new"),
            }
            for r in comp.instructions
        ],
    }


def _change_json(c: LineChange) -> dict[str, Any]:
    return {
        "rank": c.rank,
        "kernel": c.kernel,
        "base_kernel": c.base_kernel,
        "new_kernel": c.new_kernel,
        "base_line": c.row.base_line,
        "new_line": c.row.new_line,
        "kind": c.row.kind,
        "source": c.row.new_text if c.row.new_text is not None else c.row.base_text,
        "base": c.base_value,
        "new": c.new_value,
        "delta": c.delta,
        "noise": c.noise,
        "within_noise": c.within_noise,
    }
