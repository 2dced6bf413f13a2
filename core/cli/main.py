"""The ``kernelscope`` command line. Each feature module adds its own subcommands."""

from __future__ import annotations

import argparse
import importlib.metadata
import logging
import os
import sys
from collections.abc import Sequence

from ..errors import Cancelled, KernelscopeError
from . import build as cli_build
from . import db as cli_db
from . import details as cli_details
from . import diff as cli_diff
from . import environment as cli_environment
from . import ncu as cli_ncu
from . import nnfusion as cli_nnfusion
from . import profile as cli_profile
from . import remote as cli_remote
from . import timeline as cli_timeline

COMMAND_MODULES = (
    cli_build,
    cli_profile,
    cli_ncu,
    cli_db,
    cli_details,
    cli_remote,
    cli_timeline,
    cli_diff,
    cli_nnfusion,
    cli_environment,
)
# Other distributions (the viewer) add commands through this entry-point group: each entry
# is a ``register(subparsers)`` function. Core never imports them by name.
COMMAND_GROUP = "kernelscope.commands"
# A bare path (``kernelscope model.kscope``) runs this command when something registered it.
DEFAULT_COMMAND = "gui"


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kernelscope",
        description="Build TVM models into per-kernel CUDA files, disassemble them and "
        "correlate Nsight Compute metrics with every source line.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMAND_MODULES:
        module.register(sub)
    for entry in importlib.metadata.entry_points(group=COMMAND_GROUP):
        entry.load()(sub)
    return parser


def route(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> list[str] | None:
    """Insert the default command (``gui``) before a first argument that is a path or
    ``--screenshot`` rather than a command."""
    if argv is None:
        argv = sys.argv[1:]
    argv = list(argv)
    commands = next(
        (a.choices for a in parser._actions if isinstance(a, argparse._SubParsersAction)), {}
    )
    first = argv[0] if argv else ""
    if (
        first
        and first not in (commands or {})
        and DEFAULT_COMMAND in (commands or {})
        and (first == "--screenshot" or first[0] != "-")
    ):
        return [DEFAULT_COMMAND, *argv]
    return argv


def _configure_logging() -> None:
    """``KERNELSCOPE_LOG=debug`` (or info, warning) shows the library's log on stderr."""
    level = os.environ.get("KERNELSCOPE_LOG", "").strip().upper()
    if level:
        logging.basicConfig(
            level=getattr(logging, level, logging.INFO),
            format="kernelscope: %(levelname)s %(name)s: %(message)s",
        )


def main(argv: Sequence[str] | None = None) -> int:
    _configure_logging()
    parser = make_parser()
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
