"""Runs a workspace's built model on the GPU: the program kernelscope profiles under ncu.

Usage::

    python runner.pyz WORKSPACE [--inputs in.npz] [--warmup N] [--iterations N]
    python runner.pyz WORKSPACE --timeline [--warmup N] [--repeat N]
    python runner.pyz WORKSPACE --steps prefill=128,decode=32 [--batch B] [--profile-steps S]
    python runner.pyz WORKSPACE --hook HOOK.py [--profile-steps S]    # (and --timeline)
    python runner.pyz --check [--tvm-version V]     # what this machine has for the runner
    python runner.pyz --probe-kernel                # one tiny kernel (ncu permission probe)
    python runner.pyz --torch MODEL.py --run-dir RUN [--mode M] [--warmup N] [--iterations N]
    python runner.pyz --torch MODEL.py --run-dir RUN --timeline [--repeat N]

This package stands alone (standard library, numpy and TVM's runtime only, relative imports)
so that it travels to a GPU machine that has no kernelscope, only a runtime-only TVM
(``TVM_USE_RUNTIME_LIB=1``, see DESIGN.md), as one file: ``runner_app`` zips it into a
zipapp (``runner.py`` on the host). Its modules: ``protocol`` (the result and message lines
and their readers, exit codes), ``tvm_runtime`` (where TVM comes from), ``model`` (the run),
``cuda`` (a ctypes binding of the driver), ``timeline`` (every call timed; an LLM's steps
timed), ``steps`` (an LLM's steps: the KV cache, the driver, the hook's session),
``step_run`` (a workspace run step by step, profiler marks around the chosen steps), ``host``
(``--check``, ``--probe-kernel``), ``torch_model`` (a PyTorch model file under
``torch.compile``, with the host's own PyTorch: ``kernelscope profile-torch``), ``main``. It
makes TVM use the workspace's own cubin (see ``model``) and prints one JSON line starting with
``KERNELSCOPE_RESULT``.

TVM comes from ``--runtime DIR``, else from the folder ``kernelscope remote-install`` fills
(``<runtime root>/tvm-<version>-cp<XY>``, the root being ``--runtime-root``,
``$KERNELSCOPE_RUNTIME_ROOT`` or ``~/.cache/kernelscope/runtime``), else from this Python.
"""

from .protocol import (
    EXIT_BAD_INPUT,
    EXIT_COMPILE,
    EXIT_NO_GPU,
    EXIT_NO_TORCH,
    EXIT_NO_TVM,
    EXIT_OLD_PYTHON,
    EXIT_SOURCE_MISMATCH,
    MESSAGE_TAG,
    MIN_NUMPY,
    MIN_PYTHON,
    RESULT_TAG,
    RunnerError,
    read_message,
    read_result,
)
from .tvm_runtime import RUNTIME_MARKER, RUNTIME_ROOT_ENV, runtime_name

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_COMPILE",
    "EXIT_NO_GPU",
    "EXIT_NO_TORCH",
    "EXIT_NO_TVM",
    "EXIT_OLD_PYTHON",
    "EXIT_SOURCE_MISMATCH",
    "MESSAGE_TAG",
    "MIN_NUMPY",
    "MIN_PYTHON",
    "RESULT_TAG",
    "RUNTIME_MARKER",
    "RUNTIME_ROOT_ENV",
    "RunnerError",
    "read_message",
    "read_result",
    "runtime_name",
]
