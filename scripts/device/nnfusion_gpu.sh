#!/usr/bin/env bash
# On the H200, from the repository root: build NNFusion's generated CUDA projects for a small
# CNN and ResNet-50 (with kernelscope's kernel DB, and without it: cuDNN/cuBLAS), run them and
# the TVM builds on one seeded input with the same weights, compare every output with
# onnxruntime's (and NNFusion+DB's with TVM's), time each. Writes $OUT/nnfusion_gpu.json and
# prints a table. Needs .device/ from `bash scripts/device/nnfusion_stage.sh` on the build
# machine (carry: .device). About 3-5 minutes; nothing is downloaded.
source "$(dirname "$0")/env.sh"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 scripts/device/nnfusion_gpu.py .device/nnfusion "$OUT"
cp .device/nnfusion/*.json "$OUT"/ 2>/dev/null || true
