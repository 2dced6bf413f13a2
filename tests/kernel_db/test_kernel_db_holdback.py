"""The hold-back rule (issue 21, point 6): a row NNFusion could use but that is slower than
what NNFusion runs for the same operator without the DB (its cuDNN/cuBLAS call, measured on
the same GPU) is stored for browsing only, and every listing says it was held back."""

from __future__ import annotations

import gzip
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from paths_support import DATA, H200_REPORT

from kernelscope.core.cli import main as cli
from kernelscope.core.kernel_db import KernelDB, is_held_back
from kernelscope.core.kernel_db.holdback import times_from_projects
from kernelscope.core.workspace import Workspace

CONV = "fused_conv2d_add_relu_kernel"
POOL = "max_pool2d_kernel"


def _identifiers(db: Path) -> dict[str, str]:
    conn = sqlite3.connect(db)
    try:
        return dict(conn.execute(
            "SELECT OpType, Identifier FROM KernelCache WHERE DeviceType = 'CUDA_GPU' "
            "AND Source = 'External'"
        ).fetchall())  # fmt: skip
    finally:
        conn.close()


def test_a_row_slower_than_nnfusions_own_kernel_is_held_back(
    build_once: Callable[..., Workspace], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ws = build_once("small_cnn.onnx")
    plain = tmp_path / "plain.db"
    profile = ["--profile", str(H200_REPORT)]  # the H200's times: conv 6.1 µs, pool 2.7 µs
    assert cli.main(["export-db", str(ws.path), "--db", str(plain), *profile]) == 0
    ids = _identifiers(plain)
    conv_id, pool_id = ids["Fused_Convolution_Add_Relu"], ids["MaxPool"]
    times = tmp_path / "times.json"
    times.write_text(json.dumps({"device": "NVIDIA H200",
                                 "baseline": {conv_id: 3.0, pool_id: 5.0}}))  # fmt: skip
    capsys.readouterr()

    db = tmp_path / "held.db"
    argv = ["export-db", str(ws.path), "--db", str(db), *profile, "--hold-back-against", str(times)]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "1 held back: slower than NNFusion without them" in out.splitlines()[0]
    assert "HELD BACK: 6.14 µs (profile) against 3.00 µs of NNFusion's own kernel" in out
    # NNFusion sees the pool (faster than its own) but not the conv, nor its CUDA copy
    usable = _identifiers(db)
    assert usable == {"MaxPool": pool_id}
    with KernelDB.open(db) as kdb:
        rows = {e.kernel_name: e for e in kdb.list_entries()}
        conv = kdb.get(rows[CONV].key)
        pool = kdb.get(rows[POOL].key)
    assert not conv.usable and is_held_back(conv.reasons)
    assert conv.identifier.startswith("kernelscope:")  # NNFusion never computes it
    assert pool.usable and not is_held_back(pool.reasons)
    assert any("faster than NNFusion's own kernel on NVIDIA H200: 2.66 µs" in n for n in pool.notes)

    assert cli.main(["db", "list", "--db", str(db)]) == 0
    listing = {line.split()[2]: line for line in capsys.readouterr().out.splitlines()[1:-1]}
    assert listing[CONV].endswith("held back") and listing[POOL].endswith("yes")
    assert cli.main(["db", "show", "--db", str(db), conv.key]) == 0
    assert "NNFusion     held back (slower than NNFusion without it" in capsys.readouterr().out


def test_rows_without_a_time_on_that_gpu_are_not_compared(
    build_once: Callable[..., Workspace], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ws = build_once("small_cnn.onnx")
    plain = tmp_path / "plain.db"
    assert cli.main(["export-db", str(ws.path), "--db", str(plain)]) == 0
    conv_id = _identifiers(plain)["Fused_Convolution_Add_Relu"]
    times = tmp_path / "times.json"
    # another GPU's profile, or none: the row keeps its place, with a note saying why
    times.write_text(json.dumps({"device": "NVIDIA H200", "baseline": {conv_id: 0.5}}))
    db = tmp_path / "db.db"
    assert cli.main(["export-db", str(ws.path), "--db", str(db),
                     "--hold-back-against", str(times)]) == 0  # fmt: skip
    assert "held back" not in capsys.readouterr().out.splitlines()[0]
    with KernelDB.open(db) as kdb:
        conv = kdb.get(next(e.key for e in kdb.list_entries() if e.kernel_name == CONV))
    assert conv.usable
    said = "not compared: no time of this kernel on NVIDIA H200"
    assert any(n.startswith(said) for n in conv.notes)
    # the DB's kernel timed inside NNFusion's own project ("rows") is what counts first
    times.write_text(json.dumps({"device": "NVIDIA H200", "baseline": {conv_id: 5.0},
                                 "rows": {conv_id: 7.5}}))  # fmt: skip
    assert cli.main(["export-db", str(ws.path), "--db", str(tmp_path / "rows.db"),
                     "--hold-back-against", str(times)]) == 0  # fmt: skip
    assert "HELD BACK: 7.50 µs (NNFusion's project with the DB)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("not json", "not JSON"),
        ('{"baseline": {"x": 1}}', 'no "device"'),
        ('{"device": "NVIDIA H200", "baseline": {"x": -1}}', "positive microseconds"),
        ('{"device": "NVIDIA H200", "baseline": {}}', "no device or no baseline times"),
    ],
)
def test_bad_times_say_what_is_wrong_and_write_nothing(
    build_once: Callable[..., Workspace],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    text: str,
    said: str,
) -> None:
    ws = build_once("small_cnn.onnx")
    times = tmp_path / "times.json"
    times.write_text(text)
    db = tmp_path / "db.db"
    assert cli.main(["export-db", str(ws.path), "--db", str(db),
                     "--hold-back-against", str(times)]) != 0  # fmt: skip
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err
    assert not db.exists()


