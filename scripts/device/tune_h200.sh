#!/usr/bin/env bash
# Issue 21 on the H200 (tuning ResNet-50 and MobileNetV2 through batch mode, and the end-to-end
# figures). Staged by stage_tune_h200.sh into STAGE; run from the repository root with carry
# STAGE:  bash STAGE/tune_h200.sh STAGE MODE...   MODE: profile[:NAME] | rounds | e2e | nnfusion
#   profile  ncu (default sections + SourceCounters + roofline) of every staged workspace
#   rounds   batch_measure.py on every staged round (rounds.txz) -> NAME_results.json
#   e2e      end to end of every staged workspace (20 warm-up runs, median of 100, as
#            nnfusion_gpu.py); nnfusion: every staged NNFusion project built, timed the same way,
#            and per operator (nnfusion_optimes.py)
# Everything lands in $OUT/tune_h200.tgz beside summary.txt (the device returns few files).
set -uo pipefail
STAGE=$(cd "$1" && pwd); shift
OUT=${OUT:?set OUT}
W=/tmp/ks-tune
RES=$W/results
rm -rf "$W"; mkdir -p "$W/site" "$W/pkg/kernelscope" "$W/ws" "$RES"
tar -xJf "$STAGE/rt.txz" -C "$W/site"
tar -xzf "$STAGE/code.tgz" -C "$W/pkg/kernelscope"
python3 -m pip install -q --no-index --no-deps --no-compile --target "$W/site" "$STAGE"/*.whl
[ -f "$STAGE/ws.txz" ] && tar -xJf "$STAGE/ws.txz" -C "$W/ws"
[ -f "$STAGE/nnfusion.txz" ] && tar -xJf "$STAGE/nnfusion.txz" -C "$W"
[ -f "$STAGE/rounds.txz" ] && tar -xJf "$STAGE/rounds.txz" -C "$W"
export PYTHONPATH="$W/site:$W/pkg" TVM_USE_RUNTIME_LIB=1 PYTHONUNBUFFERED=1 KS_WORK=$W
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  ncu --version | tail -1; nvcc --version | tail -1; } >"$RES/env.txt" 2>&1
# KS_TIMEOUT: seconds for the measurements, so that what they wrote still comes back
timeout "${KS_TIMEOUT:-3000}" python3 "$STAGE/tune_h200.py" "$STAGE" "$W" "$RES" "$@" 2>&1 | tee "$RES/log.txt"
cp "$RES/summary.txt" "$OUT/" 2>/dev/null
tar -czf "$OUT/tune_h200.tgz" -C "$W" results
ls -la "$RES"
