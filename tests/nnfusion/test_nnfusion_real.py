"""The kernel DB read by the real NNFusion compiler ($KERNELSCOPE_NNFUSION; skipped without).

Small models built with TVM here, exported, then compiled by NNFusion with the command line
kernelscope prints: every row kernelscope marks usable is used (its body is in the generated
code), no row it keeps from NNFusion is fetched, what kernelscope predicts NNFusion looks up
is what NNFusion logs, --build-missing leaves nothing NNFusion could take from the DB to its
own kernels, and two rows for one identifier are chosen as NNFusion's source says.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import shlex
import subprocess
from pathlib import Path

import numpy as np
import onnx
import pytest
from nnfusion_models import (
    ceil_pool_cnn,
    nnfusion_binary,
    relu_pair,
    residual_cnn,
    resnet50_head,
    run_printed,
    single_relu,
    square_gemm,
    square_matmul,
    squeezenet_expand3x3,
)
from onnx import numpy_helper
from paths_support import DATA

from kernelscope.core.build import BuildRequest, build_model
from kernelscope.core.cli import main as cli
from kernelscope.core.kernel_db import KernelDB, compile_with_db, model_coverage
from kernelscope.core.kernel_db.export import entries_for_kernel, export_workspace
from kernelscope.core.nnfusion.command import Flags
from kernelscope.core.nnfusion.compiler import run_nnfusion
from kernelscope.core.toolchain.find import find_tool

MODELS = DATA / "models"
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def binary() -> Path:
    return nnfusion_binary()


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, binary: Path):  # noqa: ANN201
    """``built(maker)`` -> (model path, workspace), each model built once per module."""
    root = tmp_path_factory.mktemp("nnf-models")
    done: dict[str, tuple[Path, object]] = {}

    def build(maker) -> tuple[Path, object]:  # noqa: ANN001
        name = maker.__name__
        if name not in done:
            model = maker(root / f"{name}.onnx")
            ws = build_model(BuildRequest(model=model, output=root / f"{name}.kscope"))
            done[name] = (model, ws)
        return done[name]

    return build


def printed_command(out: str) -> list[str]:
    line = next(ln for ln in out.splitlines() if ln.startswith("NNFusion: "))
    return shlex.split(line.removeprefix("NNFusion: "))


def _bodies(db_path: Path) -> dict[str, tuple[bool, str, str]]:
    """key -> (usable, identifier, whitespace-free block body) of every CUDA_GPU row."""
    with KernelDB.open(db_path) as db:
        rows = [r for r in db.cache_rows() if r.device_type == "CUDA_GPU"]
        functions = db.functions(r.key for r in rows)
    return {
        r.key: (
            r.usable and r.source == "External",
            r.identifier,
            "".join(functions[r.key]["block_function_body"].split()),
        )
        for r in rows
    }


def test_every_usable_row_is_used_with_the_printed_command(
    built, binary: Path, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    model, ws = built(residual_cnn)
    db, copy = tmp_path / "k.db", tmp_path / "for-nnfusion.onnx"
    args = ["export-db", str(ws.path), "--db", str(db), "--nnfusion-model", str(copy)]
    assert cli.main([*args, "--model", str(model)]) == 0
    argv = printed_command(capsys.readouterr().out)
    assert argv[1] == str(copy.resolve()) and argv[-1] == "-fbiasadd_fix=true"  # no folding
    rc, log, code = run_printed(argv, binary, tmp_path / "nnf")
    assert rc == 0, log.last_lines()
    flat = "".join(code.split())
    rows = _bodies(db)
    usable = [b for ok, _, b in rows.values() if ok]
    assert len(usable) >= 3  # conv+bias+relu, the padded MaxPool, TVM's mean as AvgPool
    assert all(b in flat for b in usable), "a row marked usable was not used"
    kept = {ident for ok, ident, _ in rows.values() if not ok}
    assert not {i for i, _ in log.fetched} & kept
    # What kernelscope says NNFusion looks up is what it looked up.
    cov = model_coverage(copy, db)
    assert {(i.identifier, i.lookup.device_type) for i in cov.items} == set(log.kernel_lookups())
    assert cov.counts()["covered"] == sum(1 for k in log.kernel_lookups() if k in log.fetched)
    # -fbiasadd_fix: the bias constant of conv1+bias+relu holds the bias in its first 16
    # elements (the TVM kernel reads bias[c]); without it they would all be bias[0].
    b1 = numpy_helper.to_array(next(i for i in onnx.load(str(model)).graph.initializer
                                    if i.name == "b1"))  # fmt: skip
    constants = [np.fromfile(p, dtype=np.float32) for p in (tmp_path / "nnf").rglob("*.bin")]
    assert any(c.size == 16 * 16 * 16 and np.allclose(c[:16], b1) for c in constants)


def test_build_missing_leaves_nnfusion_nothing_to_take_elsewhere(
    built, binary: Path, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    model, ws = built(residual_cnn)
    db = tmp_path / "k.db"
    assert cli.main(["export-db", str(ws.path), "--db", str(db)]) == 0
    capsys.readouterr()
    args = ["nnfusion-coverage", str(model), "--db", str(db), "--build-missing", "--json"]
    assert cli.main([*args, "--workspace", str(tmp_path / "missing.kscope")]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["before"]["missing"] >= 3  # the 1x1 Convolution, the Dot, the Add
    assert report["counts"]["missing"] == 0 and report["counts"]["wrong"] == 0
    assert not report["skipped"]
    built_ops = {lk["op_type"] for lk in report["lookups"] if lk["identifier"] in report["built"]}
    assert {"Convolution", "Dot", "Add"} <= built_ops
    compiled = compile_with_db(model, db, tmp_path / "nnf")
    assert len(compiled.used) == len(compiled.usable) >= 6
    # Everything NNFusion found no row for is a type it never takes from a DB.
    assert {i.split(",")[0].rstrip("0123456789") for i, _ in compiled.missed} <= {
        "Reshape", "ElementWiseFused",
    }  # fmt: skip
    cov = model_coverage(model, db)
    assert {(i.identifier, i.lookup.device_type) for i in cov.items} == set(
        compiled.run.log.kernel_lookups()
    )


def test_build_missing_serves_the_transposed_dot_of_resnet50s_head(
    binary: Path, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """The Gemm (transB) of a torch-exported ResNet-50, ``Dot1,2048;1000,2048;1,1000``: TVM's
    GEMV for it keeps x in a ``float4`` shared array, which NNFusion cannot size. The row
    hands NNFusion the array as floats and the body a float4 pointer into them: NNFusion
    takes it, and the kernel as NNFusion wrote it compiles."""
    model = resnet50_head(tmp_path / "head.onnx")
    db = tmp_path / "k.db"
    args = ["nnfusion-coverage", str(model), "--db", str(db), "--build-missing", "--json"]
    assert cli.main([*args, "--workspace", str(tmp_path / "missing.kscope")]) == 0
    report = json.loads(capsys.readouterr().out)
    dot = "Dot1,2048;1000,2048;1,1000floatfloatfloat"
    assert dot in report["built"] and not report["skipped"]
    assert report["counts"]["missing"] == 0 and report["counts"]["flagged"] == 0
    compiled = compile_with_db(model, db, tmp_path / "nnf")
    assert (dot, "CUDA_GPU") in compiled.run.log.fetched
    assert not [m for m in compiled.missed if m[0].startswith("Dot")]
    code = "".join(compiled.run.generated_code().values())
    assert "float4* p2_shared_ptr = (float4*)p2_shared_ptr_float;" in code
    _compiles(_kernel_around(code, "p2_shared_ptr_float"), tmp_path)


def _kernel_around(code: str, marker: str) -> str:
    """The ``__global__`` function of NNFusion's generated code that holds ``marker``."""
    start = code.rindex('extern "C" __global__', 0, code.index(marker))
    depth, end = 0, code.index("{", start)
    while True:
        depth += {"{": 1, "}": -1}.get(code[end], 0)
        if depth == 0:
            break
        end += 1
    return code[start : end + 1]


