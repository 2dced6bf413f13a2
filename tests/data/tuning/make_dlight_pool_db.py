"""Writes ``dlight_small_cnn_pool/``: like ``dlight_small_cnn/`` (see make_dlight_db.py), a
database for ``models/small_cnn.onnx`` on sm_90 whose one record is TVM's default (DLight)
schedule of another task, ``max_pool2d``, timed as the H200 measured that very kernel. The
two databases hold records of different tasks: what the tests of merging databases merge.

    python tests/data/tuning/make_dlight_pool_db.py
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
OUT = HERE / "dlight_small_cnn_pool"
TASK = "max_pool2d"
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
    shash = workload_hash(task.dispatched[0]["main"])
    meta = {
        "tvm": importlib.metadata.version("apache-tvm"),
        "arch": "sm_90",
        "target": str(target),
        "models": ["small_cnn.onnx"],
        "defaults": {shash: secs * 1e6},
        "default_records": [shash],
        "runs": [],
    }
    (OUT / META).write_text(json.dumps(meta, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
