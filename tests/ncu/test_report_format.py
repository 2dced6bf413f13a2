"""The report decoder (``ncu.rep``) against NVIDIA's reader: every number the kernel
list, the Source view and the Details view show must be what ncu_report gives, on every real
report in tests/data; and a report of many launches of one module parses one ncu_report
action, not one per launch."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from paths_support import DATA, data_files, data_path

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.ncu import Profile
from kernelscope.core.ncu.detail_metrics import METRIC_NAMES
from kernelscope.core.ncu.rep.container import ReportFile
from kernelscope.core.ncu.rep.wire import Unsupported
from kernelscope.core.ncu.report import ReportReader

REPORTS = [p for p in data_files("*.ncu-rep") if p.parent.name != "bad"] + [
    DATA / "bad" / "truncated.ncu-rep"
]
SASS_REPORTS = {"mlp.ncu-rep", "lineinfo.ncu-rep", "cnn3_b8_run1.ncu-rep"}


def _same_table(a, b) -> None:  # noqa: ANN001
    if a is None or b is None:
        assert a is b
        return
    assert np.array_equal(a.offsets, b.offsets)
    assert a.locations == b.locations
    assert a.categories == b.categories
    assert a.numbers.keys() == b.numbers.keys()
    for key in a.numbers:
        assert np.array_equal(a.numbers[key], b.numbers[key], equal_nan=True), key


@pytest.mark.parametrize("report", REPORTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_decoded_report_reads_as_ncu_report_does(report: Path) -> None:
    fast, slow = ReportReader(report), ReportReader(report, decode=False)
    assert fast._file is not None, "the decoder gave up on a real report"
    launches = fast.launches()
    assert launches == slow.launches()
    assert fast.warnings == slow.warnings
    for launch in launches:
        _same_table(
            fast.instructions(launch.id, launch.function_start),
            slow.instructions(launch.id, launch.function_start),
        )
        assert fast.metrics(launch.id, METRIC_NAMES) == slow.metrics(launch.id, METRIC_NAMES)
        if report.name in SASS_REPORTS and launch.function_start is not None:
            assert fast.sass(launch.id, launch.function_start) == slow.sass(
                launch.id, launch.function_start
            )
    theirs, ours = slow.sources_for(None), fast.sources_for(None)
    assert {p: t for p, t in ours.items() if p in theirs} == theirs


def test_one_ncu_report_action_answers_for_a_whole_module() -> None:
    """The mlp report's 5 launches are 5 kernels of one module: their line tables and SASS
    come through one parsed action (each costs ~20 ms and ~10 MB that stay)."""
    reader = ReportReader(data_path("ncu/mlp/mlp.ncu-rep"))
    launches = reader.launches()
    assert not reader._actions  # the kernel list needs no ncu_report at all
    for launch in launches:
        table = reader.instructions(launch.id, launch.function_start)
        assert table is not None and table.has_lines
        assert reader.sass(launch.id, launch.function_start or 0)
        reader.metrics(launch.id, METRIC_NAMES)
    assert len(reader._actions) == 1


def test_what_the_decoder_does_not_know_is_read_by_ncu_report(tmp_path: Path) -> None:
    """A report of another format version is left to ncu_report (which then says what is
    wrong with it), never half-read."""
    data = bytearray((data_path("ncu/small/lineinfo.ncu-rep")).read_bytes())
    assert data[8:10] == b"\x08\x07"  # file header: field 1 (version) = 7
    data[9] = 8
    other = tmp_path / "v8.ncu-rep"
    other.write_bytes(bytes(data))
    with pytest.raises(Unsupported, match="version 8"):
        ReportFile(other)
    reader = ReportReader(other)
    assert reader._file is None and reader._ctx is not None


@pytest.mark.parametrize("name", ["random.ncu-rep", "empty.ncu-rep"])
def test_damaged_reports_still_say_what_is_wrong(name: str) -> None:
    with pytest.raises(KernelscopeError) as info:
        Profile.open(DATA / "bad" / name, use_cache=False)
    assert "Traceback" not in str(info.value)


def test_a_profile_opened_from_the_decoded_file_has_the_rules_of_each_launch() -> None:
    profile = Profile.open(data_path("ncu/mlp/mlp.ncu-rep"), use_cache=False)
    kinds = {r.kind for x in profile.launches for r in x.rules}
    assert {"OPT", "INF"} <= kinds
    speedups = [k.speedup_pct for k in profile.kernels()]
    assert all(s is None or (math.isfinite(s) and s > 0) for s in speedups)
    assert any(s for s in speedups)


def _flipped(src: Path, dst: Path, at: int) -> Path:
    data = bytearray(src.read_bytes())
    data[at] ^= 0x01
    dst.write_bytes(bytes(data))
    return dst


def test_a_report_is_keyed_by_what_identifies_it(tmp_path: Path) -> None:
    """The cache key of an .ncu-rep reads ~10% of it, yet another profiling run (other
    timestamps), other embedded sources or another size is another key; a copy is the same."""
    from kernelscope.core.ncu.cache import content_key

    src = data_path("ncu/mlp/mlp.ncu-rep")
    root = tmp_path / "cache"
    key = content_key([src], root)
    copy = tmp_path / "copy.ncu-rep"
    copy.write_bytes(src.read_bytes())
    assert content_key([copy], root) == key
    report = ReportFile(src)
    first = report._results[0]
    # the result's start and end timestamps follow its process id (fields 1-4)
    stamp = tmp_path / "rerun.ncu-rep"
    assert content_key([_flipped(src, stamp, first.offset + 8)], root) != key
    data = src.read_bytes()
    text = next(iter(report.modules[0].files.values())).encode()
    at = data.index(text[:200]) + 100
    source = tmp_path / "source.ncu-rep"
    assert content_key([_flipped(src, source, at)], root) != key
    longer = tmp_path / "longer.ncu-rep"
    longer.write_bytes(data + b"\0")
    assert content_key([longer], root) != key


@pytest.mark.parametrize("report", REPORTS[:-1], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_first_look_gives_the_kernel_list_a_full_read_gives(report: Path) -> None:
    """The window's kernel list of an uncached report comes from launch-level values
    (``Profile.open(first_look=True)``: no per-instruction decoding, no ncu_report); its
    totals, top stalls and line columns are those of the full read."""
    from kernelscope.core.view.from_profile import document_from_profile

    full = Profile.open(report, use_cache=False)
    glance = Profile.open(report, first_look=True)
    assert glance._cache is None
    # the totals were decoded with the kernel list, each launch's message read once (a
    # stepped report's step markers are launches too, left out of the list)
    assert len(glance._loader.reader._totals) == len(glance.launches) + len(glance.step_markers)
    first_look, read = document_from_profile(glance).document, document_from_profile(full).document
    assert first_look.summaries == read.summaries
    assert first_look.line_metric_names == read.line_metric_names
    for k in full.kernels():
        assert glance.totals(k.name).stalls() == full.totals(k.name).stalls()
    assert not glance._loader.reader._actions  # NVIDIA's reader was never asked


def test_a_child_reads_the_line_tables_of_many_launches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Many launches at once: their line tables come from NVIDIA's reader in a child (which
    sets up while this process decodes), the tables are those read here, and this process
    never loads the reader."""
    from kernelscope.core.ncu import report

    path = data_path("ncu/mlp/mlp.ncu-rep")
    here = ReportReader(path)
    launches = [(x.id, x.function_start) for x in here.launches()]
    expected = {lid: here.instructions(lid, start) for lid, start in launches}
    monkeypatch.setattr(report, "_LINE_CHILD_FROM", 2)
    reader = ReportReader(path)
    tables = reader.instructions_many(launches)
    assert reader._ctx is None
    for lid, table in tables.items():
        _same_table(table, expected[lid])


