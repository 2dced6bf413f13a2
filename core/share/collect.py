"""What a shared page holds, gathered from what the window and the CLI already compute: the
kernel list (``ViewDocument.summaries``), each chosen kernel's ``KernelView`` (its files, SASS,
per-line and per-instruction metrics and the frames that link them), the hot lines
(``view.hot_lines``, as ``kernelscope hot``), the Details (``view.read_details``), the roofline
(``view.read_roofline``) and, with a baseline, the comparison (``view.compare_documents``, as
``kernelscope diff``). Only the chosen kernels' lines and instructions travel.

The result is a JSON-ready ``dict`` (``PAGE_VERSION`` says its shape) and the roofline; the
page writer (``page``) turns them into HTML.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import KernelscopeError
from ..formatting import format_dims, format_number, format_signed, format_us
from ..ncu import SAMPLES, KernelSummary, label_of, stall_breakdown
from ..tasks import Cancel, ProgressFn, check_cancel, no_progress
from ..view import (
    SASS_COUNT,
    KernelView,
    ProfileSession,
    compare_documents,
    hot_lines,
    read_details,
    read_roofline,
)
from .names import PathNames

if TYPE_CHECKING:
    from ..compare import KernelComparison, ProfileDiff, TimeDelta
    from ..ncu import KernelDetails
    from ..roofline import Roofline

PAGE_VERSION = 1
DEFAULT_TOP = 10  # kernels shared when neither a pattern nor a count is given
HOT_LINES = 25  # the model's hottest lines listed
_STALLS_PER_LINE = 3  # stall reasons shown for a line


@dataclass
class PageData:
    """The page's data (``data``, JSON-ready) and the roofline to draw (None without one)."""

    data: dict[str, Any]
    roofline: Roofline | None

    @property
    def kernels(self) -> list[str]:
        """The kernels whose source and SASS the page holds."""
        return list(self.data["views"])


def choose_kernels(
    summaries: Sequence[KernelSummary], pattern: str | None, top: int | None
) -> list[str]:
    """The kernels to share: those ``pattern`` matches (``re.search``), else the ``top``
    slowest (10 by default), in the order of the kernel list."""
    names = [s.name for s in summaries]
    if pattern is not None:
        try:
            rx = re.compile(pattern)
        except re.error as exc:
            raise KernelscopeError(
                f"--kernels {pattern!r} is not a regular expression: {exc}",
                window_hint="the kernel pattern is not a regular expression",
            ) from None
        chosen = [n for n in names if rx.search(n)]
        if not chosen:
            raise KernelscopeError(
                f"no kernel matches {pattern!r}", hint="kernels: " + ", ".join(names)[:600]
            )
        return chosen
    count = DEFAULT_TOP if top is None else top
    if count < 1:
        raise KernelscopeError(f"--top {count}: give a positive number of kernels")
    ranked = sorted(summaries, key=lambda s: -(s.duration_ns or 0.0))[:count]
    keep = {s.name for s in ranked}
    return [n for n in names if n in keep]


def collect_page(
    session: ProfileSession,
    *,
    baseline: ProfileSession | None = None,
    kernels: Sequence[str] | None = None,
    keep_paths: bool = False,
    progress: ProgressFn = no_progress,
    cancel: Cancel | None = None,
) -> PageData:
    """Everything the page shows of ``session``'s document, for ``kernels`` (the top ten by
    time when None), with ``baseline``'s comparison when given. I/O: reads the kernels'
    views and the profile (on the profile thread); call it off the GUI thread."""
    document = session.document
    chosen = (
        list(kernels) if kernels is not None else choose_kernels(document.summaries, None, None)
    )
    roots = [document.workspace_path]
    if baseline is not None:
        roots.append(baseline.document.workspace_path)
    names = PathNames(keep_paths, roots)
    metrics = list(document.line_metric_names)
    metric = label_of(SAMPLES) if label_of(SAMPLES) in metrics else SASS_COUNT
    total = sum(s.duration_ns or 0.0 for s in document.summaries)
    device = next((s.device_name for s in document.summaries if s.device_name), "")
    data: dict[str, Any] = {
        "version": PAGE_VERSION,
        "title": document.title,
        "source": names.name(document.path.resolve()) if document.path is not None else "",
        "device": device,
        "has_profile": document.has_profile,
        "total": format_us(total) if document.has_profile else "",
        "metrics": metrics,
        "metric": metric,
        "descriptions": {m: document.metric_description(m) for m in metrics},
        "kernels": [_kernel_row(s, s.name in chosen) for s in document.summaries],
        "views": {},
        "texts": [],  # every distinct source line once; files list their lines by index
        "details": {},
        "hot": [],
        "compare": None,
        "notes": list(document.notes),
    }
    texts: dict[str, int] = {}
    steps = len(chosen) + 3
    for i, name in enumerate(chosen):
        check_cancel(cancel, "sharing")
        progress("kernels", i / steps, f"reading {name}")
        view = session.kernel(name)
        data["views"][name] = _view(view, metrics, names, texts)
        if document.has_profile and document.launched(name):
            data["details"][name] = _details(read_details(session, name))
    roof = None
    if document.has_profile:
        progress("profile", len(chosen) / steps, "reading the hot lines and the roofline")
        data["hot"] = _hot(session, metric, names)
        roof = read_roofline(session)
    if baseline is not None:
        check_cancel(cancel, "sharing")
        progress("compare", (len(chosen) + 1) / steps, "comparing with the baseline")
        data["compare"] = _comparison(baseline, session, chosen, names)
    data["texts"] = list(texts)
    progress("collect", (len(chosen) + 2) / steps, "collected")
    return PageData(names.scrub(data), roof)


