"""Identifier and Function JSON test vectors from the NNFusion kernel DB reference."""

from __future__ import annotations

import pytest
from paths_support import DATA

from kernelscope.core.nnfusion import cuda_scan as nnfusion_cuda
from kernelscope.core.nnfusion import function_json as nnfusion_function
from kernelscope.core.nnfusion import identifier as nnfusion_ident
from kernelscope.core.workspace import KernelInfo, OpInfo, TensorInfo

SRC = DATA / "ws_mlp" / "src"


def t(*shape: int, dtype: str = "float32", name: str = "") -> TensorInfo:
    return TensorInfo(shape=list(shape), dtype=dtype, name=name)


def kernel(ops: list[OpInfo], params: list[TensorInfo]) -> KernelInfo:
    return KernelInfo(
        name="k",
        file="src/kernels/k.cu",
        primfunc="k",
        grid=[8, 1, 1],
        block=[128, 1, 1],
        dynamic_smem_bytes=0,
        params=params,
        ops=ops,
    )


def conv_op(x: TensorInfo, w: TensorInfo, out: TensorInfo, stride: int, pad: int) -> OpInfo:
    attrs = {"strides": [stride, stride], "padding": [pad] * 4, "dilation": [1, 1], "groups": 1,
             "data_layout": "NCHW", "kernel_layout": "OIHW", "out_layout": "NCHW"}  # fmt: skip
    return OpInfo("relax.nn.conv2d", "conv2d", [x, w], out, attrs)


def test_relu_and_dot_identifiers() -> None:
    relu = kernel([OpInfo("relax.nn.relu", "relu", [t(1, 1024)], t(1, 1024))], [t(1, 1024)] * 2)
    assert nnfusion_ident.map_kernel(relu, {1}).identifier == "Relu1,1024;1,1024floatfloat"
    dot = kernel(
        [OpInfo("relax.matmul", "matmul", [t(1, 256), t(256, 256)], t(1, 256))],
        [t(1, 256), t(256, 256), t(1, 256)],
    )
    mapped = nnfusion_ident.map_kernel(dot, {2})
    assert mapped.supported
    assert mapped.identifier == "Dot1,256;256,256;1,256floatfloatfloat"
    assert mapped.param_names == ["input0", "input1", "output0"]


def test_convolution_and_its_patterns() -> None:
    x, w, y = t(1, 64, 56, 56), t(64, 64, 3, 3), t(1, 64, 56, 56)
    conv = nnfusion_ident.map_kernel(kernel([conv_op(x, w, y, 1, 1)], [w, y, x]), {1})
    base = (
        "Convolution1,64,56,56;64,64,3,3;1,64,56,56floatfloatfloat"
        "Strides{1, 1}Strides{1, 1}CoordinateDiff{1, 1}"
    )
    assert conv.identifier == base
    # TVM orders kernel parameters by name; NNFusion wants data, filter, then the output.
    assert conv.param_names == ["input1", "output0", "input0"]
    relu = OpInfo("relax.nn.relu", "relu", [y], y)
    fused = nnfusion_ident.map_kernel(kernel([conv_op(x, w, y, 1, 1), relu], [x, w, y]), {2})
    assert fused.op_type == "Fused_Convolution_Relu"
    assert fused.identifier == base + "Relu1,64,56,56;1,64,56,56floatfloat"


def test_fused_conv_add_relu_matches_the_upstream_sample_kernel_0() -> None:
    x, w, y = t(1, 3, 227, 227), t(64, 3, 11, 11), t(1, 64, 55, 55)
    bias = t(1, 64, 1, 1)
    ops = [
        conv_op(x, w, y, 4, 0),
        OpInfo("relax.add", "add", [y, bias], y),
        OpInfo("relax.nn.relu", "relu", [y], y),
    ]
    mapped = nnfusion_ident.map_kernel(kernel(ops, [w, y, bias, x]), {1})
    assert mapped.op_type == "Fused_Convolution_Add_Relu"
    assert mapped.identifier == (
        "Convolution1,3,227,227;64,3,11,11;1,64,55,55floatfloatfloatStrides{4, 4}Strides{1, 1}"
        "CoordinateDiff{0, 0}Add1,64,55,55;1,64,55,55;1,64,55,55floatfloatfloat"
        "Relu1,64,55,55;1,64,55,55floatfloat"
    )
    assert mapped.param_names == ["input1", "output0", "input2", "input0"]
    assert mapped.pattern and any("biasadd_fix" in n for n in mapped.notes)


def test_maxpool_carries_padding_above_as_the_cpp_side_computes_it() -> None:
    x, y = t(1, 64, 112, 112), t(1, 64, 56, 56)
    attrs = {"pool_size": [3, 3], "strides": [2, 2], "padding": [0, 0, 0, 0], "dilation": [1, 1],
             "layout": "NCHW", "ceil_mode": False}  # fmt: skip
    pool = kernel([OpInfo("relax.nn.max_pool2d", "pool", [x], y, attrs)], [x, y])
    # convert_external.py stops after the first Shape{...}; NNFusion main appends padding_above.
    assert nnfusion_ident.map_kernel(pool, {1}).identifier == (
        "MaxPool1,64,112,112;1,64,56,56floatfloatShape{3, 3}Strides{2, 2}Shape{0, 0}Shape{0, 0}"
    )


