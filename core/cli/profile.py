"""``kernelscope profile WORKSPACE``, ``kernelscope run MODEL`` (build + profile + hot lines) and
``kernelscope profile-torch MODEL.py`` (torch.compile + profile + hot lines).

``profile-torch`` is a command of its own rather than ``run`` on a PyTorch file: ``run`` builds
with TVM (``--arch``, ``--shape``, a workspace) and already reads a ``.py`` file as a Relax
module, while a PyTorch file is compiled by the PyTorch of the machine that runs it, into a
run folder, with options of its own (``--mode``, ``--python``)."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import KernelscopeError
from .progress import TerminalProgress
from .remote import add_ssh_arguments, host_options

if TYPE_CHECKING:  # the profiling package is imported only when a command needs it
    from ..profiling import NcuOptions, ProfileRequest, StepOptions


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "profile", help="run a workspace's model under Nsight Compute (locally or over SSH)"
    )
    p.add_argument("workspace", type=Path)
    _profile_options(p)
    p.set_defaults(func=_profile)

    r = sub.add_parser("run", help="build a model, profile it and print its hottest lines")
    r.add_argument("model", type=Path, help="an .onnx file or a .py file defining a Relax IRModule")
    r.add_argument("-o", "--output", type=Path, help="workspace folder (default: MODEL.kscope)")
    r.add_argument("--arch", help="CUDA architecture (default: the local GPU's, else sm_90)")
    r.add_argument("--shape", action="append", default=[], metavar="NAME=D0,D1,...")
    r.add_argument(
        "--force",
        action="store_true",
        help="as for build: replace the workspace even when it holds another model's build",
    )
    _profile_options(r)
    r.set_defaults(func=_run)

    t = sub.add_parser(
        "profile-torch",
        help="compile a PyTorch model file with torch.compile and profile it (locally or over SSH)",
        description="Runs MODEL.py's `model` on its `example_inputs` under torch.compile with "
        "the PyTorch of the machine that runs it (kernelscope installs none), profiles the "
        "steady-state calls with Nsight Compute (sources imported) and keeps Inductor's and "
        "Triton's output, the report and the timeline in one run folder.",
    )
    t.add_argument(
        "model",
        type=Path,
        help="a .py file defining `model` (an nn.Module or callable) and `example_inputs` "
        "(a tensor, a tuple of arguments, or a function returning one); with --steps, an "
        "MLC-style LLM's workspace: its decoder's twin in transformers",
    )
    t.add_argument("-o", "--output", type=Path, help="run folder (default: MODEL.torchrun)")
    t.add_argument(
        "--mode",
        default="default",
        choices=("default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs"),
        help="torch.compile's mode (default: default)",
    )
    t.add_argument(
        "--python",
        default="python3",
        help="this machine's Python with PyTorch (default: python3; on a host: --remote-python)",
    )
    g = add_ncu_arguments(t, skip_help="launches of the profiled calls to skip first")
    g.add_argument(
        "--warmup",
        type=int,
        default=3,
        help="calls after the compiling one, before the profiled ones (default 3)",
    )
    g.add_argument("--iterations", type=int, default=1, help="profiled calls (default 1)")
    g.add_argument("--name", help="report and timeline name (default: torch-<date>-<time>)")
    g.add_argument("--top", type=int, default=10, help="hot lines to print afterwards")
    g.add_argument(
        "--timeline",
        action="store_true",
        help="also time every kernel of a few calls (torch.profiler; a second run, no ncu)",
    )
    g.add_argument(
        "--timeline-only", action="store_true", help="only the timeline: no Nsight Compute"
    )
    g.add_argument("--repeat", type=int, default=10, help="timeline calls (default 10)")
    g.add_argument(
        "--steps",
        metavar="prefill=N,decode=M",
        help="MODEL is an LLM workspace: run transformers' LlamaForCausalLM in its "
        "configuration (random weights, float16, static KV cache) step by step, marked as "
        "kernelscope profile --steps marks TVM's; compare: kernelscope diff WS RUN --steps",
    )
    g.add_argument(
        "--profile-steps",
        metavar="S",
        help="with --steps: the steps ncu profiles (decode:0-3, prefill,decode:0-3; default all)",
    )
    h = t.add_argument_group("remote GPU")
    h.add_argument("--host", help="run on this SSH host (user@gpu) with its PyTorch and ncu")
    add_ssh_arguments(t, ncu=True, runtime=False)
    t.set_defaults(func=_profile_torch)


def add_ncu_arguments(
    p: argparse.ArgumentParser, skip_help: str = "kernel launches to skip first"
) -> argparse._ArgumentGroup:
    """The Nsight Compute options of every command that profiles (``ncu_options`` reads
    them back); ``skip_help``: what --launch-skip counts in that command."""
    g = p.add_argument_group("Nsight Compute")
    g.add_argument("--set", default="full", help="ncu section set (default: full; 'none': none)")
    g.add_argument("--section", action="append", default=[], help="ncu section (repeatable)")
    g.add_argument(
        "--metric",
        action="append",
        default=[],
        help="ncu metric (repeatable); --set none --metric gpu__time_duration.sum profiles in "
        "one pass, what a timeline is compared with",
    )
    g.add_argument("--kernel", help="profile only kernels whose name matches this regex")
    g.add_argument("--launch-skip", type=int, default=0, help=skip_help)
    g.add_argument("--launch-count", type=int, help="profile at most this many launches")
    g.add_argument(
        "--clock-control",
        choices=("base", "none"),
        default="base",
        help="lock clocks to base (ncu's default, repeatable numbers) or leave them",
    )
    g.add_argument(
        "--cache-control",
        choices=("all", "none"),
        default="all",
        help="flush the caches before each profiled launch (ncu's default) or leave them",
    )
    return g


def ncu_options(args: argparse.Namespace) -> NcuOptions:
    """The NcuOptions of ``add_ncu_arguments``' flags."""
    from ..profiling import NcuOptions

    return NcuOptions(
        set=None if args.set == "none" else args.set,
        sections=args.section,
        metrics=args.metric,
        kernel_regex=args.kernel,
        launch_skip=args.launch_skip,
        launch_count=args.launch_count,
        clock_control=args.clock_control,
        cache_control=args.cache_control,
    )


