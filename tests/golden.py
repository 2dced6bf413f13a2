"""Golden-file checks: a parser's output, rendered as text, against ``tests/data/golden/``.

On a mismatch the test fails with a unified diff. After a deliberate change, rewrite the
expected files and review them with ``git diff``:

    KERNELSCOPE_UPDATE_GOLDEN=1 python -m pytest tests/tvm_build/test_nvdisasm.py
"""

from __future__ import annotations

import difflib
import os

import pytest
from paths_support import DATA

GOLDEN = DATA / "golden"
UPDATE = "KERNELSCOPE_UPDATE_GOLDEN"


def check_golden(actual: str, expected_file: str) -> None:
    """Fail with a diff unless ``actual`` is the text of ``tests/data/golden/<expected_file>``."""
    path = GOLDEN / expected_file
    if os.environ.get(UPDATE) == "1":
        path.write_text(actual, encoding="utf-8")
        return
    if not path.is_file():
        pytest.fail(f"{path} is missing; write it with {UPDATE}=1 and review it")
    expected = path.read_text(encoding="utf-8")
    if actual != expected:
        diff = difflib.unified_diff(
            expected.splitlines(keepends=True),
            actual.splitlines(keepends=True),
            fromfile=f"{expected_file} (expected)",
            tofile=f"{expected_file} (actual)",
        )
        pytest.fail(
            f"output differs from {path} (rewrite it with {UPDATE}=1 if the change is "
            "intended):\n" + "".join(diff),
            pytrace=False,
        )
