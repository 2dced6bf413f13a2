"""The kernel DB file: round trip of a real build, upserts, concurrent exporters, error paths."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from paths_support import DATA

from kernelscope.core.cli import main as cli
from kernelscope.core.errors import KernelscopeError
from kernelscope.core.kernel_db import DbEntry, KernelDB, export_workspace
from kernelscope.core.kernel_db.schema import KERNEL_CACHE_DDL

MODELS = DATA / "models"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def cnn(build_once):  # noqa: ANN001, ANN201 - the session fixture from conftest
    return build_once("small_cnn.onnx")


def test_real_workspace_round_trips_through_the_db(cnn, tmp_path: Path) -> None:
    db_path = tmp_path / "cache.db"
    times = {"max_pool2d_kernel": ("NVIDIA H200", 2500.0)}
    report = export_workspace(cnn, db_path, times=times)
    assert {c.status for c in report.changes} == {"added"}
    assert len(report.primary) == len(cnn.manifest.kernels)

    # What NNFusion itself runs: SELECT ... WHERE Identifier=? AND DeviceType=?
    conn = sqlite3.connect(db_path)
    ident = "MaxPool2,8,16,16;2,8,8,8floatfloatShape{2, 2}Strides{2, 2}Shape{0, 0}Shape{0, 0}"
    rows = conn.execute(
        "SELECT Key, Identifier, OpType, Attributes, Source, DeviceType, Function, Tags, Miscs "
        "FROM KernelCache WHERE Identifier = ? AND DeviceType = ?",
        (ident, "CUDA_GPU"),
    ).fetchall()
    assert len(rows) == 1
    key, _, op_type, attributes, source, _, function, tags, miscs = rows[0]
    assert (op_type, source) == ("MaxPool", "External")
    assert "BlockCudaEmitter" in tags.split(",")
    fn = json.loads(function)
    assert fn["grid_dim"] == [1, 1, 1] and fn["block_dim"] == [1024, 1, 1]
    assert fn["function_signature"] == 'extern "C" __global__  void (float* input0, float* output0)'
    assert fn["block_function_body"].splitlines()[:2] == [
        "float* pool_max_ptr = output0;",
        "float* lv3_ptr = input0;",
    ]
    assert json.loads(miscs)["external_profile"] == {
        "time": "NVIDIA H200:2.5000;",
        "resource": 1024,
    }
    assert json.loads(attributes)["parameters"]["window_shape"] == [2, 2]
    # Every row, usable or not: JSON columns parse, nothing is NULL.
    for row in conn.execute("SELECT * FROM KernelCache"):
        assert None not in row
        for col in (3, 6, 8):
            json.loads(row[col])
    flagged = conn.execute(
        "SELECT Identifier, Source, Tags FROM KernelCache WHERE Source != 'External'"
    )
    for identifier, _, tag_text in flagged:
        assert identifier.startswith("kernelscope:") and tag_text == ""
    conn.close()

    with KernelDB.open(db_path) as db:
        detail = db.get(key[:10])
        assert detail.kernel_name == "max_pool2d_kernel"
        assert detail.sources["src/kernels/max_pool2d_kernel.cu"] == cnn.source_text(
            "max_pool2d_kernel"
        )
        assert detail.sass and "// max_pool2d_kernel.cu:" in detail.sass
        assert detail.provenance["tvm_version"] == cnn.manifest.versions["tvm"]
        assert detail.time_us == pytest.approx(2.5)
        conv = db.list_entries(op="Convolution", shape=[2, 8, 16, 16])
        assert [e.kernel_name for e in conv] == ["fused_conv2d_add_relu_kernel"]
        assert db.get(conv[0].key).twins, "the CUDA copy for pattern substitution"
        assert db.count_entries(search="conv2d") == 1
        assert db.count_entries(usable=True) == 2
        assert db.count_entries(device="NVIDIA H200") == 1


def test_reexport_reports_what_changed(cnn, tmp_path: Path) -> None:
    db_path = tmp_path / "cache.db"
    export_workspace(cnn, db_path, ["max*"], {"max_pool2d_kernel": ("NVIDIA H200", 2500.0)})
    again = export_workspace(cnn, db_path, ["max*"], {"max_pool2d_kernel": ("NVIDIA H200", 2500.0)})
    assert [c.status for c in again.changes] == ["unchanged"]
    faster = export_workspace(
        cnn, db_path, ["max*"], {"max_pool2d_kernel": ("NVIDIA H200", 2000.0)}
    )
    assert [(c.status, c.changed) for c in faster.changes] == [
        ("updated", ["Miscs.external_profile"])
    ]
    with KernelDB.open(db_path) as db:
        assert db.count_entries() == 1
        assert db.list_entries()[0].time_us == pytest.approx(2.0)


def test_cli_export_list_show_delete(cnn, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    db = str(tmp_path / "k.db")
    assert cli.main(["export-db", str(cnn.path), "--db", db, "--kernels", "fused_conv2d*"]) == 0
    out = capsys.readouterr().out
    assert "1 usable by NNFusion" in out
    # The command that gives this conv+bias+relu kernel its per-channel bias.
    command = (
        f"NNFusion: nnfusion MODEL.onnx -f onnx -fkernel_cache_path={Path(db).resolve()} "
        "-fbiasadd_fix=true -fconst_folding_backend=CPU"
    )
    assert command in out
    assert cli.main(["db", "list", "--db", db, "--op", "Convolution", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [e["op_type"] for e in listed] == ["Fused_Convolution_Add_Relu"]
    assert cli.main(["db", "show", "--db", db, listed[0]["identifier"]]) == 0
    out = capsys.readouterr().out
    assert "syncthreads 4" in out and command in out
    assert cli.main(["db", "delete", "--db", db, listed[0]["key"][:12]]) == 0
    assert "deleted 2 rows" in capsys.readouterr().out  # the row and its CUDA copy
    assert cli.main(["db", "show", "--db", db, listed[0]["key"]]) == 1


def test_export_writes_the_model_nnfusion_should_compile(
    cnn, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    import onnx
    from onnx import numpy_helper

    db, out = tmp_path / "k.db", tmp_path / "for-nnfusion.onnx"
    args = ["export-db", str(cnn.path), "--db", str(db), "--nnfusion-model", str(out)]
    other = MODELS / "small_cnn_external.onnx"
    assert cli.main([*args, "--model", str(other)]) == 1
    assert "is not the model" in capsys.readouterr().err and not db.exists()
    product = ["--product-name", "NVIDIA H200"]
    assert cli.main([*args, "--model", str(MODELS / "small_cnn.onnx"), *product]) == 0
    text = capsys.readouterr().out
    assert f"nnfusion {out.resolve()} -f onnx" in text and "2 biases broadcast" in text
    # The copy needs no constant folding: its biases are constants of the output's shape.
    assert "-fbiasadd_fix=true\n" in text and "-fconst_folding_backend" not in text
    proto = onnx.load(str(out))
    inits = {i.name: numpy_helper.to_array(i) for i in proto.graph.initializer}
    with np.load(cnn.path / "params.npz") as stored:
        assert np.array_equal(inits["w1"], stored["w1"])
        assert np.array_equal(inits["w2"], stored["w2"])
        [bias] = [v for k, v in inits.items() if k.startswith("b1_")]
        assert bias.shape == (2, 8, 16, 16)
        assert np.array_equal(bias, np.broadcast_to(stored["b1"].reshape(1, 8, 1, 1), bias.shape))


def test_a_workspace_finds_its_model_where_it_was_built(
    cnn, tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kernelscope.core.build import BuildRequest, build_model
    from kernelscope.core.workspace import MANIFEST, Workspace

    model = tmp_path / "models" / "small_cnn.onnx"
    model.parent.mkdir()
    model.write_bytes((MODELS / "small_cnn.onnx").read_bytes())
    # built elsewhere (-o), from a copy: the build of ``cnn`` restored from the cache
    ws = build_model(BuildRequest(model=model, output=tmp_path / "builds" / "cnn.kscope"))
    assert ws.manifest.model_path == str(model.resolve())
    monkeypatch.chdir(tmp_path)  # neither beside the workspace nor in the current folder
    db, out = tmp_path / "k.db", tmp_path / "for-nnfusion.onnx"
    args = ["export-db", str(ws.path), "--db", str(db), "--nnfusion-model", str(out)]
    assert cli.main(args) == 0, capsys.readouterr().err
    assert out.is_file()
    # the recorded file changed since the build: said precisely, nothing written
    out.unlink()
    db.unlink()
    model.write_bytes(model.read_bytes() + b"\0")
    assert cli.main(args) == 1
    err = capsys.readouterr().err
    assert f"{model.resolve()}, where it was built from, has changed since the build" in err
    assert ws.manifest.model_sha256[:12] in err and "--model" in err
    assert not db.exists() and not out.exists()
    model.unlink()
    assert cli.main(args) == 1
    assert f"{model.resolve()}, where it was built from, is gone" in capsys.readouterr().err
    # a manifest written before the path was recorded still loads, and finds the model beside it
    manifest = json.loads((ws.path / MANIFEST).read_text())
    del manifest["model_path"]
    (ws.path / MANIFEST).write_text(json.dumps(manifest))
    old = Workspace.open(ws.path)
    assert old.manifest.model_path == ""
    beside = ws.path.parent / "small_cnn.onnx"
    beside.write_bytes((MODELS / "small_cnn.onnx").read_bytes())
    assert old.model_file() == beside.resolve()
    assert cli.main(args) == 0


@pytest.mark.slow
def test_a_torch_onnx_export_gets_its_nnfusion_model(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """torch.onnx's folded weights are graph inputs named onnx::Conv_N, which TVM names
    Conv_N: the copy for NNFusion takes their values by TVM's name."""
    import onnx
    from nnfusion_models import torch_style_cnn
    from onnx import numpy_helper

    from kernelscope.core.build import BuildRequest, build_model
    from kernelscope.core.kernel_db import model_coverage

    model = torch_style_cnn(tmp_path / "torch_cnn.onnx")
    ws = build_model(BuildRequest(model=model, output=tmp_path / "torch_cnn.kscope"))
    db, out = tmp_path / "k.db", tmp_path / "torch_cnn-nnfusion.onnx"
    args = ["export-db", str(ws.path), "--db", str(db), "--nnfusion-model", str(out)]
    assert cli.main(args) == 0, capsys.readouterr().err
    assert "4 graph inputs became initializers" in capsys.readouterr().out
    proto = onnx.load(str(out))
    assert [i.name for i in proto.graph.input] == ["input"]
    inits = {i.name: numpy_helper.to_array(i) for i in proto.graph.initializer}
    with np.load(ws.path / "params.npz") as stored:
        assert sorted(stored.files) == ["Conv_12", "Conv_13", "fc.bias", "fc.weight"]
        assert np.array_equal(inits["onnx::Conv_12"], stored["Conv_12"])
        assert np.array_equal(inits["fc.weight"], stored["fc.weight"])
    assert not model_coverage(out, db).graph.weights_as_inputs
    # built with the weights left as inputs, the copy cannot be written: the hint agrees
    runtime = build_model(
        BuildRequest(model=model, output=tmp_path / "runtime.kscope", params="runtime")
    )
    out.unlink()
    assert cli.main(["export-db", str(runtime.path), "--db", str(db), "--nnfusion-model",
                     str(out)]) == 1  # fmt: skip
    err = capsys.readouterr().err
    assert "'onnx::Conv_12'" in err and "built with --params runtime" in err
    assert "rebuild with --params random" in err and not out.exists()


