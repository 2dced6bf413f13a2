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
dest=${DEST:-.device/torchdecode}
[ $# -gt 0 ] || { echo "usage: $0 WS.kscope [WS.kscope ...]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
DEST=$dest bash "$here/stage.sh" "$@"
cp "$here/torch_steps_on_gpu.sh" "$dest/run.sh"
for ws in "$@"; do
    stem=$(basename "$ws" .kscope)
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
