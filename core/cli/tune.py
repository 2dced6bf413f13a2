"""``kernelscope tune WS``: tune the kernels of a workspace's model with MetaSchedule,
candidates built here and measured on this machine, on a GPU host over SSH, or through
TVM's RPC tracker; ``build --tuning-db`` builds from the records."""

from __future__ import annotations

import argparse
import contextlib
import json
from collections.abc import Iterator
from dataclasses import asdict, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import KernelscopeError
from ..workspace import TUNED_TIMES_NOTE, Workspace
from .build import add_force_argument
from .profile import _profile_options as profile_options
from .profile import _request as profile_request
from .progress import TerminalProgress
from .remote import add_ssh_arguments, target_from
from .table import format_table

if TYPE_CHECKING:
    from ..profiling import ProfileRequest
    from ..tuning import TunedGain


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "tune",
        help="tune a workspace's kernels with TVM's MetaSchedule (records for build --tuning-db)",
    )
    p.add_argument("workspace", type=Path)
    which = p.add_mutually_exclusive_group()
    which.add_argument("--kernel", metavar="RE", help="tune the kernels whose name matches")
    which.add_argument(
        "--top",
        type=int,
        metavar="N",
        help="tune the N kernels with the most microseconds to save (the Headroom list of the "
        "newest attached profile; without one, the N with the longest operator-bound time, "
        "estimated at the datasheet peaks of the target's reference GPU; the choice is printed)",
    )
    p.add_argument("--trials", type=int, default=64, help="candidates per kernel (default 64)")
    p.add_argument(
        "--round", type=int, default=16, dest="per_round", help="candidates per round (default 16)"
    )
    p.add_argument("--db", type=Path, metavar="DIR", help="database folder (default WS/tuning)")
    p.add_argument("--model", type=Path, help="the model file (default: the one WS was built from)")
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--host", help="measure on this SSH host's GPU through TVM's RPC server (user@gpu)"
    )
    where.add_argument("--tracker", metavar="HOST:PORT", help="measure through TVM's RPC tracker")
    p.add_argument("--key", help="the tracker's key of the GPU type to measure on")
    p.add_argument(
        "--busy-ok",
        action="store_true",
        help="with --host: measure even when other processes compute on its GPU or it is in use "
        "(refused otherwise); the database's notes say the timings were taken on a busy GPU",
    )
    p.add_argument(
        "--target",
        choices=("cuda", "cpu"),
        default="cuda",
        help="cpu: tune for this machine's CPU instead (LLVM; to try the path without a GPU)",
    )
    p.add_argument("--timeout", type=int, default=30, help="seconds per measurement (default 30)")
    batch = p.add_mutually_exclusive_group()
    batch.add_argument(
        "--export-batch",
        type=Path,
        metavar="DIR",
        help="batch mode: write one round of built candidates into DIR for measure-batch",
    )
    batch.add_argument(
        "--import-batch",
        type=Path,
        metavar="DIR",
        help="batch mode: commit DIR's measured round and write the next one into it",
    )
    p.add_argument(
        "--then-gain",
        action="store_true",
        help="afterwards, build with the records beside WS (WS-tuned), profile it as WS's newest "
        "report was made and print each kernel's gain (kernelscope tune-gain)",
    )
    add_ssh_arguments(p)
    p.set_defaults(func=_tune)
    m = sub.add_parser(
        "measure-batch",
        help="measure a round of tuning candidates on this machine's GPU (tune --export-batch)",
    )
    m.add_argument("folder", type=Path, help="the round's folder")
    m.add_argument(
        "--busy-ok",
        action="store_true",
        help="measure even when other processes compute on the GPU or it is in use (refused "
        "otherwise); the results and the import say the timings were taken on a busy GPU",
    )
    m.set_defaults(func=_measure_batch)
    g = sub.add_parser(
        "tune-gain",
        help="build a workspace's model with its tuning records beside it (WS-tuned), profile "
        "it as WS was profiled and print each kernel's gain",
        description="Build the model of WS again with the tuning records (--db, default "
        "WS/tuning) into WS-tuned (or -o), profile it with the settings WS's newest report was "
        "made with (any profiling option given here replaces that one), and compare the two "
        "profiles kernel by kernel. Exits 1 when the tuned build cannot be profiled (it stays; "
        "the command to profile it is printed).",
    )
    g.add_argument("workspace", type=Path, help="the untuned workspace, profiled")
    g.add_argument("--db", type=Path, metavar="DIR", help="the tuning records (default WS/tuning)")
    g.add_argument("-o", "--output", type=Path, help="the tuned workspace (default: WS-tuned)")
    add_force_argument(g)
    g.add_argument("--json", action="store_true", help="print the result as JSON")
    profile_options(g)
    g.set_defaults(func=_tune_gain)
    mg = sub.add_parser(
        "tune-merge",
        help="merge tuning databases into one (through TVM's API; OUT may exist: it is added to)",
        description="Merge the records of each DB into OUT through TVM's database API (a "
        "record points at its workload by line number: never concatenate the files), with "
        "kernelscope's notes beside them. OUT may be a new folder or a tuning database, which "
        "is continued; a record already there is not added again. Refused, with nothing "
        "written, where the databases were tuned with another TVM version than this one, for "
        "different targets, or measured on different GPU models.",
    )
    mg.add_argument("output", type=Path, metavar="OUT", help="the merged database's folder")
    mg.add_argument("databases", type=Path, nargs="+", metavar="DB", help="databases to add")
    mg.set_defaults(func=_tune_merge)


