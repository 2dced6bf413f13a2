"""What the Details, roofline and headroom panes ask the document for, without Qt: the same
numbers as the core functions on the profile, clear errors without a profile, kernels the model
never launches listed last, and where the SASS pane scrolls for a chosen line."""

from __future__ import annotations

from pathlib import Path

import pytest
from details_support import MATMUL, REPORT, RESHAPE, WS_MLP, unlaunched_workspace

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.ncu import SAMPLES, Profile, first_and_hottest, kernel_details, label_of
from kernelscope.core.roofline import headroom, roofline
from kernelscope.core.view import (
    Selection,
    hot_lines,
    open_document,
    read_details,
    read_headroom,
    read_roofline,
)


def test_details_roofline_and_headroom_are_the_profiles() -> None:
    document = open_document(REPORT)
    profile = Profile.open(REPORT)
    mine, truth = read_details(document, MATMUL), kernel_details(profile, MATMUL)
    assert mine.to_json() == truth.to_json()
    assert {n: m.description for n, m in mine.metrics.items()} == {
        n: m.description for n, m in truth.metrics.items()
    }
    assert read_details(document, MATMUL, launch=truth.launch_ids[0]).launch_ids == truth.launch_ids
    assert read_roofline(document).to_json() == roofline(profile).to_json()
    assert read_roofline(document, MATMUL).to_json() == roofline(profile, MATMUL).to_json()
    assert read_headroom(document).to_json() == headroom(profile).to_json()


def test_without_a_profile_each_view_says_where_its_numbers_come_from() -> None:
    document = open_document(WS_MLP)
    assert not document.document.has_profile
    asks = (
        lambda: read_details(document, MATMUL),
        lambda: read_roofline(document),
        lambda: read_headroom(document),
    )
    for ask in asks:
        with pytest.raises(KernelscopeError, match="no Nsight Compute profile") as caught:
            ask()
        assert "profile the workspace" in caught.value.hint


def test_never_launched_kernels_are_listed_before_and_after_profiling(tmp_path: Path) -> None:
    static = open_document(unlaunched_workspace(tmp_path / "a", profiled=False)).document
    assert static.never_launched == {RESHAPE}
    assert not static.launched(RESHAPE) and static.launched(MATMUL)
    profiled = open_document(unlaunched_workspace(tmp_path / "b", profiled=True))
    assert profiled.document.has_profile
    names = [s.name for s in profiled.document.summaries]
    assert RESHAPE in names, "a kernel the profile cannot have is still one of the build's"
    assert profiled.document.never_launched == {RESHAPE}
    view = profiled.kernel(RESHAPE)  # from the workspace: its source and SASS
    assert view.instructions and not any(view.instruction_metrics)
    assert hot_lines(profiled, "smsp__pcsamp_sample_count", RESHAPE) == []
    assert hot_lines(profiled, "smsp__pcsamp_sample_count", MATMUL)
    with pytest.raises(KernelscopeError, match="never launches it"):
        read_details(profiled, RESHAPE)
    rows = read_headroom(profiled).rows
    assert rows[-1].kernel == RESHAPE and not rows[-1].launched
    assert rows[0].operator_ns is not None, "the workspace gives the operator column"


def test_a_chosen_line_focuses_its_hottest_instruction() -> None:
    session = open_document(REPORT)
    selection = Selection()
    selection.kernel_requested.connect(
        lambda doc, name: selection.kernel_loaded(doc, session.kernel(name))
    )
    selection.set_document(session.document, session)
    selection.show(MATMUL)
    kernel = selection.kernel
    counts = kernel.file_metrics(kernel.main_file)
    line = max(counts, key=lambda n: counts[n].get(label_of(SAMPLES), 0.0))
    selection.select_line(line)
    indices = kernel.instructions_at(kernel.main_file, line)
    _, hottest = first_and_hottest(indices, [kernel.instruction_metrics[i] for i in indices])
    assert selection.picked == "line" and selection.instruction == min(indices)
    assert selection.focus_instruction() == hottest != min(indices)
    selection.select_instruction(min(indices))
    assert selection.picked == "instruction" and selection.focus_instruction() == min(indices)
