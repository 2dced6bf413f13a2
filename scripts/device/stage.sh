#!/usr/bin/env bash
# On the build machine: stage what the device scripts need into .device/ (ignored by git).
#   bash scripts/device/stage.sh WORKSPACE...     (workspaces go into .device/ws.tgz)
set -euo pipefail
py=${KERNELSCOPE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/kernelscope/venv}/bin/python
mkdir -p .device/whl
site=$("$py" -c 'import os, tvm; print(os.path.dirname(os.path.dirname(tvm.__file__)))')
[ -f .device/tvm_rt.tgz ] || tar -C "$site" --exclude=tvm/lib/libtvm_compiler.so \
    --exclude=tvm/3rdparty --exclude=tvm/src --exclude=__pycache__ -czf .device/tvm_rt.tgz tvm
ffi=$("$py" -c 'import importlib.metadata as m; print(m.version("apache-tvm-ffi"))')
ls .device/whl/apache_tvm_ffi-"$ffi"-cp312* >/dev/null 2>&1 ||
    "$py" -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
        --implementation cp --platform manylinux_2_28_x86_64 -d .device/whl "apache-tvm-ffi==$ffi"
if [ $# -gt 0 ]; then
    # only what the runner needs: no sass.json, no build log
    tar -czf .device/ws.tgz --exclude=sass.json --exclude=build.log --exclude=profiles \
        --hard-dereference -C "$(dirname "$1")" $(for w in "$@"; do basename "$w"; done)
fi
du -sh .device/*