def _measure_batch(args: argparse.Namespace) -> int:
    from ..tuning import measure_batch

    with TerminalProgress() as progress:
        result = measure_batch(args.folder, progress, busy_ok=args.busy_ok)
    print(
        f"round {result['round']}: {len(result['times'])} candidates measured, "
        f"{len(result['errors'])} failed" + (f", on {result['gpu']}" if result["gpu"] else "")
    )
    if result.get("busy"):
        print(f"warning: measured on a busy GPU ({result['busy']})")
    print(f"next: kernelscope tune WS --import-batch {args.folder}")
    return 0


def _tune_merge(args: argparse.Namespace) -> int:
    from ..tuning import merge_in_child

    with TerminalProgress() as progress:
        result = merge_in_child(args.output, args.databases, progress)
    print(
        f"records added: {result['records']} ({result['duplicates']} already there); "
        f"{result['total']} records of {result['workloads']} tasks in {result['database']}"
    )
    print(f"build from them: kernelscope build MODEL --tuning-db {result['database']}")
    return 0


def _tune(args: argparse.Namespace) -> int:
    from ..tuning import Measure, plan_tuning, tune_in_child

    if args.key and not args.tracker:
        raise KernelscopeError("--key goes with --tracker HOST:PORT")
    if args.busy_ok and not args.host:
        raise KernelscopeError(
            "--busy-ok goes with --host (measure-batch has its own; a tracker's hosts are not "
            "asked)"
        )
    if args.then_gain and (args.target == "cpu" or args.export_batch or args.import_batch):
        raise KernelscopeError(
            "--then-gain builds for the GPU from records measured on it: not with --target cpu "
            "or a batch round",
            hint="after the last round: kernelscope tune-gain WS",
        )
    kind = "tracker" if args.tracker else "host" if args.host else "local"
    measure = Measure(
        kind=kind, address=args.tracker or "", key=args.key or "", timeout_s=args.timeout
    )
    plan = plan_tuning(
        args.workspace,
        model=args.model,
        kernel=args.kernel,
        top=args.top,
        trials=args.trials,
        per_round=args.per_round,
        database=args.db,
        measure=measure,
        target_kind="llvm" if args.target == "cpu" else "cuda",
        batch="export" if args.export_batch else "import" if args.import_batch else "",
        batch_dir=args.export_batch or args.import_batch,
    )
    if plan.ranking:
        print(f"tuning {', '.join(plan.tasks)}: the top {args.top}, {plan.ranking}")
    with _server(args) as (address, busy), TerminalProgress() as progress:
        if address:
            plan = replace(plan, measure=replace(plan.measure, address=address, busy=busy))
        result = tune_in_child(plan, progress=progress)
    if result.cancelled:
        print(
            f"cancelled: the {result.records} records measured so far are kept in {plan.database}"
        )
        return 130
    for note in result.notes:
        print(f"warning: {note}")
    if result.round:
        folder = result.round["folder"]
        print(
            f"round {result.round['round']}: {result.round['candidates']} candidates in {folder}\n"
            f"measure them on the GPU: kernelscope measure-batch {folder} (or python "
            "batch_measure.py DIR with TVM's runtime), then: kernelscope tune ... --import-batch "
            f"{folder}"
        )
        if not result.tasks:
            return 0
    rows = [
        [
            t["name"],
            str(t["trials"]),
            str(t["trials_total"]),
            _us(t["default_us"]),
            _us(t["best_us"]),
            speedup_text(t),
        ]
        for t in result.tasks
    ]
    header = ["task", "trials", "in DB", "default µs", "best µs", "speedup"]
    print(format_table(header, rows, {1, 2, 3, 4, 5}))
    print(f"\n{result.records} records in {plan.database}")
    if not args.then_gain:
        print(f"build from them: kernelscope build MODEL --tuning-db {plan.database}")
        return 0
    print()
    return _show_gain(Workspace.open(args.workspace), plan.database, None, None, False, False)


def speedup_text(task: dict[str, Any]) -> str:
    """A tuned task's speedup column: "default kept" where no candidate beat the default
    schedule (a build keeps it), else the default's time over the best candidate's."""
    if task.get("default_kept"):
        return "default kept"
    if task["best_us"] and task["default_us"]:
        return f"{task['default_us'] / task['best_us']:.2f}x"
    return "-"


