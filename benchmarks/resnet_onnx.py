"""A ResNet-50-shaped ONNX graph made with onnx.helper (bottleneck blocks 3-4-6-3, batch norm
folded into the convolutions as PyTorch's inference export does), with random weights."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def make_resnet50(path: Path, batch: int = 1, seed: int = 0) -> Path:
    rng = np.random.default_rng(seed)
    nodes: list[onnx.NodeProto] = []
    inits: list[onnx.TensorProto] = []
    counter = iter(range(10_000))

    def weight(*shape: int) -> str:
        name = f"w{next(counter)}"
        value = rng.standard_normal(shape).astype(np.float32) * np.float32(0.05)
        inits.append(numpy_helper.from_array(value, name))
        return name

    def conv(x: str, cin: int, cout: int, k: int, stride: int = 1, relu: bool = True) -> str:
        out = f"t{next(counter)}"
        pad = k // 2
        nodes.append(
            helper.make_node(
                "Conv",
                [x, weight(cout, cin, k, k), weight(cout)],
                [out],
                kernel_shape=[k, k],
                strides=[stride, stride],
                pads=[pad] * 4,
            )
        )
        if not relu:
            return out
        nodes.append(helper.make_node("Relu", [out], [out + "r"]))
        return out + "r"

    x = conv("input", 3, 64, 7, 2)
    nodes.append(
        helper.make_node(
            "MaxPool", [x], ["pool"], kernel_shape=[3, 3], strides=[2, 2], pads=[1] * 4
        )
    )
    x, cin = "pool", 64
    for stage, (blocks, width) in enumerate([(3, 64), (4, 128), (6, 256), (3, 512)]):
        for b in range(blocks):
            stride = 2 if b == 0 and stage > 0 else 1
            y = conv(x, cin, width, 1)
            y = conv(y, width, width, 3, stride)
            y = conv(y, width, width * 4, 1, relu=False)
            shortcut = conv(x, cin, width * 4, 1, stride, relu=False) if b == 0 else x
            out = f"t{next(counter)}"
            nodes.append(helper.make_node("Add", [y, shortcut], [out]))
            nodes.append(helper.make_node("Relu", [out], [out + "r"]))
            x, cin = out + "r", width * 4
    nodes.append(helper.make_node("GlobalAveragePool", [x], ["gap"]))
    nodes.append(helper.make_node("Flatten", ["gap"], ["flat"], axis=1))
    nodes.append(
        helper.make_node("Gemm", ["flat", weight(1000, 2048), weight(1000)], ["logits"], transB=1)
    )
    graph = helper.make_graph(
        nodes,
        "resnet50",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, [batch, 3, 224, 224])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [batch, 1000])],
        initializer=inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))
    return path


def make_resnet18(path: Path, batch: int = 1, seed: int = 0) -> Path:
    """torchvision's resnet18 as ONNX (basic blocks 2-2-2-2, batch norm folded into the
    convolutions as PyTorch's inference export does), random weights: the TVM side of the
    TVM-against-Inductor comparison (tests/data/inductor/README.md)."""
    rng = np.random.default_rng(seed)
    nodes: list[onnx.NodeProto] = []
    inits: list[onnx.TensorProto] = []
    counter = iter(range(10_000))

    def weight(*shape: int) -> str:
        name = f"w{next(counter)}"
        value = rng.standard_normal(shape).astype(np.float32) * np.float32(0.05)
        inits.append(numpy_helper.from_array(value, name))
        return name

    def conv(x: str, cin: int, cout: int, k: int, stride: int = 1, relu: bool = True) -> str:
        out = f"t{next(counter)}"
        nodes.append(
            helper.make_node(
                "Conv",
                [x, weight(cout, cin, k, k), weight(cout)],
                [out],
                kernel_shape=[k, k],
                strides=[stride, stride],
                pads=[k // 2] * 4,
            )
        )
        if not relu:
            return out
        nodes.append(helper.make_node("Relu", [out], [out + "r"]))
        return out + "r"

    x = conv("input", 3, 64, 7, 2)
    nodes.append(
        helper.make_node(
            "MaxPool", [x], ["pool"], kernel_shape=[3, 3], strides=[2, 2], pads=[1] * 4
        )
    )
    x, cin = "pool", 64
    for stage, width in enumerate([64, 128, 256, 512]):
        for b in range(2):
            stride = 2 if b == 0 and stage > 0 else 1
            y = conv(x, cin, width, 3, stride)
            y = conv(y, width, width, 3, relu=False)
            shortcut = conv(x, cin, width, 1, stride, relu=False) if stride != 1 else x
            out = f"t{next(counter)}"
            nodes.append(helper.make_node("Add", [y, shortcut], [out]))
            nodes.append(helper.make_node("Relu", [out], [out + "r"]))
            x, cin = out + "r", width
    nodes.append(helper.make_node("GlobalAveragePool", [x], ["gap"]))
    nodes.append(helper.make_node("Flatten", ["gap"], ["flat"], axis=1))
    nodes.append(
        helper.make_node("Gemm", ["flat", weight(1000, 512), weight(1000)], ["logits"], transB=1)
    )
    graph = helper.make_graph(
        nodes,
        "resnet18",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, [batch, 3, 224, 224])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [batch, 1000])],
        initializer=inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))
    return path
