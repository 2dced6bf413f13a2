"""What a comparison reads of a profile, as values: a ``ComparedProfile`` (its kernel list,
launches and GPUs, read when it is made) and, per kernel when first compared, a
``KernelReading``. A ``Comparison`` holds these and never a ``Profile``.

``read_profile`` makes them from a profile; ``run`` is where its later reads (a kernel's,
the embedded sources) run: at once for a profile the comparison opened itself
(``open_comparison``), on the profile thread for a document's (``view.compare_documents``
goes through the document's session).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from ..errors import KernelscopeError
from ..ncu import InstructionTable, KernelSummary, Launch, Profile
from .records import INSTRUCTIONS

if TYPE_CHECKING:  # numpy loads with the first comparison, not with the window
    import numpy as np

T = TypeVar("T")
Metrics = dict[str, float]
Run = Callable[[Callable[[], T]], T]


@dataclass(frozen=True)
class KernelReading:
    """One kernel of one profile, as a comparison of its lines and SASS needs it."""

    problem: str | None  # why there are no per-line numbers; None: there are
    file: str | None  # its own file as recorded, when there is per-instruction data
    source: list[str] | None  # the profile's copy of its own file, if it carries one
    lines: Mapping[int, Metrics]  # per line of ``file``: its metrics and instruction count
    totals: Metrics  # over all its instructions (none without per-instruction data)
    instruction_metrics: Mapping[int, Mapping[str, float]]  # by offset
    sass: Mapping[int, str] | None  # the report's SASS text by offset, when asked for


@dataclass(frozen=True)
class ComparedProfile:
    """One side of a comparison: values read when it is made, and its later reads (I/O:
    each runs where ``read_profile``'s ``run`` puts it and returns values)."""

    name: str
    paths: tuple[Path, ...]
    kernels: tuple[KernelSummary, ...]  # first-launch order
    launches: tuple[Launch, ...]  # report order
    devices: tuple[str, ...]  # the GPUs its launches ran on
    warnings: tuple[str, ...]
    # (name, with its SASS text) -> the kernel's reading
    read_kernel: Callable[[str, bool], KernelReading]
    correlation_problem: Callable[[str], str | None]  # why a kernel has no per-line numbers
    embedded_sources: Callable[[], Mapping[str, str]]  # recorded path -> text
    resolve_metric: Callable[[str], str]  # a metric key for what a user typed


def read_profile(profile: Profile, run: Run[object] | None = None) -> ComparedProfile:
    """``profile`` as a comparison sees it; call it where ``profile`` may be read (``run``
    is where the reads made later run, at once when None)."""

    def later(fn: Callable[..., T]) -> Callable[..., T]:
        if run is None:
            return fn
        return lambda *args: run(lambda: fn(*args))  # type: ignore[return-value]

    return ComparedProfile(
        name=profile.name,
        paths=tuple(profile.paths),
        kernels=tuple(profile.kernels()),
        launches=tuple(profile.launches),
        devices=_devices(profile),
        warnings=tuple(profile.warnings),
        read_kernel=later(lambda name, sass: _read_kernel(profile, name, sass)),
        correlation_problem=later(profile.correlation_problem),
        embedded_sources=later(profile.embedded_sources),
        resolve_metric=later(profile.resolve_metric),
    )


def _read_kernel(profile: Profile, name: str, with_sass: bool) -> KernelReading:
    table = profile.instructions(name)
    try:
        files = profile.source_files(name)
    except KernelscopeError:
        files = []
    own = files[0] if files else None
    source = profile.source(own) if own is not None else None
    file = own if table is not None else None
    metrics = profile.lines(name, file, categories=False) if file is not None else {}
    sass = None
    if with_sass:
        try:
            sass = profile.sass(name)
        except KernelscopeError:
            sass = {}
    return KernelReading(
        problem=profile.correlation_problem(name),
        file=file,
        source=source.lines if source is not None and source.text is not None else None,
        lines={
            loc[1]: {**lm.values, INSTRUCTIONS: float(len(lm.offsets))}
            for loc, lm in metrics.items()
        },
        totals=dict(profile.totals(name).values) if table is not None else {},
        instruction_metrics=_instruction_metrics(table),
        sass=sass,
    )


def _devices(profile: Profile) -> tuple[str, ...]:
    """The GPUs a profile's launches ran on (the session's device where they name none)."""
    named = tuple(dict.fromkeys(x.device_name for x in profile.launches if x.device_name))
    return named or tuple(filter(None, [profile.session.get("display_name", "")]))


class _InstructionMetrics(Mapping[str, float]):
    """One instruction's metrics, read from its table's columns when asked (NaN: absent):
    making a dict per instruction of a kernel costs more than the rest of its comparison."""

    __slots__ = ("_columns", "_i")

    def __init__(self, columns: Mapping[str, np.ndarray], i: int) -> None:
        self._columns = columns
        self._i = i

    def __getitem__(self, key: str) -> float:
        value = float(self._columns[key][self._i])
        if value != value:  # NaN
            raise KeyError(key)
        return value

    def __iter__(self) -> Iterator[str]:
        return (k for k, c in self._columns.items() if c[self._i] == c[self._i])

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        return repr(dict(self))


def _instruction_metrics(table: InstructionTable | None) -> dict[int, Mapping[str, float]]:
    """Every numeric metric of every instruction, by offset."""
    if table is None:
        return {}
    return {
        int(offset): _InstructionMetrics(table.numbers, i)
        for i, offset in enumerate(table.offsets.tolist())
    }
