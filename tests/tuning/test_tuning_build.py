"""``build --tuning-db``: records applied exactly as TVM's compile_relax applies them, the
manifest saying which kernels came from a record, and the databases that must be refused."""

from __future__ import annotations

import json
import runpy
import shutil
from pathlib import Path

import pytest
from paths_support import DATA, STOCK_DB

from kernelscope.core.build import BuildRequest, build_model
from kernelscope.core.build.pipeline import plan_build
from kernelscope.core.errors import KernelscopeError

MODELS = DATA / "models"


@pytest.mark.slow
def test_a_stock_tvm_database_applies_and_the_manifest_says_which_kernels(tuned_ws: object) -> None:
    manifest = tuned_ws.manifest  # type: ignore[attr-defined]
    tuned = {k.primfunc: k.tuned for k in manifest.kernels}
    assert tuned["fused_matmul_add_relu"] is not None
    assert tuned["fused_matmul_add_relu"].trials >= 1
    assert tuned["fused_matmul_add_relu"].best_us == pytest.approx(96.0)
    assert tuned["softmax"] is None  # no record: the default schedule
    assert manifest.tuning_db == str(STOCK_DB.resolve())


@pytest.mark.slow
def test_kernels_equal_compile_relax_with_the_same_database(tuned_ws: object) -> None:
    from tvm.s_tir import meta_schedule as ms

    from kernelscope.core.build import records
    from kernelscope.core.build.cuda_source import cuda_source

    mod = runpy.run_path(str(MODELS / "tiny_mlp.py"))["mod"]
    database = ms.database.JSONDatabase(work_dir=str(STOCK_DB))
    stock = ms.relax_integration.compile_relax(database, mod, records.cuda_target("sm_90"), None)
    ours = (tuned_ws.path / "src" / "tvm_kernels.cu").read_text()  # type: ignore[attr-defined]
    assert cuda_source(stock) == ours
    # a runtime module, as MetaSchedule's builder hands a candidate to tuning.batch's export
    assert cuda_source(stock.mod) == ours
    untuned = ms.relax_integration.compile_relax(
        ms.database.MemoryDatabase(), mod, records.cuda_target("sm_90"), None
    )
    assert cuda_source(untuned) != ours  # the record changed a kernel


