"""A build too big to carry its weights leaves them to the GPU host (``weights_on_host``): the
runner there must make exactly the values the build would have stored, or a profile of the
same workspace on two hosts (or against a smaller build's params.npz) ran other numbers."""

from __future__ import annotations

import numpy as np

from kernelscope.core.build.model_loader import random_weights
from kernelscope.core.profiling.runner.model import seeded_weights
from kernelscope.core.workspace import TensorInfo


def test_the_runner_makes_the_weights_the_build_would_have_stored() -> None:
    weights = [
        TensorInfo(shape=[64, 32], dtype="float16", name="packed_params.0"),
        TensorInfo(shape=[32], dtype="float32", name="packed_params.1"),
        TensorInfo(shape=[3, 5, 7], dtype="float16", name="packed_params.2"),
    ]
    manifest = {
        "weights": [{"name": w.name, "shape": w.shape, "dtype": w.dtype} for w in weights],
        "params_seed": 7,
        "weights_on_host": True,
    }
    built = random_weights(weights, 7)
    made = seeded_weights(manifest)
    assert [m.dtype for m in made] == [np.dtype(w.dtype) for w in weights]
    for b, m in zip(built, made, strict=True):
        np.testing.assert_array_equal(b, m)
    # another seed gives other values: the seed is the build's, not the runner's
    assert not np.array_equal(random_weights(weights, 8)[0], made[0])
