"""Where a profile's data come from: a report (``.ncu-rep``, through kernelscope's own decoder
or NVIDIA's reader) or a set of CSV exports of one report. ``loader_for`` picks the loader for
the files given; ``Profile`` (``profile.py``) caches what a loader reads."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import KernelscopeError
from .detail_metrics import METRIC_NAMES, LaunchMetrics
from .records import InstructionTable, Launch
from .steps import MARKER as STEP_MARKER

if TYPE_CHECKING:
    from .csv_merge import CsvImport
    from .report import ReportReader

_log = logging.getLogger(__name__)

REPORT_SUFFIX = ".ncu-rep"
REPORT_MAGIC = b"NVR\0"


def is_report(path: Path) -> bool:
    """An Nsight Compute report, by its first bytes (or its suffix when unreadable)."""
    try:
        with open(path, "rb") as f:
            return f.read(4) == REPORT_MAGIC
    except OSError:
        return path.suffix == REPORT_SUFFIX


def loader_for(files: list[Path], *, nvidia: bool, lines: bool) -> Loader:
    """The loader of one report or of CSV exports; raises when a file is missing or reports
    and CSVs are mixed. ``nvidia``: a report may be read with NVIDIA's reader; ``lines``: read
    its line tables (a first look reads none)."""
    if not files:
        raise KernelscopeError("no report or CSV files given")
    for f in files:
        if not f.is_file():
            raise KernelscopeError(f"{f}: no such file")
    reports = [f for f in files if f.suffix == REPORT_SUFFIX or is_report(f)]
    if reports and len(files) > 1:
        raise KernelscopeError(
            "give either one .ncu-rep report or CSV exports, not both",
            hint=f"got {', '.join(str(f) for f in files)}",
        )
    if reports:
        return ReportLoader(files[0], nvidia=nvidia, lines=lines)
    return CsvLoader(files)


class Loader:
    """Where a profile's data comes from: a report through ncu_report, or CSV exports."""

    def launches(self) -> tuple[list[Launch], dict[str, str], list[str]]:
        raise NotImplementedError

    def instructions(self, launch: Launch) -> InstructionTable | None:
        raise NotImplementedError

    def launches_of(self, kernel: str) -> tuple[list[Launch], dict[str, str], list[str]] | None:
        """``launches`` of one kernel alone (its name, or a part of one name only), without
        reading the others'; None where this loader cannot tell them apart first."""
        return None

    def instructions_many(self, launches: Sequence[Launch]) -> dict[int, InstructionTable | None]:
        """``instructions`` of each launch, by ID."""
        return {launch.id: self.instructions(launch) for launch in launches}

    def instructions_combined(
        self, launches: Sequence[Launch]
    ) -> tuple[InstructionTable | None] | None:
        """Several launches of one kernel as one table (``(table,)``), made without a table a
        launch; None where this loader cannot (then their tables are combined)."""
        return None

    def totals(self, launch: Launch) -> InstructionTable | None:
        """A table with the launch's metrics and their totals (no more rows needed)."""
        return self.instructions(launch)

    def sass(self, launch: Launch, table: InstructionTable | None) -> dict[int, str]:
        raise NotImplementedError

    def sources_for(self, path: str | None) -> dict[str, str]:
        """Source files known to the data, at least trying to include ``path``."""
        raise NotImplementedError

    def launch_metrics(self, launch: Launch) -> LaunchMetrics:
        raise NotImplementedError

    def no_instructions_reason(self) -> str:
        return (
            "the profile has no per-instruction metrics for this kernel "
            "(collect the SourceCounters section, e.g. --set full)"
        )

    def no_lines_reason(self) -> str:
        return (
            "the kernel was compiled without line information: SASS-level metrics only; "
            "source correlation needs nvcc -lineinfo"
        )