def _profile_options(p: argparse.ArgumentParser) -> None:
    g = add_ncu_arguments(p)
    g.add_argument("--iterations", type=int, default=1, help="forward passes profiled (default 1)")
    g.add_argument("--warmup", type=int, default=0, help="forward passes before (default 0)")
    g.add_argument("--inputs", type=Path, help=".npz with the model's inputs by name")
    g.add_argument("--seed", type=int, default=0, help="seed of random inputs")
    g.add_argument("--name", help="report name (default: profile-<date>-<time>)")
    g.add_argument("--top", type=int, default=10, help="hot lines to print afterwards")
    g.add_argument(
        "--expect-kernel",
        metavar="NAME",
        help="keep no report unless every profiled launch is this kernel (one timeline call)",
    )
    add_step_arguments(p, profile_steps=True)
    r = p.add_argument_group("remote GPU")
    r.add_argument("--host", help="profile on this SSH host (user@gpu) with its ncu")
    add_ssh_arguments(p, ncu=True)


def add_step_arguments(p: argparse.ArgumentParser, profile_steps: bool = False) -> None:
    """--steps, --batch and --hook: an LLM run step by step (profile and timeline), and
    with ``profile_steps`` --profile-steps (profile); ``step_options`` reads them back."""
    g = p.add_argument_group("LLM steps")
    g.add_argument(
        "--steps",
        metavar="PLAN",
        help="run an LLM step by step: prefill=N (tokens a sequence),decode=M (steps), through "
        "the model's own KV cache",
    )
    g.add_argument("--batch", type=int, default=1, help="with --steps: sequences (default 1)")
    g.add_argument(
        "--hook",
        type=Path,
        metavar="FILE.py",
        help="instead of --steps: a Python file whose run(session) runs the steps "
        "(docs/user-guide.md, 'LLM steps')",
    )
    if profile_steps:
        g.add_argument(
            "--profile-steps",
            metavar="STEPS",
            help="with --steps/--hook: the steps ncu profiles: all (default), prefill, "
            "decode:16, decode:0-3, or several joined by commas",
        )


def step_options(args: argparse.Namespace) -> StepOptions:
    """The StepOptions of ``add_step_arguments``' flags."""
    from ..profiling import StepOptions

    return StepOptions(
        steps=args.steps,
        profile_steps=getattr(args, "profile_steps", None),
        batch=args.batch,
        hook=args.hook,
    )


