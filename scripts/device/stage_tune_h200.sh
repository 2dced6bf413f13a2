#!/usr/bin/env bash
# Issue 21 on the H200: stage what tune_h200.sh needs into STAGE (ignored by git, carried by the
# device call), small enough to travel (keep it under ~9 MiB):
#   rt.txz        kernelscope's runtime-only TVM bundle for the host's Python 3.12
#                 (`make_bundle`, as remote-install makes it), without tvm_ffi's sources
#   code.tgz      this checkout's core/ (kernelscope on the GPU side: runner, batch_measure)
#   *.whl         platformdirs (kernelscope's paths import it; the GPU image lacks it)
#   ws.txz        the workspaces to profile/time, without weights (params_from_onnx.py and
#                 benchmarks/resnet_onnx.py make them again there), sass.json, build logs
#   *.onnx        the models without initializers (MobileNetV2's weights are seeded inputs)
#   rounds.txz    tuning rounds (`kernelscope tune --export-batch`): round.json + .so + .cubin
#   nnfusion.txz  NNFusion's generated projects, packed by nnfusion_constants.py (optional)
# Usage: bash scripts/device/stage_tune_h200.sh STAGE [--ws WS...] [--round NAME=DIR...]
#        [--nnfusion NAME=PROJECT_CODEGEN_DIR...]  (PROJECT: nnfusion-compile's cuda_codegen)
set -euo pipefail
py=${KERNELSCOPE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/kernelscope/venv}/bin/python
out=$1; shift
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
mkdir -p "$out"
if [ ! -f "$out/rt.txz" ]; then
    bundle=$("$py" -c 'from kernelscope.core.profiling import make_bundle; print(make_bundle((3, 12), "x86_64", "2.28"))')
    mkdir "$build/rt" && tar -xzf "$bundle" -C "$build/rt"
    tar -cJf "$out/rt.txz" --exclude=tvm_ffi/3rdparty --exclude=tvm/web --exclude='*.pyc' \
        -C "$build/rt" .
fi
tar -czf "$out/code.tgz" --exclude=__pycache__ core
ls "$out"/platformdirs-*.whl >/dev/null 2>&1 ||
    "$py" -m pip download -q --no-deps --only-binary=:all: -d "$out" platformdirs
cp scripts/device/tune_h200.sh scripts/device/tune_h200.py scripts/device/tune_h200_final.py \
    scripts/device/nnfusion_optimes.py scripts/device/params_from_onnx.py scripts/device/nnfusion_constants.py "$out/"
mode=""
wss=() rounds=()
while [ $# -gt 0 ]; do
    case $1 in
        --ws|--round|--nnfusion) mode=$1 ;;
        *) case $mode in
               --ws) wss+=("$1") ;;
               --round) rounds+=("$1") ;;
               --nnfusion) mkdir -p "$build/nnfusion"
                   "$py" scripts/device/nnfusion_constants.py pack "${NNF_MODEL:?NNF_MODEL=the ONNX model}" \
                       "${1#*=}" "$build/nnfusion/${1%%=*}" ;;
           esac ;;
    esac
    shift
done
[ -d "$build/nnfusion" ] && tar -cJf "$out/nnfusion.txz" -C "$build" nnfusion
if [ ${#wss[@]} -gt 0 ]; then
    for w in "${wss[@]}"; do cp -rL "$w" "$build/"; done
    tar -cJf "$out/ws.txz" --exclude=sass.json --exclude=build.log --exclude=params.npz \
        --exclude=profiles --exclude=tuning --exclude=src/kernels --exclude=src/module.cu \
        --exclude=module.ptx --exclude=ptx_lines.json \
        -C "$build" $(for w in "${wss[@]}"; do basename "$w"; done)
fi
if [ ${#rounds[@]} -gt 0 ]; then
    mkdir "$build/rounds"
    for r in "${rounds[@]}"; do
        mkdir "$build/rounds/${r%%=*}"
        (cd "${r#*=}" && cp round.json *.so *.cubin "$build/rounds/${r%%=*}/")
    done
    tar -cJf "$out/rounds.txz" -C "$build" rounds
fi
du -sh "$out"/*
du -sh "$out"