# ---- the kernel list ----------------------------------------------------------------------------
def _kernel_row(s: KernelSummary, shown: bool) -> dict[str, Any]:
    return {
        "name": s.name,
        "shown": shown,
        "launches": len(s.launches),
        "time": format_us(s.duration_ns, missing=""),
        "share": round(s.share, 5),
        "sm": format_number(s.sm_throughput_pct),
        "mem": format_number(s.memory_throughput_pct),
        "occ": format_number(s.achieved_occupancy_pct),
        "regs": format_number(s.registers),
        "grid": format_dims(s.grid),
        "block": format_dims(s.block),
        "ops": list(s.ops),
        "stall": s.top_stall,
    }


# ---- one kernel: source, SASS, metrics ----------------------------------------------------------
def _view(
    view: KernelView, metrics: list[str], names: PathNames, texts: dict[str, int]
) -> dict[str, Any]:
    """The kernel's files (its own whole, the others' lines that have instructions), its SASS
    with each instruction's frames as (file index, line), and the metrics of both. Source
    lines travel plain, each distinct line once in ``texts`` (kernels of one model share
    most of theirs: a third of the size); the page colours them as it shows them."""

    def ref(line: str) -> int:
        return texts.setdefault(line, len(texts))

    paths = view.files_in_use()
    index = {p: i for i, p in enumerate(paths)}
    files = []
    for k, path in enumerate(paths):
        source = view.files.get(path)
        per_line = view.file_metrics(path)
        text = source.lines if source is not None and source.text is not None else []
        entry: dict[str, Any] = {
            "name": names.name(path),
            "lang": "python" if path.endswith(".py") else "cuda",
            "metrics": {str(n): _values(m, metrics) for n, m in sorted(per_line.items()) if m},
            "stalls": _line_stalls(per_line),
            "note": source.note if source is not None and source.text is None else "",
        }
        if k == 0:
            entry["text"] = [ref(line) for line in text]  # every line, from line 1
        else:  # a header: only the lines the kernel's instructions come from
            entry["some"] = [[n, ref(text[n - 1])] for n in sorted(per_line) if 0 < n <= len(text)]
        files.append(entry)
    sass_metrics = [m for m in metrics if m != SASS_COUNT]
    sass = []
    for insn, values in zip(view.instructions, view.instruction_metrics, strict=True):
        frames = [[index[f], n] for f, n in insn.frames if f in index]
        row: list[Any] = [insn.offset, insn.text, frames]
        if any(values.values()):
            row.append(_values(values, sass_metrics))
        sass.append(row)
    return {
        "files": files,
        "sass": sass,
        "sass_metrics": sass_metrics,
        "start": view.start_line,
    }


def _values(values: dict[str, float], metrics: list[str]) -> list[float]:
    return [_num(values.get(m, 0.0)) for m in metrics]


def _num(v: float) -> float:
    """A whole number as an int (shorter JSON), else three decimals."""
    return int(v) if v == int(v) else round(v, 3)


def _line_stalls(per_line: dict[int, dict[str, float]]) -> dict[str, list[list[Any]]]:
    """Each line's largest stall reasons (label, share) where it has samples."""
    out: dict[str, list[list[Any]]] = {}
    samples = label_of(SAMPLES)
    for n, m in per_line.items():
        if not m.get(samples):  # no sample, no stall reason
            continue
        reasons = stall_breakdown([m]).reasons[:_STALLS_PER_LINE]
        if reasons:
            out[str(n)] = [[r.label, round(r.share, 3)] for r in reasons]
    return out