def _us(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


@contextlib.contextmanager
def _server(args: argparse.Namespace) -> Iterator[tuple[str, str]]:
    """The address of the RPC server --host names (forwarded over SSH), or "", and why its
    GPU is busy (--busy-ok), or ""."""
    if not args.host:
        yield "", ""
        return
    from ..tuning import ForwardedServer

    with ForwardedServer(target_from(args, args.host), busy_ok=args.busy_ok) as server:
        yield server.address, server.busy


def _tune_gain(args: argparse.Namespace) -> int:
    from ..tuning import default_database
    from ..workspace import Workspace

    ws = Workspace.open(args.workspace)
    database = args.db or default_database(ws)
    profile = _given_profile(args, ws)
    return _show_gain(ws, database, args.output, profile, args.force, args.json)


def _show_gain(
    ws: Workspace,
    database: Path,
    output: Path | None,
    profile: ProfileRequest | None,
    force: bool,
    as_json: bool,
) -> int:
    """Build, profile and compare (``see_gain``), print the table; raise when not profiled."""
    from ..tuning import see_gain

    with TerminalProgress() as progress:
        gain = see_gain(
            ws.path, database, output=output, profile=profile, force=force, progress=progress
        )
    print(json.dumps(_gain_json(gain), indent=1) if as_json else format_gain(gain))
    if gain.profile_problem:
        raise KernelscopeError(
            f"the tuned build {gain.tuned} was not profiled: {gain.profile_problem}",
            hint=gain.how_to_finish(),
        )
    return 0


def _given_profile(args: argparse.Namespace, ws: Workspace) -> ProfileRequest | None:
    """The profiling options given on the command line over those WS's newest report was
    made with (None: none given, take those as they are)."""
    from ..profiling import request_from_settings, request_settings
    from ..tuning import profile_request_for

    defaults = argparse.Namespace(**{**vars(args), **_profile_defaults(args)})
    given, default = _settings(args, ws.path), _settings(defaults, ws.path)
    changed = {name for name, value in given.items() if value != default[name]}
    if not changed:
        return None
    base = request_settings(profile_request_for(ws, None))
    return request_from_settings(base | {name: given[name] for name in changed}, ws.path)


def _settings(args: argparse.Namespace, workspace: Path) -> dict[str, Any]:
    """The flags as ``request_settings``' options, one by one: SSH options given without
    --host are among them (they reach the host the report was made on)."""
    from ..profiling import request_settings

    host = target_from(args, args.host or "")
    return request_settings(replace(profile_request(args, workspace), host=host))


def _profile_defaults(args: argparse.Namespace) -> dict[str, object]:
    parser = argparse.ArgumentParser()
    profile_options(parser)
    return {k: v for k, v in vars(parser.parse_args([])).items() if k in vars(args)}


def format_gain(gain: TunedGain) -> str:
    """The per-kernel table: schedule, the tuning's default and record times, the profiled
    untuned and tuned times, the speedup and the Headroom list's savings before and after."""
    rows = [
        [
            k.kernel,
            f"record, {k.trials} trials" if k.trials is not None else "default",
            _us(k.default_us),
            _us(k.record_us),
            _us(k.base_us),
            _us(k.tuned_us),
            f"{k.speedup:.2f}x" if k.speedup else "-",
            f"{_us(k.headroom_before_us)} -> {_us(k.headroom_after_us)}",
        ]
        for k in gain.kernels
    ]
    header = [
        "kernel", "schedule", "default µs", "record µs", "untuned µs", "tuned µs", "speedup",
        "headroom µs",
    ]  # fmt: skip
    out = [format_table(header, rows, {2, 3, 4, 5, 6, 7}), ""]
    if gain.compared:
        out.append(
            f"model: {_us(gain.base_total_us)} -> {_us(gain.tuned_total_us)} µs per pass"
            + (f", {gain.speedup:.2f}x" if gain.speedup else "")
            + f"; headroom {_us(gain.headroom_before_us)} -> {_us(gain.headroom_after_us)} µs"
        )
        out.append(f"untuned: {gain.base_report}\ntuned:   {gain.tuned_report}")
        out.append(
            f"default/record µs: the tuning's, untuned/tuned µs: profiled; {TUNED_TIMES_NOTE}"
        )
        out += [f"note: {n}" for n in gain.notes]
        out.append(f"per line: {gain.diff_command()} --kernel KERNEL")
    return "\n".join(out)


def _gain_json(gain: TunedGain) -> dict[str, object]:
    out = asdict(gain)
    out["speedup"] = gain.speedup
    for row, k in zip(out["kernels"], gain.kernels, strict=True):
        row["speedup"] = k.speedup
    return json.loads(json.dumps(out, default=str))
