"""``kernelscope tune-merge OUT DB [DB ...]``: databases merged through TVM's API (a record
points at its workload by line number), builds from the merged records apply both, a record
is never doubled, and databases that do not belong together are refused with OUT untouched."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_support import run_cli
from paths_support import DATA, DLIGHT_DB, STOCK_DB

from kernelscope.core.build import BuildRequest, build_model
from kernelscope.core.build.records import META, RECORDS, WORKLOADS
from kernelscope.core.errors import KernelscopeError
from kernelscope.core.tuning.merge import merge_in_child
from kernelscope.core.tuning.plan import count_records

MODELS = DATA / "models"
# small_cnn's max_pool2d default schedule as a record (data/tuning/make_dlight_pool_db.py);
# DLIGHT_DB holds its conv's
POOL_DB = DATA / "tuning" / "dlight_small_cnn_pool"
CONV = "14344691047842870003"  # the workloads' structural hashes
POOL = "6885481454407635818"


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_merging_two_databases_holds_both_and_merging_again_doubles_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "merged"
    rc, said, _ = run_cli(["tune-merge", out, DLIGHT_DB, POOL_DB], capsys)
    assert rc == 0
    assert "records added: 2 (0 already there); 2 records of 2 tasks" in said
    assert sum(count_records(out).values()) == 2
    assert len((out / WORKLOADS).read_text().splitlines()) == 2
    meta = json.loads((out / META).read_text())
    assert meta["arch"] == "sm_90" and meta["models"] == ["small_cnn.onnx"]
    assert set(meta["defaults"]) == {CONV, POOL}
    assert meta["default_records"] == [POOL]
    assert [Path(f).name for f in meta["merged"][0]["from"]] == [DLIGHT_DB.name, POOL_DB.name]
    before = _snapshot(out)

    # again, into the merged one (continued): nothing added, nothing changed
    result = merge_in_child(out, [POOL_DB, DLIGHT_DB])
    assert (result["records"], result["duplicates"], result["total"]) == (0, 2, 2)
    assert _snapshot(out) == before
    assert not list(tmp_path.glob(".merged*"))  # no temporary folder left


def test_adding_a_database_to_an_existing_one_continues_it(tmp_path: Path) -> None:
    out = tmp_path / "db"
    shutil.copytree(DLIGHT_DB, out)
    (out / "kernelscope_cost_model").write_bytes(b"kept")  # a tuning run's, beside the records
    result = merge_in_child(out, [POOL_DB])
    assert (result["records"], result["total"]) == (1, 2)
    assert (out / "kernelscope_cost_model").read_bytes() == b"kept"
    assert set(json.loads((out / META).read_text())["defaults"]) == {CONV, POOL}


def test_a_database_an_interrupted_merge_moved_aside_is_put_back(tmp_path: Path) -> None:
    """A merge killed between moving OUT aside and renaming the new one into place left
    OUT missing and the user's records in ``.OUT.old``: the next merge treated OUT as new
    and the older records were out of sight. It now puts them back first and continues."""
    out = tmp_path / "db"
    shutil.copytree(DLIGHT_DB, tmp_path / ".db.old")  # the state such a kill leaves
    result = merge_in_child(out, [POOL_DB])
    assert (result["records"], result["total"]) == (1, 2)
    assert set(json.loads((out / META).read_text())["defaults"]) == {CONV, POOL}
    assert not (tmp_path / ".db.old").exists()
    # killed after the swap, before the previous folder was removed: that one just goes
    shutil.copytree(DLIGHT_DB, tmp_path / ".db.old")
    before = _snapshot(out)
    assert merge_in_child(out, [POOL_DB])["total"] == 2
    assert _snapshot(out) == before and not (tmp_path / ".db.old").exists()


@pytest.mark.slow
def test_a_build_from_merged_records_applies_both_as_compile_relax_does(tmp_path: Path) -> None:
    from tvm.s_tir import meta_schedule as ms

    from kernelscope.core.build import records
    from kernelscope.core.build.cuda_source import cuda_source
    from kernelscope.core.build.model_loader import load_model
    from kernelscope.core.build.split_cuda import split_module

    out = tmp_path / "merged"
    merge_in_child(out, [DLIGHT_DB, POOL_DB])
    ws = build_model(
        BuildRequest(model=MODELS / "small_cnn.onnx", output=tmp_path / "c.kscope", tuning_db=out)
    )
    from_record = {k.primfunc for k in ws.manifest.kernels if k.tuned is not None}
    assert from_record == {"fused_conv2d_add_relu", "max_pool2d"}
    pool = next(k for k in ws.manifest.kernels if k.primfunc == "max_pool2d")
    assert pool.tuned is not None and pool.tuned.default_kept  # its notes merged too

    mod = load_model(MODELS / "small_cnn.onnx", {}, "random", 0).mod
    database = ms.database.JSONDatabase(work_dir=str(out), module_equality="structural")
    stock = ms.relax_integration.compile_relax(database, mod, records.cuda_target("sm_90"), None)

    def kernels(source: str) -> dict[str, str]:
        return {k.name: k.text for k in split_module(source).kernels}

    ours = (ws.path / "src" / "tvm_kernels.cu").read_text()
    assert kernels(cuda_source(stock)) == kernels(ours)


def _with_meta(tmp_path: Path, name: str, **changes: object) -> Path:
    db = tmp_path / name
    shutil.copytree(POOL_DB, db)
    meta = json.loads((db / META).read_text())
    meta.update(changes)
    (db / META).write_text(json.dumps(meta))
    return db


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"tvm": "0.19.0"}, r"other: these records were tuned with TVM 0.19.0; this is TVM 0.27"),
        (
            {"arch": "sm_80"},
            r"other: these records were tuned for sm_80; those of .*out were tuned for sm_90",
        ),
        (
            {"runs": [{"measure": "batch round 1 on NVIDIA A100-SXM4-80GB", "tasks": []}]},
            r"other: these records were measured on NVIDIA A100-SXM4-80GB; those of .*out were "
            r"measured on NVIDIA H200",
        ),
    ],
)
def test_databases_that_do_not_belong_together_are_refused_and_out_is_untouched(
    tmp_path: Path, changes: dict[str, object], message: str
) -> None:
    out = tmp_path / "out"
    shutil.copytree(DLIGHT_DB, out)
    meta = json.loads((out / META).read_text())
    meta["runs"] = [{"measure": "batch round 1 on NVIDIA H200", "tasks": []}]
    (out / META).write_text(json.dumps(meta))
    before = _snapshot(out)
    other = _with_meta(tmp_path, "other", **changes)
    with pytest.raises(KernelscopeError, match=message):
        merge_in_child(out, [other])
    assert _snapshot(out) == before


def test_the_same_gpu_measured_twice_merges(tmp_path: Path) -> None:
    run = [{"measure": "batch round 1 on NVIDIA H200", "tasks": []}]
    a = _with_meta(tmp_path, "a", runs=run)
    result = merge_in_child(tmp_path / "out", [DLIGHT_DB, a])
    assert result["records"] == 2
    assert json.loads((tmp_path / "out" / META).read_text())["runs"] == run


def test_records_of_another_target_without_notes_are_refused_in_the_child(tmp_path: Path) -> None:
    """A database stock TVM wrote has no notes: the target its records name is checked."""
    cpu = tmp_path / "cpu"
    shutil.copytree(STOCK_DB, cpu)
    lines = []
    for line in (cpu / RECORDS).read_text().splitlines():
        record = json.loads(line)
        record[1][2] = {"kind": "llvm", "keys": ["cpu"], "tag": "", "mcpu": "", "mtriple": ""}
        lines.append(json.dumps(record))
    (cpu / RECORDS).write_text("\n".join(lines) + "\n")
    with pytest.raises(KernelscopeError, match=r"cpu: these records were tuned for cpu; those of"):
        merge_in_child(tmp_path / "out", [DLIGHT_DB, cpu])
    assert not (tmp_path / "out").exists()
    assert not list(tmp_path.glob(".out*"))


def test_a_folder_that_is_not_a_database_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, _, err = run_cli(["tune-merge", tmp_path / "out", tmp_path], capsys)
    assert rc != 0
    assert "not a tuning database" in err
    assert not (tmp_path / "out").exists()
