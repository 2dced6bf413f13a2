"""What the panes are handed (``kernelscope.core.view``), without Qt: one mean time, one
source lookup, one branch-label parser, one ranking, finished values."""

from __future__ import annotations

import dataclasses
import shutil
import threading
from pathlib import Path

import pytest
from ncu_support import MLP, SMALL, profile_threads
from paths_support import DATA, data_path

from kernelscope.core.kernel_db.summaries import profile_times
from kernelscope.core.ncu import KERNEL_METRICS, Profile
from kernelscope.core.view import (
    SASS_COUNT,
    ProfileSession,
    compare_documents,
    document_from_workspace,
    hot_lines,
    open_document,
    read_details,
    read_roofline,
)
from kernelscope.core.view.from_profile import document_from_profile
from kernelscope.core.view.session import PROFILE_THREAD, on_profile_thread
from kernelscope.core.workspace import Workspace

WS_MLP = DATA / "ws_mlp"


def test_mean_time_is_over_the_measured_launches(tmp_path: Path) -> None:
    """``scale`` ran twice, but only its second launch has a duration: its mean is that one
    launch's time in the kernel list, the DB export and the DB panel's times alike."""
    details = tmp_path / "details.csv"
    lines = (SMALL / "lineinfo_details.csv").read_text(encoding="utf-8").splitlines(True)
    first_duration = next(
        i for i, ln in enumerate(lines) if ln.startswith('"0",') and '"Duration"' in ln
    )
    del lines[first_duration]
    details.write_text("".join(lines), encoding="utf-8")
    profile = Profile.open([details], use_cache=False)
    scale = profile.kernel("scale")
    assert len(scale.launches) == 2 and scale.launches[0].duration_ns is None
    measured = scale.launches[1].duration_ns
    assert measured == pytest.approx(8100.0)
    assert scale.mean_ns == pytest.approx(measured)
    document = document_from_profile(profile).document
    assert document.summary("scale").metrics["Mean (µs)"] == pytest.approx(measured / 1000)
    assert document.kernel_times()["scale"][1] == pytest.approx(measured)
    assert profile_times(profile)[0]["scale"][1] == pytest.approx(measured)
    assert set(document.summary("scale").metrics) <= set(document.kernel_metric_names)
    assert document.kernel_metric_names == KERNEL_METRICS


def test_a_document_hands_out_finished_values() -> None:
    session = open_document(MLP / "mlp.ncu-rep")
    document = session.document
    view = session.kernel("softmax_kernel")
    assert session.kernel("softmax_kernel") is view  # built once, kept
    assert not [k for k, v in vars(document).items() if isinstance(v, ProfileSession | Workspace)]
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.main_file = "elsewhere.cu"
    with pytest.raises(dataclasses.FrozenInstanceError):
        document.summaries[0].name = "renamed"
    assert isinstance(document.summaries, tuple)


def test_the_live_profile_is_read_through_the_documents_session_alone() -> None:
    """The document holds values, never the live profile. A comparison of two documents holds
    values too: a kernel compared already comes at once, while the profile thread is busy; one
    not compared yet is read on that thread, so it waits until the thread is free."""
    base, new = open_document(MLP / "mlp.ncu-rep"), open_document(MLP / "mlp.ncu-rep")
    assert not [k for k, v in vars(base.document).items() if isinstance(v, Profile)]
    comparison = compare_documents(base, new)
    first, second = "softmax_kernel", "fused_matmul_add_relu_kernel"
    known = comparison.kernel(first)
    busy, release = threading.Event(), threading.Event()

    def hold() -> None:
        busy.set()
        release.wait(30)

    holder = threading.Thread(target=lambda: on_profile_thread(hold))
    holder.start()
    assert busy.wait(30)
    assert comparison.kernel(first) is known  # a value: nothing read
    compared: list[object] = []
    reader = threading.Thread(target=lambda: compared.append(comparison.kernel(second)))
    reader.start()
    reader.join(0.5)
    assert not compared, "the comparison read a profile while the profile thread was busy"
    release.set()
    holder.join()
    reader.join(60)
    assert [c.kernel.name for c in compared] == [second]  # type: ignore[attr-defined]