OPTIMES = DATA / "nnfusion_h200" / "optimes"
STEM = "Convolution1,3,224,224;64,3,7,7;1,64,112,112floatfloatfloatStrides{2, 2}Strides{1, 1}"


def test_nnfusions_own_times_per_identifier_from_its_project() -> None:
    """ResNet-50's project NNFusion generated without a DB, each operator call timed on the
    H200 (nnfusion_optimes.py): a Convolution is its cuDNN call, a Convolution+Add+Relu that
    call plus its share of the element-wise kernel that adds the bias and applies the Relu."""
    source = gzip.decompress((OPTIMES / "resnet50_nodb_nnfusion_rt.cu.gz").read_bytes()).decode()
    measured = json.loads((OPTIMES / "resnet50_nodb_optimes.json").read_text())
    ops = {o["name"]: o["median_us"] for o in measured["operators"]}
    times = times_from_projects(source, measured["operators"], measured["device"])
    assert times.device == "NVIDIA H200"
    stem = STEM + "CoordinateDiff{3, 3}"
    out = "1,64,112,112;"
    assert times.baseline[stem] == pytest.approx(ops["Convolution_109"])
    pattern = stem + f"Add{out}{out}1,64,112,112floatfloatfloatRelu{out}1,64,112,112floatfloat"
    # its own fused Add+Relu kernel
    assert times.baseline[pattern] == pytest.approx(
        ops["Convolution_109"] + ops["ElementWiseFused_286"]
    )
    # a block-fused element-wise kernel serving two convolutions: half of it
    one_by_one = next(k for k in times.baseline if k.startswith(
        "Convolution1,64,56,56;64,64,1,1;1,64,56,56") and "Relu" in k)  # fmt: skip
    assert times.baseline[one_by_one] == pytest.approx(
        ops["Convolution_113"] + ops["blockfusion_kernel_335"] / 2
    )
    # every Convolution+Add+Relu row ResNet-50's DB can give NNFusion has its baseline
    compiled = json.loads((DATA / "nnfusion_h200" / "resnet50.coverage.json").read_text())
    wanted = {
        i["identifier"]
        for i in compiled["lookups"]
        if i["op_type"] == "Fused_Convolution_Add_Relu" and i["device_type"] == "CUDA_GPU"
    }
    assert len(wanted) == 16 and wanted <= set(times.baseline)
    assert times.rows == {}


def test_the_db_kernels_are_matched_to_their_operators_by_the_tensor_they_write() -> None:
    """The same model compiled with the tuned DB (its operator calls timed the same way): each
    of NNFusion's Matched_Pattern calls (a DB row) is the operator whose Relu output it
    writes in the project without the DB, so both times meet under one identifier."""
    source = gzip.decompress((OPTIMES / "resnet50_nodb_nnfusion_rt.cu.gz").read_bytes()).decode()
    nodb = json.loads((OPTIMES / "resnet50_nodb_optimes.json").read_text())
    db = json.loads((OPTIMES / "resnet50_db_optimes.json").read_text())
    times = times_from_projects(source, nodb["operators"], nodb["device"], db["operators"])
    patterns = [o for o in db["operators"] if o["name"] == "Matched_Pattern"]
    stem_call = next(o for o in patterns if "Parameter_108_0" in o["call"])  # the 7x7 stem
    out = "1,64,112,112;"
    stem = STEM + "CoordinateDiff{3, 3}"
    pattern = stem + f"Add{out}{out}1,64,112,112floatfloatfloatRelu{out}1,64,112,112floatfloat"
    assert times.rows[pattern] == pytest.approx(stem_call["median_us"])
    assert set(times.rows) <= {k for k in times.baseline if "Relu" in k}
    assert len(times.rows) == 15  # every Convolution+Add+Relu NNFusion took from the DB
