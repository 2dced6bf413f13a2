#!/usr/bin/env bash
# Issue 33 item 5 on the GPU host: TVM against torch.compile on the same decoder, step by step.
# Staged by torch_stage.sh into one folder (this script beside it): kernelscope's core/ as a
# package, platformdirs, the runtime-only TVM bundle, the LLM workspaces (tiny, l1b) and each
# one's decoder config (cfg_<ws>.json, read from the model file by decoder_config).
# For each workspace, while the time allows (BUDGET seconds in all, default 215):
#   <ws>.torchrun/      the twin (transformers' LlamaForCausalLM, torch.compile default
#                       mode, static cache) run by the runner's --torch-llama under
#                       ncu --profile-from-start off --set none --metrics gpu__time_duration.sum,
#                       steps STEPS with PROFILE profiled (profiles/steps.ncu-rep and its
#                       .steps.json); run.json: each step's CUDA-event time (gpu_ms, timed by a run without ncu)
#   <ws>_tvm.ncu-rep    kernelscope profile WS --steps STEPS --profile-steps PROFILE, same
#                       metric (with its .steps.json)
#   <ws>_tvm_timeline.json  kernelscope timeline WS --steps STEPS --json (each step timed)
# Everything in $OUT/torch_steps.tgz, the log's tail in $OUT/summary.txt.
# Usage (device tool, carry .device/torchdecode): cd .device/torchdecode && bash run.sh
set -uo pipefail
OUT=${OUT:?set OUT to the result folder}
STEPS=${STEPS:-prefill=512,decode=8}
PROFILE=${PROFILE:-prefill,decode:0-3}
BUDGET=${BUDGET:-215}
MODELS=${MODELS:-tiny l1b}
HERE=$(cd "$(dirname "$0")" && pwd)
START=$(date +%s)
left() { echo $((BUDGET - ($(date +%s) - START))); }
W=${KS_WORK:-/tmp/ks-torch}
RES="$W/results"
rm -rf "$RES" && mkdir -p "$RES"
# shellcheck source=unpack_staged.sh
. "$HERE/unpack_staged.sh" && unpack_staged "$HERE" "$W" || { echo "could not unpack $HERE"; exit 3; }
KS=(python3 -m kernelscope.core.cli)
NCU=(ncu --profile-from-start off --target-processes application-only --set none
     --metrics gpu__time_duration.sum)
{
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
    ncu --version | tail -1
    python3 --version
    python3 -c 'import torch, triton, transformers; print("torch", torch.__version__, "triton", triton.__version__, "transformers", transformers.__version__)'
    echo "steps $STEPS profiled $PROFILE"
} >"$RES/env.txt" 2>&1
cat "$RES/env.txt"
for stem in $MODELS; do
    ws="$W/ws/$stem.kscope"
    run="$RES/$stem.torchrun"
    [ "$(left)" -gt 45 ] || { echo "== $stem: skipped, $(left) s left" | tee -a "$RES/log.txt"; continue; }
    echo "== $stem torch ($(left) s left)" | tee -a "$RES/log.txt"
    mkdir -p "$run/profiles"
    timeout "$(( $(left) - 10 ))" "${NCU[@]}" -f -o "$run/profiles/steps" \
        python3 -c 'import sys; from kernelscope.core.profiling.runner.main import main; sys.exit(main())' \
        --torch-llama "$HERE/cfg_$stem.json" --run-dir "$run" --steps "$STEPS" \
        --profile-steps "$PROFILE" --warmup 1 --repeat 0 >"$RES/${stem}_torch.log" 2>&1
    echo "rc $?" >>"$RES/${stem}_torch.log"
    tail -5 "$RES/${stem}_torch.log" | tee -a "$RES/log.txt"
    # each step timed in a run without ncu (ncu slows every launch of the process it runs),
    # merged into the step list as profile-torch does (core.torchrun.add_step_times)
    timeout "$(( $(left) - 10 ))" \
        python3 -c 'import sys; from kernelscope.core.profiling.runner.main import main; sys.exit(main())' \
        --torch-llama "$HERE/cfg_$stem.json" --run-dir "$run" --steps "$STEPS" \
        --warmup 1 --repeat 5 --timed-only >>"$RES/${stem}_torch.log" 2>&1
    python3 -c 'import sys; from pathlib import Path; from kernelscope.core.torchrun.run import add_step_times; add_step_times(Path(sys.argv[1]))' "$run" \
        >>"$RES/${stem}_torch.log" 2>&1
    [ -f "$run/steps.json" ] && cp "$run/steps.json" "$run/profiles/steps.ncu-rep.steps.json"
    [ "$(left)" -gt 20 ] || continue
    echo "== $stem tvm ($(left) s left)" | tee -a "$RES/log.txt"
    timeout "$(( $(left) - 5 ))" "${KS[@]}" profile "$ws" --steps "$STEPS" --profile-steps "$PROFILE" \
        --set none --metric gpu__time_duration.sum --warmup 1 --name steps --top 1 \
        >>"$RES/log.txt" 2>&1
    rep="$ws/profiles/steps.ncu-rep"
    [ -f "$rep" ] && cp "$rep" "$RES/${stem}_tvm.ncu-rep" && cp "$rep.steps.json" "$RES/${stem}_tvm.ncu-rep.steps.json"
    [ "$(left)" -gt 15 ] || continue
    timeout "$(( $(left) - 5 ))" "${KS[@]}" timeline "$ws" --steps "$STEPS" --warmup 1 --repeat 5 \
        --no-save --json >"$RES/${stem}_tvm_timeline.json" 2>>"$RES/log.txt"
done
python3 - "$RES" <<'PY' 2>&1 | tee "$RES/summary.txt"
import json, sys
from pathlib import Path
res = Path(sys.argv[1])
for run in sorted(res.glob("*.torchrun")):
    try:
        facts = json.loads((run / "run.json").read_text())
    except (OSError, ValueError) as exc:
        print(run.name, "no run.json", exc)
        continue
    print(run.name, facts["device"], "torch", facts["torch"], "transformers",
          facts["transformers"], f"compile {facts['compile_s']:.1f} s")
    for s in facts["steps"]:
        print(f"  {s['name']} {s['index']}: events {s['gpu_ms']:.3f} ms, wall {s['wall_ms_timed']:.3f} ms")
for t in sorted(res.glob("*_tvm_timeline.json")):
    try:
        steps = json.loads(t.read_text())["meta"]["steps"]
    except (OSError, ValueError, KeyError) as exc:
        print(t.name, "unreadable", exc)
        continue
    print(t.name, [(s["name"], round(s["gpu_us"] / 1000, 3)) for s in steps][:10])
PY
tail -40 "$RES/log.txt" >>"$RES/summary.txt"
cp "$RES/summary.txt" "$OUT/summary.txt"
tar -czf "$OUT/torch_steps.tgz" -C "$RES" --exclude=trace --exclude=triton_cache --exclude=aotautograd \
    --exclude=fxgraph --exclude='*.cpp' --exclude='*.so' .
ls -l "$OUT"
