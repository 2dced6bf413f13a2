"""Writes ``stock_tiny_mlp/``: a MetaSchedule database made by stock TVM's own ``tune_relax``
for ``models/tiny_mlp.py`` on sm_90, nothing of kernelscope's involved (the test that it
applies to ``kernelscope build --tuning-db`` needs one). No GPU here: a runner that times
nothing stands in for the measurement (the times are made up, 2 µs less per trial), the rest
(tasks, search, builder, database) is tune_relax's own.

    python tests/data/tuning/make_stock_db.py
"""

import runpy
import shutil
from pathlib import Path

import tvm
from tvm import relax
from tvm.ir.utils import derived_object
from tvm.s_tir import meta_schedule as ms
from tvm.s_tir.meta_schedule.runner import PyRunner, RunnerFuture, RunnerResult

HERE = Path(__file__).parent
OUT = HERE / "stock_tiny_mlp"


@derived_object
class MadeUpTimes(PyRunner):
    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def run(self, runner_inputs):  # noqa: ANN001, ANN201
        futures = []
        for _ in runner_inputs:
            self.count += 1
            secs = max(1e-6, 100e-6 - 2e-6 * self.count)
            result = RunnerResult([secs], None)
            futures.append(RunnerFuture(lambda: True, lambda r=result: r))
        return futures


def main() -> None:
    mod = runpy.run_path(str(HERE.parent / "models" / "tiny_mlp.py"))["mod"]
    target = tvm.target.Target(
        {
            "kind": "cuda",
            "arch": "sm_90",
            "max_threads_per_block": 1024,
            "max_shared_memory_per_block": 49152,
        }
    )
    with target, tvm.transform.PassContext(opt_level=3):
        mod = tvm.transform.Sequential(
            [
                relax.transform.LegalizeOps(),
                relax.transform.AnnotateTIROpPattern(),
                relax.transform.FoldConstant(),
                relax.transform.FuseOps(),
                relax.transform.FuseTIR(),
            ]
        )(mod)
    shutil.rmtree(OUT, ignore_errors=True)
    ms.relax_integration.tune_relax(
        mod,
        None,
        target,
        str(OUT),
        max_trials_global=8,
        num_trials_per_iter=4,
        op_names=["fused_matmul_add_relu"],
        runner=MadeUpTimes(),
        seed=0,
    )
    shutil.rmtree(OUT / "logs", ignore_errors=True)


if __name__ == "__main__":
    main()
