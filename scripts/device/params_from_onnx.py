"""On the GPU host: a workspace's params.npz made again from its ONNX model, as kernelscope's
build makes it for weights that are graph inputs without values (seeded random values, seed 0,
in input order; initializers as they are), so that the workspace travels without its weights.

Usage: python3 params_from_onnx.py MODEL.onnx OUT.npz
"""

import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper

model = onnx.load(sys.argv[1])
graph = model.graph
values = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
rng = np.random.default_rng(0)
for vi in [i for i in graph.input if i.name not in values][1:]:
    dims = [d.dim_value for d in vi.type.tensor_type.shape.dim]
    dtype = helper.tensor_dtype_to_np_dtype(vi.type.tensor_type.elem_type)
    values[vi.name] = (rng.standard_normal(dims) * 0.05).astype(dtype)
np.savez(sys.argv[2], **values)
