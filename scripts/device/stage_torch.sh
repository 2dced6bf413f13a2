#!/usr/bin/env bash
# On the build machine: what torch_h200.sh needs, into STAGE (an ignored folder of the
# checkout that travels, e.g. .device/torch): this checkout's core/ as the package
# kernelscope.core, platformdirs (pure Python; the GPU image has none), the model file, and
# the two scripts. About 2 MB.
# Usage: bash scripts/device/stage_torch.sh STAGE
set -euo pipefail
stage=${1:?usage: stage_torch.sh STAGE}
py=${KERNELSCOPE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/kernelscope/venv}/bin/python
rm -rf "$stage"
mkdir -p "$stage/py/kernelscope"
touch "$stage/py/kernelscope/__init__.py"
cp -r core "$stage/py/kernelscope/core"
cp -r "$("$py" -c 'import os, platformdirs; print(os.path.dirname(platformdirs.__file__))')" "$stage/py/"
find "$stage/py" -name __pycache__ -prune -exec rm -rf {} +
cp tests/data/torch/mlp.py scripts/device/torch_h200.sh scripts/device/torch_summary.py "$stage/"
du -sh "$stage"
