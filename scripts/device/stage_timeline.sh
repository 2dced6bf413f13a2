#!/usr/bin/env bash
# On the build machine: what timeline_h200.sh needs, into .device/timeline/ (ignored by git):
#   runtime.tar.gz  kernelscope's runtime-only TVM bundle for the GPU host's Python (3.12),
#                   the one `kernelscope remote-install` copies (core/profiling/runtime_install.py)
#   ws.tgz          the workspaces, built here, without what the runner does not read
# Usage: bash scripts/device/stage_timeline.sh [MODEL.onnx ...]
#   (default: tests/data/models/small_cnn.onnx resources/demo/squeezenet1_1.onnx)
set -euo pipefail
py=${KERNELSCOPE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/kernelscope/venv}/bin/python
host_python=${HOST_PYTHON:-3.12}
models=("$@")
[ ${#models[@]} -gt 0 ] || models=(tests/data/models/small_cnn.onnx resources/demo/squeezenet1_1.onnx)
out=.device/timeline
build=build/timeline-ws
rm -rf "$out" "$build"
mkdir -p "$out" "$build"
for m in "${models[@]}"; do
    name=$(basename "${m%.*}")
    "$py" -m kernelscope.core.cli build "$m" -o "$build/$name.kscope" --no-cache >/dev/null
    echo "built $build/$name.kscope"
done
tar -czf "$out/ws.tgz" --exclude=sass.json --exclude=build.log --exclude=profiles \
    --exclude=timelines -C "$build" .
"$py" - "$host_python" "$out/runtime.tar.gz" <<'PY'
import shutil, sys
from kernelscope.core.profiling import make_bundle

major, minor = (int(p) for p in sys.argv[1].split("."))
bundle = make_bundle((major, minor), "x86_64", "2.28")
shutil.copy(bundle, sys.argv[2])
print("runtime bundle", bundle.name)
PY
du -sh "$out"/*
