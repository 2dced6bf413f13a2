"""On the GPU host: run a workspace's model once with seeded inputs and weights and save its
output (``parts_h200.sh`` runs it for the same ResNet-50 build with its cubin compiled in parts
and whole, then compares the outputs bit for bit and the time per call)."""

import json
import sys
import time
from pathlib import Path

import numpy as np

from kernelscope.core.profiling.runner.model import Model

workspace, out = Path(sys.argv[1]), Path(sys.argv[2])
manifest = json.loads((workspace / "manifest.json").read_text())
rng = np.random.default_rng(0)
arrays = {
    t["name"]: (rng.standard_normal(t["shape"]) * 0.05).astype(t["dtype"])
    for t in manifest["inputs"] + manifest["weights"]
}
inputs = out.with_suffix(".inputs.npz")
np.savez(inputs, **arrays)
model = Model(workspace, inputs, 0)
result = model.func(*model.args)
model.device.sync()
np.save(out, result.numpy())
model.run(10)
times = []
for _ in range(5):
    start = time.perf_counter()
    model.run(20)
    times.append((time.perf_counter() - start) / 20 * 1e3)
print(
    f"{workspace.name}: cubin loads {model.calls}, ms per call (median of 5x20) "
    f"{sorted(times)[2]:.3f}"
)
