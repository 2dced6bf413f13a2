#!/usr/bin/env bash
# Issue 23, item 5 on the H200 host (16 cores), from the repository root, with .device/ staged
# by stage.sh (plus a platformdirs wheel in .device/whl) and .device/parts/ holding two copies of one ResNet-50 workspace (rn_parts: its
# cubin compiled in parts, as kernelscope builds; rn_whole: the same sources compiled as one
# unit) and resnet_src.tgz (that workspace's src/). Prints nvcc's variants on this host
# (bench_build.py --nvcc-only, twice) and whether both cubins give the same output.
set -uo pipefail
source scripts/device/env.sh
# kernelscope.core's one third-party import (the runner's package pulls in core.paths)
python3 -c "import platformdirs" 2>/dev/null || python3 -m pip install -q --no-index --no-deps \
    --target "$KS_WORK/site" .device/whl/platformdirs-*.whl
export PATH="$PATH:/usr/local/cuda/bin"
W="$KS_WORK/parts"
mkdir -p "$W/src" "$W/build"
nproc; nvcc --version | tail -1; uptime
tar xzf .device/parts/ws.tgz -C "$W"
tar xzf .device/parts/resnet_src.tgz -C "$W/src"
for run in 1 2; do
    python3 benchmarks/bench_build.py --nvcc-only "$W/src/src" --out "$W/build" 2>&1 |
        grep -v -E "warning #177|^ *int cse|^ *\^|^$|Remark" | tee "$OUT/nvcc_$run.txt"
done
for ws in rn_parts rn_whole; do
    python3 scripts/device/parts_check.py "$W/$ws" "$W/$ws.out.npy" || echo "$ws failed"
done
python3 -c "
import numpy as np, sys
a, b = np.load(sys.argv[1]), np.load(sys.argv[2])
print('outputs', a.shape, 'bit for bit equal:', np.array_equal(a, b), 'max |diff|', float(np.max(np.abs(a - b))))
" "$W/rn_parts.out.npy" "$W/rn_whole.out.npy"
