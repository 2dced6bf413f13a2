#!/usr/bin/env bash
# Issue 15 on the H200 host (16 cores), from the repository root, with .device/perf/ staged by
# stage_perf.sh. No TVM compiler there: the report benchmarks (bench_import.py: kernel list,
# hot lines, per-line data, the window's open path without Qt, each against the plain
# ncu_report loops), nvcc alone on the staged ResNet-50 sources (bench_build.py --nvcc-only),
# and cProfile profiles of the cold kernel list, hot lines and the child that reads a report.
# Everything goes into one file, $OUT/perf_h200.tgz.
set -uo pipefail
shopt -s nullglob
OUT=${OUT:?set OUT to the result folder}
KS_ROOT=$(pwd)
KS_WORK=${KS_WORK:-/tmp/ks-perf}
RES="$KS_WORK/results"
mkdir -p "$KS_WORK/site" "$KS_WORK/pkg/kernelscope" "$KS_WORK/resnet" "$RES"
python3 -m pip install -q --no-index --no-deps --no-compile --target "$KS_WORK/site" \
    .device/perf/whl/*.whl
ln -sfn "$KS_ROOT/core" "$KS_WORK/pkg/kernelscope/core"
export PYTHONPATH="$KS_WORK/site:$KS_WORK/pkg" PYTHONUNBUFFERED=1
# NVIDIA's reader: the staged wheel when there is one (52 MB installed: stage_perf.sh leaves it
# out unless asked), else the Python interface of the host's Nsight Compute install
if [ ! -d "$KS_WORK/site/ncu_report" ]; then
    ncu_py=$(ls -d /opt/nvidia/nsight-compute/*/extras/python 2>/dev/null | sort -r | head -1)
    [ -n "$ncu_py" ] && PYTHONPATH="$PYTHONPATH:$ncu_py"
fi
export PATH="$PATH:/usr/local/cuda/bin"
{
    nproc
    python3 --version
    python3 -c 'import ncu_report, numpy; print("ncu_report", ncu_report.__file__, "numpy", numpy.__version__)'
    nvcc --version | tail -1
    ncu --version | tail -1
    uptime
} >"$RES/env.txt" 2>&1
gunzip -c resources/demo/squeezenet_h200.ncu-rep.gz >"$KS_WORK/squeezenet_h200.ncu-rep"
reports=("$KS_WORK/squeezenet_h200.ncu-rep" .device/perf/reports/*.ncu-rep)
python3 benchmarks/bench_import.py --runs 3 "${reports[@]}" >"$RES/bench_import.txt" 2>&1
tar -xzf .device/perf/resnet_src.tgz -C "$KS_WORK/resnet"
python3 benchmarks/bench_build.py --nvcc-only "$KS_WORK/resnet/src" --out "$KS_WORK/build" \
    >"$RES/bench_build_nvcc.txt" 2>&1
# where the remaining cold time goes (fresh cache each)
big=benchmarks/out/mlp_x12.ncu-rep
for what in kernels hot; do
    KERNELSCOPE_CACHE_DIR=$(mktemp -d) python3 -m cProfile -o "$RES/$what.prof" \
        -m kernelscope.core.cli "$what" "$big" >/dev/null 2>&1
    python3 -c "import pstats,sys; pstats.Stats(sys.argv[1]).sort_stats('cumulative').print_stats(30)" \
        "$RES/$what.prof" >"$RES/profile_$what.txt" 2>&1
done
KERNELSCOPE_CACHE_DIR=$(mktemp -d) python3 -c "
import cProfile, pstats, sys
from kernelscope.core.ncu import load_reader_first
load_reader_first()  # as the reading child does
from kernelscope.core.view.prefill import fill_cache
cProfile.run('fill_cache(sys.argv[1])', sys.argv[2])
pstats.Stats(sys.argv[2]).sort_stats('tottime').print_stats(30)
" "${reports[0]:-$big}" "$RES/prefill.prof" >"$RES/profile_prefill.txt" 2>&1
tar -czf "$OUT/perf_h200.tgz" -C "$RES" .
cat "$RES/bench_import.txt" "$RES/bench_build_nvcc.txt"
