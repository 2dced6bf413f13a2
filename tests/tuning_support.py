"""What the tuning tests share: the tiny model, its task, small search settings and its
built workspace (the tests are in two files, so that the two test workers share them)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from paths_support import DATA

MODEL = DATA / "models" / "tiny_mlp.py"
TASK = "fused_matmul_add_relu"
# few, small rounds: a round of the CPU search costs seconds on two shared cores
SMALL = {"model": MODEL, "kernel": TASK, "trials": 2, "per_round": 2, "population": 16}


@pytest.fixture(scope="module", name="mlp_ws")
def fixture_mlp_ws(build_once: Callable[..., object]) -> Path:
    return build_once("tiny_mlp.py").path  # type: ignore[attr-defined]
