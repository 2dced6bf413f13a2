"""A report of an LLM's steps for tests, until one is recorded on a GPU: the launches of the
H200 report of small_cnn with the runner's marker launches put among them, and the runner's
step list beside a copy of the report."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from paths_support import H200_REPORT

from kernelscope.core.ncu import Launch, Profile
from kernelscope.core.ncu.steps import MARKER


def stepped_report(folder: Path, cuts: list[int]) -> Profile:
    """The H200 report's launches, their own IDs kept (so every per-launch read is real),
    with a marker before the launch of each ID in ``cuts``: the steps are the runs of
    launches between them."""
    real = Profile.open(H200_REPORT, use_cache=False)
    launches: list[Launch] = []
    for x in real.launches:
        if x.id in cuts:  # an ID between the launch before and this one
            launches.append(Launch(id=x.id - 0.5, name=MARKER))  # type: ignore[arg-type]
        launches.append(x)
    copy = folder / "llm.ncu-rep"
    shutil.copy(H200_REPORT, copy)
    return Profile(
        [copy],
        launches,
        loader=real._loader,
        cache=None,
        session=real.session,
        warnings=[],
        workspace=None,
        search_paths=[],
    )


def write_step_list(report: Path, profiled: list[bool]) -> None:
    """The runner's list beside ``report``: a prefill of 128 tokens, then decode steps."""
    steps = [{"name": "prefill", "index": 0, "seq_len": 128, "batch": 1, "total_len": 128}]
    steps += [
        {"name": "decode", "index": i, "seq_len": 1, "batch": 1, "total_len": 129 + i}
        for i in range(len(profiled) - 1)
    ]
    for s, p in zip(steps, profiled, strict=True):
        s["profiled"] = p
    text = json.dumps({"mode": "steps", "steps": steps})
    report.with_name(report.name + ".steps.json").write_text(text)
