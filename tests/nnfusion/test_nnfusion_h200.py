"""The H200 results of NNFusion with kernelscope's DB (tests/data/nnfusion_h200, issue 12
part 5) say what the note claims, agree with each other, and are of the model the tests
define: a change to that model makes them stale and this test fail."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import onnx
import pytest
from nnfusion_models import residual_cnn
from onnx import numpy_helper
from paths_support import DATA

RESULTS = DATA / "nnfusion_h200"
MODELS = ("small_cnn", "resnet50")
FP32_REL = 1e-5  # NNFusion+DB against TVM: the same kernels, so fp32 rounding at most


def _load(name: str) -> dict:
    return json.loads((RESULTS / name).read_text())


def test_the_small_model_is_the_one_the_tests_define(tmp_path: Path) -> None:
    [staged] = [m for m in _load("models.json") if m["name"] == "small_cnn"]
    model = onnx.load(str(residual_cnn(tmp_path / "small_cnn.onnx")))
    digests = {
        i.name: hashlib.sha256(numpy_helper.to_array(i).tobytes()).hexdigest()
        for i in model.graph.initializer
    }
    assert digests == staged["params"]


@pytest.mark.parametrize("model", MODELS)
def test_nnfusion_with_the_db_gives_tvms_numbers(model: str) -> None:
    result = _load("nnfusion_gpu.json")["models"][model]
    for name, run in result["runs"].items():
        assert run["ok"] and run["vs_onnxruntime"]["ok"], name
        assert run["timing"]["iterations"] >= 100
    assert result["nnfusion_db_vs_tvm"]["max_rel_err"] < FP32_REL
    db_err = result["runs"]["nnfusion_db"]["vs_onnxruntime"]["max_rel_err"]
    assert db_err < FP32_REL


@pytest.mark.parametrize("model", MODELS)
def test_every_usable_row_was_used_and_nothing_left_that_the_db_could_serve(model: str) -> None:
    compiled = _load(f"{model}.compile_db.json")
    assert compiled["used"] == compiled["usable"] > 0
    fetched = [
        r for r in compiled["rows"] if r["fetched"] and r["row"]["device_type"] == "CUDA_GPU"
    ]
    assert fetched and all(r["in_code"] for r in fetched), (
        "a row NNFusion fetched is not in its code"
    )
    coverage = _load(f"{model}.coverage.json")
    assert coverage["counts"]["missing"] == coverage["counts"]["wrong"] == 0
    assert not coverage["skipped"]
    # What the real NNFusion found no row for is what kernelscope predicted it would not:
    # NNFusion's own kernels and the rows built but kept from it (with their reasons).
    not_served = {
        lk["identifier"] for lk in coverage["lookups"] if lk["status"] in ("nnfusion", "flagged")
    }
    assert {m["identifier"] for m in compiled["missed"]} <= not_served
    assert set(coverage["flagged"]) <= not_served


@pytest.mark.parametrize("model", MODELS)
def test_build_missing_only_added_coverage(model: str) -> None:
    before, after = _load(f"{model}.coverage-before.json"), _load(f"{model}.coverage.json")
    assert after["before"] == before["counts"]
    assert after["counts"]["covered"] > before["counts"]["covered"]
    cache = sum(v for k, v in after["counts"].items() if k != "nnfusion")
    assert cache == sum(v for k, v in before["counts"].items() if k != "nnfusion")
    nodb = _load(f"{model}.compile_nodb.json")
    assert nodb["usable"] == nodb["used"] == 0


def test_the_figures_of_the_note() -> None:
    models = _load("nnfusion_gpu.json")["models"]
    median = {
        (m, run): r["timing"]["median_ms"]
        for m, data in models.items()
        for run, r in data["runs"].items()
    }
    assert np.isclose(median["resnet50", "nnfusion_db"], 4.939, atol=5e-4)
    assert np.isclose(median["resnet50", "nnfusion_nodb"], 3.199, atol=5e-4)
    counts = _load("resnet50.coverage.json")["counts"]
    assert (counts["covered"], sum(counts.values()) - counts["nnfusion"]) == (42, 43)
    assert _load("resnet50.compile_db.json")["used"] == 26
