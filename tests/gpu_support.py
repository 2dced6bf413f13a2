"""The GPU checks' own machinery (tests/gpu, run by ``bash scripts/gpu-check.sh run`` on the GPU
machine): why a check cannot run here, the stage it reads, and the one results table a run
writes (check, result, figure, device, date, commit).

A check records the figure a person would quote (``figure("median |diff| 0.31 µs")``); the
table keeps one row per check, so a regression shows as a failed row next to its figure."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from paths_support import ROOT

# Where ``gpu-check.sh run`` tells the checks the stage and the results folder are.
STAGE_ENV = "KERNELSCOPE_GPU_STAGE"
RESULTS_ENV = "KERNELSCOPE_GPU_RESULTS"
DEFAULT_STAGE = ROOT / ".gpu-stage"
MANIFEST = "stage.json"  # what stage made, for run and import
TABLE = "gpu-checks.md"
ROWS = "gpu-checks.json"
ROUND_RESULTS = "round-results.json"  # the tuning round measured there, for import here
TORCH_RUN = "torch-run.tar.xz"  # profile-torch's run folder made there, opened here on import
TUNED_WORKSPACE = "small_cnn_tuned"  # built here from the imported round (import)


@dataclass(frozen=True)
class Row:
    check: str
    result: str  # passed, failed, skipped: REASON
    figure: str = ""


def stage_dir() -> Path:
    return Path(os.environ.get(STAGE_ENV) or DEFAULT_STAGE)


def stage_manifest(stage: Path | None = None) -> dict:
    """What ``gpu-check.sh stage`` wrote ({} when there is no stage)."""
    path = (stage or stage_dir()) / MANIFEST
    return json.loads(path.read_text()) if path.is_file() else {}


def gpu_name() -> str | None:
    """The first GPU's name and driver (nvidia-smi), or None without a usable one."""
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return None
    try:
        out = subprocess.run(
            [smi, "--query-gpu=name,driver_version", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    first = out.stdout.strip().splitlines()[:1]
    if out.returncode != 0 or not first:
        return None
    name, _, driver = first[0].partition(",")
    return f"{name.strip()} (driver {driver.strip()})"


def why_not_here(*needs: str) -> str | None:
    """Why the checks cannot run on this machine (None: they can): no GPU, no ncu, no stage,
    or a staged part a check ``needs`` (a key of the stage's manifest) missing."""
    if gpu_name() is None:
        return "no NVIDIA GPU here (nvidia-smi finds none)"
    from kernelscope.core.toolchain import find_tool

    if not find_tool("ncu").found:
        return "no Nsight Compute (ncu) here"
    manifest = stage_manifest()
    if not manifest:
        return f"no stage at {stage_dir()} (bash scripts/gpu-check.sh stage, on the build machine)"
    missing = [n for n in needs if not manifest.get(n)]
    if missing:
        return f"the stage holds no {', '.join(missing)} (see stage.json's notes)"
    return None


def write_table(rows: list[Row], folder: Path, device: str, date: str, commit: str) -> Path:
    """``folder/gpu-checks.md`` (a Markdown table, what notes quote) and ``gpu-checks.json``
    (the same rows, for tools); returns the table's path."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = [
        "| check | result | figure | device | date | commit |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        cells = (row.check, row.result, row.figure, device, date, commit)
        lines.append(
            "| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in cells) + " |"
        )
    table = folder / TABLE
    table.write_text("\n".join(lines) + "\n", encoding="utf-8")
    data = {"device": device, "date": date, "commit": commit, "rows": [asdict(r) for r in rows]}
    (folder / ROWS).write_text(json.dumps(data, indent=1), encoding="utf-8")
    return table


def kernelscope(*args: object, timeout: float = 600) -> subprocess.CompletedProcess:
    """``kernelscope ARGS`` as a user runs it (a process of its own); never a traceback."""
    proc = subprocess.run(
        [sys.executable, "-m", "kernelscope.core.cli", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    return proc