class ReportLoader(Loader):
    def __init__(
        self,
        path: Path,
        *,
        nvidia: bool = True,
        lines: bool = True,
    ) -> None:
        self.path = path
        self._nvidia = nvidia
        self._lines = lines
        self._reader: ReportReader | None = None

    @property
    def reader(self) -> ReportReader:
        if self._reader is None:
            from .report import ReportReader

            self._reader = ReportReader(self.path, nvidia=self._nvidia)
        return self._reader

    def launches(self) -> tuple[list[Launch], dict[str, str], list[str]]:
        launches = self.reader.launches(totals=not self._lines)  # a first look's totals
        return launches, _session(launches), list(self.reader.warnings)

    def launches_of(self, kernel: str) -> tuple[list[Launch], dict[str, str], list[str]] | None:
        names = self.reader.names()
        if names is None or len(names) < len(self.reader):  # a damaged launch: read them all
            return None
        distinct = [n for n in dict.fromkeys(names) if n != STEP_MARKER]
        chosen = [kernel] if kernel in distinct else [n for n in distinct if kernel in n]
        if len(chosen) != 1:
            return None  # reading every launch says what there is
        launches = []
        for i, name in enumerate(names):
            if name == chosen[0]:
                launch = self.reader.launch(i)
                if launch is None or launch.name != name:
                    return None
                launches.append(launch)
        return launches, _session(launches), list(self.reader.warnings)

    def instructions(self, launch: Launch) -> InstructionTable | None:
        return self.reader.instructions(launch.id, launch.function_start, lines=self._lines)

    def totals(self, launch: Launch) -> InstructionTable | None:
        return self.reader.instructions(launch.id, launch.function_start, lines=False)

    def instructions_many(self, launches: Sequence[Launch]) -> dict[int, InstructionTable | None]:
        if not self._lines or len(launches) < 2:
            return super().instructions_many(launches)
        return self.reader.instructions_many([(x.id, x.function_start) for x in launches])

    def instructions_combined(
        self, launches: Sequence[Launch]
    ) -> tuple[InstructionTable | None] | None:
        if not self._lines:
            return None
        return self.reader.instructions_combined([(x.id, x.function_start) for x in launches])

    def sass(self, launch: Launch, table: InstructionTable | None) -> dict[int, str]:
        if launch.function_start is None:
            return {}
        last = int(table.offsets[-1]) // 16 + 1 if table is not None and len(table) else 0
        return self.reader.sass(launch.id, launch.function_start, last)

    def sources_for(self, path: str | None) -> dict[str, str]:
        return self.reader.sources_for(path)

    def launch_metrics(self, launch: Launch) -> LaunchMetrics:
        from .report import DAMAGED

        try:
            return self.reader.metrics(launch.id, METRIC_NAMES)
        except DAMAGED as exc:  # a truncated launch: no Details; anything else is a bug
            _log.info("%s: no Details for launch %d: %s", self.path, launch.id, exc)
            return LaunchMetrics({}, source="none")


class CsvLoader(Loader):
    def __init__(self, paths: list[Path]) -> None:
        self.paths = paths
        self._data: CsvImport | None = None

    @property
    def data(self) -> CsvImport:
        if self._data is None:
            from .csv_merge import import_csvs

            _log.info("reading %d CSV export(s): %s", len(self.paths), self.paths)
            self._data = import_csvs(list(self.paths))
        return self._data

    def launches(self) -> tuple[list[Launch], dict[str, str], list[str]]:
        d = self.data
        return d.launches, d.session, d.warnings

    def instructions(self, launch: Launch) -> InstructionTable | None:
        return self.data.tables.get(launch.id)

    def sass(self, launch: Launch, table: InstructionTable | None) -> dict[int, str]:
        if table is None or table.sass is None:
            return {}
        return {int(o): s for o, s in zip(table.offsets, table.sass, strict=True)}

    def sources_for(self, path: str | None) -> dict[str, str]:
        return self.data.sources

    def launch_metrics(self, launch: Launch) -> LaunchMetrics:
        return self.data.metrics.get(launch.id) or LaunchMetrics({}, source="none")

    def no_instructions_reason(self) -> str:
        if not self.data.tables:
            return (
                "these CSV exports hold no per-instruction metrics: "
                "export --page source --print-source cuda,sass as well"
            )
        return super().no_instructions_reason()

    def no_lines_reason(self) -> str:
        if not self.data.has_line_view:
            return (
                "these CSV exports have no source lines: "
                "export --print-source cuda,sass as well (or use the .ncu-rep)"
            )
        return super().no_lines_reason()


def _session(launches: Sequence[Launch]) -> dict[str, str]:
    """A report's session facts: the GPU's name, from its first launch."""
    name = launches[0].device_name if launches else None
    return {"display_name": name} if name else {}
