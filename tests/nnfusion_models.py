"""Small ONNX models for the NNFusion tests, written into a test's folder (weights as
initializers unless said otherwise), and the real NNFusion binary when there is one."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from kernelscope.core.nnfusion.compiler import NNFusionLog

ENV = "KERNELSCOPE_NNFUSION"


def nnfusion_binary() -> Path:
    """The real NNFusion (``$KERNELSCOPE_NNFUSION``), or skip the test saying why."""
    given = os.environ.get(ENV)
    if not given:
        pytest.skip(
            f"{ENV} is not set: the real NNFusion compiler (../shared/tools/nnfusion, which "
            ".ci/run unpacks) checks the kernel DB"
        )
    path = Path(given)
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.skip(f"{ENV}={given} is not an executable nnfusion binary")
    return path


def run_printed(argv: list[str], binary: Path, cwd: Path) -> tuple[int, NNFusionLog, str]:
    """Run the command kernelscope printed, as a user would (its ``nnfusion`` is the binary),
    with a python3 that fails so NNFusion's onnxruntime rewrite is skipped here too."""
    shim = cwd / "shim"
    shim.mkdir(parents=True)
    (shim / "python3").write_text("#!/bin/sh\nexit 1\n")
    (shim / "python3").chmod(0o755)
    env = {**os.environ, "PATH": f"{shim}{os.pathsep}{os.environ['PATH']}"}
    proc = subprocess.run(
        [str(binary), *argv[1:], "-min_log_level=0"], cwd=cwd, env=env,
        capture_output=True, text=True, check=False, timeout=600,
    )  # fmt: skip
    code = "".join(p.read_text(errors="replace") for p in (cwd / "nnfusion_rt").rglob("*.cu"))
    return proc.returncode, NNFusionLog.parse(proc.stdout + proc.stderr), code


def _tensor(name: str, *shape: int) -> onnx.TensorProto:
    rng = np.random.default_rng(sum(map(ord, name)))
    return numpy_helper.from_array((rng.standard_normal(shape) * 0.1).astype(np.float32), name)


def save(path: Path, nodes: list, inputs: dict, outputs: dict, inits: list) -> Path:
    graph = helper.make_graph(
        nodes,
        path.stem,
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in inputs.items()],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in outputs.items()],
        initializer=inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return path


def residual_cnn(path: Path) -> Path:
    """The kinds of node ResNet-50 has, small: Conv+bias+Relu (the pattern), a 1x1 Conv with
    bias, a residual Add and Relu (no pattern), a padded MaxPool, GlobalAveragePool, Flatten
    and a Gemm with transB=1."""
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1], name="conv1"),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], name="conv2"),
        helper.make_node("Add", ["c2", "r1"], ["s"], name="residual"),
        helper.make_node("Relu", ["s"], ["r2"], name="relu2"),
        helper.make_node(
            "MaxPool", ["r2"], ["p"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]
        ),
        helper.make_node("GlobalAveragePool", ["p"], ["g"], name="gap"),
        helper.make_node("Flatten", ["g"], ["f"], axis=1),
        helper.make_node("Gemm", ["f", "w3", "b3"], ["y"], transB=1, name="fc"),
    ]
    inits = [
        _tensor("w1", 16, 3, 3, 3),
        _tensor("b1", 16),
        _tensor("w2", 16, 16, 1, 1),
        _tensor("b2", 16),
        _tensor("w3", 10, 16),
        _tensor("b3", 10),
    ]
    return save(path, nodes, {"x": [1, 3, 16, 16]}, {"y": [1, 10]}, inits)


def square_matmul(path: Path) -> Path:
    """x·W with a square W: TVM's matmul kernel, whose Dot identifier a Gemm with transB=1
    of the same shapes also computes."""
    nodes = [helper.make_node("MatMul", ["x", "w"], ["y"], name="mm")]
    return save(path, nodes, {"x": [4, 16]}, {"y": [4, 16]}, [_tensor("w", 16, 16)])


def square_gemm(path: Path) -> Path:
    """x·Wᵀ (Gemm transB=1, no bias: beta=0, which NNFusion's importer needs) with a square
    W."""
    nodes = [helper.make_node("Gemm", ["x", "w"], ["y"], transB=1, beta=0.0, name="gemm")]
    return save(path, nodes, {"x": [4, 16]}, {"y": [4, 16]}, [_tensor("w", 16, 16)])


def resnet50_head(path: Path) -> Path:
    """ResNet-50's classifier as torch.onnx exports it: Gemm(x, W, b) with transB=1, x
    [1, 2048], W [1000, 2048]. TVM schedules it as a GEMV that stages x in a ``float4``
    shared array."""
    nodes = [helper.make_node("Gemm", ["x", "w", "b"], ["y"], transB=1, name="fc")]
    inits = [_tensor("w", 1000, 2048), _tensor("b", 1000)]
    return save(path, nodes, {"x": [1, 2048]}, {"y": [1, 1000]}, inits)


