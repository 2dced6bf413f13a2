"""TVM against torch.compile per step and operator group, as Markdown, for the figures in
benchmarks/results/llm_h100/torch_versus.md.

    python benchmarks/llm/torch_versus.py WS RUN                    # WS's stepped reports
    python benchmarks/llm/torch_versus.py WS RUN --tvm-json K.json  # TVM's step from
        `kernelscope kernels REPORT -w WS --steps --step decode:0 --json` (a report not kept)

RUN is a torch.compile run folder of the twin (torch_steps_on_gpu.sh); the comparison is
kernelscope's own (``core.inductor.step_versus``)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from kernelscope.core.inductor import open_run, open_versus_steps
from kernelscope.core.inductor.step_versus import compare_step, stepped_run_report
from kernelscope.core.ncu import Profile, StepLaunches, report_steps
from kernelscope.core.ncu.records import Launch
from kernelscope.core.workspace import Workspace


def _json_step(path: Path) -> StepLaunches:
    raw = json.loads(path.read_text())
    step = raw["step"]
    facts = next(
        s for s in raw["steps"] if (s["name"], s["index"]) == (step["name"], step["index"])
    )
    launches = [Launch(x["id"], x["name"], duration_ns=x["duration_ns"]) for x in step["launches"]]
    return StepLaunches(
        step["name"], step["index"], facts.get("seq_len"), facts.get("batch"),
        facts.get("seq_len"), facts.get("total_len"), None, launches,
    )  # fmt: skip


def _table(steps: list) -> list[str]:
    lines = ["| step | group | TVM launches | TVM µs | torch launches | torch µs | winner |",
             "| --- | --- | ---: | ---: | ---: | ---: | --- |"]  # fmt: skip
    for s in steps:
        for r in [*s.rows, s.total]:
            win = {"Inductor": "torch.compile"}.get(r.winner, r.winner)
            if r.ratio and win not in ("-", "tie"):
                win += f" {r.ratio:.2f}x"
            lines.append(
                f"| {s.label if r.group == 'total' else ''} | {r.group} | {len(r.tvm.launches)} "
                f"| {r.tvm.time_ns / 1000:.1f} | {len(r.inductor.launches)} "
                f"| {r.inductor.time_ns / 1000:.1f} | {win} |"
            )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("workspace", type=Path)
    parser.add_argument("run", type=Path)
    parser.add_argument("--tvm-json", type=Path, action="append", default=[])
    args = parser.parse_args()
    if not args.tvm_json:
        v = open_versus_steps(args.workspace, args.run)
        print("\n".join(_table(v.steps)))
        for note in v.notes:
            print(f"\n- {note}")
        return
    ws, run = Workspace.open(args.workspace), open_run(args.run)
    theirs = {(s.name, s.index): s for s in report_steps(Profile.open(stepped_run_report(run)))}
    listed = json.loads((args.run / "run.json").read_text())["steps"]
    events = {(s["name"], s["index"]): s.get("gpu_ms") for s in listed}
    steps = []
    for path in args.tvm_json:
        mine = _json_step(path)
        key = (mine.name, mine.index)
        steps.append(compare_step(ws, run, mine, theirs[key], events.get(key)))
    print("\n".join(_table(steps)))
    for s in steps:
        print(
            f"\n- {s.label}: torch.compile's step timed whole (CUDA events, unprofiled): "
            f"{s.torch_event_ms:.2f} ms; launches tied to no wrapper call: {s.untied}"
        )


if __name__ == "__main__":
    main()