@pytest.mark.parametrize(
    ("ops", "why"),
    [
        ([OpInfo("relax.nn.softmax", "softmax", [t(32, 1000)], t(32, 1000))], "Softmax"),
        ([OpInfo("relax.permute_dims", "transpose", [t(10, 512)], t(512, 10))], "Transpose"),
        (
            [OpInfo("relax.matmul", "mm", [t(4, 8, 16), t(4, 16, 8)], t(4, 8, 8))],
            "batched matmul",
        ),
        ([OpInfo("relax.add", "add", [t(2, 10), t(10)], t(2, 10))], "broadcasts"),
    ],
)
def test_kernels_nnfusion_cannot_use_get_a_private_identifier(ops: list[OpInfo], why: str) -> None:
    params = [*ops[0].inputs, ops[-1].output]
    mapped = nnfusion_ident.map_kernel(kernel(ops, params), {len(params) - 1})
    assert not mapped.supported
    assert mapped.identifier.startswith(nnfusion_ident.FOREIGN_PREFIX)
    assert any(why in r for r in mapped.reasons), mapped.reasons


DOT_KERNEL = """extern "C" __global__ void my_dot_kernel0(float* __restrict__ A, float* __restrict__ B, float* __restrict__ C) {
  __shared__ float As[256];
  As[threadIdx.x] = A[threadIdx.x];
  __syncthreads();
  C[threadIdx.x] = As[threadIdx.x] * B[threadIdx.x];
}"""  # noqa: E501


def test_dot_function_json_as_convert_external_writes_it() -> None:
    f = nnfusion_function.make_function(
        DOT_KERNEL, "Dot", ["input0", "input1", "output0"], [8, 1, 1], [128, 1, 1]
    )
    assert f.block_fusion, f.reasons
    fn = f.function
    assert fn["function_signature"] == (
        'extern "C" __global__  void (float* __restrict__ input0,  float* __restrict__ input1,  '
        "float* __restrict__ output0)"
    )
    assert fn["function_body"].startswith("{\n  __shared__ float As[256];")
    assert fn["block_function_body"].startswith(
        "float* C = output0;\nfloat* B = input1;\nfloat* A = input0;\n{\n  As[threadIdx.x]"
    )
    assert "__shared__" not in fn["block_function_body"]
    assert fn["shared_memory"] == {"symbol": ["As"], "dtype": ["float"], "size": [256]}
    assert fn["num_syncthreads"] == 1
    assert (fn["grid_dim"], fn["block_dim"]) == ([8, 1, 1], [128, 1, 1])


def test_tvm_softmax_kernel_counts_six_barriers_and_moves_aligned_shared_arrays() -> None:
    text = (SRC / "kernels" / "softmax_kernel.cu").read_text()
    prelude = (SRC / "tvm_prelude.cuh").read_text()
    f = nnfusion_function.make_function(text, "Softmax", None, [32, 1, 1], [256, 1, 1], 0, prelude)
    assert f.function["num_syncthreads"] == 6
    assert f.function["shared_memory"]["symbol"][:2] == [
        "red_result_ptr",
        "T_softmax_maxelem_shared_ptr",
    ]
    assert "unsigned int mask_ptr" in f.function["block_function_body"]  # uint macro expanded
    assert "__shared__" not in f.function["block_function_body"]
    assert f.block_fusion, f.reasons


def test_a_vector_shared_array_is_handed_over_as_its_scalars() -> None:
    """TVM's GEMV stages x in ``float4 p2_shared_ptr[512]``: NNFusion sizes only scalar
    types, so it gets 2048 floats (first, where the buffer is aligned) and the body a float4
    pointer into them; a type it knows no scalars of is still refused."""
    text = (
        'extern "C" __global__ void __launch_bounds__(512) k(float* __restrict__ y, '
        "float* __restrict__ x) {\n"
        "  __shared__ alignas(64) float red_ptr[32];\n"
        "  __shared__ alignas(64) float4 p2_shared_ptr[512];\n"
        "  p2_shared_ptr[threadIdx.x] = *(float4*)(x + threadIdx.x * 4);\n"
        "  __syncthreads();\n"
        "  red_ptr[threadIdx.x & 31] = p2_shared_ptr[threadIdx.x].y;\n"
        "  y[threadIdx.x] = red_ptr[0];\n"
        "}\n"
    )
    f = nnfusion_function.make_function(text, "Dot", None, [125, 1, 1], [512, 1, 1])
    assert f.function["shared_memory"] == {
        "symbol": ["p2_shared_ptr_float", "red_ptr"],
        "dtype": ["float", "float"],
        "size": [2048, 32],
    }
    body = f.function["block_function_body"]
    assert body.startswith("float4* p2_shared_ptr = (float4*)p2_shared_ptr_float;\n{")
    assert "__shared__" not in body and f.block_fusion, f.reasons
    half = text.replace("float4 p2_shared_ptr", "half2 p2_shared_ptr")
    f = nnfusion_function.make_function(half, "Dot", None, [125, 1, 1], [512, 1, 1])
    assert not f.block_fusion
    assert any("p2_shared_ptr has element type half2" in r for r in f.reasons)


