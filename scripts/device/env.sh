# Sourced by the device scripts: unpack the runtime-only TVM and make kernelscope importable.
set -euo pipefail
KS_ROOT=$(pwd)
KS_WORK=${KS_WORK:-/tmp/ks-device}
mkdir -p "$KS_WORK/site" "$KS_WORK/pkg/kernelscope"
if [ ! -d "$KS_WORK/site/tvm" ]; then
    tar xzf .device/tvm_rt.tgz -C "$KS_WORK/site"
    python3 -m pip install -q --no-index --no-deps --no-compile --target "$KS_WORK/site" .device/whl/*.whl
fi
ln -sfn "$KS_ROOT/core" "$KS_WORK/pkg/kernelscope/core"
export PYTHONPATH="$KS_WORK/site:$KS_WORK/pkg${PYTHONPATH:+:$PYTHONPATH}"
export TVM_USE_RUNTIME_LIB=1 PYTHONUNBUFFERED=1
if [ -f .device/ws.tgz ] && [ ! -d "$KS_WORK/ws" ]; then
    mkdir -p "$KS_WORK/ws" && tar xzf .device/ws.tgz -C "$KS_WORK/ws"
fi