@pytest.mark.slow
def test_the_nnfusion_copy_pads_a_ceil_mode_pool_that_nnfusion_would_get_wrong(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    import onnx
    from nnfusion_models import ceil_pool_cnn
    from onnx.reference import ReferenceEvaluator

    from kernelscope.core.build import BuildRequest, build_model
    from kernelscope.core.nnfusion.onnx_graph import nnfusion_graph

    model = ceil_pool_cnn(tmp_path / "pool.onnx", 6)
    assert nnfusion_graph(model).departures  # NNFusion would compute 2x2 instead of 3x3
    ws = build_model(BuildRequest(model=model, output=tmp_path / "pool.kscope"))
    out = tmp_path / "pool-nnfusion.onnx"
    args = ["export-db", str(ws.path), "--db", str(tmp_path / "k.db"), "--nnfusion-model", str(out)]
    assert cli.main(args) == 0, capsys.readouterr().err
    assert "pool: ceil_mode as -inf padding of 1x1 at the end" in capsys.readouterr().out
    proto = onnx.load(str(out))
    assert [n.op_type for n in proto.graph.node][:4] == ["Conv", "Add", "Relu", "Pad"]
    assert nnfusion_graph(proto).departures == []
    x = np.random.default_rng(1).standard_normal((1, 4, 6, 6)).astype(np.float32) - 2
    [want] = ReferenceEvaluator(str(model)).run(None, {"x": x})
    [got] = ReferenceEvaluator(proto).run(None, {"x": x})
    assert want.shape == got.shape == (1, 8, 3, 3) and np.allclose(want, got)


WRITER = textwrap.dedent(
    """
    import sys
    from kernelscope.core.kernel_db import DbEntry, KernelDB
    tag, rows = sys.argv[1], int(sys.argv[2])
    def entry(i):
        return DbEntry(key=f"{tag}-{i}", identifier=f"Relu{i};{i}floatfloat", op_type="Relu",
                       attributes={}, source="External", device_type="CUDA_GPU",
                       function={"function_body": "{}"}, tags=[], miscs={},
                       kernel_name=f"{tag}_{i}", usable=True, shapes=[[i]])
    for start in range(0, rows, 20):
        with KernelDB.open(sys.argv[3], write=True, timeout=60) as db:
            db.write([entry(i) for i in range(start, min(rows, start + 20))])
    """
)


def test_two_exporting_processes_lose_nothing(tmp_path: Path) -> None:
    db_path = tmp_path / "shared.db"
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, tag, "300", str(db_path)])
        for tag in ("a", "b")
    ]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    with KernelDB.open(db_path) as db:
        assert db.count_entries() == 600
        assert db.conn.execute("SELECT count(*) FROM KernelCache").fetchone()[0] == 600
        assert db.count_entries(search="a_299") == 1 and db.count_entries(shape=[150]) == 2
        assert db.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def _entry(key: str) -> DbEntry:
    return DbEntry(key, "Relu1;1floatfloat", "Relu", {}, "External", "CUDA_GPU", {}, [], {},
                   kernel_name="k", usable=True)  # fmt: skip


