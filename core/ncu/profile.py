"""An imported Nsight Compute profile: what the viewer and the CLI read.

Open a report (``.ncu-rep``) or any set of CSV exports of one report::

    from .profile import Profile
    profile = Profile.open("model.ncu-rep")                 # or ["details.csv", "source.csv"]
    profile = Profile.open(path, workspace=ws, search_paths=[...])   # for source resolution

(a) the kernel list: ``profile.kernels()`` -> ``list[KernelSummary]`` (launches of one kernel
    grouped, in first-launch order; ``.launches`` has each ``records.Launch``, and
    ``profile.launches`` is the flat list in report order).
(b) per-line metrics of one kernel's file: ``profile.lines("softmax_kernel", file)`` ->
    ``{(file, line): LineMetrics}``; ``profile.source_files("softmax_kernel")`` lists the files
    (its own first, inlined headers after), ``profile.source(file)`` gives their text
    (``sources.SourceFile``: embedded, workspace or search path, or a note why not).
(c) per-instruction metrics by offset from the function start:
    ``profile.instructions("softmax_kernel")`` -> ``records.InstructionTable``
    (``.row(offset)``, ``.metric(key)``, ``.offsets``); SASS text with
    ``profile.sass("softmax_kernel")`` -> ``{offset: text}``.
(d) hot lines: ``profile.hot_lines(metric="smsp__pcsamp_sample_count", top=20, kernel=None)``
    -> ``list[HotLine]`` with the stall reasons of each line (``hot_lines.rank_lines``).

Also: ``profile.totals(kernel)`` and ``profile.totals()`` (the whole model),
``profile.correlation_problem(kernel)`` (why there are no per-line numbers: no SourceCounters,
no -lineinfo, no cuda,sass export), ``profile.warnings`` (partial data: file:line of what was
skipped). Every per-kernel call takes ``launch=<result id>`` to look at one launch instead of
all of a kernel's launches combined. A Profile is not thread-safe: use it from one thread (e.g.
one worker) at a time. Metric keys are Nsight Compute metric names (``metrics.SOURCE_METRICS``
lists them with their labels; ``resolve_metric`` accepts labels).

Where the data come from is a ``loaders.Loader`` (a report or CSV exports); the kernel list is
``kernel_list.group_kernels``; the header frames a report lacks come from the workspace
(``header_frames``). This module keeps what was read, in memory and in the ``cache``.

Speed: the kernel list is read first and alone; per-instruction data is read per kernel on
demand, SASS text only when asked for. Everything read is cached by content (``cache``), so
opening the same report again costs a hash of the file plus small pickle loads.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..errors import KernelscopeError
from ..workspace import Workspace
from .cache import ProfileCache, content_key, launches_part
from .detail_metrics import LaunchMetrics
from .header_frames import header_frames
from .kernel_list import group_kernels
from .loaders import Loader, loader_for
from .metrics import INST_EXECUTED, SAMPLES, resolve_metric_name
from .records import HotLine, InstructionTable, KernelSummary, Launch, LineMetrics, Location
from .sources import SourceFile, SourceResolver
from .steps import MARKER as STEP_MARKER

_LAUNCH_METRICS_KEPT = 256  # launches whose Details metrics stay in memory (``launch_metrics``)


class Profile:
    def __init__(
        self,
        paths: list[Path],
        launches: list[Launch],
        *,
        loader: Loader,
        cache: ProfileCache | None,
        session: dict[str, str],
        warnings: list[str],
        workspace: Workspace | None,
        search_paths: Sequence[str | Path],
        await_child: Callable[[str], None] | None = None,
    ) -> None:
        self.paths = paths
        # An LLM's step markers (``steps.MARKER``) are the runner's, not the model's: only
        # their IDs are kept, where its steps begin (``steps.report_steps``).
        self._markers = [x for x in launches if x.name == STEP_MARKER]
        self.step_markers = [x.id for x in self._markers]
        self.launches = [x for x in launches if x.name != STEP_MARKER]
        # by ID (the first where IDs repeat): a kernel's totals look up each of its launches,
        # a scan of them all each time was quadratic (1 s of a 5,000-launch first look)
        self._by_id = {x.id: x for x in reversed(self.launches)}
        self.session = session
        self.warnings = warnings
        self.workspace = workspace
        self.search_paths = list(search_paths)
        self._loader = loader
        self._cache = cache
        self._tables: dict[int, InstructionTable | None] = {}
        self._resolver: SourceResolver | None = None
        self._sources: dict[str, str] | None = None
        self._all_sources = False
        self._combined: dict[tuple[str, int | None], InstructionTable | None] = {}
        self._framed: set[int] = set()  # launches given the workspace's header frames
        self._kernels: list[KernelSummary] | None = None
        # the launches' Details metrics read last (~50 KB a launch: all of them would keep
        # 250 MB in a window that has shown every kernel of a 5,000-launch report)
        self._launch_metrics: dict[int, LaunchMetrics] = {}
        self._descriptions: dict[str, str] | None = None
        self._await_child = await_child

    # ---- opening ---------------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
        *,
        workspace: Workspace | None = None,
        search_paths: Sequence[str | Path] = (),
        use_cache: bool = True,
        first_look: bool = False,
        await_child: Callable[[str], None] | None = None,
        looked: Profile | None = None,
        kernel: str | None = None,
    ) -> Profile:
        """``first_look``: a report's kernel list and per-instruction numbers without line
        data, decoded from the file alone (cached nowhere, never NVIDIA's reader), for a
        kernel list that shows at once. ``await_child(part)``: another process (a child
        reading the report) fills the cache; this one never loads NVIDIA's reader and calls
        ``await_child`` with the cache part it misses, to wait for it (``view.prefill``).
        ``looked``: a first look at the same files, whose launches are taken (when the cache
        lacks them) instead of decoded a second time. ``kernel``: where the cache lacks the
        launches, only that kernel's are read where the loader can pick them out
        (``Loader.launches_of``: ``kernelscope hot --kernel``); its kernel list then holds
        that kernel alone."""
        if isinstance(paths, str | os.PathLike):
            paths = [paths]
        files = [Path(p) for p in paths]
        loader = loader_for(
            files,
            nvidia=not (first_look or await_child),
            lines=not first_look,
        )
        cache = ProfileCache(content_key(files)) if use_cache and not first_look else None
        cached = cache.load("launches") if cache else None
        only = None  # one kernel's launches: not the report's, never stored as its list
        if cached is None:
            if looked is not None:  # every launch it decoded, the step markers too
                every = sorted(looked.launches + looked._markers, key=lambda x: x.id)
                cached = every, looked.session, looked.warnings
            else:
                only = loader.launches_of(kernel) if kernel is not None else None
                cached = only if only is not None else loader.launches()
            if cache and only is None:
                cache.store("launches", cached)
        launches, session, warnings = cached
        if not launches:
            raise KernelscopeError(
                f"{', '.join(str(f) for f in files)}: no kernel launches found",
                hint="export --page details, raw or source from the report",
            )
        return cls(
            files,
            launches,
            loader=loader,
            cache=cache,
            session=session,
            warnings=list(warnings),
            workspace=workspace,
            search_paths=search_paths,
            await_child=await_child if cache else None,
        )

    def _from_cache(self, part: str) -> Any:
        """A cache part; when a child fills the cache, waited for if it is not there yet."""
        if self._cache is None:
            return None
        value = self._cache.load(part)
        if value is None and self._await_child is not None:
            self._await_child(part)
            value = self._cache.load(part)
        return value

    @property
    def name(self) -> str:
        if len(self.paths) == 1:
            return self.paths[0].name
        return f"{self.paths[0].resolve().parent.name}/ ({len(self.paths)} CSV files)"

    # ---- kernel list -----------------------------------------------------------------------
    def kernels(self) -> list[KernelSummary]:
        if self._kernels is None:
            self._kernels = group_kernels(self.launches)
        return self._kernels

    def kernel(self, name: str) -> KernelSummary:
        for k in self.kernels():
            if k.name == name:
                return k
        matches = [k for k in self.kernels() if name in k.name]
        if len(matches) == 1:
            return matches[0]
        known = ", ".join(k.name for k in self.kernels())
        raise KernelscopeError(f"no kernel {name!r} in {self.name}", hint=f"kernels: {known}")

    def launch(self, launch_id: int) -> Launch:
        found = self._by_id.get(launch_id)
        if found is not None:
            return found
        raise KernelscopeError(f"no launch with ID {launch_id} in {self.name}")

    # ---- per-instruction data --------------------------------------------------------------
    def launch_instructions(self, launch_id: int) -> InstructionTable | None:
        self.prefetch([launch_id])
        return self._tables[launch_id]

    def _with_inline_frames(self, launch: Launch, table: InstructionTable | None) -> bool:
        """Fill the header frames ncu_report does not give from the workspace's line table
        (``header_frames``); True when it did. The table is this process's copy (the cache
        keeps the profile's own data, without them)."""
        if table is None or table.inlined is not None or self.workspace is None:
            return False
        try:
            sass = self.workspace.sass(launch.name)
        except (KeyError, OSError, ValueError):  # not this build's kernel, or no line table
            return False
        inlined = header_frames(table, sass, self._embedded_paths)
        if inlined is None:
            return False
        table.inlined = inlined
        return True

    def _embedded_paths(self, own_file: str | None) -> list[str]:
        """The paths of the source files the profile carries, with ``own_file`` looked for."""
        if own_file is not None:
            self._embedded(own_file)  # loads the report's list of embedded files
        return [path for path, text in (self._sources or {}).items() if text]

    def prefetch(self, launch_ids: Sequence[int]) -> None:
        """Load (from the cache, else the profile) the per-instruction data of these launches."""
        todo = []
        new = [i for i in dict.fromkeys(launch_ids) if i not in self._tables]
        for i in new:
            table = self._from_cache(f"launch-{i}")
            if table is not None:
                self._tables[i] = table
            elif self._cache and self._cache.load(f"launch-{i}-none"):
                self._tables[i] = None  # known to have none (no SourceCounters)
            else:
                todo.append(self.launch(i))
        for launch_id, table in self._loader.instructions_many(todo).items():
            self._tables[launch_id] = table
            if self._cache:
                if table is not None:
                    self._cache.store(f"launch-{launch_id}", table)
                else:
                    self._cache.store(f"launch-{launch_id}-none", True)
        for i in new:  # workspace-dependent: added after the cache, never stored in it (once)
            if self._with_inline_frames(self.launch(i), self._tables[i]):
                self._framed.add(i)

    def forget(self) -> None:
        """Drop the launches' tables, the kernels' combined tables and the Details kept in
        memory (~0.3 MB a ``--set full`` launch): what a process that fills the cache
        (``view.prefill``) does once it stored them. What is asked for again comes from the
        cache (or is read again when there is none)."""
        self._tables.clear()
        self._combined.clear()
        self._framed.clear()
        self._launch_metrics.clear()

    def instructions(self, kernel: str, launch: int | None = None) -> InstructionTable | None:
        """Per-instruction metrics of a kernel, its launches combined (or one launch); kept,
        and the combination of several launches cached (``_combined_table``)."""
        key = (kernel, launch)
        if key not in self._combined:
            ids = [launch] if launch is not None else [x.id for x in self.kernel(kernel).launches]
            if len(ids) == 1:
                self._combined[key] = self.launch_instructions(ids[0])
            else:
                self._combined[key] = self._combined_table(ids)
        return self._combined[key]

    def prefetch_kernels(self, names: Sequence[str]) -> None:
        """Read the launches of these kernels in one go, leaving out kernels already combined
        here or in the cache. A kernel whose launches combine before their tables are made
        (``Loader.instructions_combined``) is combined so, without a table a launch; the
        others' launches are read in one pass of the reader, whose line tables come from one
        child (``instructions_many``)."""
        ids = []
        for name in names:
            launches = [x.id for x in self.kernel(name).launches]
            if (name, None) in self._combined:
                continue
            if len(launches) > 1:
                part = launches_part("kernel", launches)
                if self._cache and self._cache.has(part):
                    continue
                combined = self._combine_directly(launches, part)
                if combined is not None:
                    (self._combined[(name, None)],) = combined
                    continue
            ids.extend(launches)
        self.prefetch(ids)

    def _combine_directly(self, ids: list[int], part: str) -> tuple[InstructionTable | None] | None:
        """Launches combined by the loader without a table a launch (stored as ``part``),
        unless all their tables are here already; None where the loader cannot."""
        if all(i in self._tables for i in ids):
            return None
        combined = self._loader.instructions_combined([self.launch(i) for i in ids])
        if combined is not None:
            (table,) = combined
            if self._cache:
                self._cache.store(part, (table,))
            self._with_inline_frames(self.launch(ids[0]), table)
        return combined

    def _combined_table(self, ids: list[int]) -> InstructionTable | None:
        """Several launches of one kernel combined: from the cache (one small load instead of
        one per launch, and no combining: ~40 ms a kernel of 8 launches), else from the
        launches' tables. What is cached is the profile's own data, without the workspace's
        header frames, which are added to the combined table as they are to a launch's."""
        from . import aggregate as agg  # numpy, with the first per-instruction data

        part = launches_part("kernel", ids)
        cached = self._cache.load(part) if self._cache else None
        if cached is not None:
            (table,) = cached
            self._with_inline_frames(self.launch(ids[0]), table)
            return table
        combined = self._combine_directly(ids, part)
        if combined is not None:
            return combined[0]
        self.prefetch(ids)
        tables = [t for t in (self._tables[i] for i in ids) if t is not None]
        table = agg.combine_launches(tables) if tables else None
        framed = [i in self._framed for i in ids if self._tables[i] is not None]
        if self._cache and (not any(framed) or all(framed)):
            own = table if table is None or not any(framed) else replace(table, inlined=None)
            self._cache.store(part, (own,))
        return table

    def sass(self, kernel: str, launch: int | None = None) -> dict[int, str]:
        """SASS text by offset (first launch of the kernel unless ``launch`` is given)."""
        lid = launch if launch is not None else self.kernel(kernel).launches[0].id
        part = f"sass-{lid}"
        text = self._from_cache(part)
        if text is None:
            text = self._loader.sass(self.launch(lid), self.launch_instructions(lid))
            if self._cache:
                self._cache.store(part, text)
        return text

    # ---- launch-level metrics (the Details view, the roofline) ------------------------------
    def launch_metrics(self, launch_id: int) -> LaunchMetrics:
        """The Details metrics of one launch (``detail_metrics.METRIC_NAMES``), cached."""
        lm = self._launch_metrics.get(launch_id)
        if lm is not None:
            return lm
        part = f"details-{launch_id}"
        lm = self._from_cache(part)
        if lm is None:
            lm = self._loader.launch_metrics(self.launch(launch_id))
            if lm.descriptions:
                self._add_descriptions(lm.descriptions)
                lm.descriptions = {}
            if self._cache:
                self._cache.store(part, lm)
        if len(self._launch_metrics) >= _LAUNCH_METRICS_KEPT:
            del self._launch_metrics[next(iter(self._launch_metrics))]  # the oldest
        self._launch_metrics[launch_id] = lm
        return lm

    def metric_descriptions(self) -> dict[str, str]:
        """NVIDIA's description of each metric read so far (reports only; CSVs have none)."""
        if not self._descriptions:  # none yet: a child reading the report may have added them
            self._descriptions = (self._cache.load("descriptions") if self._cache else None) or {}
        return self._descriptions

    def _add_descriptions(self, new: dict[str, str]) -> None:
        known = self.metric_descriptions()
        if new.keys() - known.keys():
            known.update(new)
            if self._cache:
                self._cache.store("descriptions", known)

    # ---- aggregates ------------------------------------------------------------------------
    def lines(
        self,
        kernel: str,
        file: str | None = None,
        launch: int | None = None,
        *,
        categories: bool = True,
    ) -> dict[Location, LineMetrics]:
        """Metrics per source line; ``categories=False`` leaves out the histograms of
        category metrics (memory spaces...), half the cost when only numbers are wanted."""
        from . import aggregate as agg

        table = self.instructions(kernel, launch)
        return agg.by_line(table, file, categories=categories) if table is not None else {}

    def totals(self, kernel: str | None = None, launch: int | None = None) -> LineMetrics:
        """A kernel's totals over all its instructions, or the whole model's (kernel=None)."""
        from . import aggregate as agg

        if kernel is not None:
            table = self.instructions(kernel, launch)
            return agg.total(table) if table is not None else LineMetrics(None, None, {})
        parts = []
        self.prefetch_kernels([k.name for k in self.kernels()])
        for k in self.kernels():  # each kernel's launches combined (cached), not one by one
            t = self.instructions(k.name)
            if t is not None:
                parts.append((agg.total(t), t.total(INST_EXECUTED)))
        return agg.combine_totals(parts)

    def source_files(self, kernel: str, launch: int | None = None) -> list[str]:
        """Files a kernel's instructions come from: its own file(s) first, then headers."""
        table = self.instructions(kernel, launch)
        if table is None:
            return []
        own = list(dict.fromkeys(loc[0] for loc in table.locations if loc is not None))
        headers = [loc[0] for loc in (table.inlined or []) if loc is not None and loc[0] not in own]
        return own + list(dict.fromkeys(headers))

    def resolve_metric(self, text: str) -> str:
        """A metric key for what a user typed; raises with the known names if none fits."""
        available: set[str] = set()
        for launch in self.launches[:1]:  # which metrics there are: no line data needed
            t = self._tables.get(launch.id) or self._from_cache(f"launch-{launch.id}")
            if t is None:
                t = self._loader.totals(launch)
            if t is not None:
                available = set(t.numbers)
        key = resolve_metric_name(text, available)
        if key is None:
            raise KernelscopeError(
                f"unknown metric {text!r}",
                hint="use an ncu metric name or Source-page label, e.g. "
                "smsp__pcsamp_sample_count, 'Instructions Executed', long_scoreboard",
            )
        return key

    def hot_lines(
        self, metric: str = SAMPLES, top: int = 20, kernel: str | None = None
    ) -> list[HotLine]:
        """Source lines ranked by ``metric`` over one kernel or the model (``rank_lines``)."""
        from .hot_lines import rank_lines

        names = [kernel] if kernel is not None else [k.name for k in self.kernels()]
        self.prefetch_kernels(names)
        tables = [(name, t) for name in names if (t := self.instructions(name)) is not None]
        return rank_lines(tables, metric, top, self.source_lines)

    # ---- sources ---------------------------------------------------------------------------
    @property
    def resolver(self) -> SourceResolver:
        if self._resolver is None:
            max_lines: dict[str, int] = {}
            for t in [*self._tables.values(), *self._combined.values()]:
                for loc in t.locations if t else []:
                    if loc is not None and loc[1] > max_lines.get(loc[0], 0):
                        max_lines[loc[0]] = loc[1]
            self._resolver = SourceResolver(
                self._embedded, self.workspace, self.search_paths, max_lines
            )
        return self._resolver

    def _embedded(self, path: str) -> str | None:
        """The profile's own copy of a source file (embedded or from a cuda CSV view)."""
        if self._sources is None:
            self._sources = (self._cache.load("sources") if self._cache else None) or {}
        if path not in self._sources:
            self._sources.update(self._loader.sources_for(path))
            self._sources.setdefault(path, "")
            if self._cache:
                self._cache.store("sources", self._sources)
        return self._sources[path] or None

    def source(self, recorded_path: str) -> SourceFile:
        return self.resolver.resolve(recorded_path)

    def source_lines(self, recorded_path: str) -> list[str] | None:
        """The lines of a source file, or None when its text was not found."""
        src = self.source(recorded_path)
        return src.lines if src.text is not None else None

    def correlation_problem(self, kernel: str) -> str | None:
        """Why per-line numbers cannot be shown for a kernel, or None if they can."""
        table = self.instructions(kernel)
        if table is None:
            return self._loader.no_instructions_reason()
        if not table.has_lines:
            return self._loader.no_lines_reason()
        return None

    def embedded_sources(self) -> dict[str, str]:
        """The source files the profile carries a copy of (``--import-source yes``, or a
        ``cuda`` CSV view), by recorded path, without reading per-instruction data (a report's
        first launch carries the files of its whole module)."""
        if self._sources is None:
            self._sources = (self._cache.load("sources") if self._cache else None) or {}
        if not self._all_sources and not any(self._sources.values()):
            for path, text in self._loader.sources_for(None).items():
                if text or path not in self._sources:
                    self._sources[path] = text
            if self._cache:
                self._cache.store("sources", self._sources)
        self._all_sources = True
        return {path: text for path, text in self._sources.items() if text}
