"""Aligning two versions of a kernel's source, and of its SASS, with ``difflib``.

Sources: ``difflib.SequenceMatcher`` over ``normalise.source_keys`` (TVM's numbering of names,
the kernel's name and its parameters' names masked), so a renamed temporary or input does not
break the alignment. Inside a block the first pass could not align, a second pass over the
keys with number literals masked (``normalise.loosen``) pairs the same statement with other
constants as *changed*; what is still left is paired in order as changed when the two lines
are at least half alike (difflib's ratio over their tokens), else shown on one side only. Each row
then carries the metrics of its line on each side.

SASS (``sass.align_instructions``): the same over the instruction text, then the opcode alone:
the instruction streams of two builds align where the compiler emitted the same sequence.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping, Sequence

from .normalise import loosen, source_keys
from .records import BASE_ONLY, CHANGED, NEW_ONLY, SAME, LineRow

PAIR_RATIO = 0.5  # token similarity for two leftover lines to count as one changed line
_TOKEN = re.compile(r"\w+|[^\w\s]")

_NONE: Mapping[str, float] = {}
# (kind, base index or None, new index or None)
Alignment = list[tuple[str, int | None, int | None]]


def align(
    base_keys: Sequence[str],
    new_keys: Sequence[str],
    loose: Callable[[int, int], str],
    base_text: Sequence[str] | None = None,
    new_text: Sequence[str] | None = None,
) -> Alignment:
    """Indices of two sequences aligned: SAME (equal keys), CHANGED (equal ``loose(side, i)``
    keys, side 0 base and 1 new, asked only where keys differ; or leftovers at least half
    alike by their text, none when no text is given), or one side only (BASE_ONLY,
    NEW_ONLY)."""
    # The common head and tail first (two builds of a kernel mostly share both), so that
    # difflib only sees the part that changed.
    n, m = len(base_keys), len(new_keys)
    head = 0
    while head < min(n, m) and base_keys[head] == new_keys[head]:
        head += 1
    tail = 0
    while tail < min(n, m) - head and base_keys[n - 1 - tail] == new_keys[m - 1 - tail]:
        tail += 1
    out: Alignment = [(SAME, i, i) for i in range(head)]
    ka, kb = base_keys[head : n - tail], new_keys[head : m - tail]
    # difflib's autojunk: a line more common than 1% of a long file ("}") seeds no match but
    # is still aligned inside one; same result on the kernels checked, 2-3x faster.
    matcher = difflib.SequenceMatcher(None, ka, kb)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        ia, ib = range(head + i1, head + i2), range(head + j1, head + j2)
        if tag == "equal":
            out.extend((SAME, i, j) for i, j in zip(ia, ib, strict=True))
            continue
        second = difflib.SequenceMatcher(
            None,
            [loose(0, i) for i in ia],
            [loose(1, j) for j in ib],
            autojunk=False,
        )
        for tag2, a1, a2, b1, b2 in second.get_opcodes():
            if tag2 != "equal":
                out.extend(_leftover(ia[a1:a2], ib[b1:b2], base_text, new_text))
                continue
            for i, j in zip(ia[a1:a2], ib[b1:b2], strict=True):
                out.append((SAME if base_keys[i] == new_keys[j] else CHANGED, i, j))
    out.extend((SAME, n - tail + k, m - tail + k) for k in range(tail))
    return out


def _leftover(
    ia: range, ib: range, base_text: Sequence[str] | None, new_text: Sequence[str] | None
) -> Alignment:
    """Pair leftover lines in order while they are alike; the rest on one side only."""
    out: Alignment = []
    i, j = 0, 0
    while i < len(ia) and j < len(ib):
        if (
            base_text is not None
            and new_text is not None
            and _alike(base_text[ia[i]], new_text[ib[j]])
        ):
            out.append((CHANGED, ia[i], ib[j]))
            i += 1
            j += 1
        elif len(ia) - i >= len(ib) - j:
            out.append((BASE_ONLY, ia[i], None))
            i += 1
        else:
            out.append((NEW_ONLY, None, ib[j]))
            j += 1
    out.extend((BASE_ONLY, ia[k], None) for k in range(i, len(ia)))
    out.extend((NEW_ONLY, None, ib[k]) for k in range(j, len(ib)))
    return out


def _alike(a: str, b: str) -> bool:
    """At least half alike, token by token (TVM's lines run to hundreds of characters: a
    character-level ratio costs ~5 ms a pair)."""
    matcher = difflib.SequenceMatcher(None, _TOKEN.findall(a), _TOKEN.findall(b), autojunk=False)
    return matcher.real_quick_ratio() >= PAIR_RATIO and matcher.ratio() >= PAIR_RATIO


def align_lines(
    base: Sequence[str],
    new: Sequence[str],
    base_metrics: Mapping[int, Mapping[str, float]] | None = None,
    new_metrics: Mapping[int, Mapping[str, float]] | None = None,
) -> list[LineRow]:
    """Two kernel sources aligned line by line (1-based line numbers), each row with the
    metrics of its line on each side (``*_metrics``: line number -> metric -> value)."""
    bm, nm = base_metrics or {}, new_metrics or {}
    ka, kb = source_keys(base), source_keys(new)
    rows = []
    keys = (ka, kb)
    for kind, i, j in align(ka, kb, lambda side, k: loosen(keys[side][k]), base, new):
        bl = i + 1 if i is not None else None
        nl = j + 1 if j is not None else None
        rows.append(
            LineRow(
                kind=kind,
                base_line=bl,
                new_line=nl,
                base_text=base[i] if i is not None else None,
                new_text=new[j] if j is not None else None,
                base=bm.get(bl, _NONE) if bl is not None else _NONE,  # shared, not copied:
                new=nm.get(nl, _NONE) if nl is not None else _NONE,  # rows are read-only
            )
        )
    return rows
