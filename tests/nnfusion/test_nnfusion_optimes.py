"""scripts/nnfusion_optimes.py, the tool that makes NNFusion's per-operator times file
(``export-db --hold-back-against``), on ResNet-50's real generated project (NNFusion 00c1317,
tests/data/nnfusion_h200/optimes): what runs without a GPU (instrument, times); its ``run``
step is the GPU suite's (tests/gpu)."""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from paths_support import DATA, ROOT

from kernelscope.core.kernel_db.holdback import load_operator_times

TOOL = ROOT / "scripts" / "nnfusion_optimes.py"
OPTIMES = DATA / "nnfusion_h200" / "optimes"


def _tool(*args: object) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(TOOL), *map(str, args)], capture_output=True, text=True, timeout=120
    )


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    codegen = tmp_path / "nnfusion_rt" / "cuda_codegen"
    codegen.mkdir(parents=True)
    source = gzip.decompress((OPTIMES / "resnet50_nodb_nnfusion_rt.cu.gz").read_bytes())
    (codegen / "nnfusion_rt.cu").write_bytes(source)
    return codegen


def test_instrument_times_every_operator_call_the_h200_timed(project: Path) -> None:
    before = (project / "nnfusion_rt.cu").read_text()
    proc = _tool("instrument", project)
    assert proc.returncode == 0, proc.stderr
    after = (project / "nnfusion_rt.cu").read_text()
    assert after.startswith(before)  # kernel_entry itself untouched
    added = after[len(before) :]
    assert 'extern "C" int kernel_entry_timed(' in added and "float* ks_ms, int ks_passes" in added
    timed = re.findall(r"^        // (\S+)$", added, re.M)
    measured = json.loads((OPTIMES / "resnet50_nodb_optimes.json").read_text())
    assert timed == [o["name"] for o in measured["operators"]]  # what was timed on the H200
    assert added.count("cudaEventRecord(ks_a, 0)") == len(timed)
    ops = json.loads((project / "optimes_ops.json").read_text())
    assert [name for name, _ in ops] == timed
    assert _tool("instrument", project).returncode == 0  # twice: nothing more added
    assert (project / "nnfusion_rt.cu").read_text() == after


def test_instrument_refuses_a_file_that_is_not_nnfusions(tmp_path: Path) -> None:
    (tmp_path / "nnfusion_rt.cu").write_text("int main() { return 0; }\n")
    proc = _tool("instrument", tmp_path)
    assert proc.returncode != 0 and "no kernel_entry" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_times_makes_the_file_export_db_reads(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "resnet50_times.json"
    proc = _tool(
        "times", project, OPTIMES / "resnet50_nodb_optimes.json",
        OPTIMES / "resnet50_db_optimes.json", out,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    times = load_operator_times(out)  # as export-db --hold-back-against reads it
    assert times.device == "NVIDIA H200"
    assert len(times.baseline) > 16 and times.rows  # the DB kernels' own times beside them
    assert f"{len(times.baseline)} operators without the DB" in proc.stdout


def test_without_a_step_it_prints_its_usage() -> None:
    proc = _tool("frobnicate")
    assert proc.returncode == 2 and "instrument CODEGEN_DIR" in proc.stderr