def test_locked_db_is_reported_and_left_alone(tmp_path: Path) -> None:
    db_path = tmp_path / "locked.db"
    with KernelDB.open(db_path, write=True) as db:
        db.write([_entry("first")])
    holder = sqlite3.connect(db_path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with (
            pytest.raises(KernelscopeError, match="locked by another program"),
            KernelDB.open(db_path, write=True, timeout=0.3) as db,
        ):
            db.write([_entry("second")])
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    with KernelDB.open(db_path) as db:
        assert [e.key for e in db.list_entries()] == ["first"]


def test_read_only_db_is_reported_and_left_alone(tmp_path: Path) -> None:
    db_path = tmp_path / "ro.db"
    with KernelDB.open(db_path, write=True) as db:
        db.write([_entry("first")])
    before = digest(db_path)
    db_path.chmod(0o444)
    immutable = False
    if os.geteuid() == 0:  # root ignores file modes; make the file immutable instead
        immutable = subprocess.run(["chattr", "+i", str(db_path)]).returncode == 0
        if not immutable:
            pytest.skip("running as root without chattr: cannot make a read-only file")
    try:
        with (
            pytest.raises(KernelscopeError, match="read-only"),
            KernelDB.open(db_path, write=True, timeout=0.3) as db,
        ):
            db.write([_entry("second")])
        with KernelDB.open(db_path) as db:  # reading still works
            assert db.count_entries() == 1
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(db_path)], check=True)
        db_path.chmod(0o644)
    assert digest(db_path) == before


