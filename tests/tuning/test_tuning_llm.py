"""Tuning what the mlc-llm pipeline builds: the tasks are the build's own kernels (its
``NT_matmul`` ones, which only the pipeline's ``FuseTransposeMatmul`` makes), and an LLM's
kernels of symbolic sizes (tests/data/models/llama_mlc.py), which MetaSchedule cannot tune,
are refused before anything is loaded, saying why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from paths_support import DATA

from kernelscope.core.build import BuildRequest, build_in_child
from kernelscope.core.errors import KernelscopeError
from kernelscope.core.tuning import plan_tuning, tune_in_child
from kernelscope.core.workspace import Workspace

pytestmark = pytest.mark.heavy  # TVM builds of the Llama: scheduled first (conftest)

TASK = "fused_NT_matmul1_add"  # a Linear with a bias (decode's o_proj and its residual add)


def _build(model: str, out: Path, pipeline: str = "") -> Workspace:
    model_path = DATA / "models" / model
    return build_in_child(
        BuildRequest(model=model_path, output=out, arch="sm_90", pipeline=pipeline)
    )


def test_an_llms_kernels_of_symbolic_sizes_are_refused_saying_why(tmp_path: Path) -> None:
    ws = _build("llama_mlc.py", tmp_path / "llama.kscope")
    assert ws.manifest.pipeline == "mlc-llm"
    with pytest.raises(KernelscopeError) as refused:
        plan_tuning(ws.path, kernel=TASK, trials=2, database=tmp_path / "db")
    said = str(refused.value)
    assert f"{TASK}_kernel: compiled for every batch_size (symbolic sizes)" in said, said
    assert "MetaSchedule tunes kernels of fixed shapes only" in said
    assert not (tmp_path / "db").exists()  # nothing made
    # all kernels: only the one of fixed shapes (prefill's lm head over the last token)
    plan = plan_tuning(ws.path, trials=2, database=tmp_path / "db")
    assert plan.tasks == ["fused_NT_matmul8_cast1"]


def test_the_tasks_are_the_pipelines_nt_matmul_kernels(tmp_path: Path) -> None:
    """A fixed-shape ``nn`` model built with --pipeline mlc-llm: its NT_matmul kernels are
    tasks (extracted after the pipeline's passes, as the build compiled them)."""
    ws = _build("nn_lines.py", tmp_path / "nn.kscope", pipeline="mlc-llm")
    folder = tmp_path / "round"
    plan = plan_tuning(
        ws.path, kernel=f"^{TASK}", trials=2, per_round=1, population=16,
        database=tmp_path / "db", batch="export", batch_dir=folder,
    )  # fmt: skip
    assert plan.tasks == [TASK] and plan.pipeline == "mlc-llm"
    exported = tune_in_child(plan)
    assert exported.round["round"] == 1
    spec = json.loads((folder / "round.json").read_text(encoding="utf-8"))
    assert {c["task"] for c in spec["candidates"]} == {TASK}
    assert "default" in {c["kind"] for c in spec["candidates"]}  # measured beside them