# ---- hot lines, Details -------------------------------------------------------------------------
def _hot(session: ProfileSession, metric: str, names: PathNames) -> list[dict[str, Any]]:
    out = []
    for h in hot_lines(session, metric, None, HOT_LINES):
        out.append(
            {
                "rank": h.rank,
                "kernel": h.kernel,
                "file": names.name(h.file),
                "line": h.line,
                "value": format_number(h.value),
                "share": round(h.share, 4),
                "stalls": [[r, round(s, 3)] for r, _, s in h.stalls[:_STALLS_PER_LINE]],
                "source": (h.source or "").strip(),
            }
        )
    return out


def _details(d: KernelDetails) -> dict[str, Any]:
    """The Details as ``kernelscope details --kernel`` prints them: each view's rows, its
    note, the rules with their estimated speedups."""
    launches = (
        f"launch {d.launch_ids[0]}"
        if len(d.launch_ids) == 1
        else f"{len(d.launch_ids)} launches combined"
    )
    views = []
    for v in d.views:
        rows = [[r.label, r.text() + (" (varies by launch)" if r.varies else "")] for r in v.rows]
        if rows or v.note:
            views.append({"title": v.title, "rows": rows, "note": v.note})
    rules = [
        {
            "kind": r.kind,
            "rule": r.title or r.rule,
            "speedup": f"{r.speedup_pct:.0f}%" if r.speedup_pct else "",
            "message": r.message,
        }
        for r in sorted(d.rules, key=lambda r: -(r.speedup_pct or 0.0))
        if r.kind in ("OPT", "WRN", "ERR")
    ]
    return {
        "summary": f"{launches}, {format_us(d.duration_ns)} µs"
        + (f", {d.device}" if d.device else ""),
        "views": views,
        "rules": rules,
        "missing": list(d.missing_sections),
    }


# ---- comparison ---------------------------------------------------------------------------------
def _comparison(
    baseline: ProfileSession, session: ProfileSession, chosen: list[str], names: PathNames
) -> dict[str, Any]:
    """The per-kernel table and, for each chosen kernel with a counterpart, its per-line
    deltas of warp-stall samples: ``kernelscope diff BASE NEW --kernel ...``'s numbers."""
    comparison = compare_documents(baseline, session)
    diff = comparison.summary()
    lines: dict[str, Any] = {}
    for name in chosen:
        try:
            delta = diff.kernel(name, "new")
        except KeyError:
            continue
        if delta.match.base and delta.match.new:
            lines[name] = _line_deltas(comparison.kernel(delta))
    return {
        "base": _side(diff, "base", names),
        "new": _side(diff, "new", names),
        "metric": label_of(SAMPLES),
        "noise": diff.noise.describe(),
        "notes": list(diff.notes),
        "kernels": [_delta_row(k) for k in diff.kernels],
        "total": _delta_row(diff.total, "total (sum over kernels)"),
        "lines": lines,
    }


def _side(diff: ProfileDiff, role: str, names: PathNames) -> str:
    s = diff.base if role == "base" else diff.new
    passes = f"{s.passes} passes" if s.passes > 1 else "1 pass"
    return (
        f"{names.name(s.name)}: {s.device or 'unknown GPU'}, {s.launches} launches of "
        f"{s.kernels} kernels, {passes}, {format_us(s.total_per_pass_ns)} µs per pass"
    )


def _delta_row(k: TimeDelta, label: str | None = None) -> dict[str, Any]:
    """A row of ``kernelscope diff``'s kernel table: a kernel's (``KernelDelta``) or, with
    ``label``, the total's."""
    from ..compare import KernelDelta  # loaded already: the comparison was made with it

    match = k.match if isinstance(k, KernelDelta) else None
    return {
        "kernel": label if label is not None else match.label if match is not None else "",
        "new": match.new if match is not None else None,
        "match": match.method if match is not None else "",
        "base": format_us(k.base_per_pass_ns),
        "now": format_us(k.new_per_pass_ns),
        "delta": format_us(k.delta_ns, signed=True),
        "pct": "-" if k.pct is None else f"{k.pct:+.1f}%",
        "noise": format_us(k.noise_ns),
        "status": k.status,
    }


def _line_deltas(comp: KernelComparison) -> list[list[Any]]:
    """Rows [base line, new line, kind, base, new, delta, status, source] with a value on
    either side, as ``kernelscope diff --kernel`` lists them (per pass)."""
    out: list[list[Any]] = []
    for row in comp.rows:
        a, b, d, status = comp.change(row, SAMPLES)
        if not a and not b:
            continue
        text = row.new_text if row.new_text is not None else row.base_text or ""
        out.append(
            [
                row.base_line,
                row.new_line,
                row.kind,
                format_number(a, "-"),
                format_number(b, "-"),
                format_signed(d, "-"),
                status or "",
                text.strip(),
            ]
        )
    return out
