#!/usr/bin/env bash
# Issue 23 on the H200 host: the travelling tree's core/ (old) against a staged core/ (new),
# by perf_old_new_h200.py. Stage here first, into KS_STAGE (default .device/perf):
#   whl/ (platformdirs, psygnal for Python 3.12: see stage_perf.sh), core.tar.xz
#   (tar -cJf --exclude=__pycache__ core, of the version to test), bench_import.py and
#   perf_old_new_h200.py (this folder's); run with carry KS_STAGE. Results: perf23b.log and
#   perf23b_h200.tgz under $OUT (written also at KS_STOP seconds, default 80, in case the call
#   runs out of time).
set -uo pipefail
OUT=${OUT:?}
KS_ROOT=$(pwd)
export KS_WORK=/tmp/ks-perf23 RES=/tmp/ks-perf23/results
mkdir -p "$KS_WORK/site" "$KS_WORK/old/kernelscope" "$KS_WORK/new/kernelscope" "$RES"
python3 -m pip install -q --no-index --no-deps --no-compile --target "$KS_WORK/site" ${KS_STAGE:-.device/perf}/whl/*.whl
tar -xJf ${KS_STAGE:-.device/perf}/core.tar.xz -C "$KS_WORK/new/kernelscope"
ln -sfn "$KS_ROOT/core" "$KS_WORK/old/kernelscope/core"
ncu_py=$(ls -d /opt/nvidia/nsight-compute/*/extras/python 2>/dev/null | sort -r | head -1)
export PP_OLD="$KS_WORK/site:$KS_WORK/old:$ncu_py" PP_NEW="$KS_WORK/site:$KS_WORK/new:$ncu_py"
export PYTHONPATH="$PP_NEW" PYTHONUNBUFFERED=1
{ nproc; python3 --version; env | grep ^PYTHON; uptime; } >"$RES/env.txt" 2>&1
gunzip -c resources/demo/squeezenet_h200.ncu-rep.gz >"$KS_WORK/squeezenet_h200.ncu-rep"
( sleep "${KS_STOP:-80}"; tar -czf "$OUT/perf23b_h200.tgz" -C "$RES" --exclude='*.prof' . ) &
bg=$!
python3 "${KS_STAGE:-.device/perf}/perf_old_new_h200.py" "$KS_WORK/squeezenet_h200.ncu-rep" 2>&1 | tee "$OUT/perf23b.log"
kill $bg 2>/dev/null; tar -czf "$OUT/perf23b_h200.tgz" -C "$RES" --exclude='*.prof' .
