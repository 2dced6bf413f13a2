#!/usr/bin/env bash
# On the build machine: what torch_steps_on_gpu.sh needs, into DEST (default
# .device/torchdecode, ignored by git), from LLM workspaces built here for the GPU's arch:
#   run.sh            torch_steps_on_gpu.sh
#   pkg/kernelscope/  this checkout's core/ as a package (the runner and the CLI)
#   py/               platformdirs (pure Python; the GPU image has none)
#   runtime.tar.gz    kernelscope's runtime-only TVM bundle for the host's Python (3.12)
#   ws.tgz            the workspaces, without what the runner does not read
#   cfg_<ws>.json     each workspace's decoder configuration, read from its model file's
#                     Relax module (core.build.decoder_config): the twin's LlamaConfig
# Usage: bash benchmarks/llm/torch_stage.sh WS.kscope [WS.kscope ...]
set -euo pipefail
py=${KERNELSCOPE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/kernelscope/venv}/bin/python
host_python=${HOST_PYTHON:-3.12}
dest=${DEST:-.device/torchdecode}
[ $# -gt 0 ] || { echo "usage: $0 WS.kscope [WS.kscope ...]" >&2; exit 2; }
here=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$dest"
mkdir -p "$dest/pkg/kernelscope" "$dest/py"
cp "$here/benchmarks/llm/torch_steps_on_gpu.sh" "$dest/run.sh"
touch "$dest/pkg/kernelscope/__init__.py"
tar -C "$here" --exclude=__pycache__ -cf - core | tar -C "$dest/pkg/kernelscope" -xf -
cp -r "$("$py" -c 'import os, platformdirs; print(os.path.dirname(platformdirs.__file__))')" "$dest/py/"
args=()
for ws in "$@"; do
    stem=$(basename "$ws" .kscope)
    args+=(-C "$(dirname "$ws")" "$(basename "$ws")")
    "$py" - "$ws" "$dest/cfg_$stem.json" <<'PY'
import json, sys
from pathlib import Path
from kernelscope.core.build.decoder_config import read_decoder_config

manifest = json.loads((Path(sys.argv[1]) / "manifest.json").read_text())
config = read_decoder_config(Path(manifest["model_path"]))
Path(sys.argv[2]).write_text(json.dumps(config, indent=1))
print(sys.argv[1], config)
PY
done
tar -czf "$dest/ws.tgz" --exclude=sass.json --exclude=build.log --exclude=profiles \
    --exclude=timelines --exclude='*.ptx' "${args[@]}"
"$py" - "$host_python" "$dest/runtime.tar.gz" <<'PY'
import shutil, sys
from kernelscope.core.profiling import make_bundle

major, minor = (int(p) for p in sys.argv[1].split("."))
shutil.copy(make_bundle((major, minor), "x86_64", "2.28"), sys.argv[2])
PY
du -sh "$dest"/*