@pytest.mark.parametrize(
    ("name", "keep"),
    [
        ("ncu/mlp/mlp.ncu-rep", [1, 3]),
        ("h200/small_cnn_h200.ncu-rep", [0, 2]),
        ("ncu/cnn/cnn.ncu-rep", [3]),
    ],
)
def test_a_copy_with_some_launches_reads_as_they_do(
    tmp_path: Path, name: str, keep: list[int]
) -> None:
    """``ReportFile.write_launches``: NVIDIA's reader reads the copy (what the line child
    loads) with only those launches, each with the original's name, duration and the line
    of every sampled PC; the decoder reads it too."""
    from kernelscope.core.ncu.rep.nvidia import import_ncu_report

    ncu_report = import_ncu_report()
    copy = tmp_path / "some.ncu-rep"
    with ReportFile(data_path(name)) as file:
        assert file.write_launches(copy, keep) == keep
    whole = ncu_report.load_report(str(data_path(name))).range_by_idx(0)
    some = ncu_report.load_report(str(copy)).range_by_idx(0)
    assert some.num_actions() == len(keep)
    with ReportFile(copy) as decoded:
        assert len(decoded) == len(keep)
    for k, i in enumerate(keep):
        a, b = whole.action_by_idx(i), some.action_by_idx(k)
        assert a.name() == b.name()
        duration = "gpu__time_duration.sum"
        assert a.metric_by_name(duration).as_double() == b.metric_by_name(duration).as_double()
        samples = a.metric_by_name("smsp__pcsamp_sample_count")
        ids = samples.correlation_ids()
        pcs = [ids.as_uint64(j) for j in range(samples.num_instances())]
        assert pcs

        def where(action, pc):  # noqa: ANN001, ANN202
            found = action.source_info(pc)
            return None if found is None else (found.file_name(), found.line())

        assert [where(a, pc) for pc in pcs] == [where(b, pc) for pc in pcs]
