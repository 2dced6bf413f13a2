"""A child process for tests/process/test_process.py (``python -m child_probe WHAT``, with tests/ on
PYTHONPATH): reports progress, prints, then does WHAT."""

import json
import os
import signal
import sys
import time

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.process import ChildChannel, child_main


def work(channel: ChildChannel) -> dict:
    what = sys.argv[1]
    channel.progress("first", 0.5, "halfway there")
    print("a print goes to the log")
    with channel.step("probing"):
        if what == "error":
            raise KernelscopeError(
                "it went wrong",
                hint="do this",
                details="the long story",
                window_hint="click that",
            )
        if what == "bug":
            raise ValueError("a bug")
        if what == "crash":
            os.kill(os.getpid(), signal.SIGSEGV)
        if what == "exit":
            os._exit(3)
        if what == "stdin":  # a started child: one request on stdin, none = still importing
            line = sys.stdin.readline()
            if not line:
                time.sleep(60)
            channel.progress("second", 1.0, "request read")
            return {"answer": json.loads(line)}
    return {"answer": 42}


child_main(work)
