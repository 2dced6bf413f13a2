"""A child process for tests/test_process.py (``python -m child_probe WHAT``, with tests/ on
PYTHONPATH): reports progress, prints, then does WHAT."""

import os
import signal
import sys

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.process import ChildChannel, child_main


def work(channel: ChildChannel) -> dict:
    what = sys.argv[1]
    channel.progress("first", 0.5, "halfway there")
    print("a print goes to the log")
    with channel.step("probing"):
        if what == "error":
            raise KernelscopeError("it went wrong", hint="do this", details="the long story")
        if what == "bug":
            raise ValueError("a bug")
        if what == "crash":
            os.kill(os.getpid(), signal.SIGSEGV)
        if what == "exit":
            os._exit(3)
    return {"answer": 42}


child_main(work)
