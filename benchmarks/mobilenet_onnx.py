"""A MobileNetV2-shaped ONNX graph made with onnx.helper (inverted residual blocks, batch norm
folded into the convolutions and ReLU6 as Clip, as PyTorch's inference export gives), with
weights as graph inputs without values (as PyTorch's ``export_params=False``): kernelscope's
build gives them seeded random values, which a GPU host can make again from the manifest, so
the model travels without its 14 MB of weights. 55 kernel calls under TVM, 44 of them fused
kernels with names longer than the 31 characters Nsight Compute prints in full
(``fused_conv2d7_tir_isnan_where_add5_maximum3_tir_isnan_where_minimum3_kernel``).

Usage: python benchmarks/mobilenet_onnx.py OUT.onnx
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

# (expansion, output channels, blocks, stride of the first block), as in the MobileNetV2 paper
BLOCKS = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1),
          (6, 160, 3, 2), (6, 320, 1, 1)]  # fmt: skip


def make_mobilenet_v2(path: Path, batch: int = 1) -> Path:
    nodes: list[onnx.NodeProto] = []
    inits: list[onnx.TensorProto] = []
    weights: list[onnx.ValueInfoProto] = []
    counter = iter(range(10_000))

    def tensor(*shape: int) -> str:
        name = f"w{next(counter)}"
        weights.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, list(shape)))
        return name

    def scalar(value: float) -> str:
        name = f"c{next(counter)}"
        inits.append(numpy_helper.from_array(np.array(value, dtype=np.float32), name))
        return name

    low, high = scalar(0.0), scalar(6.0)

    def conv(x: str, cin: int, cout: int, k: int, stride: int = 1, groups: int = 1,
             relu6: bool = True) -> str:  # fmt: skip
        out = f"t{next(counter)}"
        nodes.append(
            helper.make_node(
                "Conv",
                [x, tensor(cout, cin // groups, k, k), tensor(cout)],
                [out],
                kernel_shape=[k, k],
                strides=[stride, stride],
                pads=[k // 2] * 4,
                group=groups,
            )
        )
        if not relu6:
            return out
        nodes.append(helper.make_node("Clip", [out, low, high], [out + "c"]))
        return out + "c"

    x, cin = conv("input", 3, 32, 3, 2), 32
    for t, c, n, s in BLOCKS:
        for b in range(n):
            stride = s if b == 0 else 1
            hidden = cin * t
            y = conv(x, cin, hidden, 1) if t != 1 else x
            y = conv(y, hidden, hidden, 3, stride, groups=hidden)
            y = conv(y, hidden, c, 1, relu6=False)
            if stride == 1 and cin == c:
                out = f"t{next(counter)}"
                nodes.append(helper.make_node("Add", [x, y], [out]))
                y = out
            x, cin = y, c
    x = conv(x, cin, 1280, 1)
    nodes.append(helper.make_node("GlobalAveragePool", [x], ["gap"]))
    nodes.append(helper.make_node("Flatten", ["gap"], ["flat"], axis=1))
    nodes.append(
        helper.make_node("Gemm", ["flat", tensor(1000, 1280), tensor(1000)], ["logits"], transB=1)
    )
    graph = helper.make_graph(
        nodes,
        "mobilenet_v2",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, [batch, 3, 224, 224]), *weights],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [batch, 1000])],
        initializer=inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return path


if __name__ == "__main__":
    make_mobilenet_v2(Path(sys.argv[1]))
