#!/usr/bin/env bash
# Issue 29 items 3-4 on the H200, from the repository root, with .device/llm/ staged by
# stage.sh (the runtime-only TVM bundle, the LLM workspaces, platformdirs).
# For each workspace, with the same steps (STEPS, default prefill=512,decode=8; BATCH, 1):
#   <ws>_plain.json        a plain loop of the steps (plain_loop.py: no driver, no
#                          instrument; CUDA events around each step, and the wall clock)
#   <ws>_timeline.json     kernelscope timeline WS --steps ... --json (each step timed whole,
#                          each VM call in it, the KV cache's attention builtin as one call)
#   <ws>_prefill.ncu-rep   kernelscope profile WS --steps ... --profile-steps prefill
#   <ws>_decode.ncu-rep    kernelscope profile WS --steps ... --profile-steps decode:0-3
#                          (each with its .steps.json, and kernels --steps --json beside)
#   summary.txt            per profiled step: launches, us, shares of attention / matmul /
#                          the rest; the timeline's decode step against the plain loop's
# Everything in ONE archive $OUT/llm_steps.tgz (the device returns few files), summary beside.
# Usage (device tool, carry .device/llm): bash benchmarks/llm/steps_on_gpu.sh
set -uo pipefail
OUT=${OUT:?set OUT to the result folder}
STEPS=${STEPS:-prefill=512,decode=8}
BATCH=${BATCH:-1}
# one replay pass per launch (the step figures need times, not sections); NCU_SET="--set full"
# for the Source pages (decode:0-3 of a 16-layer model is ~1000 launches: minutes a pass)
read -r -a NCU_SET <<<"${NCU_SET:---set none --metric gpu__time_duration.sum}"
KS_ROOT=$(pwd)
KS_WORK=${KS_WORK:-/tmp/ks-llm}
RES="$KS_WORK/results"
rm -rf "$RES"
mkdir -p "$KS_WORK/rt" "$KS_WORK/pkg/kernelscope" "$KS_WORK/ws" "$RES"
marker=$(tar -xzOf .device/llm/runtime.tar.gz kernelscope-runtime.json)
tvm_version=$(echo "$marker" | python3 -c 'import json, sys; print(json.load(sys.stdin)["tvm"])')
tag=$(echo "$marker" | python3 -c 'import json, sys; print(json.load(sys.stdin)["python"])' | tr -d .)
name="tvm-$tvm_version-cp$tag"
if [ ! -d "$KS_WORK/rt/$name" ]; then
    mkdir -p "$KS_WORK/rt/$name" && tar -xzf .device/llm/runtime.tar.gz -C "$KS_WORK/rt/$name"
