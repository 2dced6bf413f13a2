"""Profile: the cache, hot-line ranking, source resolution."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import pytest
from ncu_support import MLP, MLP_CSVS, MLP_KERNELS, SMALL, make_mlp_workspace
from paths_support import data_path

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.ncu import Profile
from kernelscope.core.ncu.cache import ProfileCache, content_key
from kernelscope.core.ncu.metrics import INST_EXECUTED, SAMPLES, STALL_REASONS, stall_key
from kernelscope.core.workspace import Workspace


@pytest.fixture()
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("KERNELSCOPE_CACHE_DIR", str(folder))
    return folder


def test_second_open_comes_from_the_cache(tmp_path: Path, cache_dir: Path) -> None:
    first = Profile.open(MLP / "mlp.ncu-rep")
    lines = first.lines("softmax_kernel")
    sass = first.sass("softmax_kernel")
    # same content under another name: the cache is keyed by content, not by path
    copy = tmp_path / "renamed.ncu-rep"
    shutil.copyfile(MLP / "mlp.ncu-rep", copy)
    second = Profile.open(copy)
    # from here on the report cannot be read: everything must come from the cache
    copy.write_bytes(b"")
    assert [x.name for x in second.launches] == [x.name for x in first.launches]
    assert second.lines("softmax_kernel") == lines
    assert second.sass("softmax_kernel") == sass
    parts = {p.name for p in (cache_dir / "ncu").glob("*/*.pickle")}
    assert {"launches.pickle", "launch-4.pickle", "sass-4.pickle"} <= parts


def test_a_changed_byte_is_a_different_profile(tmp_path: Path) -> None:
    copy = tmp_path / "a.csv"
    shutil.copyfile(MLP / "details.csv", copy)
    key = content_key([copy])
    with open(copy, "ab") as f:
        f.write(b"\n")
    assert content_key([copy]) != key


def test_damaged_cache_entries_are_ignored(cache_dir: Path) -> None:
    Profile.open(MLP_CSVS)
    cache = ProfileCache(content_key(MLP_CSVS))
    (cache.folder / "launches.pickle").write_bytes(b"not a pickle")
    profile = Profile.open(MLP_CSVS)
    assert len(profile.launches) == 5
    assert cache.load("launches") is not None  # rewritten


def test_hot_lines_are_ranked_stably_and_explained() -> None:
    profile = Profile.open(MLP / "mlp.ncu-rep", use_cache=False)
    hot = profile.hot_lines(top=15)
    assert [h.rank for h in hot] == list(range(1, 16))
    values = [h.value for h in hot]
    assert values == sorted(values, reverse=True)
    assert hot == Profile.open(MLP / "mlp.ncu-rep", use_cache=False).hot_lines(top=15)
    for a, b in zip(hot, hot[1:], strict=False):
        if a.value == b.value:
            assert (a.kernel, a.file, a.line) < (b.kernel, b.file, b.line)
    total = profile.totals().values[SAMPLES]
    assert sum(h.share for h in hot) <= 1.0
    assert hot[0].share == pytest.approx(hot[0].value / total)
    top = hot[0]
    reason, samples, share = top.stalls[0]
    assert samples == top.metrics.values[stall_key(reason)]
    sampled = {r: top.metrics.get(stall_key(r)) for r in STALL_REASONS}
    assert samples == max(sampled.values())
    assert 0 < share <= 1
    # every reason with samples, most first, shares of the line's stall samples
    assert [r for r, _, _ in top.stalls] == sorted(
        (r for r, v in sampled.items() if v > 0), key=lambda r: (-sampled[r], r)
    )
    assert sum(s for _, _, s in top.stalls) == pytest.approx(1.0)
    assert top.source is not None and top.source.strip()


def test_hot_lines_of_one_kernel_by_any_metric() -> None:
    profile = Profile.open(MLP_CSVS, use_cache=False)
    key = profile.resolve_metric("Instructions Executed")
    assert key == INST_EXECUTED
    hot = profile.hot_lines(metric=key, top=5, kernel="softmax_kernel")
    assert {h.kernel for h in hot} == {"softmax_kernel"}
    own = profile.source_files("softmax_kernel")[0]  # ranked: the kernel's own lines
    assert hot[0].value == max(
        lm.values[key] for lm in profile.lines("softmax_kernel", own).values()
    )
    assert profile.resolve_metric("long_scoreboard") == stall_key("long_scoreboard")


def test_whole_model_totals_add_kernels() -> None:
    profile = Profile.open(MLP / "mlp.ncu-rep", use_cache=False)
    model = profile.totals().values
    per_kernel = [profile.totals(k.name).values for k in profile.kernels()]
    assert model[SAMPLES] == sum(t[SAMPLES] for t in per_kernel)
    avg = "derived__avg_thread_executed"
    assert min(t[avg] for t in per_kernel) <= model[avg] <= max(t[avg] for t in per_kernel)


def test_sources_embedded_in_the_report() -> None:
    profile = Profile.open(MLP / "mlp.ncu-rep", use_cache=False)
    path = profile.source_files("softmax_kernel")[0]
    src = profile.source(path)
    assert (src.origin, src.status) == ("embedded", "ok")
    assert src.text == (MLP_KERNELS / "softmax_kernel.cu").read_text(encoding="utf-8")


def test_sources_from_the_workspace_and_a_changed_file(tmp_path: Path) -> None:
    ws = Workspace.open(make_mlp_workspace(tmp_path / "ws"))
    csvs = [MLP / "details.csv", MLP / "source_cuda_sass.csv"]  # no cuda view: nothing embedded
    profile = Profile.open(csvs, workspace=ws, use_cache=False)
    path = profile.source_files("softmax_kernel")[0]
    assert profile.source(path).origin == "workspace"
    assert profile.source(path).status == "ok"
    ws.source_path("softmax_kernel").write_text("int x;\n", encoding="utf-8")
    profile = Profile.open(csvs, workspace=ws, use_cache=False)
    profile.lines("softmax_kernel")
    changed = profile.source(path)
    assert changed.status == "changed" and "changed since it was profiled" in changed.note
    # with the copy embedded in the report, the embedded copy wins and the difference is noted
    rep = Profile.open(MLP / "mlp.ncu-rep", workspace=ws, use_cache=False)
    src = rep.source(path)
    assert (src.origin, src.status) == ("embedded", "changed")
    assert "differs from the copy embedded" in src.note


def test_sources_from_search_paths_and_missing(tmp_path: Path) -> None:
    report = SMALL / "lineinfo.ncu-rep"  # made without --import-source
    elsewhere = tmp_path / "checkout" / "small"
    elsewhere.mkdir(parents=True)
    shutil.copyfile(SMALL / "app.cu", elsewhere / "app.cu")
    profile = Profile.open(report, search_paths=[tmp_path / "checkout"], use_cache=False)
    src = profile.source(profile.source_files("scale")[0])
    assert src.origin == "search path" and src.local_path == elsewhere / "app.cu"
    assert src.lines[6].strip().startswith("x[i] = x[i] * a")
    # paths of the machine that built the mlp kernels exist nowhere here
    csv = Profile.open([MLP / "details.csv", MLP / "source_cuda_sass.csv"], use_cache=False)
    missing = csv.source(csv.source_files("softmax_kernel")[0])
    assert missing.status == "missing" and "--import-source yes" in missing.note
    assert missing.text is None


def test_workspace_kernel_list_fall_through_uses_no_report(tmp_path: Path) -> None:
    ws_path = make_mlp_workspace(tmp_path / "ws")
    from kernelscope.core.cli import main as cli

    assert cli.main(["kernels", str(ws_path), "--json"]) == 0
    assert os.path.isdir(ws_path)


def _same_table(a, b) -> None:
    assert a.offsets.tolist() == b.offsets.tolist()
    assert a.locations == b.locations and a.inlined == b.inlined
    assert a.numbers.keys() == b.numbers.keys()
    for key in a.numbers:
        assert a.numbers[key].tobytes() == b.numbers[key].tobytes(), key


@pytest.mark.parametrize("with_workspace", [False, True])
def test_a_kernels_launches_are_combined_once_and_cached(
    tmp_path: Path, cache_dir: Path, with_workspace: bool
) -> None:
    """Three passes of cnn3 (three launches a kernel): the second open reads one combined
    table per kernel, with the workspace's header frames added to it as to a fresh one."""
    pairs = data_path("compare")
    ws = Workspace.open(pairs / "cnn3_b8.kscope") if with_workspace else None
    copy = tmp_path / "3passes.ncu-rep"
    shutil.copyfile(pairs / "cnn3_b8_3passes.ncu-rep", copy)
    fresh = Profile.open(copy, workspace=ws, use_cache=False)
    names = [k.name for k in fresh.kernels()]
    expected = {n: (fresh.instructions(n), fresh.lines(n)) for n in names}
    filling = Profile.open(copy, workspace=ws)
    for name in names:
        filling.lines(name)
    cached = Profile.open(copy, workspace=ws)
    copy.write_bytes(b"")  # from here on nothing can be read from the report
    for k in cached.kernels():
        assert len(k.launches) == 3
        table, lines = expected[k.name]
        got = cached.instructions(k.name)
        assert table is not None and got is not None
        _same_table(table, got)
        assert cached.lines(k.name) == lines
    assert cached._tables == {}  # no launch's own table was needed
    assert (expected["mean_kernel"][0].inlined is not None) == with_workspace


