"""Writes the small ONNX models the tests build (run once; the outputs are committed).

small_cnn.onnx           Conv+Relu -> MaxPool -> Flatten -> Gemm, weights as initializers
small_cnn_external.onnx  the same graph with its weights in small_cnn_external.data
small_mlp_noparams.onnx  MatMul+Add+Relu -> MatMul, weights as graph inputs (export_params=False
                         style, like the fixtures exported from PyTorch)
dynamic_batch.onnx       MatMul with a symbolic batch dimension
unsupported_op.onnx      a node of an operator TVM's ONNX frontend does not have
"""

from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = Path(__file__).parent


def tensor(name: str, *shape: int) -> onnx.TensorProto:
    rng = np.random.default_rng(sum(map(ord, name)))
    return numpy_helper.from_array((rng.standard_normal(shape) * 0.1).astype(np.float32), name)


def save(graph: onnx.GraphProto, name: str, **kwargs: object) -> None:
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, str(HERE / name), **kwargs)


def cnn_graph() -> onnx.GraphProto:
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1], name="conv1"),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Flatten", ["p1"], ["f"], axis=1),
        helper.make_node("Gemm", ["f", "w2", "b2"], ["y"], transB=1, name="fc"),
    ]
    return helper.make_graph(
        nodes,
        "small_cnn",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 16, 16])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 10])],
        initializer=[
            tensor("w1", 8, 3, 3, 3),
            tensor("b1", 8),
            tensor("w2", 10, 512),
            tensor("b2", 10),
        ],
    )


def main() -> None:
    (HERE / "small_cnn_external.data").unlink(missing_ok=True)
    save(cnn_graph(), "small_cnn.onnx")
    save(
        cnn_graph(),
        "small_cnn_external.onnx",
        save_as_external_data=True,
        all_tensors_to_one_file=True,
        location="small_cnn_external.data",
        size_threshold=0,
    )
    mlp_inputs = [
        helper.make_tensor_value_info("input", TensorProto.FLOAT, [4, 32]),
        helper.make_tensor_value_info("fc1.weight", TensorProto.FLOAT, [32, 64]),
        helper.make_tensor_value_info("fc1.bias", TensorProto.FLOAT, [64]),
        helper.make_tensor_value_info("fc2.weight", TensorProto.FLOAT, [64, 8]),
    ]
    save(
        helper.make_graph(
            [
                helper.make_node("MatMul", ["input", "fc1.weight"], ["m1"]),
                helper.make_node("Add", ["m1", "fc1.bias"], ["a1"]),
                helper.make_node("Relu", ["a1"], ["r1"]),
                helper.make_node("MatMul", ["r1", "fc2.weight"], ["out"]),
            ],
            "small_mlp_noparams",
            mlp_inputs,
            [helper.make_tensor_value_info("out", TensorProto.FLOAT, [4, 8])],
        ),
        "small_mlp_noparams.onnx",
    )
    save(
        helper.make_graph(
            [helper.make_node("MatMul", ["x", "w"], ["y"])],
            "dynamic_batch",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 16])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 4])],
            initializer=[tensor("w", 16, 4)],
        ),
        "dynamic_batch.onnx",
    )
    graph = helper.make_graph(
        [helper.make_node("NotARealOp", ["x"], ["y"], name="mystery_node", domain="com.example")],
        "unsupported",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])],
    )
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("com.example", 1)]
    )
    onnx.save(model, str(HERE / "unsupported_op.onnx"))


if __name__ == "__main__":
    main()