def _request(args: argparse.Namespace, workspace: Path) -> ProfileRequest:
    from ..profiling import ProfileRequest

    if args.iterations < 1 or args.warmup < 0:
        raise KernelscopeError("--iterations must be at least 1 and --warmup at least 0")
    return ProfileRequest(
        workspace=workspace,
        ncu=ncu_options(args),
        warmup=args.warmup,
        iterations=args.iterations,
        inputs=args.inputs,
        seed=args.seed,
        name=args.name,
        expect_kernel=args.expect_kernel,
        llm=step_options(args),
        host=host_options(args),
    )


def _profile(args: argparse.Namespace) -> int:
    return _profile_and_report(args, args.workspace)


def _run(args: argparse.Namespace) -> int:
    from ..build import BuildRequest, build_in_child, default_workspace, parse_shapes
    from .build import print_kernel_table

    output = args.output or default_workspace(args.model)
    with TerminalProgress() as progress:
        ws = build_in_child(
            BuildRequest(
                model=args.model,
                output=output,
                arch=args.arch,
                shapes=parse_shapes(args.shape),
                replace_other_model=args.force,
            ),
            progress=progress,
        )
    print_kernel_table(ws)
    print()
    return _profile_and_report(args, ws.path)


def _profile_and_report(args: argparse.Namespace, workspace: Path) -> int:
    from ..profiling import check_steps, profile_workspace, profiling_problem
    from ..workspace import Workspace
    from .ncu import print_hot_lines

    request = _request(args, workspace)
    # what to run comes before where: an LLM without --steps is refused on any machine
    check_steps(request.llm, Workspace.open(workspace))
    if not request.host:
        problem = profiling_problem()
        if problem:
            raise KernelscopeError(
                problem,
                hint="profile on a GPU machine (also: kernelscope profile WS --host user@gpu), "
                "then attach the report: kernelscope import REPORT -w WORKSPACE",
            )
    with TerminalProgress() as progress:
        result = profile_workspace(request, progress=progress)
    print(f"profiled {result.launches} kernel launches in {result.seconds:.1f} s: {result.report}")
    try:
        return print_hot_lines([result.report], workspace=workspace, top=args.top)
    except KernelscopeError as error:
        # the profile is made and kept; a report without per-line metrics (--set none, a
        # timing-only --metric) just has no hot lines to show
        print(f"no hot lines: {error.message}", file=sys.stderr)
        steps = " --steps" if request.llm.stepped else ""
        print(f"  its launches: kernelscope kernels {result.report} -w {workspace}{steps}")
        return 0


def _profile_torch(args: argparse.Namespace) -> int:
    from ..torchrun import TorchRequest, default_run_dir, profile_torch, twin_config
    from .ncu import print_hot_lines

    model, output = args.model, args.output
    if args.model.is_dir():
        if args.steps is None:
            raise KernelscopeError(
                f"{args.model} is a folder, not a PyTorch model file",
                hint="give the .py file; for an LLM workspace, its decoder's twin step by step: "
                f"kernelscope profile-torch {args.model} --steps prefill=512,decode=8",
            )
        output = output or default_run_dir(args.model)
        model = twin_config(args.model, Path(tempfile.mkdtemp(prefix="ks-twin-")))
    elif args.steps is not None:
        raise KernelscopeError(
            "--steps runs the twin of an LLM workspace: give the workspace as MODEL",
            hint="kernelscope profile-torch WS.kscope --steps prefill=512,decode=8",
        )
    request = TorchRequest(
        model=model,
        output=output,
        steps=args.steps,
        profile_steps=args.profile_steps,
        mode=args.mode,
        ncu=ncu_options(args),
        warmup=args.warmup,
        iterations=args.iterations,
        name=args.name,
        profile=not args.timeline_only,
        timeline=args.timeline or args.timeline_only,
        repeat=args.repeat,
        python=args.python,
        host=host_options(args),
    )
    with TerminalProgress() as progress:
        run = profile_torch(request, progress=progress)
    if (compiled := run.compiled()) is not None:
        print(compiled)
    print(f"run folder: {run.run_dir} (open it: kernelscope {run.run_dir})")
    if run.timeline is not None:
        print(f"timeline: {run.timeline}")
    if run.report is None:
        return 0
    print(f"profiled {run.launches} kernel launches in {run.seconds:.1f} s: {run.report}")
    if args.steps is not None:
        print(f"  TVM against it: kernelscope diff {args.model} {run.run_dir} --steps")
        return 0
    try:
        return print_hot_lines([run.report], top=args.top)
    except KernelscopeError as exc:  # the run and its report are there all the same
        print(f"kernelscope: no hot lines: {exc}", file=sys.stderr)
        return 0
