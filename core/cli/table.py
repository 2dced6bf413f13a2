"""Plain-text tables for the command line: aligned columns, two spaces apart."""

from __future__ import annotations

from collections.abc import Collection, Sequence


def format_table(
    header: Sequence[str], rows: Sequence[Sequence[str]], right: Collection[int] = ()
) -> str:
    """The rows under the header; columns listed in ``right`` are right-aligned."""
    lines = [header, *rows]
    widths = [max(len(str(r[i])) for r in lines) for i in range(len(header))]
    return "\n".join(
        "  ".join(
            str(c).rjust(w) if i in right else str(c).ljust(w)
            for i, (c, w) in enumerate(zip(line, widths, strict=True))
        ).rstrip()
        for line in lines
    )
