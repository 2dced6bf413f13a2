"""What NNFusion looks up for an ONNX model, as kernelscope computes it (no NNFusion, no TVM).

The expected identifiers are what the real NNFusion (microsoft/nnfusion 00c1317) logged for
these models; test_nnfusion_real.py checks the same against the binary when it is there.
"""

from __future__ import annotations

import re
from pathlib import Path

import onnx
import pytest
from nnfusion_models import (
    ceil_pool_cnn,
    foreign_then_relu,
    mystery_then_relu,
    residual_cnn,
    square_gemm,
    square_matmul,
)
from paths_support import DATA

from kernelscope.core.cli import main as cli
from kernelscope.core.environment import demo
from kernelscope.core.errors import KernelscopeError
from kernelscope.core.kernel_db import WeightsAsInputs, model_coverage, nnfusion_settings
from kernelscope.core.kernel_db.store import CacheRow
from kernelscope.core.nnfusion import identifier as nnfusion_ident
from kernelscope.core.nnfusion.onnx_graph import nnfusion_graph, weight_inputs
from kernelscope.core.workspace import KernelInfo, OpInfo, TensorInfo

MODELS = DATA / "models"
DEMO_MODEL = demo().model  # SqueezeNet 1.1 from PyTorch, weights as graph inputs
CONV1 = (
    "Convolution1,3,16,16;16,3,3,3;1,16,16,16floatfloatfloatStrides{1, 1}Strides{1, 1}"
    "CoordinateDiff{1, 1}"
)
CONV1_PATTERN = (
    CONV1 + "Add1,16,16,16;1,16,16,16;1,16,16,16floatfloatfloatRelu1,16,16,16;1,16,16,16floatfloat"
)
# Logged by the real NNFusion for residual_cnn with an empty DB, without flags.
RESIDUAL_CNN_LOOKUPS = {
    (CONV1_PATTERN, "CUDA"),
    (CONV1, "CUDA_GPU"),
    ("Broadcast16;1,16,16,16floatfloat", "CUDA_GPU"),
    (
        "Convolution1,16,16,16;16,16,1,1;1,16,16,16floatfloatfloatStrides{1, 1}Strides{1, 1}"
        "CoordinateDiff{0, 0}",
        "CUDA_GPU",
    ),
    (
        "MaxPool1,16,16,16;1,16,8,8floatfloatShape{3, 3}Strides{2, 2}Shape{1, 1}Shape{1, 1}",
        "CUDA_GPU",
    ),
    (
        "AvgPool1,16,8,8;1,16,1,1floatfloatShape{8, 8}Strides{1, 1}Shape{0, 0}Shape{0, 0}",
        "CUDA_GPU",
    ),
    ("Reshape1,16,1,1;1,16floatfloat", "CUDA_GPU"),
    ("Dot1,16;10,16;1,10floatfloatfloat", "CUDA_GPU"),
    ("Reshape10;1,10floatfloat", "CUDA_GPU"),
    ("Add1,10;1,10;1,10floatfloatfloat", "CUDA_GPU"),
    ("ElementWiseFused1,16,16,16;1,16,16,16;1,16,16,16floatfloatfloat", "CUDA_GPU"),
    (
        "ElementWiseFused1,16,16,16;1,16,16,16;1,16,16,16;1,16,16,16floatfloatfloatfloat",
        "CUDA_GPU",
    ),
}


def test_lookups_are_what_the_real_nnfusion_logged(tmp_path: Path) -> None:
    graph = nnfusion_graph(residual_cnn(tmp_path / "res.onnx"))
    assert set(graph.kernel_lookups()) == RESIDUAL_CNN_LOOKUPS
    assert not graph.unmodelled and not graph.crashes


def test_pools_with_ceil_mode_are_followed_and_a_changed_shape_is_said(tmp_path: Path) -> None:
    """NNFusion's importer ignores ceil_mode (its real log: 6x6, window 3, stride 2 gives
    2x2): where that changes nothing, the pool is looked up like any other; where it does,
    coverage says which node makes NNFusion compute something else, and lists the rest."""
    same = nnfusion_graph(ceil_pool_cnn(tmp_path / "odd.onnx", 111))
    assert not same.departures and not same.unmodelled
    idents = {lk.identifier for lk in same.lookups}
    assert (
        "MaxPool1,4,111,111;1,4,55,55floatfloatShape{3, 3}Strides{2, 2}Shape{0, 0}Shape{0, 0}"
        in idents
    )
    assert "Concat1,4,55,55;1,4,55,55;1,8,55,55floatfloatfloat" in idents
    changed = nnfusion_graph(ceil_pool_cnn(tmp_path / "even.onnx", 6))
    [departure] = changed.departures
    assert departure.startswith(
        "pool (MaxPool with ceil_mode=1): the model computes 3x3, NNFusion ignores ceil_mode "
        "and computes 2x2"
    )
    assert "pads its input explicitly" in departure
    assert any(lk.identifier.startswith("MaxPool1,4,6,6;1,4,2,2") for lk in changed.lookups)
    # the demo's SqueezeNet (three MaxPools with ceil_mode that change nothing, eight Concats)
    demo = nnfusion_graph(DEMO_MODEL)
    assert not demo.unmodelled and not demo.departures
    assert {lk.op_type for lk in demo.lookups} >= {"Convolution", "MaxPool", "Concat", "AvgPool"}


