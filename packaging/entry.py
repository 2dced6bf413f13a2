"""The frozen app's entry point: the kernelscope command line, and a stand-in for ``python``.

kernelscope starts children with ``sys.executable``: ``-m kernelscope.core...`` (the report
pre-reader, builds in a child), a script or zipapp (the model runner's ``runner-*.pyz`` under
ncu), ``-c`` (the multiprocessing resource tracker) and ``--multiprocessing-fork``. In the
frozen app ``sys.executable`` is this program, so it answers those forms the way python would.
"""

from __future__ import annotations

import multiprocessing
import runpy
import sys

# Interpreter flags children may be given (multiprocessing passes -B -s -E ...); no meaning here.
_PYTHON_FLAGS = {"-B", "-E", "-I", "-O", "-OO", "-s", "-S", "-u", "-b", "-bb", "-q"}


def main() -> int:
    multiprocessing.freeze_support()  # --multiprocessing-fork children never return from this
    args = sys.argv[1:]
    while args and args[0] in _PYTHON_FLAGS:
        args = args[1:]
    if args[:1] == ["-m"] and len(args) > 1:
        sys.argv = [args[1], *args[2:]]
        runpy.run_module(args[1], run_name="__main__", alter_sys=True)
        return 0
    if args[:1] == ["-c"] and len(args) > 1:
        sys.argv = ["-c", *args[2:]]
        exec(compile(args[1], "<string>", "exec"), {"__name__": "__main__"})
        return 0
    if args and args[0].endswith((".py", ".pyz")):
        sys.argv = args
        runpy.run_path(args[0], run_name="__main__")
        return 0
    from kernelscope.core.cli.main import main as cli

    return cli(args)


if __name__ == "__main__":
    sys.exit(main())
