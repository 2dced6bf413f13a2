"""Writes ``dlight_small_cnn/``: a MetaSchedule database for ``models/small_cnn.onnx`` on
sm_90 whose one record (``fused_conv2d_add_relu``) is TVM's default (DLight) schedule of
that task, timed as the H200 measured that very kernel (``h200/small_cnn_h200.ncu-rep``).

A build with it takes the conv kernel "from a record" and yet compiles the same code as a
build without it, so the H200's report of the untuned build is also a true report of the
tuned build: what the tests of "see the gain" (build the tuned model, profile it, compare
it with the untuned one) need on a machine without a GPU. The default time in kernelscope's
notes is the same measurement (the record *is* the default schedule).

    python tests/data/tuning/make_dlight_db.py
"""

import importlib.metadata
import json
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests/: paths_support

from tvm.s_tir import meta_schedule as ms

from kernelscope.core.build.model_loader import load_model
from kernelscope.core.build.records import (
    META,
    commit_default_record,
    cuda_target,
    fused_module,
    workload_hash,
)
from kernelscope.core.ncu import Profile
from paths_support import H200_REPORT  # noqa: E402

HERE = Path(__file__).parent
OUT = HERE / "dlight_small_cnn"
TASK = "fused_conv2d_add_relu"
REPORT = H200_REPORT  # stored compressed: unpacked into the test cache


def main() -> None:
    model = load_model(HERE.parent / "models" / "small_cnn.onnx", {}, "random", 0)
    target = cuda_target("sm_90")
    tasks = {
        t.task_name: t
        for t in ms.relax_integration.extract_tasks(fused_module(model.mod, target), target)
    }
    task = tasks[TASK]
    kernel = next(k for k in Profile.open(REPORT).kernels() if k.name == f"{TASK}_kernel")
    secs = kernel.duration_ns / len(kernel.launches) * 1e-9
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir()
    database = ms.database.JSONDatabase(work_dir=str(OUT), module_equality="structural")
    # what a tuning run commits for the default schedule it measured (the same function)
    assert commit_default_record(database, task.dispatched[0], target, [secs])
    func = task.dispatched[0]["main"]
    meta = {
        "tvm": importlib.metadata.version("apache-tvm"),
        "arch": "sm_90",
        "target": str(target),
        "models": ["small_cnn.onnx"],
        "defaults": {workload_hash(func): secs * 1e6},
        "runs": [],
    }
    (OUT / META).write_text(json.dumps(meta, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
