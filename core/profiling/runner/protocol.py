"""What the runner's callers rely on: its two lines (the result, the message saying why it
failed) with what reads them back, the exit codes, the versions it needs, and the error that
carries an exit code."""

from __future__ import annotations

import json
from typing import Any

RESULT_TAG = "KERNELSCOPE_RESULT "  # stdout: this tag, then the result as one line of JSON
MESSAGE_TAG = "kernelscope runner:"  # stderr: this tag, then why it failed (and it exits)
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


def read_result(output: str) -> dict[str, Any] | None:
    """The result the runner printed in ``output`` (its last result line); None where there is
    none, or it is not one JSON object (cut off, garbled): each caller says so its own way."""
    found = [ln for ln in output.splitlines() if ln.startswith(RESULT_TAG)]
    if not found:
        return None
    try:
        result = json.loads(found[-1][len(RESULT_TAG) :])
    except ValueError:
        return None
    return result if isinstance(result, dict) else None


def read_message(output: str) -> str | None:
    """Why the runner failed, as it said it in ``output`` (the last line carrying its message
    tag, which may come after a prefix such as ncu's); None where it said nothing."""
    said = [ln for ln in output.splitlines() if MESSAGE_TAG in ln]
    message = said[-1].split(MESSAGE_TAG, 1)[1].strip() if said else ""
    return message or None
