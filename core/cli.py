"""The ``kernelscope`` command line. Each feature module adds its own subcommands."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from kernelscope.core import cli_build, cli_db, cli_gui, cli_ncu, cli_profile
from kernelscope.core.errors import Cancelled, KernelscopeError

COMMAND_MODULES = (cli_build, cli_profile, cli_ncu, cli_db, cli_gui)


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kernelscope",
        description="Build TVM models into per-kernel CUDA files, disassemble them and "
        "correlate Nsight Compute metrics with every source line.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMAND_MODULES:
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = make_parser()
    args = parser.parse_args(cli_gui.route(parser, argv))
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


if __name__ == "__main__":
    sys.exit(main())
