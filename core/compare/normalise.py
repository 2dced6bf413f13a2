"""Source lines as two builds of one kernel can be compared.

TVM numbers what it generates, and the numbers move between builds: ``cse_v12`` becomes
``cse_v13`` when one more common subexpression is found earlier, ``v__524`` and ``__261`` count
temporaries, ``lv3_ptr`` names a Relax binding, ``ax3_0`` a loop. Two keys per line:

* ``line_key``: whitespace collapsed, the digits inside identifiers masked (``cse_v#``), CUDA's
  vector types kept (``float4`` and ``float2`` differ, and that difference matters). Lines with
  equal keys are the same line. ``source_keys`` also masks, in a whole kernel file, the
  kernel's name and its parameters' names (TVM names parameters after Relax bindings: the
  input ``x_ptr`` of one build is ``lv3_ptr`` of the other).
* ``loose_key``: ``line_key`` with number literals masked too, for lines that are the same
  statement with other constants (``* 32`` in one build, ``* 8`` in the other): aligned, shown
  as changed.

``source_similarity`` compares two kernels' whole sources by their ``source_keys`` multisets.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

_IDENT = re.compile(r"\b[A-Za-z_]\w*")
_IDENT_WITH_DIGITS = re.compile(r"\b[A-Za-z_]\w*?\d\w*")
_DIGITS = re.compile(r"\d+")
# CUDA vector and fixed-width types: their digits are part of what the line does.
_KEEP = re.compile(
    r"(make_)?(u?(char|short|int|long|longlong)|float|double|half|bfloat16)[1-4]"
    r"|u?int(8|16|32|64)_t|__nv_bfloat162|__half2|half2"
)
_NUMBER = re.compile(
    r"(?<![\w#])(0[xX][0-9a-fA-F]+|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)[fFuUlL]*(?![\w#])"
)


def _mask_ident(m: re.Match[str]) -> str:
    word = m.group(0)
    return word if _KEEP.fullmatch(word) else _DIGITS.sub("#", word)


@lru_cache(maxsize=1 << 16)
def line_key(text: str) -> str:
    """The line with its layout and TVM's numbering of names taken out."""
    return _IDENT_WITH_DIGITS.sub(_mask_ident, " ".join(text.split()))


def loosen(key: str) -> str:
    """A ``line_key`` with number literals masked as well."""
    return _NUMBER.sub("0", key)


def loose_key(text: str) -> str:
    return loosen(line_key(text))


_SIGNATURE = re.compile(
    r"__global__\s+void\s+(?:__launch_bounds__\([^)]*\)\s*)?(\w+)\s*\(([^)]*)\)"
)


def _signature_names(lines: Sequence[str]) -> tuple[str, list[str]] | None:
    """The kernel's name and its parameters' names, from its ``__global__`` signature."""
    for text in lines:
        m = _SIGNATURE.search(text)
        if m is not None:
            params = [words[-1] for p in m.group(2).split(",") if (words := _IDENT.findall(p))]
            return m.group(1), params
    return None


def signature_types(lines: Sequence[str]) -> tuple[str, ...] | None:
    """The types of the kernel's parameters, in order (``float* __restrict__``): what a kernel
    of one TVM operator keeps however it is scheduled; None without a ``__global__``."""
    for text in lines:
        m = _SIGNATURE.search(text)
        if m is not None:
            params = [p.strip() for p in m.group(2).split(",") if p.strip()]
            return tuple(" ".join(p[: p.rfind(_IDENT.findall(p)[-1])].split()) for p in params)
    return None


def source_keys(lines: Sequence[str]) -> list[str]:
    """``line_key`` of every line of a kernel file, its kernel and parameter names masked."""
    keys = [line_key(x) for x in lines]
    found = _signature_names(lines)
    if found is None:
        return keys
    kernel, params = line_key(found[0]), sorted({line_key(p) for p in found[1]})
    own = re.compile(r"\b" + re.escape(kernel) + r"\b")
    args = re.compile(r"\b(" + "|".join(map(re.escape, params)) + r")\b") if params else None
    out = []
    for key in keys:  # a substring test first: a regex over every line costs far more
        if kernel in key:
            key = own.sub("kernel", key)
        if args is not None and any(p in key for p in params):
            key = args.sub("arg", key)
        out.append(key)
    return out


def source_similarity(a: Sequence[str], b: Sequence[str]) -> float:
    """How alike two kernel sources are, 0..1: the Dice coefficient of their non-empty
    ``source_keys`` multisets (1 when they differ only in TVM's naming and line order)."""
    return key_similarity(source_keys(a), source_keys(b))


def key_similarity(a: Sequence[str], b: Sequence[str]) -> float:
    """``source_similarity`` of sources already turned into keys."""
    ka = Counter(k for k in a if k)
    kb = Counter(k for k in b if k)
    total = sum(ka.values()) + sum(kb.values())
    if not total:
        return 0.0
    return 2 * sum((ka & kb).values()) / total
