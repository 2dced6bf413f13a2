"""The one hot-line ranking: ``kernelscope hot``, the kernel DB's line summaries and the
viewer's hot-lines panel all come from ``rank_lines``.

Lines are those of each kernel's own file. An instruction inlined from a header counts once,
at its call site there (the line of the kernel that pulled the header code in), never also at
the header line, so the shares of all lines of a kernel, or of the whole model, add up to at
most 1. The share is of the metric's total over every instruction of the ranked kernels
(instructions without a line included), so it says how much of the kernel or model a line is.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence

from .records import HotLine, InstructionTable, LineMetrics, Location

# A file's lines (None when its text is unknown), by recorded path.
TextOf = Callable[[str], Sequence[str] | None]


def rank_lines(
    tables: Iterable[tuple[str, InstructionTable]],
    metric: str,
    top: int,
    text_of: TextOf | None = None,
) -> list[HotLine]:
    """The ``top`` lines with the most ``metric`` over (kernel name, its instruction table)
    pairs, descending; ties by kernel, file, line. Lines where the metric is 0 are left out."""
    import numpy as np  # these two not at the window's start-up, which imports this module

    from . import aggregate as agg

    entries: list[tuple[str, Location, LineMetrics, InstructionTable]] = []
    grand = 0.0
    for name, table in tables:
        grand += table.total(metric)
        # each instruction at its own-file line; category histograms only for the lines kept
        own = dataclasses.replace(table, inlined=None, categories={})
        entries.extend((name, loc, lm, table) for loc, lm in agg.by_line(own).items())
    ranked = sorted(
        (e for e in entries if e[2].get(metric) > 0),
        key=lambda e: (-e[2].get(metric), e[0], e[1][0], e[1][1]),
    )[: max(top, 0)]
    out = []
    for rank, (name, (file, line), numbers, table) in enumerate(ranked, 1):
        rows = np.searchsorted(table.offsets, numbers.offsets).tolist()
        histograms = {
            key: agg.histogram(col[i] for i in rows) for key, col in table.categories.items()
        }
        lm = dataclasses.replace(numbers, categories={k: h for k, h in histograms.items() if h})
        lines = text_of(file) if text_of is not None else None
        out.append(
            HotLine(
                rank=rank,
                kernel=name,
                file=file,
                line=line,
                value=lm.get(metric),
                share=lm.get(metric) / grand if grand else 0.0,
                metrics=lm,
                stalls=lm.stalls(),
                source=lines[line - 1] if lines is not None and 0 < line <= len(lines) else None,
            )
        )
    return out