def test_a_node_kernelscope_does_not_follow_leaves_the_rest_listed(tmp_path: Path) -> None:
    graph = nnfusion_graph(mystery_then_relu(tmp_path / "mystery.onnx"))
    assert graph.unmodelled == ["mystery (Mystery)"]
    assert {lk.identifier for lk in graph.lookups} == {"Relu1,16;1,16floatfloat"}


def test_an_operator_onnx_cannot_infer_ends_the_listing_and_says_so(tmp_path: Path) -> None:
    graph = nnfusion_graph(foreign_then_relu(tmp_path / "foreign.onnx"))
    assert graph.unmodelled == [
        "mystery (Mystery; ONNX cannot infer its output's shape, so nothing after it is listed)"
    ]
    assert not graph.lookups


def test_a_failing_shape_inference_is_a_failure_not_a_shorter_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only ONNX's refusal of an operator it does not know means "shapes unknown": anything
    else its inference raises (here a bug) fails the coverage instead of leaving out every
    lookup after the node as if ONNX could not infer it."""

    def broken(model: onnx.ModelProto, *args: object, **kwargs: object) -> onnx.ModelProto:
        raise RuntimeError("a bug in shape inference")

    model = mystery_then_relu(tmp_path / "mystery.onnx")
    monkeypatch.setattr(onnx.shape_inference, "infer_shapes", broken)
    with pytest.raises(RuntimeError, match="a bug in shape inference"):
        nnfusion_graph(model)


def test_constant_folding_and_a_pattern_row_change_what_is_looked_up(tmp_path: Path) -> None:
    """With the bias flags the bias broadcasts fold away (so do the Gemm's); with a CUDA row
    for the pattern, conv1+bias+relu is one node looked up under its concatenated name."""
    model = residual_cnn(tmp_path / "res.onnx")
    folded = set(nnfusion_graph(model, const_folding=True, bias_fix=True).kernel_lookups())
    # As the real NNFusion logged it with -fbiasadd_fix=true -fconst_folding_backend=CPU:
    assert folded == {
        k for k in RESIDUAL_CNN_LOOKUPS if not k[0].startswith(("Broadcast", "Reshape10;"))
    }
    rows = {(CONV1_PATTERN, "CUDA")}
    graph = nnfusion_graph(model, lambda i, d: (i, d) in rows, const_folding=True, bias_fix=True)
    lookups = {lk.identifier: lk for lk in graph.lookups}
    assert (CONV1_PATTERN, "CUDA_GPU") in graph.kernel_lookups()
    assert CONV1 not in lookups, "the substituted Convolution is not looked up on its own"
    pattern = lookups[CONV1_PATTERN]
    assert pattern.op_type == "Fused_Convolution_Add_Relu" and pattern.supported
    assert pattern.attributes["add_operand"] == "constant"
    # The residual chain (bias Add, residual Add, Relu) stays NNFusion's own fused kernel.
    fused = [lk for lk in graph.lookups if lk.op_type == "ElementWiseFused"]
    assert fused and not any(lk.supported for lk in fused)


def test_tvm_mean_over_hw_and_nnfusion_global_avgpool_share_one_identifier(
    tmp_path: Path,
) -> None:
    """The same identifier code on both sides: TVM's mean kernel as exported, and what
    NNFusion computes for ONNX's GlobalAveragePool (as the real NNFusion logged it)."""
    x, y = TensorInfo([1, 16, 8, 8], "float32"), TensorInfo([1, 16, 1, 1], "float32")
    mean = OpInfo("relax.mean", "mean", [x], y, {"axis": [2, 3], "keepdims": True})
    kernel = KernelInfo("mean_kernel", "k.cu", "mean", [16, 1, 1], [32, 1, 1], 0, [x, y], [mean])
    mapped = nnfusion_ident.map_kernel(kernel, {1})
    assert mapped.supported and mapped.op_type == "AvgPool"
    graph = nnfusion_graph(residual_cnn(tmp_path / "res.onnx"))
    assert (mapped.identifier, "CUDA_GPU") in graph.kernel_lookups()
    assert mapped.identifier == (
        "AvgPool1,16,8,8;1,16,1,1floatfloatShape{8, 8}Strides{1, 1}Shape{0, 0}Shape{0, 0}"
    )


def test_gemm_transb_looks_up_the_stored_weight_shape(tmp_path: Path) -> None:
    lookups = nnfusion_graph(square_gemm(tmp_path / "g.onnx")).lookups
    assert [(lk.identifier, lk.attributes["transpose_B"]) for lk in lookups] == [
        ("Dot4,16;16,16;4,16floatfloatfloat", True)
    ]
    # The same identifier as a plain MatMul of these shapes: only the semantics differ.
    plain = nnfusion_graph(square_matmul(tmp_path / "m.onnx")).lookups
    assert [(lk.identifier, lk.attributes["transpose_B"]) for lk in plain] == [
        ("Dot4,16;16,16;4,16floatfloatfloat", False)
    ]


def _row(**kw: object) -> CacheRow:
    base = {"key": "k", "identifier": "Relu1;1floatfloat", "op_type": "Relu",
            "source": "External", "device_type": "CUDA_GPU",
            "tags": ["KernelEmitter", "CudaEmitter", "BlockCudaEmitter"], "times": {},
            "resource": 32, "attributes": {}}  # fmt: skip
    return CacheRow(**{**base, **kw})  # type: ignore[arg-type]


def test_a_db_for_another_gpu_says_which_times_it_has() -> None:
    rows = [_row(times={"NVIDIA H200": 3.0}), _row(key="k2", times={"NVIDIA H200": 4.0})]
    assert nnfusion_settings(rows).flags.product_name == "NVIDIA H200"
    with pytest.raises(KernelscopeError) as err:
        nnfusion_settings(rows, "NVIDIA A100-SXM4-80GB")
    assert "NVIDIA H200 (2 rows)" in str(err.value)
    conv = _row(key="k3", op_type="Fused_Convolution_Add_Relu")
    assert nnfusion_settings([conv]).flags.args() == [
        "-fbiasadd_fix=true",
        "-fconst_folding_backend=CPU",
    ]


def test_weights_as_graph_inputs_are_refused_with_the_copy_offered(tmp_path: Path) -> None:
    with pytest.raises(KernelscopeError) as err:
        model_coverage(MODELS / "small_mlp_noparams.onnx", tmp_path / "none.db")
    assert "fc1.weight" in str(err.value) and "--nnfusion-model" in err.value.hint
    # the same weights the copy for NNFusion makes initializers (one count, the whole model)
    assert err.value.names == ["fc1.weight", "fc1.bias", "fc2.weight"]
    assert "3 weights are graph inputs" in str(err.value)
    demo = onnx.load(str(DEMO_MODEL))
    with pytest.raises(WeightsAsInputs) as err:
        model_coverage(DEMO_MODEL, tmp_path / "none.db")
    assert err.value.names == weight_inputs(demo) and len(err.value.names) == 34


def test_cli_coverage_of_an_empty_db_lists_what_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    model = residual_cnn(tmp_path / "res.onnx")
    assert cli.main(["nnfusion-coverage", str(model), "--db", str(tmp_path / "k.db")]) == 0
    out = capsys.readouterr().out
    assert re.search(r"missing\s+CUDA_GPU\s+Dot\s+1", out) and "ElementWiseFused" not in out
    assert "NNFusion looks up 12 distinct kernels" in out
    assert cli.main(["nnfusion-coverage", str(MODELS / "unsupported_op.onnx"), "--db",
                     str(tmp_path / "k.db")]) == 0  # fmt: skip
    assert "does not follow the ONNX node mystery_node (NotARealOp)" in capsys.readouterr().out
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not a model")
    assert cli.main(["nnfusion-coverage", str(bad), "--db", str(tmp_path / "k.db")]) == 1
    assert "not a readable ONNX model" in capsys.readouterr().err


def test_a_tensor_type_nnfusion_lacks_fails_the_coverage_not_the_identifier(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """NNFusion has no element type for complex tensors: no identifier is made up for them
    (it would read as a kernel the DB lacks); the coverage says why it cannot answer."""
    from onnx import TensorProto, helper, save_model

    c64 = [helper.make_tensor_value_info(n, TensorProto.COMPLEX64, [2, 2]) for n in "abc"]
    graph = helper.make_graph([helper.make_node("Add", ["a", "b"], ["c"], "add")], "g", c64[:2],
                              c64[2:])  # fmt: skip
    model = tmp_path / "complex.onnx"
    save_model(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), model)
    with pytest.raises(KernelscopeError, match="add: NNFusion has no element type for complex64"):
        nnfusion_graph(model)
    assert cli.main(["nnfusion-coverage", str(model), "--db", str(tmp_path / "k.db")]) == 1
    assert "cannot compile this model" in capsys.readouterr().err


def test_building_and_nnfusions_graph_read_a_broken_onnx_file_alike(tmp_path: Path) -> None:
    """One ONNX loader: a model whose external data file is missing fails with the same
    message and hint whether it is built or its NNFusion graph is asked for."""
    from kernelscope.core.build.model_loader import load_model

    model = onnx.load(str(residual_cnn(tmp_path / "res.onnx")))
    split = tmp_path / "split.onnx"
    onnx.save_model(
        model, str(split), save_as_external_data=True, location="split.data", size_threshold=0
    )
    (tmp_path / "split.data").unlink()
    with pytest.raises(KernelscopeError, match="external data file of this model is missing"):
        nnfusion_graph(split)
    with pytest.raises(KernelscopeError) as graph_error:
        nnfusion_graph(split)
    with pytest.raises(KernelscopeError) as build_error:
        load_model(split)
    assert graph_error.value.hint and graph_error.value.hint == build_error.value.hint
    assert str(graph_error.value) == str(build_error.value)