def relu_pair(path: Path, shape: tuple[int, ...] = (1, 64, 112, 112)) -> Path:
    """Two Relus on two inputs: NNFusion block-fuses them (they run side by side)."""
    nodes = [
        helper.make_node("Relu", ["x"], ["a"], name="relu_a"),
        helper.make_node("Relu", ["y"], ["b"], name="relu_b"),
    ]
    io = {"x": list(shape), "y": list(shape)}
    return save(path, nodes, io, {"a": list(shape), "b": list(shape)}, [])


def squeezenet_expand3x3(path: Path) -> Path:
    """SqueezeNet 1.1's last expand3x3 (Conv 64->256, 3x3, pad 1, on 13x13) with its Relu: the
    operator of the tuned kernel in tests/data/kernel_db/cp_async."""
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1], name="conv"),
        helper.make_node("Relu", ["c"], ["y"], name="relu"),
    ]
    inits = [_tensor("w", 256, 64, 3, 3), _tensor("b", 256)]
    return save(path, nodes, {"x": [1, 64, 13, 13]}, {"y": [1, 256, 13, 13]}, inits)


def single_relu(path: Path, shape: tuple[int, ...] = (1, 64, 112, 112)) -> Path:
    nodes = [helper.make_node("Relu", ["x"], ["a"], name="relu")]
    return save(path, nodes, {"x": list(shape)}, {"a": list(shape)}, [])


def torch_style_cnn(path: Path) -> Path:
    """What ``torch.onnx.export(..., export_params=False)`` writes: the weights are graph
    inputs after the data input, a module's by its name (``fc.weight``), the constants it
    folded (a BatchNorm into the Conv before it) as ``onnx::Conv_N``."""
    nodes = [
        helper.make_node(
            "Conv", ["input", "onnx::Conv_12", "onnx::Conv_13"], ["/conv/Conv_output_0"],
            name="/conv/Conv", pads=[1, 1, 1, 1],
        ),
        helper.make_node(
            "Relu", ["/conv/Conv_output_0"], ["/relu/Relu_output_0"], name="/relu/Relu"
        ),
        helper.make_node(
            "GlobalAveragePool", ["/relu/Relu_output_0"], ["/pool/GlobalAveragePool_output_0"],
            name="/pool/GlobalAveragePool",
        ),
        helper.make_node(
            "Flatten", ["/pool/GlobalAveragePool_output_0"], ["/Flatten_output_0"], name="/Flatten"
        ),
        helper.make_node(
            "Gemm", ["/Flatten_output_0", "fc.weight", "fc.bias"], ["output"], name="/fc/Gemm",
            transB=1,
        ),
    ]  # fmt: skip
    inputs = {
        "input": [1, 3, 8, 8], "onnx::Conv_12": [4, 3, 3, 3], "onnx::Conv_13": [4],
        "fc.weight": [10, 4], "fc.bias": [10],
    }  # fmt: skip
    return save(path, nodes, inputs, {"output": [1, 10]}, [])


def ceil_pool_cnn(path: Path, size: int) -> Path:
    """Conv+bias+Relu, a MaxPool 3/2 with ceil_mode=1 (PyTorch's SqueezeNet has three), a
    Concat of two branches and a Relu. With ``size`` odd ceil_mode changes nothing (111 -> 55
    either way); with ``size`` even the ceiling adds a row and a column (6 -> 3, not 2)."""
    out = -(-(size - 3) // 2) + 1
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], name="conv"),
        helper.make_node("Relu", ["c"], ["r"], name="relu"),
        helper.make_node(
            "MaxPool", ["r"], ["p"], name="pool", kernel_shape=[3, 3], strides=[2, 2],
            ceil_mode=1,
        ),
        helper.make_node("Concat", ["p", "p"], ["cat"], name="cat", axis=1),
        helper.make_node("Relu", ["cat"], ["y"], name="relu2"),
    ]  # fmt: skip
    inits = [_tensor("w", 4, 4, 1, 1), _tensor("b", 4)]
    return save(path, nodes, {"x": [1, 4, size, size]}, {"y": [1, 8, out, out]}, inits)


def mystery_then_relu(path: Path) -> Path:
    """An operator nobody knows (its output's shape declared), then a Relu."""
    graph = helper.make_graph(
        [
            helper.make_node("Mystery", ["x"], ["m"], name="mystery", domain="example.test"),
            helper.make_node("Relu", ["m"], ["y"], name="relu"),
        ],
        path.stem,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 16])],
        value_info=[helper.make_tensor_value_info("m", TensorProto.FLOAT, [1, 16])],
    )
    model = helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("example.test", 1)],
    )
    onnx.save(model, str(path))
    return path


def foreign_then_relu(path: Path) -> Path:
    """``mystery_then_relu`` without the import of its operator's domain: ONNX's shape
    inference refuses the model (``InferenceError``), so nothing tells the operator's output
    shape."""
    model = onnx.load(str(mystery_then_relu(path)))
    model.opset_import.pop()  # example.test
    del model.graph.value_info[:]
    onnx.save(model, str(path))
    return path
