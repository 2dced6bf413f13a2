"""What the commands print for a torch.compile run folder (``kernels RUN``, ``diff WS RUN``);
``hot``, ``ptx``, ``details`` read its workspace (``inductor.open_workspace``) as any other."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..formatting import format_us
from ..inductor import (
    STEPS_HEADER,
    VERSUS_HEADER,
    InductorRun,
    format_steps,
    format_versus,
    open_run,
    open_versus,
    open_versus_steps,
    report_problems,
    run_workspace,
    steps_json,
    steps_notes,
    tie_launches,
)
from ..ncu import Profile
from .table import format_table


def print_run_kernels(path: Path, *, as_json: bool = False) -> int:
    """The run's kernels: with a report, every launch in order with its operator, time and
    configuration; without one, each Triton kernel and the library calls of the wrapper."""
    run = open_run(path)
    for note in run.notes:
        print(f"kernelscope: warning: {note}", file=sys.stderr)
    if run.report is not None:
        return _launch_table(run, as_json)
    rows = []
    for k in run.kernels:
        lines = ",".join(str(x.line) for x in k.launches)
        rows.append([k.name, k.kind, "+".join(k.aten), k.describe_config(), lines])
        for n in k.notes:
            print(f"kernelscope: warning: {k.name}: {n}", file=sys.stderr)
    if as_json:
        print(json.dumps([_kernel_json(run, k.name) for k in run.kernels], indent=1))
        return 0
    print(format_table(["kernel", "kind", "ATen operators", "config", "wrapper lines"], rows))
    externs = run.extern_launches
    if externs:
        print()
        table = [[x.operator, "+".join(x.aten), str(x.line)] for x in externs]
        print(format_table(["library call", "ATen operators", "wrapper line"], table))
    print(f"\n{len(run.kernels)} Triton kernels, {len(externs)} library calls; {_versions(run)}")
    print("no Nsight Compute report in the folder: times come with one (ncu --import-source yes)")
    return 0


def _launch_table(run: InductorRun, as_json: bool) -> int:
    assert run.report is not None
    profile = Profile.open(run.report, workspace=run_workspace(run))
    for problem in report_problems(run, profile):
        print(f"kernelscope: warning: {problem}", file=sys.stderr)
    tied = tie_launches(run, profile)
    total = sum(t.duration_ns or 0.0 for t in tied)
    known = {k.name: k for k in run.kernels}
    if as_json:
        print(
            json.dumps(
                [
                    {
                        "id": t.launch_id,
                        "kernel": t.name,
                        "triton": t.triton,
                        "operator": t.operator,
                        "aten": list(t.aten),
                        "duration_ns": t.duration_ns,
                        "wrapper_line": t.call.line if t.call else None,
                        "config": known[t.name].config if t.name in known else None,
                    }
                    for t in tied
                ],
                indent=1,
            )
        )
        return 0
    rows = []
    for t in tied:
        k = known.get(t.name)
        rows.append(
            [
                str(t.launch_id),
                t.name if len(t.name) <= 60 else t.name[:57] + "...",
                "Triton" if t.triton else "library",
                t.operator if not t.triton else "+".join(a.removeprefix("aten.") for a in t.aten),
                k.describe_config() if k else "",
                format_us(t.duration_ns),
                str(t.call.line) if t.call else "-",
            ]
        )
    header = ["ID", "kernel", "", "operators", "config", "time us", "wrapper line"]
    print(format_table(header, rows, right={0, 5, 6}))
    triton = sum(1 for t in tied if t.triton)
    print(
        f"\n{len(tied)} launches ({triton} Triton, {len(tied) - triton} library), "
        f"{format_us(total)} us in all; {_versions(run)}; {run.report.name}"
    )
    return 0


def _kernel_json(run: InductorRun, name: str) -> dict[str, object]:
    k = run.kernel(name)
    return {
        "kernel": k.name,
        "kind": k.kind,
        "aten": list(k.aten),
        "source_nodes": list(k.source_nodes),
        "config": k.config,
        "config_origin": k.config_origin,
        "file": str(k.source) if k.source else None,
        "cubin": str(k.cubin) if k.cubin else None,
        "wrapper_lines": [x.line for x in k.launches],
        "notes": k.notes,
    }


def _versions(run: InductorRun) -> str:
    return ", ".join(f"{k} {v}" for k, v in run.versions.items()) or "versions not recorded"


def print_versus(first: Path, second: Path, *, as_json: bool = False) -> int:
    """``diff WS RUN``: TVM against Inductor per operator group."""
    v = open_versus(first, second)
    if as_json:
        rows = [
            {
                "group": r.group,
                "tvm_ns": r.tvm.time_ns,
                "tvm_kernels": r.tvm.kernels,
                "inductor_ns": r.inductor.time_ns,
                "inductor_kernels": r.inductor.kernels,
                "winner": r.winner,
            }
            for r in v.rows
        ]
        print(json.dumps({"groups": rows, "notes": v.notes}, indent=1))
        return 0
    print(f"TVM {v.tvm_workspace.path.name} ({v.tvm_report}) against Inductor "
          f"{v.run.path.name} ({v.inductor_report}), kernel time per forward pass")  # fmt: skip
    print(format_table(list(VERSUS_HEADER), format_versus(v), right={1, 2, 3, 4}))
    for r in v.rows:
        a, b = r.tvm.slowest(), r.inductor.slowest()
        if a and b:
            print(f"  {r.group}: TVM's {a} against Inductor's {b}")
    for note in v.notes:
        print(f"note: {note}")
    return 0


def print_versus_steps(
    tvm: Path, run: Path, workspace: Path | None = None, *, as_json: bool = False
) -> int:
    """``diff WS RUN --steps``: TVM against torch.compile per step and operator group."""
    v = open_versus_steps(tvm, run, workspace)
    if as_json:
        print(json.dumps(steps_json(v), indent=1))
        return 0
    devices = " / ".join(dict.fromkeys(d for d in v.devices if d)) or "GPU not recorded"
    print(
        f"TVM {v.workspace.path.name} ({', '.join(p.name for p in v.tvm_reports)}) against "
        "torch.compile "
        f"{v.run.path.name} ({v.torch_report.name}), kernel time per step ({devices})"
    )
    print(format_table(list(STEPS_HEADER), format_steps(v), right={2, 3, 4, 5}))
    for note in steps_notes(v):
        print(f"note: {note}")
    return 0
