"""TVM's tensor intrinsics, registered in a quarter of the time TVM's own import takes.

A MetaSchedule ``TuneContext`` imports ``tvm.s_tir.tensor_intrin`` when it is first made, and
so does each build of a candidate (``LocalBuilder``'s ``default_build``, in a worker process
started for each batch of builds, within the build's timeout). It registers 124 intrinsics,
each parsed from TVMScript. Every ``T.prim_func`` decorator
(evaluated once for the function and again for each decorator the parser meets) calls
``inspect.stack()``, which reads the source line of every frame on the stack (some forty
while parsing), and for the parser's own ``<ast>`` frames searches every loaded module for
their file: ~20 s of a tuning run on a shared two-core machine, before anything is tuned.

TVM's parser uses the stack's frames (their variables, for closures) and the source line of
the third frame alone (``is_defined_in_class``: is the function decorated inside an
``@I.ir_module`` class?). ``register_tensor_intrinsics`` imports the module with an
``inspect.stack`` that gives exactly those: every frame, the first three with their source
line as before, the rest without, which leaves the same intrinsics registered (checked by
tests/tuning/test_tensor_intrinsics.py) in ~5 s. The tuning session calls it before its first
``TuneContext`` and has each builder worker call it first (an initializer, outside the
timeout).
"""

from __future__ import annotations

import inspect
import sys
import threading
from types import FrameType

_WITH_SOURCE = 3  # frames whose source line TVM's parser reads (is_defined_in_class: [2])
_lock = threading.Lock()


def stack(context: int = 1) -> list[inspect.FrameInfo]:
    """``inspect.stack(context)`` of the caller, with the source lines of the first three
    frames only (the others' ``code_context`` and ``index`` are None)."""
    frames: list[inspect.FrameInfo] = []
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        if len(frames) < _WITH_SOURCE:
            info = inspect.getframeinfo(frame, context)
            frames.append(inspect.FrameInfo(frame, *info, positions=info.positions))
        else:
            code = frame.f_code
            frames.append(
                inspect.FrameInfo(frame, code.co_filename, frame.f_lineno, code.co_name, None, None)
            )
        frame = frame.f_back
    return frames


def register_tensor_intrinsics() -> None:
    """Import ``tvm.s_tir.tensor_intrin`` (TVM's tensor intrinsics, what a ``TuneContext``
    imports first) with the quicker ``stack``; nothing when it is imported already."""
    if "tvm.s_tir.tensor_intrin" in sys.modules:
        return
    with _lock:
        real = inspect.stack
        inspect.stack = stack
        try:
            import tvm.s_tir.tensor_intrin  # noqa: F401
        finally:
            inspect.stack = real
