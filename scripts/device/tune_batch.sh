#!/usr/bin/env bash
# Issue 21: measure one tuning round on the GPU machine with the runtime-only TVM.
# Stage here: a round from `kernelscope tune WS --export-batch ROUND`, TVM's runtime
# (tvm_rt.tgz, as stage.sh makes it), the apache-tvm-ffi wheel for the host's Python and
# core/tuning/batch_measure.py, all in one carried folder STAGE; there:
#   bash scripts/device/tune_batch.sh STAGE      -> $OUT/results.json (+ stderr.txt)
# then here: cp results.json ROUND/ && kernelscope tune WS ... --import-batch ROUND
set -euo pipefail
S=$1
mkdir -p /tmp/site
tar -C /tmp/site -xzf "$S/tvm_rt.tgz"
python3 -m pip install -q --no-index --no-deps --target /tmp/site "$S"/whl/*.whl
export PYTHONPATH=/tmp/site TVM_USE_RUNTIME_LIB=1 PYTHONUNBUFFERED=1
python3 "$S/batch_measure.py" "$S/round" 2>"$OUT/stderr.txt"
cp "$S/round/results.json" "$OUT/results.json"
