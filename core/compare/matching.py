"""Which kernel of one profile is which kernel of another, and how sure that is.

A kernel's name is TVM's name for its fused PrimFunc (``fused_conv2d1_add1_relu1_kernel``), and
TVM numbers those names in program order: put one layer in front of a model and every fused
kernel after it is renumbered, so that ``fused_conv2d_add_relu_kernel`` is another convolution
in the other build. A name alone is therefore trusted only when nothing contradicts it:

1. **Structure** (both workspaces' manifests): kernels fused from the same Relax operators with
   the same attributes, tensor shapes and dtypes are the same computation, whatever their names
   (a same-name pair among them is paired first).
2. **Similar structure**: the same operators and attributes with other shapes (a batch or input
   size change); the most similar shapes win, the name breaks ties and is accepted for any
   shapes. Two kernels whose manifests show different operators or attributes are never paired,
   whatever their names.
3. **Name**, where at least one side has no manifest: accepted when the launch configuration
   (grid, block, registers) is identical, else checked against the sources.
4. **Source** (``normalise.source_keys``: TVM's numbering and the kernel's own and parameter
   names masked), over the kernels still free: a) sources identical after normalising are the
   same computation, same-name pairs first (so a renumbered kernel finds its counterpart even
   when a kernel of its old name exists); b) a same-name pair is accepted when its sources are
   at least 30% alike (a batch change rewrites index arithmetic, not the kernel); c) kernels
   of other names pair, most similar first, from 80% alike; d) a same-name pair still free
   whose parameter types agree is one TVM operator scheduled differently (DLight makes a GEMV
   of a batch-1 matmul and a GEMM of a batch-8 one): paired, marked as different code.

A same-name pair whose sources are under 30% alike is marked as different code whichever
step paired it (``KernelMatch.different_code``): its lines are compared only where they
correspond.

Everything left over is listed as unmatched with the reason. Each match says how it was made
(``KernelMatch.method``) and what agreed (``evidence``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..formatting import format_dims
from ..workspace import KernelInfo, OpInfo, TensorInfo
from .normalise import key_similarity, signature_types, source_keys
from .records import (
    DIFFERENT_CODE,
    NAME,
    SIMILAR_STRUCTURE,
    SOURCE,
    STRUCTURE,
    UNMATCHED,
    KernelMatch,
)

SOURCE_THRESHOLD = 0.8  # source similarity two kernels of other names need to match
NAME_SIMILARITY = 0.3  # below this, kernels of one name are different kernels
SHAPE_THRESHOLD = 0.5  # share of equal dimensions a renamed similar-structure match needs

# (side, kernel name) -> the kernel's source lines, or None when there is no source
SourceLookup = Callable[[str, str], Sequence[str] | None]


@dataclass(frozen=True)
class KernelIdentity:
    """What is known about one profiled kernel for matching: no I/O, all values."""

    name: str
    order: int  # index of its first launch in the profile
    grid: tuple[int, ...] = ()
    block: tuple[int, ...] = ()
    registers: int | None = None
    info: KernelInfo | None = None  # from the side's workspace, when it has this kernel

    @property
    def launch_config(self) -> tuple[Any, ...]:
        return (self.grid, self.block, self.registers)

    @property
    def ops(self) -> list[OpInfo]:
        return self.info.ops if self.info is not None else []

    @cached_property
    def exact(self) -> tuple[Any, ...] | None:
        """Operators, attributes, shapes and dtypes; None without a manifest entry."""
        if not self.ops:
            return None
        return tuple(
            (o.op, _attrs(o), tuple(_tensor(t, True) for t in _tensors(o))) for o in self.ops
        )

    @cached_property
    def skeleton(self) -> tuple[Any, ...] | None:
        """Operators, attributes, dtypes and ranks: what a shape change keeps."""
        if not self.ops:
            return None
        return tuple(
            (o.op, _attrs(o), tuple(_tensor(t, False) for t in _tensors(o))) for o in self.ops
        )

    @cached_property
    def dims(self) -> list[int | str]:
        return [d for o in self.ops for t in _tensors(o) for d in t.shape]


def _tensors(op: OpInfo) -> list[TensorInfo]:
    return [*op.inputs, *([op.output] if op.output is not None else [])]


def _tensor(t: TensorInfo, with_shape: bool) -> tuple[Any, ...]:
    return (tuple(t.shape) if with_shape else len(t.shape), t.dtype)


def _attrs(op: OpInfo) -> str:
    return json.dumps(op.attrs, sort_keys=True, default=str)


def _shape_score(a: KernelIdentity, b: KernelIdentity) -> float:
    da, db = a.dims, b.dims
    if not da or len(da) != len(db):
        return 0.0
    return sum(x == y for x, y in zip(da, db, strict=True)) / len(da)


def describe_difference(a: KernelIdentity, b: KernelIdentity) -> str:
    """The first thing two kernels' manifests disagree on, in words."""
    if not a.ops or not b.ops:
        return "no manifest entry to compare"
    names_a, names_b = [o.op for o in a.ops], [o.op for o in b.ops]
    if names_a != names_b:
        return f"operators {'+'.join(_short(n) for n in names_a)} vs " + "+".join(
            _short(n) for n in names_b
        )
    for oa, ob in zip(a.ops, b.ops, strict=True):
        for key in sorted(set(oa.attrs) | set(ob.attrs)):
            if oa.attrs.get(key) != ob.attrs.get(key):
                return f"{_short(oa.op)} {key} {oa.attrs.get(key)} vs {ob.attrs.get(key)}"
        for ta, tb in zip(_tensors(oa), _tensors(ob), strict=False):
            if (ta.shape, ta.dtype) != (tb.shape, tb.dtype):
                return f"{_short(oa.op)} {_shape(ta)} vs {_shape(tb)}"
    return "same operators, attributes and shapes"


