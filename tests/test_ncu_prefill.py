"""A first open of a report in a child process: the cache is filled there, the parent never
loads NVIDIA's reader, and Cancel stops the child."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from kernelscope.core.errors import Cancelled
from kernelscope.core.ncu.prefill import fill_cache_in_child

REPORT = Path(__file__).parent / "data" / "h200" / "small_cnn_h200.ncu-rep"

PARENT = """
import sys
from kernelscope.core.view import open_document
document = open_document(sys.argv[1], read_in_child=True)
for s in document.summaries:
    document.kernel(s.name)
print(len(document.summaries), "kernelscope.core.ncu.report" in sys.modules)
"""


def test_parent_reads_only_the_cache_the_child_filled(tmp_path: Path) -> None:
    env = {**os.environ, "KERNELSCOPE_CACHE_DIR": str(tmp_path)}
    for _ in range(2):  # cold, then cached
        out = subprocess.run(
            [sys.executable, "-c", PARENT, str(REPORT)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        assert out == ["4", "False"]


def test_cancel_stops_the_child(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KERNELSCOPE_CACHE_DIR", str(tmp_path))
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        fill_cache_in_child(REPORT, cancel)
