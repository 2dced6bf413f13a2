#!/usr/bin/env bash
# The GPU checks (tests/gpu): built here, run on the GPU machine, brought back (issue 32).
#   bash scripts/gpu-check.sh stage [FOLDER]        here: build and pack what the checks need
#                                                   into .gpu-stage/ (ignored); prints the sizes
#   bash scripts/gpu-check.sh run [--keep]          on the GPU machine, from the repository root,
#                                                   with .gpu-stage carried: installs it offline,
#                                                   runs pytest tests/gpu -m gpu, writes
#                                                   gpu-checks.md to $OUT (or --out DIR)
#   bash scripts/gpu-check.sh import RESULTS        here: the tuning round measured there,
#                                                   imported; the table kept in benchmarks/results/gpu/
# README.md ("GPU checks") has the whole round trip.
set -euo pipefail
cd "$(dirname "$0")/.."
verb=${1:-}
if [ "$verb" = run ]; then
    # the GPU machine's own Python (PyTorch, pytest, numpy); nothing else is needed there
    py=${KERNELSCOPE_GPU_PYTHON:-python3}
else
    # here: a Python with kernelscope and TVM (the project's environment)
    py=${KERNELSCOPE_PYTHON:-$(command -v kernelscope >/dev/null && head -1 "$(command -v kernelscope)" | sed 's/^#!//' || echo python3)}
fi
exec "$py" scripts/gpu_check.py "$@"