fi
[ -n "$(ls -A "$KS_WORK/ws")" ] || tar -xzf .device/llm/ws.tgz -C "$KS_WORK/ws"
touch "$KS_WORK/pkg/kernelscope/__init__.py"
ln -sfn "$KS_ROOT/core" "$KS_WORK/pkg/kernelscope/core"
# kernelscope from this checkout; TVM only from the runtime folder, found as the runner finds
# what `kernelscope remote-install` installs
export PYTHONPATH="$KS_WORK/pkg:$KS_ROOT/.device/llm/py" KERNELSCOPE_RUNTIME_ROOT="$KS_WORK/rt"
export PYTHONUNBUFFERED=1
unset TVM_USE_RUNTIME_LIB
ks() { python3 -m kernelscope.core.cli "$@"; }
{
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
    ncu --version | tail -1
    python3 --version
    echo "steps $STEPS batch $BATCH"
} >"$RES/env.txt" 2>&1
for ws in "$KS_WORK"/ws/*.kscope; do
    stem=$(basename "$ws" .kscope)
    echo "== $stem" | tee -a "$RES/log.txt"
    python3 "$KS_ROOT/benchmarks/llm/plain_loop.py" "$ws" --steps "$STEPS" --batch "$BATCH" \
        --repeat 10 >"$RES/${stem}_plain.json" 2>>"$RES/log.txt"
    ks timeline "$ws" --steps "$STEPS" --batch "$BATCH" --warmup 1 --repeat 10 --name steps \
        --json >"$RES/${stem}_timeline.json" 2>>"$RES/log.txt"
    ks timeline "$ws" --steps "$STEPS" --batch "$BATCH" --warmup 1 --repeat 3 --no-save \
        >>"$RES/log.txt" 2>&1
    for choice in prefill decode:0-3; do
        tag=${choice%%:*}
        ks profile "$ws" --steps "$STEPS" --batch "$BATCH" --profile-steps "$choice" \
            "${NCU_SET[@]}" --warmup 1 --name "$tag" --top 5 >>"$RES/log.txt" 2>&1
        rep="$ws/profiles/$tag.ncu-rep"
        [ -f "$rep" ] || continue
        cp "$rep" "$rep.steps.json" "$RES/" && mv "$RES/$tag.ncu-rep" "$RES/${stem}_$tag.ncu-rep" &&
            mv "$RES/$tag.ncu-rep.steps.json" "$RES/${stem}_$tag.ncu-rep.steps.json"
        ks kernels "$rep" -w "$ws" --steps >>"$RES/log.txt" 2>&1
        ks kernels "$rep" -w "$ws" --steps --step "${choice%%-*}" --json \
            >"$RES/${stem}_${tag}_kernels.json" 2>>"$RES/log.txt"
    done
done
python3 - "$RES" <<'PY' | tee "$RES/summary.txt"
import json, statistics, sys
from pathlib import Path

res = Path(sys.argv[1])
ATTENTION = ("attention", "paged_kv", "batch_prefill", "batch_decode", "rope", "kv_append",
             "merge_state", "tree_attn")
MATMUL = ("matmul", "gemv", "gemm", "dense")


def kind(name):
    low = name.lower()
    if any(w in low for w in ATTENTION):
        return "attention"
    if any(w in low for w in MATMUL):
        return "matmul"
    return "rest"


for plain_file in sorted(res.glob("*_plain.json")):
    stem = plain_file.name[: -len("_plain.json")]
    print(f"== {stem}")
    try:
        plain = json.loads(plain_file.read_text())
        timeline = json.loads((res / f"{stem}_timeline.json").read_text())
    except (OSError, ValueError) as exc:
        print(f"  no plain loop or timeline: {exc}")
        plain = timeline = None
    if plain and timeline:
        t_steps = timeline["meta"]["steps"]
        t_dec = [s["gpu_us"] for s in t_steps if s["name"] == "decode"]
        p_dec = [s["gpu_us"] for s in plain["steps"] if s["step"].startswith("decode")]
        t_pre = next((s["gpu_us"] for s in t_steps if s["name"] == "prefill"), None)
        p_pre = plain["steps"][0]["gpu_us"] if plain["steps"] else None
        if t_dec and p_dec:
            t, p = statistics.median(t_dec), statistics.median(p_dec)
            print(f"  decode step (median): timeline {t:.1f} us, plain loop {p:.1f} us, "
                  f"{100 * (t / p - 1):+.1f} %; calls in it {statistics.median(s['calls_us'] for s in t_steps if s['name'] == 'decode'):.1f} us")
        if t_pre and p_pre:
            print(f"  prefill: timeline {t_pre:.1f} us, plain loop {p_pre:.1f} us, "
                  f"{100 * (t_pre / p_pre - 1):+.1f} %")
        print(f"  saturated: {[s['saturated'] for s in t_steps]}")
    for tag in ("prefill", "decode"):
        path = res / f"{stem}_{tag}_kernels.json"
        if not path.is_file():
            print(f"  ncu {tag}: no report")
            continue
        data = json.loads(path.read_text())
        for s in data["steps"]:
            print(f"  ncu {s['name']} {s['index']}: {s['launches']} launches, "
                  f"{s['duration_ns'] / 1000:.1f} us")
        step = data.get("step")
        if step:
            by = {}
            for x in step["launches"]:
                by[kind(x["name"])] = by.get(kind(x["name"]), 0.0) + (x["duration_ns"] or 0.0)
            total = sum(by.values()) or 1.0
            shares = ", ".join(f"{k} {100 * v / total:.1f} %" for k, v in sorted(by.items()))
            print(f"  {step['name']} {step['index']} shares: {shares}")
PY
cp "$RES/summary.txt" "$OUT/summary.txt" 2>/dev/null
tar -czf "$OUT/llm_steps.tgz" -C "$RES" .
ls -l "$OUT"