def test_a_live_profile_is_read_on_one_thread_whoever_asks(monkeypatch) -> None:
    """Threads that ask one session at the same time for kernels, Details, the roofline and
    hot lines, and a comparison of two sessions: every read of either profile after they
    were opened runs on the profile thread, none on the asking threads."""
    base, new = open_document(MLP / "mlp.ncu-rep"), open_document(MLP / "mlp.ncu-rep")
    touched = profile_threads(monkeypatch)
    names = [s.name for s in new.document.summaries]
    comparison = compare_documents(base, new)
    asks = [
        *(lambda name=name: new.kernel(name) for name in names),
        *(lambda name=name: read_details(new, name) for name in names),
        lambda: read_roofline(new),
        lambda: hot_lines(new, "smsp__pcsamp_sample_count"),
        lambda: comparison.kernel(names[0]),
        comparison.summary,
    ]
    failed: list[BaseException] = []

    def ask(fn) -> None:
        try:
            fn()
        except BaseException as exc:
            failed.append(exc)

    threads = [threading.Thread(target=ask, args=(fn,)) for fn in asks]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not failed
    assert len(touched) == 2, "both profiles were read"
    assert set().union(*touched.values()) == {PROFILE_THREAD}


def test_workspace_sources_come_from_the_one_lookup(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(WS_MLP, ws)
    # headers recorded where no CUDA is installed (the build machine's paths)
    table = ws / "sass.json"
    text = table.read_text(encoding="utf-8")
    table.write_text(text.replace("/usr/local/cuda/bin/..", "/opt/elsewhere"), encoding="utf-8")
    session = document_from_workspace(Workspace.open(ws))
    view = session.kernel("softmax_kernel")
    own = view.files[view.main_file]
    assert (own.origin, own.status) == ("workspace", "ok")
    assert own.text == (ws / "src" / "kernels" / "softmax_kernel.cu").read_text(encoding="utf-8")
    header = next(f for f in view.files_in_use() if f.endswith("math_functions.hpp"))
    missing = view.files[header]
    assert missing.text is None and missing.status == "missing"
    # no profile here: the note does not talk about one
    assert "recorded on the build machine" in missing.note and "profile" not in missing.note
    # a header the workspace does hold, found by its path's tail under src/
    (ws / "src" / "crt").mkdir()
    (ws / "src" / "crt" / "math_functions.hpp").write_text("// math\n", encoding="utf-8")
    again = document_from_workspace(Workspace.open(ws)).kernel("softmax_kernel")
    assert (again.files[header].origin, again.files[header].text) == ("workspace", "// math\n")


def test_branch_targets_in_workspace_and_report_sass() -> None:
    """Labels (``.L_x_3``) in nvdisasm's SASS, absolute addresses in the report's (``BRA
    0x7f4f577a4e20``, ``BSSY B0, 0x...``): both lead to the same instruction."""
    targets = []
    for session in (
        document_from_workspace(Workspace.open(WS_MLP)),
        open_document(MLP / "mlp.ncu-rep"),
    ):
        view = session.kernel("fused_matmul_add_relu_kernel")
        branches = [i for i, insn in enumerate(view.instructions) if insn.branch_label]
        assert branches, session.document.title
        found = {}
        for i in branches:
            target = view.target_offset(i)
            assert target is not None and target in view.offset_index, view.instructions[i].text
            found[view.instructions[i].offset] = target
        targets.append(found)
    workspace, report = targets
    assert report and all(workspace[o] == t for o, t in report.items())
    cnn = open_document(data_path("ncu/cnn/cnn.ncu-rep"))
    conv = cnn.kernel(cnn.document.summaries[0].name)
    bssy = next(i for i, insn in enumerate(conv.instructions) if insn.opcode == "BSSY")
    assert conv.target_offset(bssy) in conv.offset_index


def test_hot_lines_by_instruction_count_count_each_instruction_once() -> None:
    """Ranking by SASS instructions: every instruction once, at its line in the kernel's own
    file, so the shares add up to 1 although softmax inlines header code."""
    session = document_from_workspace(Workspace.open(WS_MLP))
    view = session.kernel("softmax_kernel")
    rows = hot_lines(session, SASS_COUNT, "softmax_kernel", 10_000)
    assert {h.file for h in rows} == {view.main_file}
    assert sum(h.value for h in rows) == len(view.instructions)
    assert sum(h.share for h in rows) == pytest.approx(1.0)
    top = rows[0]
    assert top.value == len([i for i in view.instructions if i.kernel_line == (top.file, top.line)])
    assert top.source is not None and top.source.strip()
    # a metric the document does not have ranks nothing
    assert hot_lines(session, "# Samples") == []