def test_osdi20_artifact_db_is_explained_and_never_altered(tmp_path: Path) -> None:
    db_path = tmp_path / "osdi.db"
    conn = sqlite3.connect(db_path)
    conn.execute(
        "CREATE TABLE KernelCache(identifier TEXT NOT NULL, platform TEXT NOT NULL, "
        "function TEXT NOT NULL, tags TEXT DEFAULT '', profile TEXT DEFAULT '', "
        "resource INTEGER NOT NULL)"
    )
    conn.execute(
        "INSERT INTO KernelCache VALUES ('Dot11;11;11floatfloatfloat', 'CUDA', '{}', 'fast', '', 1)"
    )
    conn.commit()
    conn.close()
    before = digest(db_path)
    for write in (True, False):
        with pytest.raises(KernelscopeError, match="osdi20_artifact"):
            KernelDB.open(db_path, write=write)
    not_sqlite = tmp_path / "notes.db"
    not_sqlite.write_text("not a database, just text " * 100)
    with pytest.raises(KernelscopeError, match="not an SQLite database"):
        KernelDB.open(not_sqlite, write=True)
    assert digest(db_path) == before
    assert not_sqlite.read_text().startswith("not a database")


def test_db_written_by_convert_external_opens_and_accepts_exports(cnn, tmp_path: Path) -> None:
    db_path = tmp_path / "kernel_cache.db"
    conn = sqlite3.connect(db_path)
    conn.execute(KERNEL_CACHE_DDL)
    function = {"grid_dim": [8, 1, 1], "block_dim": [128, 1, 1], "num_syncthreads": 1}
    profile = {"external_profile": {"time": "Tesla V100-PCIE-16GB:12.5;", "resource": 1024}}
    conn.execute(
        "INSERT INTO KernelCache VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        ("{ body }", "Dot1,256;256,256;1,256floatfloatfloat", "Dot",
         json.dumps({"input_shape": [[1, 256], [256, 256]], "output_shape": [[1, 256]]}),
         "External", "CUDA_GPU", json.dumps(function),
         "KernelEmitter,CudaEmitter,BlockCudaEmitter",
         json.dumps(profile)),
    )  # fmt: skip
    conn.commit()
    conn.close()
    before = digest(db_path)
    with KernelDB.open(db_path) as db:
        assert db.kind == "nnfusion"
        [entry] = db.list_entries(shape="256,256", device="Tesla V100-PCIE-16GB")
        assert entry.op_type == "Dot" and entry.usable and entry.time_us == 12.5
        assert db.get("Dot1,256;256,256;1,256floatfloatfloat").function == function
    assert digest(db_path) == before, "reading must not change the file"
    export_workspace(cnn, db_path, ["max*"])
    with KernelDB.open(db_path) as db:
        assert db.kind == "kernelscope"
        assert sorted(e.op_type for e in db.list_entries()) == ["Dot", "MaxPool"]