@pytest.mark.parametrize("with_workspace", [False, True])
def test_a_kernels_launches_combine_before_their_tables_as_their_tables_do(
    with_workspace: bool,
) -> None:
    """Three passes of cnn3: each launch sampled other PCs (the stall samples of a launch
    are at PCs another launch has none at). A kernel's table made from its launches' per-PC
    data at once, with no table a launch, is the one their tables combine into, byte for
    byte, categories and header frames included."""
    from kernelscope.core.ncu.aggregate import combine_launches

    pairs = data_path("compare")
    ws = Workspace.open(pairs / "cnn3_b8.kscope") if with_workspace else None
    at_once = Profile.open(pairs / "cnn3_b8_3passes.ncu-rep", workspace=ws, use_cache=False)
    by_launch = Profile.open(pairs / "cnn3_b8_3passes.ncu-rep", workspace=ws, use_cache=False)
    sampled_apart = 0
    for k in at_once.kernels():
        got = at_once.instructions(k.name)
        tables = [by_launch.launch_instructions(x.id) for x in k.launches]
        assert got is not None and all(t is not None for t in tables)
        samples = [set(t.offsets[~np.isnan(t.metric(SAMPLES))].tolist()) for t in tables]
        sampled_apart += len(set.union(*samples)) > len(set.intersection(*samples))
        expected = combine_launches(tables)
        _same_table(expected, got)
        assert got.categories == expected.categories
    assert at_once._tables == {}  # no launch's own table was made
    assert sampled_apart >= 5