def describe_kernel(k: KernelIdentity) -> str:
    """What a kernel computes, from its manifest: ``conv2d+add+relu on 8x3x56x56 float32``."""
    if not k.ops:
        return ""
    first = k.ops[0].inputs[0] if k.ops[0].inputs else k.ops[0].output
    where = f" on {_shape(first)}" if first is not None else ""
    return "+".join(_short(o.op) for o in k.ops) + where


def _short(op: str) -> str:
    return op.rsplit(".", 1)[-1]


def _shape(t: TensorInfo) -> str:
    return "x".join(str(d) for d in t.shape) + f" {t.dtype}"


def match_kernels(
    base: Sequence[KernelIdentity],
    new: Sequence[KernelIdentity],
    source_of: SourceLookup | None = None,
) -> list[KernelMatch]:
    """Pair the kernels of two profiles; every kernel appears in exactly one match."""
    return _Matcher(base, new, source_of).run()


class _Matcher:
    def __init__(
        self,
        base: Sequence[KernelIdentity],
        new: Sequence[KernelIdentity],
        source_of: SourceLookup | None,
    ) -> None:
        self.base = {k.name: k for k in base}
        self.new = {k.name: k for k in new}
        self.free_base = dict.fromkeys(k.name for k in base)
        self.free_new = dict.fromkeys(k.name for k in new)
        self.source_of = source_of
        self._sources: dict[tuple[str, str], list[str] | None] = {}
        self._signatures: dict[tuple[str, str], tuple[str, ...] | None] = {}
        self.matches: list[KernelMatch] = []
        self.why_not: dict[tuple[str, str], str] = {}

    def run(self) -> list[KernelMatch]:
        self._by_structure()
        self._by_similar_structure()
        self._by_name()
        self._by_source()
        self._by_operator()
        self._unmatched()
        return self.matches

    def _pair(
        self,
        b: str,
        n: str,
        method: str,
        evidence: str,
        score: float = 1.0,
        different_code: bool = False,
    ) -> None:
        del self.free_base[b], self.free_new[n]
        self.matches.append(KernelMatch(b, n, method, evidence, score, different_code))

    def _contradicted(self, b: KernelIdentity, n: KernelIdentity) -> bool:
        return b.skeleton is not None and n.skeleton is not None and b.skeleton != n.skeleton

    # 1
    def _by_structure(self) -> None:
        groups: dict[tuple[Any, ...], tuple[list[str], list[str]]] = {}
        for side, kernels in ((0, self.base), (1, self.new)):
            for k in kernels.values():
                if k.exact is not None:
                    groups.setdefault(k.exact, ([], []))[side].append(k.name)
        for bs, ns in groups.values():
            for name in [b for b in bs if b in ns]:
                self._pair(name, name, NAME, "same name; same fused operators, shapes and dtypes")
            rest_b = [b for b in bs if b in self.free_base]
            rest_n = [n for n in ns if n in self.free_new]
            for b, n in zip(rest_b, rest_n, strict=False):
                self._pair(
                    b, n, STRUCTURE, "same fused operators, attributes, shapes and dtypes; renamed"
                )

    # 2
    def _by_similar_structure(self) -> None:
        candidates = []
        for b in self.free_base:
            kb = self.base[b]
            for n in self.free_new:
                kn = self.new[n]
                if kb.skeleton is None or kb.skeleton != kn.skeleton:
                    continue
                score = _shape_score(kb, kn)
                if b != n and score < SHAPE_THRESHOLD:
                    continue
                tie = (b == n, kb.launch_config == kn.launch_config, -abs(kb.order - kn.order))
                candidates.append((score, tie, b, n))
        for score, _, b, n in sorted(candidates, reverse=True):
            if b not in self.free_base or n not in self.free_new:
                continue
            diff = describe_difference(self.base[b], self.new[n])
            code = self._code_differs(b, n)
            also = f"; {DIFFERENT_CODE}: {code}" if code else ""
            if b == n:
                self._pair(
                    b,
                    n,
                    NAME,
                    f"same name; same fused operators, shapes differ: {diff}{also}",
                    score,
                    bool(code),
                )
            else:
                self._pair(
                    b,
                    n,
                    SIMILAR_STRUCTURE,
                    f"same fused operators and attributes, {score:.0%} of the dimensions "
                    f"equal ({diff}); renamed{also}",
                    score,
                    bool(code),
                )

    # 3
    def _by_name(self) -> None:
        for name in [n for n in self.free_base if n in self.free_new]:
            b, n = self.base[name], self.new[name]
            if self._contradicted(b, n):
                self.why_not[(name, name)] = describe_difference(b, n)
            elif b.launch_config == n.launch_config and None not in (b.registers, n.registers):
                self._pair(
                    name,
                    name,
                    NAME,
                    "same name and launch configuration (no manifests "
                    "on both sides to compare structure)",
                )
            elif self._keys("base", name) is None or self._keys("new", name) is None:
                self._pair(
                    name,
                    name,
                    NAME,
                    "same name; launch configuration differs "
                    f"({_config_change(b, n)}), no sources or manifests to check it",
                )

    # 4
    def _by_source(self) -> None:
        if self.source_of is None:
            return
        free_b = [b for b in self.free_base if self._keys("base", b) is not None]
        free_n = [n for n in self.free_new if self._keys("new", n) is not None]
        # a) identical up to TVM's naming: the same computation, whatever the names say
        identical: dict[tuple[str, ...], tuple[list[str], list[str]]] = {}
        for side, names in ((0, free_b), (1, free_n)):
            for name in names:
                keys = tuple(self._keys(("base", "new")[side], name) or ())
                identical.setdefault(keys, ([], []))[side].append(name)
        for bs, ns in identical.values():
            for name in [
                x for x in bs if x in ns and not self._contradicted(self.base[x], self.new[x])
            ]:
                self._pair(name, name, NAME, "same name; sources identical up to TVM's naming")
            rest_b = [x for x in bs if x in self.free_base]
            rest_n = [x for x in ns if x in self.free_new]
            for b, n in zip(rest_b, rest_n, strict=False):
                if not self._contradicted(self.base[b], self.new[n]):
                    self._pair(b, n, SOURCE, "sources identical up to TVM's naming; renamed")
        # b) the same name, unless the sources are hardly alike
        for name in [x for x in free_b if x in self.free_base and x in self.free_new]:
            if self._contradicted(self.base[name], self.new[name]):
                continue
            sim = self._similarity(name, name)
            if sim >= NAME_SIMILARITY:
                self._pair(
                    name,
                    name,
                    NAME,
                    "same name; launch configuration differs "
                    f"({_config_change(self.base[name], self.new[name])}), sources "
                    f"{sim:.0%} alike",
                    sim,
                )
            else:
                self.why_not[(name, name)] = f"sources only {sim:.0%} alike"
                if not self._same_signature(name):
                    self.why_not[(name, name)] += " and other parameter types"
        # c) other names, most similar sources first
        candidates = []
        for b in [x for x in free_b if x in self.free_base]:
            for n in [x for x in free_n if x in self.free_new]:
                if b == n or self._contradicted(self.base[b], self.new[n]):
                    continue
                sim = self._similarity(b, n)
                if sim >= SOURCE_THRESHOLD:
                    order = -abs(self.base[b].order - self.new[n].order)
                    candidates.append((sim, order, b, n))
        for sim, _, b, n in sorted(candidates, reverse=True):
            if b in self.free_base and n in self.free_new:
                self._pair(
                    b,
                    n,
                    SOURCE,
                    f"sources {sim:.0%} alike after normalising TVM's naming; renamed",
                    sim,
                )

    # 4 d)
    def _by_operator(self) -> None:
        for name in [x for x in self.free_base if x in self.free_new]:
            b, n = self.base[name], self.new[name]
            if (name, name) not in self.why_not or self._contradicted(b, n):
                continue  # other operators in the manifests: never one kernel
            if not self._same_signature(name):
                continue
            why = self.why_not.pop((name, name))
            self._pair(
                name,
                name,
                NAME,
                "same name and parameter types, so the same TVM operator; "
                f"{DIFFERENT_CODE}: {why} (scheduled for other shapes)",
                0.0,
                different_code=True,
            )

    def _code_differs(self, b: str, n: str) -> str:
        """Why two kernels' code is different code ("sources only 4% alike"), or "" when
        their sources correspond (or are not there to say)."""
        if self._keys("base", b) is None or self._keys("new", n) is None:
            return ""
        sim = self._similarity(b, n)
        return f"sources only {sim:.0%} alike" if sim < NAME_SIMILARITY else ""

    def _same_signature(self, name: str) -> bool:
        types = [self._signature(side, name) for side in ("base", "new")]
        return types[0] is not None and types[0] == types[1]

    def _signature(self, side: str, name: str) -> tuple[str, ...] | None:
        key = (side, name)
        if key not in self._signatures:
            lines = self.source_of(side, name) if self.source_of is not None else None
            self._signatures[key] = signature_types(lines) if lines else None
        return self._signatures[key]

    def _similarity(self, b: str, n: str) -> float:
        return key_similarity(self._keys("base", b) or [], self._keys("new", n) or [])

    def _unmatched(self) -> None:
        new_of = {m.base: m.new for m in self.matches}
        base_of = {m.new: m.base for m in self.matches}
        for role, free, other, partner in (
            ("base", self.free_base, self.new, base_of),  # new's X is matched to base's ...
            ("new", self.free_new, self.base, new_of),
        ):
            them = "new" if role == "base" else "base"
            for name in free:
                if (name, name) in self.why_not:
                    why = f"{them}'s {name} is a different kernel: {self.why_not[(name, name)]}"
                elif name in other:
                    why = (
                        f"{them}'s {name} is a different kernel, the counterpart of {role}'s "
                        f"{partner.get(name)}"
                    )
                else:
                    why = f"no kernel of {them} has its name, structure or source"
                kernels = self.base if role == "base" else self.new
                if what := describe_kernel(kernels[name]):
                    why = f"{what}; {why}"
                b, n = (name, None) if role == "base" else (None, name)
                self.matches.append(KernelMatch(b, n, UNMATCHED, why, 0.0))

    def _keys(self, side: str, name: str) -> list[str] | None:
        """The kernel's ``source_keys`` (read once), or None without a source."""
        if self.source_of is None:
            return None
        key = (side, name)
        if key not in self._sources:
            lines = self.source_of(side, name)
            self._sources[key] = source_keys(lines) if lines else None
        return self._sources[key]


def _config_change(a: KernelIdentity, b: KernelIdentity) -> str:
    parts = [
        f"{label} {format_dims(x)} -> {format_dims(y)}"
        for label, x, y in (("grid", a.grid, b.grid), ("block", a.block, b.block))
        if x != y
    ]
    if a.registers != b.registers:
        parts.append(f"registers {a.registers} -> {b.registers}")
    return ", ".join(parts) or "same"
