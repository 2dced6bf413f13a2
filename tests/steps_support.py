"""A report of an LLM's steps for tests, until one is recorded on a GPU: the launches of the
H200 report of small_cnn with the runner's marker launches put among them, and the runner's
step list beside a copy of the report."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

from paths_support import H200_REPORT

from kernelscope.core.ncu import Launch, Profile
from kernelscope.core.ncu.steps import MARKER
from kernelscope.core.workspace import Workspace


def stepped_report(folder: Path, cuts: list[int], workspace: Workspace | None = None) -> Profile:
    """The H200 report's launches, their own IDs kept (so every per-launch read is real),
    with a marker before the launch of each ID in ``cuts``: the steps are the runs of
    launches between them; opened with ``workspace`` (the small_cnn build it profiled)."""
    real = Profile.open(H200_REPORT, use_cache=False)
    launches: list[Launch] = []
    for x in real.launches:
        if x.id in cuts:  # an ID between the launch before and this one
            launches.append(Launch(id=x.id - 0.5, name=MARKER))  # type: ignore[arg-type]
        launches.append(x)
    copy = folder / "llm.ncu-rep"
    shutil.copy(H200_REPORT, copy)
    return profile_of(copy, launches, real, workspace)


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


def llm_stepped_report(
    folder: Path, workspace: Workspace, prefill: int, decode: int, grids: dict | None = None
) -> Profile:
    """A report of ``prefill`` tokens then ``decode`` steps of the MLC-style Llama built into
    ``workspace`` (one sequence), laid out as the runner's steps launch them: a marker, then
    each kernel the step's function launches (``call_tir``, then the KV cache's for the
    step's shape), with the grid its launch has at the step's size. Each launch's numbers
    are a real launch of the H200 report (its duration, registers...), renamed; ``grids``
    overrides the grid of a kernel by name (a launch that disagrees with its bindings)."""
    real = Profile.open(H200_REPORT, use_cache=False)
    kv_roles = {"prefill": ("rope", "attention_prefill_ragged", "attention_prefill",
                            "attention_merge", "append"),
                "decode": ("rope", "append", "attention_decode")}  # fmt: skip
    launches: list[Launch] = []
    steps = [("prefill", prefill)] + [("decode", 1)] * decode
    for name, tokens in steps:
        launches.append(Launch(id=len(launches), name=MARKER))
        values = {"seq_len": tokens, "batch_size": 1}
        direct = [
            k for k in workspace.manifest.kernels
            if any(s.function == name and s.via == "call_tir" for s in k.launched_by)
        ]  # fmt: skip
        by_role = {
            s.role: k for k in workspace.manifest.kernels for s in k.launched_by
            if s.function == name and s.role
        }  # fmt: skip
        for role in kv_roles[name]:
            direct.append(by_role[role])
        for k in direct:
            if k.name in (grids or {}):
                grid = grids[k.name]
            elif k.grid_expr and any(s.role for s in k.launched_by):
                count = 1 if "decode" in k.name else tokens  # B: sequences; else tokens
                grid = tuple(eval(e, {}, dict.fromkeys(_names(e), count)) for e in k.grid_expr)
            elif k.grid_expr:
                grid = tuple(eval(e, {}, values) for e in k.grid_expr)
            else:
                grid = tuple(k.grid)
            source = real.launches[len(launches) % len(real.launches)]
            launches.append(replace(source, id=len(launches), name=k.name, grid=grid))
    copy = folder / "llm.ncu-rep"
    shutil.copy(H200_REPORT, copy)
    records = [{"name": "prefill", "index": 0, "seq_len": prefill, "batch": 1,
                "tokens": prefill, "total_len": prefill, "profiled": True}]  # fmt: skip
    records += [
        {"name": "decode", "index": i, "seq_len": 1, "batch": 1, "tokens": 1,
         "total_len": prefill + 1 + i, "profiled": True}
        for i in range(decode)
    ]  # fmt: skip
    text = json.dumps({"mode": "steps", "steps": records})
    copy.with_name(copy.name + ".steps.json").write_text(text)
    return profile_of(copy, launches, real, workspace)


def _names(expression: str) -> list[str]:
    import re

    return re.findall(r"[A-Za-z_]\w*", expression)


def profile_of(
    copy: Path, launches: list[Launch], real: Profile, workspace: Workspace | None
) -> Profile:
    """``copy`` read as a report of ``launches``, through ``real``'s reader."""
    return Profile(
        [copy],
        launches,
        loader=real._loader,
        cache=None,
        session=real.session,
        warnings=[],
        workspace=workspace,
        search_paths=[],
    )
