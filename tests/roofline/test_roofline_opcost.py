"""The analytic cost of TVM operators: hand-computed for known shapes, and cross-checked
against the FLOPs Nsight Compute measured on the H200 fixtures."""

from __future__ import annotations

import sys

import pytest
from paths_support import DATA, ROOT

from kernelscope.core.roofline import kernel_cost
from kernelscope.core.roofline.opcost import op_cost
from kernelscope.core.workspace import KernelInfo, OpInfo, TensorInfo, Workspace

sys.path.insert(0, str(ROOT / "benchmarks"))


def t(*shape: int | str, dtype: str = "float32") -> TensorInfo:
    return TensorInfo(list(shape), dtype)


def op(name: str, inputs: list[TensorInfo], output: TensorInfo, **attrs: object) -> OpInfo:
    return OpInfo(op=f"relax.{name}", prim=name, inputs=inputs, output=output, attrs=attrs)


def test_matmul_and_dense() -> None:
    c = op_cost(op("matmul", [t(32, 1024), t(1024, 4096)], t(32, 4096)))
    assert c.kind == "matmul"
    assert c.flops == 2 * 32 * 1024 * 4096
    assert c.bytes == 4 * (32 * 1024 + 1024 * 4096 + 32 * 4096)
    batched = op_cost(op("matmul", [t(4, 8, 128, 32), t(4, 8, 32, 128)], t(4, 8, 128, 128)))
    assert batched.flops == 2 * (4 * 8 * 128 * 128) * 32
    broadcast = op_cost(op("matmul", [t(4, 128, 256), t(256, 1024)], t(4, 128, 1024)))
    assert broadcast.flops == 2 * 4 * 128 * 1024 * 256
    dense = op_cost(op("nn.dense", [t(8, 512), t(10, 512)], t(8, 10)))
    assert dense.flops == 2 * 8 * 10 * 512
    half = op_cost(op("matmul", [t(64, 64, dtype="float16")] * 2, t(64, 64, dtype="float16")))
    assert half.bytes == 2 * 3 * 64 * 64 and half.uses_tensor_cores


def test_convolutions() -> None:
    plain = op_cost(
        op(
            "nn.conv2d",
            [t(8, 3, 56, 56), t(32, 3, 3, 3)],
            t(8, 32, 56, 56),
            kernel_layout="OIHW",
            groups=1,
        )
    )
    assert plain.kind == "conv"
    assert plain.flops == 2 * (8 * 32 * 56 * 56) * (3 * 3 * 3)
    grouped = op_cost(
        op("nn.conv2d", [t(1, 64, 28, 28), t(128, 32, 3, 3)], t(1, 128, 28, 28), groups=2)
    )
    assert grouped.flops == 2 * (128 * 28 * 28) * (32 * 9)
    depthwise = op_cost(
        op("nn.conv2d", [t(1, 32, 14, 14), t(32, 1, 3, 3)], t(1, 32, 14, 14), groups=32)
    )
    assert depthwise.flops == 2 * (32 * 14 * 14) * 9
    hwio = op_cost(
        op(
            "nn.conv2d",
            [t(1, 56, 56, 3), t(3, 3, 3, 32)],
            t(1, 56, 56, 32),
            data_layout="NHWC",
            kernel_layout="HWIO",
        )
    )
    assert hwio.flops == 2 * (56 * 56 * 32) * 27
    strided = op_cost(op("nn.conv2d", [t(1, 3, 224, 224), t(64, 3, 7, 7)], t(1, 64, 112, 112)))
    assert strided.flops == 2 * (64 * 112 * 112) * (3 * 49)
    transposed = op_cost(
        op(
            "nn.conv2d_transpose",
            [t(1, 16, 8, 8), t(16, 8, 4, 4)],
            t(1, 8, 16, 16),
            kernel_layout="IOHW",
        )
    )
    assert transposed.flops == 2 * (16 * 8 * 8) * (8 * 16)


def test_pooling_reductions_norms_elementwise_movement() -> None:
    pool = op_cost(op("nn.max_pool2d", [t(2, 8, 16, 16)], t(2, 8, 8, 8), pool_size=[2, 2]))
    assert (pool.kind, pool.flops) == ("pool", 2 * 8 * 8 * 8 * 4)
    gap = op_cost(op("nn.adaptive_avg_pool2d", [t(1, 512, 7, 7)], t(1, 512, 1, 1)))
    assert gap.flops == 512 * 49
    total = op_cost(op("sum", [t(4, 1000)], t(4), axis=[1]))
    assert (total.kind, total.flops) == ("reduce", 4000)
    var = op_cost(op("variance", [t(4, 1000)], t(4)))
    assert var.flops == 3 * 4000
    soft = op_cost(op("nn.softmax", [t(32, 1000)], t(32, 1000), axis=-1))
    assert (soft.kind, soft.flops) == ("norm", 5 * 32000)
    ln = op_cost(op("nn.layer_norm", [t(4, 128, 256), t(256), t(256)], t(4, 128, 256)))
    assert ln.flops == 8 * 4 * 128 * 256
    assert ln.bytes == 4 * (2 * 4 * 128 * 256 + 2 * 256)
    add = op_cost(op("add", [t(8, 64, 56, 56), t(1, 64, 1, 1)], t(8, 64, 56, 56)))
    assert (add.kind, add.flops) == ("elementwise", 8 * 64 * 56 * 56)
    gelu = op_cost(op("nn.gelu", [t(10)], t(10)))
    assert gelu.flops == 80
    move = op_cost(op("permute_dims", [t(4096, 1024)], t(1024, 4096), axes=[1, 0]))
    assert (move.kind, move.flops, move.bytes) == ("movement", 0.0, 2 * 4 * 4096 * 1024)
    take = op_cost(op("take", [t(3, 128, 4, 256), t(dtype="int64")], t(128, 4, 256)))
    # a gather reads the slice it writes, not the whole tensor (q of a fused qkv: a third)
    assert take.bytes == 4 * (128 * 4 * 256 + 128 * 4 * 256) + 8


