"""A report of an LLM's steps: launches split into the profiled steps at the runner's marker
kernels, per-step totals, the markers hidden from the kernel list.

Here the launches are those of the H200 report of small_cnn with the runner's marker launches
put among them as ncu numbers them, so that every split case can be made; the reports recorded
with real markers (tests/data/llm: the MLC-style Llama's prefill and decode 0-3) are read by the
step ledger's tests (tests/ncu/test_step_ledger.py).
"""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from cli_support import run_cli
from paths_support import H200_REPORT
from steps_support import profile_of, write_step_list

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.ncu import Launch, Profile, report_steps
from kernelscope.core.ncu.steps import MARKER, assign_steps
from kernelscope.core.profiling.runner.cuda import STEP_MARKER


def test_the_marker_is_the_runners() -> None:
    assert MARKER == STEP_MARKER


def test_launch_names_split_at_the_markers() -> None:
    names = ["embed", MARKER, "take", "attn", "gemv", MARKER, "take", "attn", "gemv", "gemv"]
    assert assign_steps(names) == [None, None, 0, 0, 0, None, 1, 1, 1, 1]
    assert assign_steps(["a", "b"]) == [None, None]  # no marker: no step


def _stepped(tmp_path: Path, steps: int) -> tuple[Profile, list[Launch]]:
    """The H200 report's launches ``steps`` times over, a marker before each pass, as one
    report (a copy beside which the step list goes)."""
    real = Profile.open(H200_REPORT, use_cache=False)
    launches: list[Launch] = []
    for _ in range(steps):
        launches.append(Launch(id=len(launches), name=MARKER))
        for x in real.launches:
            launches.append(replace(x, id=len(launches)))
    copy = tmp_path / "llm.ncu-rep"
    shutil.copy(H200_REPORT, copy)
    return profile_of(copy, launches, real, None), real.launches


def test_each_launch_belongs_to_its_step_and_markers_leave_the_kernel_list(
    tmp_path: Path,
) -> None:
    profile, one_pass = _stepped(tmp_path, 3)
    write_step_list(profile.paths[0], [False, False, True, True, True])  # decode 1-3 profiled
    assert MARKER not in {k.name for k in profile.kernels()}
    assert len(profile.launches) == 3 * len(one_pass) and len(profile.step_markers) == 3
    steps = report_steps(profile)
    assert [s.label for s in steps] == ["decode 1", "decode 2", "decode 3"]
    assert [s.total_len for s in steps] == [130, 131, 132]
    for s in steps:
        assert [x.name for x in s.launches] == [x.name for x in one_pass]
        assert s.duration_ns == pytest.approx(sum(x.duration_ns or 0 for x in one_pass))


def test_a_step_list_of_another_run_is_refused(tmp_path: Path) -> None:
    profile, _ = _stepped(tmp_path, 2)
    write_step_list(profile.paths[0], [True, True, True])
    with pytest.raises(KernelscopeError, match="holds 2 step markers, its step list 3 profiled"):
        report_steps(profile)


def test_cli_prints_per_step_totals_and_one_steps_launches(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    profile, one_pass = _stepped(tmp_path, 2)
    write_step_list(profile.paths[0], [True, False, True])  # prefill and decode 1
    monkeypatch.setattr(Profile, "open", classmethod(lambda cls, *a, **k: profile))
    rc, out, _ = run_cli(["kernels", profile.paths[0], "--steps", "--step", "decode:1"], capsys)
    assert rc == 0
    lines = out.splitlines()
    assert lines[1].split()[:6] == ["prefill", "0", "128", "1", "128", str(len(one_pass))]
    assert lines[2].split()[:6] == ["decode", "1", "1", "1", "130", str(len(one_pass))]
    assert f"2 steps, {2 * len(one_pass)} launches" in out
    assert f"decode 1: {len(one_pass)} launches" in out
    assert out.count(one_pass[0].name) == 1  # the chosen step's launches only
    rc, out, _ = run_cli(["kernels", profile.paths[0], "--step", "prefill", "--json"], capsys)
    data = json.loads(out)
    assert [(s["name"], s["index"], s["launches"]) for s in data["steps"]] == [
        ("prefill", 0, len(one_pass)),
        ("decode", 1, len(one_pass)),
    ]
    assert [x["name"] for x in data["step"]["launches"]] == [x.name for x in one_pass]


def test_a_report_without_steps_says_how_to_profile_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rc, _, err = run_cli(["kernels", H200_REPORT, "--steps", "-w", tmp_path / "ws"], capsys)
    assert rc == 1
    assert "small_cnn_h200.ncu-rep was not profiled step by step" in err
    assert (
        f"kernelscope profile {tmp_path / 'ws'} --steps prefill=128,decode=32 "
        "--profile-steps decode:0-3"
    ) in err


def test_the_view_document_lists_each_steps_kernels_with_their_times(tmp_path: Path) -> None:
    from steps_support import stepped_report, write_step_list

    from kernelscope.core.view.from_profile import document_from_profile

    profile = stepped_report(tmp_path, cuts=[0, 2])
    write_step_list(profile.paths[0], [True, True])  # prefill 0, decode 0
    document = document_from_profile(profile).document
    assert list(document.steps) == ["prefill 0", "decode 0"]
    names = [k.name for k in profile.kernels()]
    assert [k.name for k in document.steps["prefill 0"]] == names[:2]
    assert [k.name for k in document.steps["decode 0"]] == names[2:]
    whole = {s.name: s for s in document.summaries}
    for kernels in document.steps.values():
        for k in kernels:  # the step's own share, the whole list's build facts and stall
            assert k.top_stall == whole[k.name].top_stall
            assert k.duration_ns == whole[k.name].duration_ns
    assert sum(k.share for k in document.steps["decode 0"]) == pytest.approx(1.0)
    assert MARKER not in whole
    # a step list of another run: no steps, and the window is told why
    write_step_list(profile.paths[0], [True, True, True])
    document = document_from_profile(profile).document
    assert document.steps == {}
    assert document.notes[0].startswith("the kernel list cannot show steps: llm.ncu-rep holds 2")
