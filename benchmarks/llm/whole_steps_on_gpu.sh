#!/usr/bin/env bash
# Issue 33 items 3 and 5 on the GPU host: whole steps, no profiler, CUDA graphs on both sides.
# The twin of cfg_$TWIN.json under torch.compile, modes reduce-overhead (CUDA graphs) and
# default, each step timed by the runner's --timed-only; kernelscope's timeline of each
# workspace of PAIR (a build --cuda-graph and the same model without). Staged as
# graphs_stage.sh stages (workspaces, runtime, pkg/, py/) plus cfg_$TWIN.json
# (torch_stage.sh writes those); summary.txt and whole.tgz in $OUT.
# Usage (device tool): cd STAGED && OUT=$OUT TWIN=l1b PAIR="l1b_graph l1b" bash whole_steps_on_gpu.sh
set -uo pipefail
OUT=${OUT:?set OUT}
STEPS=${STEPS:-prefill=512,decode=8}
TWIN=${TWIN:-l1b}
read -r -a PAIR <<<"${PAIR:-l1b_graph l1b}"
HERE=$(pwd)
W=/tmp/ks-whole
RES=$W/results
rm -rf "$W"; mkdir -p "$RES"
# shellcheck source=unpack_staged.sh
. "$HERE/unpack_staged.sh" && unpack_staged "$HERE" "$W" || { echo "could not unpack $HERE"; exit 3; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$RES/env.txt"
for mode in reduce-overhead default; do
    echo "== torch $mode $(date +%T)" | tee -a "$RES/log.txt"
    timeout 200 python3 -c 'import sys; from kernelscope.core.profiling.runner.main import main; sys.exit(main())' \
        --torch-llama "cfg_$TWIN.json" --run-dir "$RES/${TWIN}_$mode.torchrun" --mode "$mode" --steps "$STEPS" \
        --warmup 2 --repeat 10 --timed-only >"$RES/torch_$mode.log" 2>&1
    echo "rc $?" | tee -a "$RES/log.txt"
    cp "$RES/${TWIN}_$mode.torchrun/steps_timed.json" "$RES/torch_$mode.json" 2>/dev/null
    tail -3 "$RES/torch_$mode.log" | cut -c1-400 | tee -a "$RES/log.txt"
done
for stem in "${PAIR[@]}"; do
    echo "== $stem timeline $(date +%T)" | tee -a "$RES/log.txt"
    timeout 90 python3 -m kernelscope.core.cli timeline "$W/ws/$stem.kscope" --steps "$STEPS" --warmup 1 \
        --repeat 10 --no-save --json >"$RES/${stem}_timeline.json" 2>>"$RES/log.txt"
done
python3 - "$RES" "${PAIR[@]}" <<'PY' | tee "$RES/summary.txt"
import json, statistics, sys
from pathlib import Path
res = Path(sys.argv[1])
for mode in ("reduce-overhead", "default"):
    try:
        facts = json.loads((res / f"torch_{mode}.json").read_text())
    except (OSError, ValueError) as exc:
        print("torch", mode, "no result", exc)
        continue
    for name in ("prefill", "decode"):
        ms = [s["gpu_ms"] for s in facts["steps"] if s["name"] == name]
        print(f"torch {mode} {name}: events median {statistics.median(ms):.3f} ms of {len(ms)}: {[round(m, 3) for m in ms]}")
for stem in sys.argv[2:]:
    try:
        steps = json.loads((res / f"{stem}_timeline.json").read_text())["meta"]["steps"]
    except (OSError, ValueError, KeyError) as exc:
        print(stem, "no timeline", exc)
        continue
    for name in ("prefill", "decode"):
        us = [s["gpu_us"] for s in steps if s["name"] == name]
        print(f"tvm {stem} {name}: median {statistics.median(us) / 1000:.3f} ms of {len(us)}")
PY
cat "$RES/log.txt" >>"$RES/summary.txt"
cp "$RES/summary.txt" "$OUT/"
tar -czf "$OUT/whole.tgz" -C "$RES" --exclude=triton_cache --exclude=trace --exclude=aotautograd --exclude=fxgraph --exclude='*.cpp' --exclude='*.so' --exclude=inductor_cache .
