#!/usr/bin/env bash
# Issue 22 on the H200: real torch.compile (Inductor + Triton) run folders of a transformer block
# and torchvision's resnet18, each profiled by ncu with source import around one steady-state
# call, and the same two models built by TVM here (stage_inductor.sh) profiled and timed with
# kernelscope, for `kernelscope diff WORKSPACE RUN`. From the repository root:
#   bash STAGE/inductor_h200.sh STAGE          (STAGE: what stage_inductor.sh made)
# Comes back in $OUT: run_<model>.txz (the run folder <model>/ with debug/, inductor_cache/,
# triton_cache/, trace/, run.json, profile.ncu-rep, and the logs), tvm.txz (tvm/<model>.ncu-rep,
# <model>_timeline.json, tvm_timing.json) and versions.txt.
set -uo pipefail
export XZ_OPT=-T0
stage=$(cd "${1:-.device/inductor}" && pwd)
root=$(pwd)
work=/tmp/ks-inductor
mkdir -p "$work/site" "$work/pkg/kernelscope" "$work/ws" "$work/out/runs" "$work/out/tvm"
tar -xJf "$stage/tvm_rt.txz" -C "$work/site"
python3 -m pip install -q --no-index --no-deps --no-compile --target "$work/site" "$stage"/whl/*.whl
ln -sfn "$root/core" "$work/pkg/kernelscope/core"
tar -xJf "$stage/ws.txz" -C "$work/ws"
# the transformer's weights as kernelscope's build seeded them (seed 0, in parameter order)
python3 - "$stage/transformer_params.json" "$stage/transformer_params.npz" <<'PY'
import json, sys
import numpy as np
rng = np.random.default_rng(0)
shapes = json.load(open(sys.argv[1]))
np.savez(sys.argv[2], **{k: (rng.standard_normal(s) * 0.05).astype("float32") for k, s in shapes})
PY
sections=(--section SpeedOfLight --section LaunchStats --section Occupancy
          --section SourceCounters --section WarpStateStats)
{ python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'
  ncu --version | tail -1; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  grep -n -i "provenance" "$(python3 -c 'import torch._inductor.config as c; print(c.__file__)')" | head -20
} 2>&1 | tee "$work/out/versions.txt"

for m in transformer resnet18; do
    cp "$stage/transformer_params.npz" "$work/out/runs/" 2>/dev/null
    t0=$(date +%s)
    python3 "$stage/inductor_capture.py" compile "$m" "$work/out/runs/$m" >"$work/out/runs/$m.compile.log" 2>&1
    echo "$m compile rc=$? $(( $(date +%s) - t0 )) s"; tail -3 "$work/out/runs/$m.compile.log"
    t0=$(date +%s)
    ncu --profile-from-start off --import-source yes "${sections[@]}" --clock-control base \
        -f -o "$work/out/runs/$m/profile" \
        python3 "$stage/inductor_capture.py" profile "$m" "$work/out/runs/$m" >"$work/out/runs/$m.ncu.log" 2>&1
    echo "$m ncu rc=$? $(( $(date +%s) - t0 )) s"; grep -c "==PROF==" "$work/out/runs/$m.ncu.log"; tail -2 "$work/out/runs/$m.ncu.log"
    tar -cJf "$OUT/run_$m.txz" --exclude='*.so' --exclude=__pycache__ -C "$work/out/runs" "$m" "$m.compile.log" "$m.ncu.log"
done
rm -f "$work/out/runs/transformer_params.npz"

# the TVM side: weights made again here, ncu profile and CUDA-event timeline of each workspace
export PYTHONPATH="$work/site:$work/pkg:$stage" TVM_USE_RUNTIME_LIB=1 PYTHONUNBUFFERED=1
python3 - "$work/ws" "$work/out/tvm" "$stage" <<'PY'
import json, shutil, sys, time
from pathlib import Path
import numpy as np
ws_root, out, stage = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
from resnet_onnx import make_resnet18
import onnx
from onnx import numpy_helper
onnx_path = ws_root / "resnet18.onnx"
make_resnet18(onnx_path)
np.savez(ws_root / "resnet18.kscope" / "params.npz",
         **{t.name: numpy_helper.to_array(t) for t in onnx.load(str(onnx_path)).graph.initializer})
shutil.copy(stage / "transformer_params.npz", ws_root / "transformer.kscope" / "params.npz")
from kernelscope.core.profiling import ProfileRequest, profile_workspace
from kernelscope.core.timeline import TimelineRequest, measure_timeline
sections = ["SpeedOfLight", "LaunchStats", "Occupancy", "SourceCounters", "WarpStateStats"]
timing = {}
for ws in ("transformer", "resnet18"):
    path = ws_root / f"{ws}.kscope"
    try:
        start = time.perf_counter()
        tl = measure_timeline(TimelineRequest(path, warmup=5, repeat=20, name="h200"))
        timing[ws] = {k: tl.meta.get(k) for k in ("plain_gpu_us", "plain_wall_ms")}
        timing[ws]["kernel_time_us"] = tl.kernel_time_us
        shutil.copy(tl.meta["file"], out / f"{ws}_timeline.json")
        print(ws, "timeline", timing[ws], f"{time.perf_counter() - start:.1f} s", flush=True)
    except Exception as exc:  # keep going: the profile matters more
        print(ws, "timeline failed:", repr(exc)[:800], flush=True)
    try:
        start = time.perf_counter()
        result = profile_workspace(ProfileRequest(workspace=path, set=None, sections=sections,
                                                  name="h200"), lambda s, f, m: None)
        shutil.copy(result.report, out / f"{ws}.ncu-rep")
        print(ws, f"profile: {result.launches} launches, {time.perf_counter() - start:.1f} s", flush=True)
    except Exception as exc:
        print(ws, "profile failed:", repr(exc)[:800], flush=True)
(out / "tvm_timing.json").write_text(json.dumps(timing, indent=1))
PY
du -sh "$work/out"/runs/* "$work/out/tvm"
tar -cJf "$OUT/tvm.txz" -C "$work/out" tvm
cp "$work/out/versions.txt" "$OUT/"
ls -la "$OUT"
