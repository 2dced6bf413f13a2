"""``kernelscope remote-check user@host`` and ``kernelscope remote-install user@host``: can an
SSH host profile, and a runtime-only TVM copied there when it cannot load models yet."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from typing import TYPE_CHECKING

from .progress import TerminalProgress
from .table import format_table

if TYPE_CHECKING:
    from ..profiling import HostReport, SshTarget


def add_ssh_arguments(p: argparse.ArgumentParser, ncu: bool = False, runtime: bool = True) -> None:
    """How to reach a host: the one group of every command that takes one (``ncu``: the
    host's ncu, for the commands that profile; ``runtime``: where TVM runtimes are installed
    there, for the commands that run a TVM model). ``target_from`` and ``host_options`` read
    it into the one value of a host, ``SshTarget``."""
    g = p.add_argument_group("SSH host")
    g.add_argument("-p", "--port", type=int, help="SSH port (default: ssh's)")
    g.add_argument("-i", "--identity", help="private key file (default: ssh's)")
    g.add_argument(
        "--ssh-option",
        action="append",
        default=[],
        metavar="OPT",
        help="passed to ssh, e.g. --ssh-option=-oProxyJump=gate (repeatable)",
    )
    g.add_argument("--remote-python", default="python3", help="Python on the host")
    if ncu:
        g.add_argument("--remote-ncu", default="ncu", help="ncu on the host (default: found)")
    if runtime:
        g.add_argument(
            "--remote-runtime-root",
            metavar="DIR",
            help="where runtimes are installed on the host (default ~/.cache/kernelscope/runtime)",
        )


def target_from(args: argparse.Namespace, host: str) -> SshTarget:
    from ..profiling import SshTarget, ssh_options

    return SshTarget(
        host,
        ssh_options(args.port, args.identity, args.ssh_option),
        python=args.remote_python,
        ncu=getattr(args, "remote_ncu", "ncu"),
        runtime_root=getattr(args, "remote_runtime_root", None),
    )


def host_options(args: argparse.Namespace) -> SshTarget | None:
    """A request's ``host``: ``--host`` reached as ``add_ssh_arguments``' flags say (None:
    no --host, this machine)."""
    return target_from(args, args.host) if args.host else None


def register(sub: argparse._SubParsersAction) -> None:
    c = sub.add_parser(
        "remote-check",
        help="check an SSH host for profiling: GPU, driver, ncu, counters, Python, TVM",
    )
    c.add_argument("host", help="user@host")
    add_ssh_arguments(c, ncu=True)
    c.add_argument(
        "--no-probe", action="store_true", help="do not profile a test kernel with the host's ncu"
    )
    c.add_argument("--json", action="store_true", help="machine-readable output")
    c.set_defaults(func=_check)

    i = sub.add_parser(
        "remote-install",
        help="copy a runtime-only TVM from this machine into the host's per-user cache",
    )
    i.add_argument("host", help="user@host")
    add_ssh_arguments(i)
    i.add_argument("--json", action="store_true", help="machine-readable output")
    i.set_defaults(func=_install)


_MARK = {True: "ok", False: "FAIL", None: "--"}


def print_report(report: HostReport) -> None:
    rows = [(c.name, _MARK[c.ok], c.summary) for c in report.checks]
    print(format_table(("check", "", "found"), rows))
    fixes = [(c.name, c.fix) for c in report.checks if c.ok is False and c.fix]
    if fixes:
        print()
        for name, fix in fixes:
            print(f"fix {name}: {fix}")
    print()
    verdict = report.verdict()
    print(f"{report.host}: {verdict}")


def _check(args: argparse.Namespace) -> int:
    from ..profiling import check_host

    target = target_from(args, args.host)
    with TerminalProgress(quiet_when_piped=True) as progress:
        report = check_host(target, probe=not args.no_probe, progress=progress)
    if args.json:
        print(json.dumps(report.to_dict(), indent=1))
    else:
        print_report(report)
    return 0 if report.can_profile else 1


def _install(args: argparse.Namespace) -> int:
    from ..profiling import install_runtime

    target = target_from(args, args.host)
    with TerminalProgress() as progress:
        result = install_runtime(target, progress=progress)
    if args.json:
        out = asdict(result)
        out["bundle"] = str(result.bundle)
        out["report"] = result.report.to_dict()
        print(json.dumps(out, indent=1))
        return 0
    print(
        f"installed a runtime-only TVM {result.report.tvm_wanted} in {result.host}:{result.folder} "
        f"({result.bundle_bytes / 1e6:.1f} MB sent, {result.seconds:.1f} s)"
    )
    print()
    print_report(result.report)
    return 0