def test_one_kernels_hot_lines_read_that_kernels_launches_alone(
    tmp_path: Path, cache_dir: Path
) -> None:
    """``kernelscope hot --kernel K``: the report's launches are told apart by the names at
    the start of their messages, and only K's are decoded; the hot lines are those of the
    whole report's profile. That partial list is never the report's cached kernel list; a
    name that fits several kernels reads every launch (and the error lists them)."""
    copy = tmp_path / "3passes.ncu-rep"
    shutil.copyfile(data_path("compare") / "cnn3_b8_3passes.ncu-rep", copy)
    full = Profile.open(copy, use_cache=False)
    kernel = full.kernel("matmul")
    one = Profile.open(copy, kernel="matmul")
    assert [k.name for k in one.kernels()] == [kernel.name]
    assert [x.id for x in one.launches] == [x.id for x in kernel.launches]
    assert one.launches[0].function_start == kernel.launches[0].function_start

    def ranked(p: Profile) -> list[tuple]:
        return [
            (h.file, h.line, h.value, h.share, h.stalls) for h in p.hot_lines(kernel=kernel.name)
        ]

    assert ranked(one) == ranked(full)
    again = Profile.open(copy)  # the cache's kernel list is the report's, all of it
    assert len(again.kernels()) == len(full.kernels()) == 7
    ambiguous = Profile.open(copy, kernel="fused", use_cache=False)
    assert len(ambiguous.kernels()) == 7
    with pytest.raises(KernelscopeError, match="no kernel 'fused'"):
        ambiguous.kernel("fused")


