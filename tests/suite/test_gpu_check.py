"""The GPU suite's own machinery, where it runs without a GPU (scripts/gpu_check.py, behind
``bash scripts/gpu-check.sh``): the stage it makes and its size limit, the results table, the
run that skips every check with its reason on a machine without a GPU, and the import step."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
from gpu_support import ROUND_RESULTS, ROWS, TABLE, TORCH_RUN, Row, write_table
from paths_support import DATA, ROOT, data_path

sys.path.insert(0, str(ROOT / "scripts"))
import gpu_check  # noqa: E402

SCRIPT = ROOT / "scripts" / "gpu-check.sh"


def _script(*args: object, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", str(SCRIPT), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "KERNELSCOPE_GPU_PYTHON": sys.executable,
             "KERNELSCOPE_PYTHON": sys.executable, **env},
    )  # fmt: skip


def test_the_table_has_one_row_per_check_with_device_date_and_commit(tmp_path: Path) -> None:
    rows = [
        Row("kernelscope profile WS on the GPU machine", "passed", "4 launches, 25.1 µs in all"),
        Row("a check", "failed: AssertionError: 2.3 > 1.0 | see", "median |diff| 2.30 µs"),
    ]
    table = write_table(rows, tmp_path / "out", "NVIDIA H200 (driver 580)", "2026-12-06", "abc123")
    lines = table.read_text().splitlines()
    assert lines[0] == "| check | result | figure | device | date | commit |"
    assert len(lines) == 2 + len(rows)
    assert lines[2].split(" | ")[1:] == [
        "passed", "4 launches, 25.1 µs in all", "NVIDIA H200 (driver 580)", "2026-12-06", "abc123 |"
    ]  # fmt: skip
    assert "2.3 > 1.0 \\| see" in lines[3] and "median \\|diff\\|" in lines[3]  # one row still
    data = json.loads((tmp_path / "out" / ROWS).read_text())
    assert data["commit"] == "abc123" and data["rows"][1]["figure"] == "median |diff| 2.30 µs"


def test_the_room_left_for_a_run_is_checked() -> None:
    line = gpu_check.check_room(16_000_000, 12_000_000)
    assert line.startswith("tree 16.0 MB + stage 12.0 MB = 28.0 MB of 67.1 MB")
    assert "39.1 MB spare" in line
    with pytest.raises(gpu_check.CheckError, match="less than the 20 MB a run needs spare"):
        gpu_check.check_room(16_000_000, 40_000_000)


def test_staging_kernelscopes_code_packs_the_package_and_notes_what_is_left_out(
    tmp_path: Path,
) -> None:
    manifest = gpu_check.stage(tmp_path / "stage", parts=["code"])
    assert json.loads((tmp_path / "stage" / "stage.json").read_text()) == manifest
    assert manifest["code"] and manifest["commit"] and "workspaces" not in manifest
    with tarfile.open(tmp_path / "stage" / "kernelscope.tar.xz") as tar:
        names = tar.getnames()
    assert "kernelscope/core/cli/main.py" in names
    assert not any("__pycache__" in n for n in names)
    assert manifest["notes"] == [] and "nnfusion" not in manifest  # only what was asked for
    size = gpu_check.folder_bytes(tmp_path / "stage")
    assert size < 2_000_000  # the code alone, xz-compressed


def test_run_without_a_stage_says_how_to_make_one(tmp_path: Path) -> None:
    proc = _script("run", "--stage", tmp_path / "none", "--out", tmp_path / "out")
    assert proc.returncode == 2
    assert "no stage at" in proc.stderr and "gpu-check.sh stage" in proc.stderr


def test_run_here_skips_every_check_with_its_reason(tmp_path: Path) -> None:
    """This machine has no GPU: the run still installs the stage, runs tests/gpu and writes
    the table, each check skipped with why."""
    gpu_check.stage(tmp_path / "stage", parts=["code"])
    proc = _script("run", "--stage", tmp_path / "stage", "--out", tmp_path / "out", OUT="")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = json.loads((tmp_path / "out" / ROWS).read_text())["rows"]
    checks = {r["check"] for r in rows}
    assert (
        len(rows) >= 7
        and "kernelscope profile WS on the GPU machine: a report with the right launches" in checks
    )
    assert all(r["result"].startswith("skipped: no NVIDIA GPU here") for r in rows), rows
    table = (tmp_path / "out" / TABLE).read_text()
    assert "| no GPU |" in table and (tmp_path / "out" / "pytest-log.txt").is_file()
    assert "python " in (tmp_path / "out" / "env.txt").read_text()  # what it ran on


def test_import_says_what_is_missing(tmp_path: Path) -> None:
    gpu_check.stage(tmp_path / "stage", parts=["code"])
    (tmp_path / "results").mkdir()
    proc = _script("import", tmp_path / "results", "--stage", tmp_path / "stage")
    assert proc.returncode == 2 and f"holds no {ROUND_RESULTS} and no {TORCH_RUN}" in proc.stderr
    (tmp_path / "results" / ROUND_RESULTS).write_text("{}")
    proc = _script("import", tmp_path / "results", "--stage", tmp_path / "stage")
    assert proc.returncode == 2 and "holds no tuning round" in proc.stderr


@pytest.mark.slow
def test_a_whole_stage_holds_what_the_checks_need_and_leaves_room(tmp_path: Path) -> None:
    """``gpu-check.sh stage``: the workspaces built for sm_90, a tuning round with its
    database, the runtime-only TVM (no compiler library), the wheels, kernelscope's code; and
    tree + stage leave a run 20 MB (it prints the sizes)."""
    stage = tmp_path / "stage"
    proc = _script("stage", stage)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    manifest = json.loads((stage / "stage.json").read_text())
    assert manifest["workspaces"][:2] == ["small_cnn", "transformer_block"]
    with tarfile.open(stage / "workspaces.tar.xz") as tar:
        names = tar.getnames()
        for ws in ("small_cnn", "transformer_block"):
            assert f"{ws}.kscope/model.so" in names
            built = tar.extractfile(f"{ws}.kscope/manifest.json")
            assert built is not None and json.loads(built.read())["target"]["arch"] == "sm_90"
    spec = json.loads((stage / "round" / "round.json").read_text())
    assert {c["kind"] for c in spec["candidates"]} == {"default", "candidate"}
    with tarfile.open(stage / "tvm-runtime.tar.gz") as tar:
        runtime = tar.getnames()
    assert "tvm/lib/libtvm_runtime_cuda.so" in runtime or any(
        n.endswith("libtvm_runtime.so") for n in runtime
    )
    assert not any(n.endswith("libtvm_compiler.so") for n in runtime)
    assert manifest["runtime"].endswith("-cp312")
    assert {w.split("-")[0] for w in manifest["wheels"]} == {"platformdirs", "psygnal"}
    line = proc.stdout.strip().splitlines()[-1]
    assert "MB spare" in line and gpu_check.folder_bytes(stage) < 30_000_000, line


def test_a_kept_table_is_named_by_its_date_and_gpu(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gpu_check, "RESULTS_KEPT", tmp_path / "results" / "gpu")
    monkeypatch.setattr(gpu_check, "ROOT", tmp_path)
    rows = [Row("a check", "passed", "1.0 µs")]
    write_table(
        rows,
        tmp_path / "out",
        "NVIDIA H100 80GB HBM3 (driver 580)",
        "2026-12-06 05:26 UTC",
        "c0ffee",
    )
    kept = gpu_check.keep_table(tmp_path / "out")
    assert kept == tmp_path / "results" / "gpu" / "2026-12-06-H100_80GB_HBM3.md"
    assert kept.read_text() == (tmp_path / "out" / TABLE).read_text()
    assert (kept.with_suffix(".json")).is_file()
    again = gpu_check.keep_table(tmp_path / "out", ["a note"])  # a later run of that day
    assert again == tmp_path / "results" / "gpu" / "2026-12-06-0526-H100_80GB_HBM3.md"
    assert kept.read_text() == (tmp_path / "out" / TABLE).read_text()  # not written over
    assert again.read_text().endswith("Here, on import: a note.\n")


def test_import_opens_the_torch_run_folder_brought_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A profile-torch run folder packed there (tests/data/inductor's, with its H200 report)
    opens here as the window opens it, and the kept table says so."""
    monkeypatch.setattr(gpu_check, "RESULTS_KEPT", tmp_path / "results" / "gpu")
    monkeypatch.setattr(gpu_check, "ROOT", tmp_path)
    run = Path(shutil.copytree(DATA / "inductor" / "transformer", tmp_path / "t.torchrun"))
    shutil.copyfile(data_path("inductor/transformer_profile.ncu-rep"), run / "gpu.ncu-rep")
    results = tmp_path / "out"
    rows = [Row("profile-torch", "passed")]
    write_table(rows, results, "NVIDIA H100 (driver 1)", "2026-12-06 05:26 UTC", "c0ffee")
    with tarfile.open(results / TORCH_RUN, "w:xz") as tar:
        tar.add(run, arcname=run.name)
    assert gpu_check.import_results(results, tmp_path / "no-stage") == 0
    kept = (tmp_path / "results" / "gpu" / "2026-12-06-H100.md").read_text()
    said = kept.splitlines()[-1]
    assert said.startswith("Here, on import: the profile-torch run folder made there opened here")
    assert "13 kernels, 13 launched" in said and "9 of 9 Triton kernels with their source" in said
