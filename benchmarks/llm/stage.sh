#!/usr/bin/env bash
# On the build machine: what an LLM script on the GPU machine needs, self-contained (the GPU
# machine gets the main checkout's tree), into DEST (default .device/llm, ignored by git):
#   runtime.tar.gz     kernelscope's runtime-only TVM bundle for the GPU host's Python (3.12)
#   ws.tgz             the LLM workspaces given, built here (kernelscope build of an MLC-style
#                      model: tests/data/models/llama_mlc.py, tests/data/models/llama_3_2_1b.py),
#                      without what the runner does not read; their weights are made seeded on
#                      the GPU host when the build kept none (params_mode "random")
#   py/                platformdirs (pure Python; the GPU image has none)
#   pkg/kernelscope/   this checkout's core/ as a package (the runner and the CLI)
#   unpack_staged.sh   what the scripts that run there source to unpack the above
# graphs_stage.sh and torch_stage.sh call it and add their own scripts.
# Usage: [DEST=folder] bash benchmarks/llm/stage.sh WS.kscope [WS.kscope ...]
set -euo pipefail
py=${KERNELSCOPE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/kernelscope/venv}/bin/python
host_python=${HOST_PYTHON:-3.12}
dest=${DEST:-.device/llm}
[ $# -gt 0 ] || { echo "usage: $0 WS.kscope [WS.kscope ...]" >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$dest"
mkdir -p "$dest/py" "$dest/pkg/kernelscope"
args=()
for ws in "$@"; do
    args+=(-C "$(dirname "$ws")" "$(basename "$ws")")
done
cp -r "$("$py" -c 'import os, platformdirs; print(os.path.dirname(platformdirs.__file__))')" "$dest/py/"
touch "$dest/pkg/kernelscope/__init__.py"
cp "$(dirname "$0")/unpack_staged.sh" "$dest/"  # what the scripts that run there source
tar -C "$root" --exclude=__pycache__ -cf - core | tar -C "$dest/pkg/kernelscope" -xf -
tar -czf "$dest/ws.tgz" --exclude=sass.json --exclude=build.log --exclude=profiles \
    --exclude=timelines --exclude='*.ptx' "${args[@]}"
"$py" - "$host_python" "$dest/runtime.tar.gz" <<'PY'
import shutil, sys
from kernelscope.core.profiling import make_bundle

major, minor = (int(p) for p in sys.argv[1].split("."))
bundle = make_bundle((major, minor), "x86_64", "2.28")
shutil.copy(bundle, sys.argv[2])
print("runtime bundle", bundle.name)
PY
du -sh "$dest"/*
