"""On the GPU host (PyTorch and Triton installed): one model under torch.compile, with every
folder Inductor and Triton write kept in a run folder, and its steady-state call timed or
profiled. Called by inductor_h200.sh; each phase runs in its own process because Inductor reads
its environment at import.

  python3 inductor_capture.py compile MODEL RUN   compile with TORCH_COMPILE_DEBUG, time it
  python3 inductor_capture.py profile MODEL RUN   the compiled model again (caches hit) with
                                                  the profiler started around one steady call
                                                  (run under ncu --profile-from-start off)

MODEL: transformer (the Block below, the twin of tests/data/models/transformer_block.py, with
the TVM workspace's weights when RUN/../transformer_params.npz exists) or resnet18
(torchvision, no weights, batch 1). RUN gets debug/ (TORCH_COMPILE_DEBUG_DIR), inductor_cache/
(TORCHINDUCTOR_CACHE_DIR), triton_cache/ (TRITON_CACHE_DIR), trace/ (TORCH_TRACE) and run.json
(versions, timings, settings).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path

phase, model_name, run = sys.argv[1], sys.argv[2], Path(sys.argv[3]).resolve()
run.mkdir(parents=True, exist_ok=True)
os.environ["TORCHINDUCTOR_CACHE_DIR"] = str(run / "inductor_cache")
os.environ["TRITON_CACHE_DIR"] = str(run / "triton_cache")
if phase == "compile":
    os.environ["TORCH_COMPILE_DEBUG"] = "1"
    os.environ["TORCH_COMPILE_DEBUG_DIR"] = str(run / "debug")
    os.environ["TORCH_TRACE"] = str(run / "trace")
    os.environ["INDUCTOR_PROVENANCE"] = "1"

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

B, S, D, H, FF = 8, 128, 256, 4, 1024


class Block(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(D), nn.LayerNorm(D)
        self.qkv, self.proj = nn.Linear(D, 3 * D), nn.Linear(D, D)
        self.fc1, self.fc2 = nn.Linear(D, FF), nn.Linear(FF, D)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        qkv = self.qkv(self.ln1(x)).reshape(B, S, 3, H, D // H).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        att = torch.softmax(q @ k.transpose(-1, -2) * (1.0 / (D // H) ** 0.5), dim=-1) @ v
        x = x + self.proj(att.transpose(1, 2).reshape(B, S, D))
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


def make() -> tuple[nn.Module, torch.Tensor]:
    torch.manual_seed(0)
    if model_name == "transformer":
        model = Block()
        params = run.parent / "transformer_params.npz"
        if params.is_file():
            import numpy as np

            with np.load(params) as values:
                model.load_state_dict({k: torch.from_numpy(values[k]) for k in values.files})
        x = torch.randn(B, S, D)
    else:
        import torchvision

        model = torchvision.models.resnet18(weights=None)
        x = torch.randn(1, 3, 224, 224)
    return model.eval().cuda(), x.cuda()


def timed(fn, x: torch.Tensor, n: int = 100) -> dict:
    for _ in range(10):
        fn(x)
    torch.cuda.synchronize()
    gpu, wall = [], []
    for _ in range(n):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        t0 = time.perf_counter()
        start.record()
        fn(x)
        end.record()
        torch.cuda.synchronize()
        wall.append(1000 * (time.perf_counter() - t0))
        gpu.append(start.elapsed_time(end))
    return {
        "gpu_ms_median": statistics.median(gpu),
        "wall_ms_median": statistics.median(wall),
        "gpu_ms_min": min(gpu),
        "runs": n,
    }


model, x = make()
compiled = torch.compile(model)
with torch.no_grad():
    t0 = time.perf_counter()
    compiled(x)
    torch.cuda.synchronize()
    first_call_s = time.perf_counter() - t0
    if phase == "compile":
        import triton
        from torch._inductor import config as ind_config

        info = {
            "model": model_name,
            "torch": torch.__version__,
            "triton": triton.__version__,
            "cuda": torch.version.cuda,
            "device": torch.cuda.get_device_name(),
            "dtype": "float32",
            "input_shape": list(x.shape),
            "first_call_s": first_call_s,
            "provenance_tracking_level": getattr(
                ind_config.trace, "provenance_tracking_level", None
            ),
            "inductor": timed(compiled, x),
            "eager": timed(model, x),
        }
        (run / "run.json").write_text(json.dumps(info, indent=1))
        print(json.dumps(info), flush=True)
    else:
        for _ in range(5):
            compiled(x)
        torch.cuda.synchronize()
        torch.cuda.cudart().cudaProfilerStart()
        compiled(x)
        torch.cuda.synchronize()
        torch.cuda.cudart().cudaProfilerStop()
        print(f"profiled one steady call ({first_call_s:.1f} s to the first call)", flush=True)
