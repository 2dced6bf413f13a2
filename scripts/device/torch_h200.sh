#!/usr/bin/env bash
# Issue 22 point 2 on the H200: `kernelscope profile-torch` on the small MLP of
# tests/data/torch/mlp.py, locally on the GPU host (its own PyTorch, Triton and ncu), with the
# timeline; then the run folder's summary (kernels, embedded sources, sizes) by
# torch_summary.py. Stage with `bash scripts/device/stage_torch.sh STAGE` here (this checkout's
# core/ and platformdirs, which the GPU image lacks), run with carry STAGE:
#   bash STAGE/torch_h200.sh
# Results: $OUT/env.txt, cli.log, mlp_timeline.json, summary.json, run.tgz (the run folder).
set -uo pipefail
OUT=${OUT:?set OUT to the result folder}
S=$(cd "$(dirname "$0")" && pwd)
export PYTHONPATH=$S/py PYTHONUNBUFFERED=1
R=/tmp/mlp.torchrun
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ncu --version | tail -1
  python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__)"; } >"$OUT/env.txt" 2>&1
t0=$(date +%s%N)
timeout 240 python3 -m kernelscope.core.cli profile-torch "$S/mlp.py" -o $R --name mlp --timeline --repeat 10 >"$OUT/cli.log" 2>&1
echo "rc=$? wall_ms=$(( ($(date +%s%N) - t0) / 1000000 ))" >>"$OUT/cli.log"
cp $R/timelines/mlp.json "$OUT/mlp_timeline.json" 2>/dev/null
timeout 60 python3 "$S/torch_summary.py" $R >"$OUT/summary.json" 2>"$OUT/summary.err"
tar -czf "$OUT/run.tgz" -C /tmp mlp.torchrun
