#!/usr/bin/env bash
# On the build machine: what graphs_on_gpu.sh needs, into .device/graphs/ (ignored by git),
# self-contained (the GPU machine gets the main checkout's tree, not this branch's):
#   runtime.tar.gz  kernelscope's runtime-only TVM bundle for the GPU host's Python (3.12)
#   ws.tgz          the workspaces given (a --cuda-graph build and a plain one of one model)
#   py/             platformdirs;  pkg/kernelscope/core: this checkout's core/
#   graphs_on_gpu.sh, plain_loop.py, graph_attrs.py: what runs there
# Usage: bash benchmarks/llm/graphs_stage.sh DEST WS.kscope [WS.kscope ...]
set -euo pipefail
py=${KERNELSCOPE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/kernelscope/venv}/bin/python
host_python=${HOST_PYTHON:-3.12}
out=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rm -rf "$out"
mkdir -p "$out/py" "$out/pkg/kernelscope"
args=()
for ws in "$@"; do
    args+=(-C "$(dirname "$ws")" "$(basename "$ws")")
done
cp -r "$("$py" -c 'import os, platformdirs; print(os.path.dirname(platformdirs.__file__))')" "$out/py/"
touch "$out/pkg/kernelscope/__init__.py"
cp -r "$root/core" "$out/pkg/kernelscope/core"
find "$out/pkg" -name __pycache__ -prune -exec rm -rf {} +
cp "$here/graphs_on_gpu.sh" "$here/plain_loop.py" "$here/graph_attrs.py" "$out/"
tar -czf "$out/ws.tgz" --exclude=sass.json --exclude=build.log --exclude=profiles \
    --exclude=timelines --exclude='*.ptx' "${args[@]}"
"$py" - "$host_python" "$out/runtime.tar.gz" <<'PY'
import shutil, sys
from kernelscope.core.profiling import make_bundle

major, minor = (int(p) for p in sys.argv[1].split("."))
bundle = make_bundle((major, minor), "x86_64", "2.28")
shutil.copy(bundle, sys.argv[2])
print("runtime bundle", bundle.name)
PY
du -sh "$out"
