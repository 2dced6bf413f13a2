#!/usr/bin/env bash
# On the build machine: what graphs_on_gpu.sh needs, into .device/graphs/ (ignored by git),
# self-contained (the GPU machine gets the main checkout's tree, not this branch's):
#   runtime.tar.gz  kernelscope's runtime-only TVM bundle for the GPU host's Python (3.12)
#   ws.tgz          the workspaces given (a --cuda-graph build and a plain one of one model)
#   py/             platformdirs;  pkg/kernelscope/core: this checkout's core/
#   graphs_on_gpu.sh, whole_steps_on_gpu.sh, plain_loop.py, graph_attrs.py: what runs there
# Usage: bash benchmarks/llm/graphs_stage.sh DEST WS.kscope [WS.kscope ...]
set -euo pipefail
[ $# -gt 1 ] || { echo "usage: $0 DEST WS.kscope [WS.kscope ...]" >&2; exit 2; }
out=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
DEST=$out bash "$here/stage.sh" "$@"
cp "$here/graphs_on_gpu.sh" "$here/whole_steps_on_gpu.sh" "$here/plain_loop.py" "$here/graph_attrs.py" "$out/"
