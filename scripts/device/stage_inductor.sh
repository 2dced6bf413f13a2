#!/usr/bin/env bash
# On the build machine: what inductor_h200.sh needs, into STAGE (default .device/inductor,
# ignored), about 6 MB:
#   tvm_rt.txz                 the installed tvm/ package without the compiler (runtime-only)
#   whl/                       apache-tvm-ffi and platformdirs wheels for the host's Python 3.12
#   ws.txz                     tests/data/models/transformer_block.py and benchmarks/
#                              resnet_onnx.py's ResNet-18 built here, without their weights
#   transformer_params.json    the transformer's weight names and shapes (made again there with
#                              the build's seed); ResNet-18's weights come from make_resnet18
#   inductor_capture.py, inductor_h200.sh, resnet_onnx.py
# Usage: bash scripts/device/stage_inductor.sh [STAGE]; then on the device, with carry STAGE:
#   bash STAGE/inductor_h200.sh STAGE
set -euo pipefail
py=${KERNELSCOPE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/kernelscope/venv}/bin/python
out=${1:-.device/inductor}
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
rm -rf "$out"
mkdir -p "$out/whl"
site=$("$py" -c 'import os, tvm; print(os.path.dirname(os.path.dirname(tvm.__file__)))')
tar -C "$site" --exclude=tvm/lib/libtvm_compiler.so --exclude=tvm/3rdparty --exclude=tvm/src \
    --exclude=__pycache__ --exclude=tvm/web -cJf "$out/tvm_rt.txz" tvm
ffi=$("$py" -c 'import importlib.metadata as m; print(m.version("apache-tvm-ffi"))')
"$py" -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
    --platform manylinux_2_28_x86_64 -d "$out/whl" "apache-tvm-ffi==$ffi" platformdirs
(cd benchmarks && "$py" -c "from pathlib import Path; from resnet_onnx import make_resnet18; \
make_resnet18(Path('$build/resnet18.onnx'))")
"$py" -m kernelscope.core.cli build "$build/resnet18.onnx" -o "$build/resnet18.kscope" --arch sm_90 >/dev/null
"$py" -m kernelscope.core.cli build tests/data/models/transformer_block.py \
    -o "$build/transformer.kscope" --arch sm_90 >/dev/null
"$py" - "$build/transformer.kscope/params.npz" "$out/transformer_params.json" <<'PY'
import json, sys
import numpy as np
with np.load(sys.argv[1]) as d:
    json.dump([[k, list(d[k].shape)] for k in d.files], open(sys.argv[2], "w"))
PY
tar -cJf "$out/ws.txz" --exclude=sass.json --exclude=build.log --exclude=params.npz \
    --exclude=ptx_lines.json -C "$build" resnet18.kscope transformer.kscope
cp scripts/device/inductor_capture.py scripts/device/inductor_h200.sh benchmarks/resnet_onnx.py "$out/"
du -sh "$out"/*