@pytest.mark.parametrize("with_workspace", [False, True])
def test_what_a_profile_forgets_comes_back_the_same_from_the_cache(
    tmp_path: Path, cache_dir: Path, with_workspace: bool
) -> None:
    """``forget`` (the child that fills the cache keeps nothing per launch, so its memory
    does not grow with a report's launches): what is asked for again comes from the cache,
    the same as before it forgot, the workspace's header frames included."""
    pairs = data_path("compare")
    ws = Workspace.open(pairs / "cnn3_b8.kscope") if with_workspace else None
    copy = tmp_path / "3passes.ncu-rep"
    shutil.copyfile(pairs / "cnn3_b8_3passes.ncu-rep", copy)
    profile = Profile.open(copy, workspace=ws)
    names = [k.name for k in profile.kernels()]
    firsts = {n: profile.kernel(n).launches[0].id for n in names}
    before = {
        n: (profile.instructions(n), profile.lines(n), profile.launch_instructions(firsts[n]))
        for n in names
    }
    details = [profile.launch_metrics(x.id) for x in profile.launches]
    profile.forget()
    assert not profile._tables and not profile._combined and not profile._launch_metrics
    copy.write_bytes(b"")  # from here on nothing can be read from the report
    for name in names:
        table, lines, first = before[name]
        _same_table(table, profile.instructions(name))
        assert profile.lines(name) == lines
        _same_table(first, profile.launch_instructions(firsts[name]))
    assert [profile.launch_metrics(x.id) for x in profile.launches] == details


def test_a_launch_without_instruction_data_is_remembered(tmp_path: Path, cache_dir: Path) -> None:
    """A report without SourceCounters: the second open knows there is nothing to read."""
    copy = tmp_path / "nosource.ncu-rep"
    shutil.copyfile(data_path("compare/cnn3_b8_nosource.ncu-rep"), copy)
    first = Profile.open(copy)
    assert all(first.instructions(k.name) is None for k in first.kernels())
    second = Profile.open(copy)
    copy.write_bytes(b"")
    assert all(second.instructions(k.name) is None for k in second.kernels())
    assert "SourceCounters" in (second.correlation_problem("mean_kernel") or "")


class _CountedRules(list):  # type: ignore[type-arg]
    """A launch's rules that count how often they are gone through."""

    walks = 0

    def __iter__(self):  # noqa: ANN204
        _CountedRules.walks += 1
        return super().__iter__()


def test_a_kernel_summary_goes_over_its_launches_rules_once() -> None:
    """The kernel list asks a summary for its numbers on every paint and column fit (each
    asks for the estimated speedup, the largest over every rule of every launch: 0.1 s a fit
    at 500 launches); the summary works them out once."""
    from kernelscope.core.ncu.records import KernelSummary, Launch, RuleResult

    rules = [RuleResult("R", "S", "OPT", "m", speedup_pct=p) for p in (3.0, 7.5)]
    launches = tuple(
        Launch(id=i, name="k", duration_ns=100.0 * (i + 1), rules=_CountedRules(rules))
        for i in range(3)
    )
    summary = KernelSummary("k", launches, duration_ns=600.0)
    _CountedRules.walks = 0
    for _ in range(5):
        assert summary.metrics["Est. speedup %"] == 7.5
        assert summary.speedup_pct == 7.5
        assert summary.mean_ns == 200.0
    assert _CountedRules.walks == len(launches)


def test_details_of_every_kernel_keep_a_bounded_memory(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A window that has shown every kernel of a report of thousands of launches kept every
    launch's Details metrics (~50 KB each: 250 MB at 5,000 launches). Only the launches read
    last stay (here 16 of the recorded decode report's 96); the Details are the same."""
    import gc
    import tracemalloc

    from kernelscope.core.ncu import profile as profile_module
    from kernelscope.core.ncu.details import kernel_details

    report = data_path("llm/tiny_decode.ncu-rep")
    expected = {
        k.name: kernel_details(Profile.open(report), k.name).metrics
        for k in Profile.open(report).kernels()
    }
    monkeypatch.setattr(profile_module, "_LAUNCH_METRICS_KEPT", 16)
    profile = Profile.open(report)
    kernels = profile.kernels()
    assert sum(len(k.launches) for k in kernels) == 96
    tracemalloc.start()
    try:
        first = kernel_details(profile, kernels[0].name)
        gc.collect()
        after_one = tracemalloc.get_traced_memory()[0]
        shown = {k.name: kernel_details(profile, k.name).metrics for k in kernels}
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - after_one
    finally:
        tracemalloc.stop()
    assert shown == expected and first.metrics == expected[kernels[0].name]
    # kept unbounded: 96 launches' metrics, ~4 MB; bounded: 16 of them and the details
    assert grown < 2_000_000, f"{grown / 1e6:.1f} MB kept after every kernel's Details"