def test_the_kernel_table_says_the_tuning_times_are_not_profiled_times(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``kernelscope kernels`` of a real tuned build (SqueezeNet's conv, 8 trials on the
    H200, trimmed to that kernel): its schedule column shows the tuning's times, which a
    reader would set against ncu's; it says they were taken at another clock."""
    from cli_support import run_cli

    rc, out, _ = run_cli(["kernels", DATA / "kernel_db" / "cp_async"], capsys)
    assert rc == 0 and "record: 8 trials, 21.66 µs (default 53.75)" in out
    assert (
        "schedule µs: tuning times are MetaSchedule's own (the kernel alone, the GPU at its "
        "boost clock), profiled times Nsight Compute's with clocks locked to base"
    ) in out


def test_a_module_without_cuda_is_refused_in_the_callers_words() -> None:
    import tvm

    from kernelscope.core.build.cuda_source import NO_CUDA_IN_BUILD, cuda_source

    library = tvm.runtime.system_lib()  # a real module that imports nothing
    with pytest.raises(KernelscopeError, match="^TVM's build holds no CUDA module") as caught:
        cuda_source(library)
    assert caught.value.message == NO_CUDA_IN_BUILD
    with pytest.raises(KernelscopeError, match="^a CUDA candidate holds no CUDA module$"):
        cuda_source(library, missing="a CUDA candidate holds no CUDA module")


@pytest.mark.slow
def test_default_schedules_as_records_build_what_a_build_without_records_builds(
    tmp_path: Path,
) -> None:
    """What a tuning run commits for each task's default (DLight) schedule: records that
    apply, and the kernels are DLight's (dlight_small_cnn/ is such a record too)."""
    import tvm
    from tvm.s_tir import meta_schedule as ms

    from kernelscope.core.build import records
    from kernelscope.core.build.cuda_source import cuda_source
    from kernelscope.core.build.model_loader import load_model
    from kernelscope.core.build.split_cuda import split_module
    from kernelscope.core.cli.build import schedule_of

    mod = load_model(MODELS / "small_cnn.onnx", {}, "random", 0).mod
    target = records.cuda_target("sm_90")
    database = records.open_database(tmp_path, create=True)
    tasks = ms.relax_integration.extract_tasks(records.fused_module(mod, target), target)
    for task in tasks:
        assert records.commit_default_record(database, task.dispatched[0], target, [1e-6])
    applied = records.Applied()
    pipeline = records.database_pipeline(target, applied)
    with target, database, tvm.transform.PassContext(opt_level=3):
        ours = tvm.relax.build(mod, target, relax_pipeline=pipeline)
    untuned = ms.relax_integration.compile_relax(ms.database.MemoryDatabase(), mod, target, None)
    assert sorted(applied.from_record) == sorted(t.task_name for t in tasks)

    def kernels(executable: object) -> dict[str, str]:  # (the forward declarations' order
        split = split_module(cuda_source(executable))  # follows the functions' in the module)
        return {k.name: k.text for k in split.kernels}

    assert kernels(ours) == kernels(untuned)

    # with kernelscope's notes naming them (a tuning run's), a build says the defaults were
    # kept: no candidate beat them (here: none was measured)
    workloads = [records.workload_hash(t.dispatched[0]["main"]) for t in tasks]
    meta = {"defaults": dict.fromkeys(workloads, 1.0), "default_records": workloads}
    (tmp_path / records.META).write_text(json.dumps(meta))
    ws = build_model(
        BuildRequest(
            model=MODELS / "small_cnn.onnx", output=tmp_path / "k.kscope", tuning_db=tmp_path
        )
    )
    launched = [k for k in ws.manifest.kernels if k.launched]
    assert launched and all(k.tuned and k.tuned.default_kept for k in launched)
    assert schedule_of(launched[0]) == (
        "default schedule kept (no candidate beat it: best none ran vs default 1 µs)"
    )


@pytest.mark.slow
def test_records_for_another_model_apply_to_nothing_and_say_so(tmp_path: Path) -> None:
    request = BuildRequest(
        model=MODELS / "small_cnn.onnx", output=tmp_path / "cnn.kscope", tuning_db=STOCK_DB
    )
    with pytest.raises(KernelscopeError, match="none of the records .* is for a kernel of"):
        build_model(request)
    assert not (tmp_path / "cnn.kscope").exists()  # no default build in its place


@pytest.mark.slow
def test_records_for_another_gpu_are_refused_naming_it(tmp_path: Path) -> None:
    request = BuildRequest(
        model=MODELS / "tiny_mlp.py", output=tmp_path / "a.kscope", arch="sm_80", tuning_db=STOCK_DB
    )
    with pytest.raises(KernelscopeError, match="tuned for sm_90; this build is for sm_80"):
        build_model(request)


def test_records_from_another_tvm_version_are_refused_naming_it(tmp_path: Path) -> None:
    from kernelscope.core.build import records

    db = tmp_path / "db"
    shutil.copytree(STOCK_DB, db)
    (db / records.META).write_text('{"tvm": "0.19.0"}', encoding="utf-8")
    with pytest.raises(KernelscopeError, match="tuned with TVM 0.19.0; this is TVM 0.27"):
        records.check_compatible(db, records.open_database(db), "sm_90", "0.27.0.post1")


def test_records_tuned_for_the_cpu_are_refused_naming_it(tmp_path: Path) -> None:
    """The fused functions are the same on every target, so CPU records (kernelscope tune
    --target cpu) match every kernel, yet hold no CUDA schedule: a build from them would
    quietly be all default schedules."""
    import json

    from kernelscope.core.build import records

    db = tmp_path / "db"
    shutil.copytree(STOCK_DB, db)
    lines = []
    for line in (db / "database_tuning_record.json").read_text().splitlines():
        record = json.loads(line)
        record[1][2] = {"kind": "llvm", "keys": ["cpu"], "tag": "", "mcpu": "", "mtriple": ""}
        lines.append(json.dumps(record))
    (db / "database_tuning_record.json").write_text("\n".join(lines) + "\n")
    with pytest.raises(KernelscopeError, match=r"tuned for llvm \(not a GPU\); this build is for"):
        records.check_compatible(db, records.open_database(db), "sm_90", "0.27.0.post1")


def test_a_folder_without_records_is_not_a_tuning_database(tmp_path: Path) -> None:
    request = BuildRequest(
        model=MODELS / "tiny_mlp.py", output=tmp_path / "a.kscope", tuning_db=tmp_path
    )
    with pytest.raises(KernelscopeError, match="not a tuning database"):
        plan_build(request)


@pytest.mark.slow
def test_the_kernel_table_says_which_schedule_each_kernel_has(
    tuned_ws: object, capsys: pytest.CaptureFixture[str]
) -> None:
    from kernelscope.core.cli.build import print_kernel_table

    print_kernel_table(tuned_ws)  # type: ignore[arg-type]
    lines = capsys.readouterr().out.splitlines()
    row = next(ln for ln in lines if ln.startswith("fused_matmul_add_relu_kernel"))
    assert "record: 8 trials, 96.00 µs" in row
    softmax = next(ln for ln in lines if ln.startswith("softmax_kernel")).split()
    assert softmax[softmax.index("nn.softmax") + 1] == "default"  # the schedule column
    assert any(ln.startswith("1 of 5 kernels from tuning records") for ln in lines)
