#!/usr/bin/env bash
# On the build machine: stage what perf_h200.sh needs into .device/perf/ (ignored by git).
#   bash scripts/device/stage_perf.sh RESNET_WORKSPACE [REPORT.ncu-rep ...]
# RESNET_WORKSPACE: a workspace of benchmarks/resnet_onnx.py's model (bench_build.py --out DIR
# leaves one in DIR/resnet50.kscope): its src/ is what nvcc compiles there. REPORTs: more
# reports for bench_import.py to compare on (the 60-launch one is made there from tests/data).
# The wheels: the pure-Python packages core needs that the GPU host's Python 3.12 lacks, and
# with KS_STAGE_NCU_REPORT=1 NVIDIA's ncu-report (the same reader version as here; 52 MB installed,
# which with the ~55 MiB tree passes the 64 MiB a device run carries: by default the host's
# own Nsight Compute Python interface is used). The squeezenet report is in the tree already
# (resources/demo/).
set -euo pipefail
py=${KERNELSCOPE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/kernelscope/venv}/bin/python
mkdir -p .device/perf/whl .device/perf/reports
packages=(platformdirs psygnal)
[ "${KS_STAGE_NCU_REPORT:-0}" = 1 ] && packages+=(ncu-report)
rm -f .device/perf/whl/*.whl
for pkg in "${packages[@]}"; do
    version=$("$py" -c "import importlib.metadata as m; print(m.version('$pkg'))")
    "$py" -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
        --implementation cp --platform manylinux_2_28_x86_64 -d .device/perf/whl "$pkg==$version"
done
ws=${1:?give the ResNet-50 workspace}
shift
tar -czf .device/perf/resnet_src.tgz -C "$ws" src
for report in "$@"; do cp "$report" .device/perf/reports/; done
du -sh .device/perf/*
