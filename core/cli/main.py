"""The ``kernelscope`` command line. Each feature module adds its own subcommands.

A command imports only its own module (``COMMANDS`` says which): ``kernelscope kernels`` does
not load TVM's loader, the kernel DB's sqlite-utils or numpy-heavy features, which cost more
than listing a report's kernels. ``kernelscope --help``, a path or another distribution's
command (the entry points) build the whole parser.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from ..errors import Cancelled, KernelscopeError

# The modules (of this package) that register commands, in the order --help lists them.
COMMAND_MODULES = (
    "build",
    "tune",
    "profile",
    "ncu",
    "ptx",
    "db",
    "details",
    "remote",
    "timeline",
    "diff",
    "share",
    "nnfusion",
    "environment",
)
# Which module registers each command (tests/architecture/test_cli_imports.py keeps this true).
COMMANDS = {
    "build": "build",
    "tune": "tune",
    "measure-batch": "tune",
    "tune-gain": "tune",
    "tune-merge": "tune",
    "doctor": "environment",
    "profile": "profile",
    "run": "profile",
    "profile-torch": "profile",
    "kernels": "ncu",
    "hot": "ncu",
    "import": "ncu",
    "steps": "ncu",
    "ptx": "ptx",
    "export-db": "db",
    "db": "db",
    "details": "details",
    "roofline": "details",
    "remote-check": "remote",
    "remote-install": "remote",
    "timeline": "timeline",
    "diff": "diff",
    "share": "share",
    "nnfusion-coverage": "nnfusion",
    "nnfusion-compile": "nnfusion",
}
# Other distributions (the viewer) add commands through this entry-point group: each entry
# is a ``register(subparsers)`` function. Core never imports them by name.
COMMAND_GROUP = "kernelscope.commands"
# A bare path (``kernelscope model.kscope``) runs this command when something registered it,
# and so does ``kernelscope`` alone: the window on its welcome page, as the README says.
DEFAULT_COMMAND = "gui"


def make_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or only of ``command``'s module when it is one of
    ``COMMANDS``, or only of the entry points' commands when it is ``DEFAULT_COMMAND``."""
    parser = argparse.ArgumentParser(
        prog="kernelscope",
        description="Build TVM models into per-kernel CUDA files, disassemble them and "
        "correlate Nsight Compute metrics with every source line.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    if command in COMMANDS:
        names: Sequence[str] = [COMMANDS[command]]
    else:
        names = () if command == DEFAULT_COMMAND else COMMAND_MODULES
    for name in names:
        importlib.import_module(f"{__package__}.{name}").register(sub)
    if command not in COMMANDS:
        from importlib.metadata import entry_points

        for entry in entry_points(group=COMMAND_GROUP):
            entry.load()(sub)
    return parser


def route(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> list[str] | None:
    """Insert the default command (``gui``) before a first argument that is a path or
    ``--screenshot`` rather than a command, or in place of no arguments at all."""
    if argv is None:
        argv = sys.argv[1:]
    argv = list(argv)
    commands = _choices(parser)
    if DEFAULT_COMMAND not in commands:
        return argv
    first = argv[0] if argv else ""
    if not argv or (first not in commands and (first == "--screenshot" or first[0] != "-")):
        return [DEFAULT_COMMAND, *argv]
    return argv


def _choices(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The commands ``parser`` knows, by name."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices or {})
    return {}


def _command(argv: Sequence[str]) -> str | None:
    """Which commands ``argv`` needs parsed: its first argument when that is one of
    ``COMMANDS``; ``DEFAULT_COMMAND`` (the window, from the entry points alone: the window
    starts without importing every command's module) for no arguments, a path or
    ``--screenshot``; None (all of them) for anything else, such as ``--help``."""
    first = argv[0] if argv else ""
    if first in COMMANDS:
        return first
    if not first or first == "--screenshot" or not first.startswith("-"):
        return DEFAULT_COMMAND
    return None


def _configure_logging() -> None:
    """``KERNELSCOPE_LOG=debug`` (or info, warning) shows the library's log on stderr."""
    level = os.environ.get("KERNELSCOPE_LOG", "").strip().upper()
    if level:
        import logging

        logging.basicConfig(
            level=getattr(logging, level, logging.INFO),
            format="kernelscope: %(levelname)s %(name)s: %(message)s",
        )


def main(argv: Sequence[str] | None = None) -> int:
    _configure_logging()
    argv = list(sys.argv[1:] if argv is None else argv)
    command = _command(argv)
    parser = make_parser(command)
    if command == DEFAULT_COMMAND and DEFAULT_COMMAND not in _choices(parser):
        parser = make_parser()  # no window here: the full help, or "invalid choice"
    args = parser.parse_args(route(parser, argv))
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except Cancelled as exc:
        print(f"kernelscope: {exc}", file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        print("kernelscope: interrupted; nothing was changed", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `kernelscope ... | head`: the reader has gone, which is fine
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except KernelscopeError as exc:
        print(f"kernelscope: error: {exc}", file=sys.stderr)
        if exc.details:
            print(exc.details.rstrip(), file=sys.stderr)
        return 1