def test_what_cannot_be_costed() -> None:
    assert op_cost(op("matmul", [t("n", 64), t(64, 64)], t("n", 64))) is None  # symbolic
    assert op_cost(op("nn.attention_mystery", [t(2)], t(2))) is None  # unknown operator
    assert op_cost(OpInfo("relax.add", "add", [], None)) is None  # no shapes


def test_a_fused_kernel_costs_its_operators_and_moves_its_parameters_once() -> None:
    info = Workspace.open(DATA / "ws_ops" / "transformer").manifest.kernel(
        "fused_matmul5_add7_add5_kernel"
    )
    cost = kernel_cost(info)
    assert [o.kind for o in cost.ops] == ["matmul", "elementwise", "elementwise"]
    m = 4 * 128
    assert cost.flops == 2 * m * 256 * 1024 + 2 * m * 256
    # parameters: W [1024,256], out, bias [256], residual [4,128,256], input [4,128,1024]
    assert cost.bytes == 4 * (1024 * 256 + m * 256 + 256 + m * 256 + m * 1024)
    assert cost.known and cost.dtype == "float32"


def test_a_hand_made_manifest_says_why() -> None:
    info = Workspace.open(DATA / "ws_mlp").manifest.kernel("softmax_kernel")
    cost = kernel_cost(info)
    assert not cost.known and "no operator shapes" in cost.why
    bare = KernelInfo("k", "k.cu", "k", [1, 1, 1], [1, 1, 1], 0, [], [])
    assert "no operators" in kernel_cost(bare).why


def test_analytic_flops_against_the_h200_counters() -> None:
    """Where the shapes are multiples of TVM's GEMM tiles the two agree within 0.3% (the
    difference: relu is FMNMX, which the FLOP counters leave out). Elsewhere they differ by
    what the schedule adds: padding to tile multiples, per-lane reduction trees."""
    from flop_crosscheck import CASES, crosscheck

    ratio = {}
    for model, (report, ws) in CASES.items():
        for kernel, _, analytic, measured in crosscheck(report, ws):
            if analytic:
                ratio[(model, kernel)] = measured / analytic
    exact = [k for k, r in ratio.items() if abs(r - 1) < 0.003]
    assert len(exact) == 10
    # TVM's GEMM rule pads M, N and K to tile multiples (reindex_pad) and multiplies zeros:
    assert ratio[("cnn", "fused_matmul_add2_kernel")] == pytest.approx(32 / 8 * 64 / 10, rel=1e-3)
    assert ratio[("transformer_layer", "matmul2_kernel")] == pytest.approx(64 / 32, rel=1e-3)
    assert ratio[("mlp", "fused_matmul1_add1_kernel")] == pytest.approx(1024 / 1000, rel=1e-3)
    conv = ratio[("cnn", "fused_conv2d_add_relu_kernel")]
    assert 2.2 < conv < 64 / 27  # K = 3*3*3 = 27 padded to 64; add+relu are not padded
    # warp-shuffle reduction trees run on every lane: short rows cost several times more
    assert 3 < ratio[("transformer_layer", "softmax_kernel")] < 5
    assert 3 < ratio[("transformer_layer", "layer_norm_kernel")] < 4


@pytest.mark.slow
def test_the_stored_manifest_is_what_a_build_records(build_once) -> None:
    """tests/data/ws_ops/mlp is a real build's manifest: building the model again gives the
    same kernels, operators, shapes and parameters (so the costs above are TVM's facts)."""
    from dataclasses import asdict

    fresh = build_once("fixture_mlp.py").manifest
    stored = Workspace.open(DATA / "ws_ops" / "mlp").manifest

    def facts(m):  # noqa: ANN001, ANN202
        return {k.name: (asdict(k)["ops"], asdict(k)["params"], k.grid, k.block) for k in m.kernels}

    assert facts(fresh) == facts(stored)
    assert {k.name: kernel_cost(k).flops for k in fresh.kernels} == {
        k.name: kernel_cost(k).flops for k in stored.kernels
    }
