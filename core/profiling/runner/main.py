"""The runner's command line (see the package's docstring)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .host import check, probe_kernel
from .model import run
from .protocol import EXIT_OLD_PYTHON, MESSAGE_TAG, MIN_PYTHON, RESULT_TAG, RunnerError
from .step_run import StepRunOptions, run_steps
from .timeline import steps_timeline, timeline
from .torch_llm import run_torch_llama
from .torch_model import MODES, run_torch, torch_timeline
from .tvm_runtime import select_runtime, use_runtime

DESCRIPTION = (
    "Runs a workspace's built model on the GPU: the program kernelscope profiles under ncu."
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=DESCRIPTION)
    parser.add_argument("workspace", type=Path, nargs="?")
    parser.add_argument("--inputs", type=Path, help=".npz with input (and weight) arrays by name")
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeline", action="store_true", help="time every kernel call")
    parser.add_argument("--repeat", type=int, default=10, help="timed passes (--timeline)")
    parser.add_argument("--check", action="store_true", help="report what this machine has")
    parser.add_argument("--probe-kernel", action="store_true", help="launch one tiny kernel")
    parser.add_argument("--runtime", help="folder with a runtime-only tvm/ (and tvm_ffi/)")
    parser.add_argument("--runtime-root", help="where kernelscope remote-install puts runtimes")
    parser.add_argument("--tvm-version", help="with --check: the TVM version to look for")
    parser.add_argument("--torch", type=Path, help="a PyTorch model file, run under torch.compile")
    parser.add_argument(
        "--torch-llama", type=Path, help="a decoder config: its transformers twin, step by step"
    )
    parser.add_argument("--run-dir", type=Path, help="with --torch: where Inductor's output goes")
    parser.add_argument("--mode", choices=MODES, default="default", help="torch.compile's mode")
    parser.add_argument("--steps", help="an LLM's steps: prefill=N,decode=M (see runner.steps)")
    parser.add_argument("--hook", type=Path, help="a Python file whose run(session) runs steps")
    parser.add_argument("--batch", type=int, default=1, help="with --steps: sequences")
    parser.add_argument("--profile-steps", help="steps the profiler sees: all, decode:0-3...")
    parser.add_argument(
        "--timed-only",
        action="store_true",
        help="with --torch-llama: only time each step (a run without ncu)",
    )
    args = parser.parse_args(argv)
    try:
        if args.torch_llama is not None:
            result = run_torch_llama(
                args.torch_llama,
                (args.run_dir or Path("llama.torchrun")).absolute(),
                args.mode,
                args.steps or "prefill=128,decode=8",
                args.profile_steps,
                args.warmup,
                args.repeat,
                args.seed,
                args.timed_only,
            )
        elif args.torch is not None:
            run_dir = args.run_dir or Path(f"{args.torch.stem}.torchrun")
            if args.timeline:
                result = torch_timeline(
                    args.torch, run_dir.absolute(), args.mode, args.warmup, args.repeat
                )
            else:
                result = run_torch(
                    args.torch, run_dir.absolute(), args.mode, args.warmup, args.iterations
                )
        elif tuple(sys.version_info[:2]) < MIN_PYTHON and not args.check:
            raise RunnerError(
                f"Python {sys.version_info[0]}.{sys.version_info[1]} is too old: TVM's "
                f"runtime needs {MIN_PYTHON[0]}.{MIN_PYTHON[1]} or newer "
                "(pass another interpreter: --remote-python)",
                EXIT_OLD_PYTHON,
            )
        elif args.probe_kernel:
            result = probe_kernel()
        elif args.check:
            runtime = select_runtime(args.runtime, args.runtime_root, args.tvm_version)
            use_runtime(runtime)
            result = check(runtime)
        else:
            if args.workspace is None:
                parser.error("give a workspace (or --check / --probe-kernel)")
            manifest = json.loads((args.workspace / "manifest.json").read_text(encoding="utf-8"))
            tvm_version = manifest.get("versions", {}).get("tvm")
            use_runtime(select_runtime(args.runtime, args.runtime_root, tvm_version))
            if args.steps is not None or args.hook is not None:
                options = StepRunOptions(
                    args.steps, args.hook, args.batch, args.profile_steps, args.warmup, args.seed
                )
                if args.timeline:
                    result = steps_timeline(args.workspace, options, args.repeat)
                else:
                    result = run_steps(args.workspace, options)
            elif args.profile_steps is not None:
                parser.error("--profile-steps chooses among --steps (or a --hook's steps)")
            elif args.timeline:
                result = timeline(args.workspace, args.inputs, args.warmup, args.repeat, args.seed)
            else:
                result = run(args.workspace, args.inputs, args.warmup, args.iterations, args.seed)
    except RunnerError as exc:
        print(f"{MESSAGE_TAG} {exc}", file=sys.stderr, flush=True)
        return exc.code
    print(RESULT_TAG + json.dumps(result), flush=True)
    return 0