def _compiles(kernel: str, tmp_path: Path) -> None:
    """nvcc compiles one kernel of NNFusion's code (the rest of its file needs cuDNN's
    headers)."""
    src = tmp_path / "kernel.cu"
    src.write_text("#include <cuda_runtime.h>\n#include <stdint.h>\n" + kernel)
    nvcc = find_tool("nvcc")
    if not nvcc.found:
        pytest.skip("nvcc not found")
    done = subprocess.run(
        [str(nvcc.require()), "-arch=sm_90", "-c", str(src), "-o", str(tmp_path / "k.o")],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]


def test_ambiguous_dot_rows_are_kept_from_nnfusion_until_allowed(
    built, binary: Path, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """TVM's x·W kernel for a square W has the identifier a Gemm with transB=1 (x·Wᵀ) looks
    up; NNFusion would run it for the Gemm, as the allowed row shows."""
    _, ws = built(square_matmul)
    gemm = square_gemm(tmp_path / "gemm.onnx")
    db = tmp_path / "k.db"
    assert cli.main(["export-db", str(ws.path), "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "A·Bᵀ" in out and "--allow-ambiguous" in out
    [item] = model_coverage(gemm, db).items
    assert item.status == "flagged"
    assert item.row is not None and item.row.attributes["parameters"]["transpose_B"] is False
    assert cli.main(["export-db", str(ws.path), "--db", str(db), "--allow-ambiguous"]) == 0
    [item] = model_coverage(gemm, db).items
    assert item.status == "wrong" and "A·Bᵀ" in item.why
    run = run_nnfusion(gemm, db, tmp_path / "nnf", Flags())
    body = _bodies(db)[item.row.key][2]
    assert body in "".join("".join(run.generated_code().values()).split()), (
        "NNFusion takes the x·W row for the x·Wᵀ Gemm, as coverage said"
    )


def test_nnfusion_ranks_rows_by_time_only_in_block_fusion_with_the_product_name(
    built, binary: Path, tmp_path: Path
) -> None:
    """Two rows for one identifier, the slower written first. NNFusion's kernel selection
    takes the first External row, whatever its time; block fusion re-picks the row with the
    smallest time x resource under -fproduct_name when kernels running side by side need
    more than 4 x 80 blocks (two Relus of 1x64x112x112 here)."""
    pair, ws = built(relu_pair)
    single = single_relu(tmp_path / "single.onnx")
    [kernel] = [k for k in ws.manifest.kernels if k.launched]

    def variant(tag: str, ns: float):  # noqa: ANN202
        entry = entries_for_kernel(ws, kernel, ("NVIDIA H200", ns))[0]
        fn = {**entry.function}
        fn["block_function_body"] = f"// variant {tag}\n" + fn["block_function_body"]
        key = hashlib.sha256(tag.encode()).hexdigest()
        return dataclasses.replace(entry, key=key, function=fn, kernel_name=f"relu_{tag}")

    def chosen(db: Path, model: Path, product: str | None) -> str:
        out = tmp_path / f"{db.stem}-{model.stem}-{product}".replace(" ", "_")
        run = run_nnfusion(model, db, out, Flags(product_name=product))
        code = "".join(run.generated_code().values())
        return "".join(t for t in ("slow", "fast") if f"variant {t}" in code)

    dbs = {}
    for order in (("slow", "fast"), ("fast", "slow")):
        dbs[order[0]] = tmp_path / f"{order[0]}-first.db"
        with KernelDB.open(dbs[order[0]], write=True) as db:
            for tag in order:  # one transaction each: rowid order is write order
                db.write([variant(tag, 50000.0 if tag == "slow" else 5000.0)])
    assert chosen(dbs["slow"], pair, "NVIDIA H200") == "fast"
    assert chosen(dbs["fast"], pair, "NVIDIA H200") == "fast"
    assert chosen(dbs["slow"], pair, None) == "slow"  # no time under "default": the first
    assert chosen(dbs["slow"], single, "NVIDIA H200") == "slow"  # no block fusion: the first


def test_bad_models_are_reported_with_nnfusions_last_lines(
    binary: Path, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    db = tmp_path / "k.db"
    KernelDB.open(db, write=True).close()
    args = ["nnfusion-compile", str(MODELS / "unsupported_op.onnx"), "--db", str(db), "-o"]
    assert cli.main([*args, str(tmp_path / "bad")]) == 1
    err = capsys.readouterr().err
    assert "NNFusion failed on unsupported_op.onnx" in err
    assert "NotARealOp" in err  # from its log
    # NNFusion's Gemm importer reads a C that is not there when beta != 0: kernelscope says
    # so before, and the crash comes back as an error, not a traceback.
    model = square_gemm(tmp_path / "g.onnx")
    proto = onnx.load(str(model))
    attrs = proto.graph.node[0].attribute
    attrs.remove(next(a for a in attrs if a.name == "beta"))  # ONNX's default beta is 1
    onnx.save(proto, str(model))
    assert cli.main(["nnfusion-coverage", str(model), "--db", str(db)]) == 0
    assert "crashes (segfault)" in capsys.readouterr().out
    assert cli.main(["nnfusion-compile", str(model), "--db", str(db), "-o",
                     str(tmp_path / "g")]) == 1  # fmt: skip
    assert "SIGSEGV" in capsys.readouterr().err
    # An output folder with a space in its path (NNFusion's own shell commands break on it).
    ok = single_relu(tmp_path / "relu.onnx")
    out = tmp_path / "with space"
    assert cli.main(["nnfusion-compile", str(ok), "--db", str(db), "-o", str(out)]) == 0
    assert (out / "nnfusion_rt" / "cuda_codegen" / "CMakeLists.txt").is_file()


def test_weights_as_graph_inputs_get_an_initializer_copy_nnfusion_compiles(
    binary: Path, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    source = MODELS / "small_mlp_noparams.onnx"
    ws = build_model(BuildRequest(model=source, output=tmp_path / "mlp.kscope"))
    db, copy = tmp_path / "k.db", tmp_path / "mlp-init.onnx"
    args = ["export-db", str(ws.path), "--db", str(db), "--nnfusion-model", str(copy)]
    assert cli.main([*args, "--model", str(source)]) == 0
    assert "3 graph inputs became initializers" in capsys.readouterr().out
    proto = onnx.load(str(copy))
    assert [i.name for i in proto.graph.input] == ["input"]
    with np.load(ws.path / "params.npz") as stored:
        for init in proto.graph.initializer:
            assert np.array_equal(numpy_helper.to_array(init), stored[init.name])
    compiled = compile_with_db(copy, db, tmp_path / "nnf")
    assert len(compiled.used) == len(compiled.usable) >= 1


def test_the_real_nnfusion_looks_up_what_coverage_lists_for_pools_with_ceil_mode(
    binary: Path, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """A MaxPool whose ceil_mode changes nothing (SqueezeNet's) and, in the copy written for
    NNFusion, one whose ceil_mode kernelscope turned into padding: NNFusion looks up exactly
    what coverage lists, and computes the model's 3x3 (it would compute 2x2 without the pad)."""
    same = ceil_pool_cnn(tmp_path / "same.onnx", 111)
    db = tmp_path / "k.db"
    KernelDB.open(db, write=True).close()
    compiled = compile_with_db(same, db, tmp_path / "same")
    assert {(i.identifier, i.lookup.device_type) for i in model_coverage(same, db).items} == set(
        compiled.run.log.kernel_lookups()
    )
    model = ceil_pool_cnn(tmp_path / "even.onnx", 6)
    ws = build_model(BuildRequest(model=model, output=tmp_path / "even.kscope"))
    copy = tmp_path / "even-nnfusion.onnx"
    args = ["export-db", str(ws.path), "--db", str(db), "--nnfusion-model", str(copy)]
    assert cli.main(args) == 0, capsys.readouterr().err
    compiled = compile_with_db(copy, db, tmp_path / "even")
    lookups = set(compiled.run.log.kernel_lookups())
    assert {(i.identifier, i.lookup.device_type) for i in model_coverage(copy, db).items} == (
        lookups
    )
    assert any(i.startswith("MaxPool1,4,7,7;1,4,3,3") for i, _ in lookups)


def test_a_tuned_kernel_using_tvms_cp_async_helpers_is_taken_and_its_code_compiles(
    binary: Path, tmp_path: Path
) -> None:
    """MetaSchedule's kernel calls cp.async helpers only TVM's prelude defines: the exported
    row carries them inlined, NNFusion takes it, and the kernel as NNFusion wrote it into its
    generated code compiles with nvcc (the rest of that file needs cuDNN's headers)."""
    db = tmp_path / "k.db"
    report = export_workspace(DATA / "kernel_db" / "cp_async", db)
    assert all(c.usable for c in report.changes), report.summary()
    model = squeezenet_expand3x3(tmp_path / "expand3x3.onnx")
    compiled = compile_with_db(model, db, tmp_path / "nnf")
    assert len(compiled.used) == len(compiled.usable) == 1
    assert [u.substituted for u in compiled.rows if u.row.device_type == "CUDA"] == [True]
    code = "".join(compiled.run.generated_code().values())
    _compiles(_kernel_around(code, "cp.async.commit_group"), tmp_path)
