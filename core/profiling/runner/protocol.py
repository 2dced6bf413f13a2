"""What the runner's callers rely on: the result line's tag, the exit codes, the versions
it needs, and the error that carries an exit code."""

from __future__ import annotations

RESULT_TAG = "KERNELSCOPE_RESULT "
EXIT_BAD_INPUT = 3
EXIT_SOURCE_MISMATCH = 4
EXIT_NO_GPU = 5
EXIT_OLD_PYTHON = 6
EXIT_NO_TVM = 7
EXIT_NO_TORCH = 8  # --torch: this Python has no PyTorch
EXIT_COMPILE = 9  # --torch: torch.compile (or the model) failed on the example inputs
# TVM 0.27's Python code needs 3.10 (apache-tvm's Requires-Python); numpy.random.default_rng
# (the seeded inputs) is numpy 1.17.
MIN_PYTHON = (3, 10)
MIN_NUMPY = (1, 17)


class RunnerError(Exception):
    """A failure the runner reports on stderr, exiting with ``code``."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code
