"""Which operator group a kernel counts in, for TVM's Relax operators and Inductor's ATen ones
(the names as the real manifests and wrappers of tests/data write them)."""

from __future__ import annotations

import pytest

from kernelscope.core.inductor.versus import normalise, operator_group, triton_group


@pytest.mark.parametrize(
    ("name", "plain"),
    [
        ("aten._softmax", "softmax"),
        ("aten._softmax.default", "softmax"),
        ("relax.nn.conv2d", "nn.conv2d"),
        ("extern_kernels.convolution", "convolution"),
        ("aten._native_batch_norm_legit_no_training", "native_batch_norm_legit_no_training"),
    ],
)
def test_names_are_normalised(name: str, plain: str) -> None:
    assert normalise(name) == plain


def test_tvm_kernels_count_by_their_heaviest_operator() -> None:
    assert operator_group(["nn.conv2d", "add", "add", "nn.relu"]) == "conv2d"
    assert operator_group(["matmul", "add", "nn.gelu"]) == "matmul"
    assert operator_group(["reshape", "permute_dims", "split"]) == "layout"
    assert operator_group(["nn.layer_norm"]) == "layer_norm"
    assert operator_group(["nn.adaptive_avg_pool2d"]) == "pool"
    assert operator_group(["something_new"]) == "other"


def test_inductor_triton_kernels_count_by_what_they_do_themselves() -> None:
    # the bias add (and GELU) after cuBLAS's mm: addmm names the GEMM, which ran in cuBLAS
    assert triton_group(("aten.addmm", "aten.view", "aten.gelu")) == "elementwise"
    assert triton_group(("aten.addmm", "aten.view", "aten.add", "aten.native_layer_norm")) == (
        "layer_norm"
    )
    assert triton_group(("aten.view", "aten.mul", "aten.amax", "aten.sub", "aten._softmax")) == (
        "softmax"
    )
    # a kernel doing nothing but prepare a convolution's input counts as that convolution
    assert triton_group(("aten.convolution",)) == "conv2d"
    assert triton_group(("aten._native_batch_norm_legit_no_training", "aten.relu")) == "batch_norm"


def test_an_aten_call_in_the_wrapper_is_its_operator(tmp_path) -> None:  # noqa: ANN001
    """Attention through ATen (``torch.ops.aten.<op>.default(...)``), as Inductor writes it."""
    from kernelscope.core.inductor import open_run

    (tmp_path / "output_code.py").write_text(
        "# AOT ID: ['0_inference']\n"
        "def call(args):\n"
        "    # Topologically Sorted Source Nodes: [sdpa], Original ATen: "
        "[aten._scaled_dot_product_flash_attention]\n"
        "    buf0 = torch.ops.aten._scaled_dot_product_flash_attention.default(q, k, v)\n"
        "    extern_kernels.addmm(b, x, w, alpha=1, beta=1, out=buf1)\n"
        "    return (buf1, )\n"
    )
    run = open_run(tmp_path)
    ops = [(x.operator, x.line, x.aten) for x in run.extern_launches]
    assert ops == [
        ("_scaled_dot_product_flash_attention", 4, ("aten._scaled_dot_product_flash_attention",)),
        ("addmm", 5, ()),
    ]
    assert operator_group([ops[0][0]]) == "attention"