@pytest.mark.parametrize(
    ("body", "count"),
    [
        ("{ for (int i = 0; i < 4; ++i) { __syncthreads(); } __syncthreads(); }", 5),
        (
            "{ for (int64_t v = (int64_t)0; v < (int64_t)3; ++v) for (int j = 0; j <= 3; j += 2) "
            "__syncthreads(); }",
            6,
        ),  # fmt: skip
        ("{ if (threadIdx.x < 8) { __syncthreads(); } }", None),
        ("{ for (int i = 0; i < n; ++i) { __syncthreads(); } }", None),
        ("{ if (threadIdx.x == 0) return; __syncthreads(); }", None),
        ('{ asm volatile("bar.sync 0;"); }', None),
        ("{ if (x) { y = 1; } /* __syncthreads(); */ }", 0),
    ],
)
def test_syncthreads_are_counted_only_when_exact(body: str, count: int | None) -> None:
    assert nnfusion_cuda.count_syncthreads(body).count == count


def test_dynamic_shared_memory_withholds_block_fusion() -> None:
    text = (
        'extern "C" __global__ void k(float* a) { extern __shared__ float buf[]; a[0] = buf[0]; }'
    )
    f = nnfusion_function.make_function(text, "Relu", ["input0"], [1, 1, 1], [32, 1, 1])
    assert not f.block_fusion
    assert any("dynamic shared memory" in r for r in f.reasons)
    f = nnfusion_function.make_function(DOT_KERNEL, "Dot", None, [1, 1, 1], [32, 1, 1], 4096)
    assert not f.block_fusion and any("4096 bytes" in r for r in f.reasons)


def _dot_kernel(op: OpInfo, out: TensorInfo) -> KernelInfo:
    return kernel([op], [*op.inputs, out])


def test_dot_rows_carry_their_transpose_and_say_when_another_fits() -> None:
    """NNFusion's Dot identifier holds the three shapes only: with K == N a Gemm with
    transB=1 (x·Wᵀ) asks for the identifier of TVM's x·W kernel."""
    out = t(1, 256)
    square = nnfusion_ident.map_kernel(
        _dot_kernel(OpInfo("relax.matmul", "mm", [t(1, 256), t(256, 256)], out), out), {2}
    )
    assert square.supported and "A·Bᵀ" in square.ambiguity and "transB=1" in square.ambiguity
    assert square.attributes["parameters"] == {"transpose_A": False, "transpose_B": False}
    out = t(1, 10)
    plain = nnfusion_ident.map_kernel(
        _dot_kernel(OpInfo("relax.matmul", "mm", [t(1, 256), t(256, 10)], out), out), {2}
    )
    assert plain.ambiguity == ""
    # M == K admits Aᵀ·B for a plain product too.
    out = t(8, 4)
    tall = nnfusion_ident.map_kernel(
        _dot_kernel(OpInfo("relax.matmul", "mm", [t(8, 8), t(8, 4)], out), out), {2}
    )
    assert "Aᵀ·B" in tall.ambiguity


def test_an_einsum_that_reads_w_transposed_is_the_gemm_transb_dot() -> None:
    a, w, out = t(2, 512), t(10, 512), t(2, 10)
    op = OpInfo("relax.einsum", "einsum", [a, w], out, {"subscripts": "mk,nk->mn"})
    mapped = nnfusion_ident.map_kernel(kernel([op], [out, a, w]), {0})
    # what the real NNFusion looked up for small_cnn's Gemm(transB=1)
    assert mapped.identifier == "Dot2,512;10,512;2,10floatfloatfloat"
    assert mapped.extra_tags == ["transB"] and not mapped.ambiguity
    assert mapped.param_names == ["output0", "input0", "input1"]
    odd = OpInfo("relax.einsum", "einsum", [a, w], out, {"subscripts": "mk,nk->nm"})
    assert not nnfusion_ident.map_kernel(kernel([odd], [out, a, w]), {0}).supported


def test_conv_kernels_nnfusion_never_asks_for_or_could_misuse() -> None:
    x, w, y = t(1, 8, 16, 16), t(8, 8, 3, 3), t(1, 8, 15, 15)
    asym = conv_op(x, w, y, 1, 0)
    asym.attrs["padding"] = [1, 1, 0, 0]
    mapped = nnfusion_ident.map_kernel(kernel([asym], [x, w, y]), {2})
    assert not mapped.supported and "asymmetric padding" in mapped.reasons[0]
    x, w, y = t(1, 4, 16, 16), t(8, 4, 3, 3), t(1, 8, 16, 16)
    ops = [conv_op(x, w, y, 1, 1), OpInfo("relax.add", "add", [y, y], y),
           OpInfo("relax.nn.relu", "relu", [y], y)]  # fmt: skip
    residual = nnfusion_ident.map_kernel(kernel(ops, [x, w, y, y]), {3})
    assert residual.supported and "whole tensor" in residual.ambiguity
