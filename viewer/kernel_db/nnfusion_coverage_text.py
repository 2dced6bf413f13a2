"""What the Coverage tab says: its banner's lines (what kernelscope does not follow, crashes,
departures, the bias-folding warning, errors with what to do) and the result lines of Build
missing and Check with NNFusion. Rich text, coloured by ``nnfusion_colours``."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from kernelscope.core.errors import KernelscopeError

from ..widgets.messages import what_to_do
from ..widgets.nnfusion_colours import css

if TYPE_CHECKING:
    from kernelscope.core.kernel_db import BuildMissingReport, Coverage

    from .jobs import CheckResult


def line(kind: str, text: str) -> str:
    """One banner line; ``kind`` ("bad", "warn" or "") colours it."""
    body = html.escape(text)
    return f"<span style='color:{css(kind)}'>{body}</span>" if kind else body


def error_lines(exc: KernelscopeError) -> list[str]:
    """An error, what to do about it and the end of its details (a log)."""
    lines = [line("bad", exc.message)]
    if hint := what_to_do(exc):
        lines.append(line("", f"What to do: {hint}"))
    if exc.details:
        tail = "\n".join(exc.details.splitlines()[-8:])
        lines.append(f"<pre>{html.escape(tail)}</pre>")
    return lines


def needs_folding(coverage: Coverage) -> bool:
    """The command needs NNFusion's slow constant folding (the model's Conv biases are not
    constants of the output's shape)."""
    flags = coverage.settings.flags
    return flags.bias_fix and flags.const_folding


def coverage_lines(coverage: Coverage, note: str) -> list[str]:
    """The banner over a coverage: what it cannot vouch for, and ``note``."""
    lines = []
    graph = coverage.graph
    if graph.unmodelled:
        lines.append(
            line(
                "warn",
                "kernelscope does not follow the ONNX nodes "
                + ", ".join(graph.unmodelled)
                + ": what NNFusion looks up for them is not listed (Check with NNFusion "
                "asks the real compiler)",
            )
        )
    lines += [line("bad", f"NNFusion would crash: {crash}") for crash in graph.crashes]
    lines += [line("bad", departure) for departure in graph.departures]
    if note:
        lines.append(line("warn", note))
    if needs_folding(coverage):
        lines.append(
            line(
                "warn",
                "The model's Conv biases are not constants of the output's shape: the "
                "command needs -fconst_folding_backend=CPU, whose CPU kernels are slow "
                "(hours for ResNet-50). The NNFusion copy has them broadcast already.",
            )
        )
    return lines


def built_text(report: BuildMissingReport) -> str:
    """The result line of Build missing."""
    before, after = report.before.counts(), report.after.counts()
    if report.workspace is None:
        text = "Nothing to build."
    else:
        text = (
            f"Built {len(report.built)} kernel{'s' * (len(report.built) != 1)} into "
            f"{report.workspace.name}: covered {before['covered']} → {after['covered']}, "
            f"missing {before['missing']} → {after['missing']}."
        )
    extra = [f"built but kept from NNFusion: {'; '.join(why)}" for why in report.flagged.values()]
    extra += [f"not built: {why}" for why in report.skipped.values()]
    return " ".join([text, *extra[:3]])


def checked_text(result: CheckResult) -> str:
    """The result line of Check with NNFusion: the rows it used, and whether it looked up
    what the tab lists."""
    text = (
        f"NNFusion compiled it and used {result.used} of the {result.usable} rows it "
        f"could take; it found no row for {result.missed} identifiers. "
    )
    check = result.check
    if check.same:
        return text + "It looked up exactly the identifiers listed here."
    differ = [f"only NNFusion: {i[:80]}" for i in check.only_nnfusion[:2]]
    differ += [f"only predicted: {i[:80]}" for i in check.only_kernelscope[:2]]
    return text + (
        f"Its lookups differ from the list ({len(check.only_nnfusion)} only NNFusion's, "
        f"{len(check.only_kernelscope)} only predicted): " + "; ".join(differ)
    )
