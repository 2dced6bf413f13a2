#!/usr/bin/env bash
# Issue 33 item 3 on the GPU host, from the staged folder (graphs_stage.sh): for each workspace
# of PAIR (default "tiny_graph tiny_plain": a build --cuda-graph, the same model without),
# STEPS (default prefill=128,decode=8), each command stopped after LIMIT seconds (default 50):
#   <ws>_timeline.json   kernelscope timeline WS --steps ... --json (warm-up 1: a replay)
#   <ws>_decode.ncu-rep  kernelscope profile WS --steps ... --profile-steps decode:0-3
#                        (--set none --metric gpu__time_duration.sum, warm-up 1), .steps.json
#   with EXTRAS=1 (the default), on the first workspace of PAIR:
#   tiny_graph_cold.ncu-rep  the graph build with --warmup 0 --profile-steps decode:0-1
#                        (decode 0 captures, decode 1 replays)
#   tiny_graph_attrs.jsonl   graph_attrs.py on a --set basic profile of decode:1 (what ncu
#                        says of a graph node launch); ncu_graph.txt: ncu's graph options and
#                        metrics
#   nsys_graph.*         where nsys exists: the plain loop of the graph build under
#                        nsys --cuda-graph-trace=node, its kernels' graphNodeId
# Everything in $OUT/graphs.tgz, summary beside.
set -uo pipefail
OUT=${OUT:?set OUT}
STEPS=${STEPS:-prefill=128,decode=8}
read -r -a PAIR <<<"${PAIR:-tiny_graph tiny_plain}"
LIMIT=${LIMIT:-50}
EXTRAS=${EXTRAS:-1}
HERE=$(pwd)
W=/tmp/ks-graphs
RES=$W/results
rm -rf "$W"
mkdir -p "$RES"
# shellcheck source=unpack_staged.sh
. "$HERE/unpack_staged.sh" && unpack_staged "$HERE" "$W" || { echo "could not unpack $HERE"; exit 3; }
ks() { python3 -m kernelscope.core.cli "$@"; }
echo "unpacked: $(ls "$W/ws")" | tee "$RES/log.txt"
{
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
    ncu --version | tail -1
    python3 --version
    echo "steps $STEPS"
} >"$RES/env.txt" 2>&1 || { echo "no GPU tools"; }
nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU here: stopping after the unpack" | tee -a "$RES/log.txt"; cp "$RES/log.txt" "$OUT/summary.txt" 2>/dev/null; exit 3; }
SET=(--set none --metric gpu__time_duration.sum)
pack() { cp "$RES/log.txt" "$OUT/summary.txt" 2>/dev/null; tar -czf "$OUT/graphs.tgz" -C "$RES" . 2>/dev/null; }
for stem in "${PAIR[@]}"; do
    echo "== $stem timeline $(date +%T)" | tee -a "$RES/log.txt"
    timeout "$LIMIT" python3 -m kernelscope.core.cli timeline "$W/ws/$stem.kscope" --steps "$STEPS" --warmup 1 \
        --repeat 10 --name steps --json >"$RES/${stem}_timeline.json" 2>>"$RES/log.txt"
    pack
done
for stem in "${PAIR[@]}"; do
    ws=$W/ws/$stem.kscope
    echo "== $stem profile $(date +%T)" | tee -a "$RES/log.txt"
    timeout "$LIMIT" python3 -m kernelscope.core.cli profile "$ws" --steps "$STEPS" --profile-steps decode:0-3 \
        "${SET[@]}" --warmup 1 --name decode --top 5 >>"$RES/log.txt" 2>&1
    rep=$ws/profiles/decode.ncu-rep
    [ -f "$rep" ] && cp "$rep" "$RES/${stem}_decode.ncu-rep" && cp "$rep.steps.json" "$RES/${stem}_decode.ncu-rep.steps.json"
    pack
done
extras() {
ws=$W/ws/${PAIR[0]}.kscope
echo "== attrs $(date +%T)" | tee -a "$RES/log.txt"
timeout 40 python3 -m kernelscope.core.cli profile "$ws" --steps "$STEPS" --profile-steps decode:1 --set basic \
    --warmup 1 --name basic --top 3 >>"$RES/log.txt" 2>&1
[ -f "$ws/profiles/basic.ncu-rep" ] && timeout 30 python3 graph_attrs.py "$ws/profiles/basic.ncu-rep" \
    >"$RES/${PAIR[0]}_attrs.jsonl" 2>>"$RES/log.txt"
pack
echo "== cold $(date +%T)" | tee -a "$RES/log.txt"
timeout 40 python3 -m kernelscope.core.cli profile "$ws" --steps "$STEPS" --profile-steps decode:0-1 "${SET[@]}" \
    --warmup 0 --name cold --top 3 >>"$RES/log.txt" 2>&1
[ -f "$ws/profiles/cold.ncu-rep" ] && cp "$ws/profiles/cold.ncu-rep" "$RES/${PAIR[0]}_cold.ncu-rep" &&
    cp "$ws/profiles/cold.ncu-rep.steps.json" "$RES/${PAIR[0]}_cold.ncu-rep.steps.json"
pack
{
    ncu --help | grep -i -A4 "graph"
    echo "--- metrics"
    ncu --query-metrics 2>/dev/null | grep -i "graph" | head -40
} >"$RES/ncu_graph.txt" 2>&1
NSYS=$(command -v nsys || ls /opt/nvidia/nsight-systems/*/bin/nsys /usr/local/cuda/bin/nsys 2>/dev/null | head -1)
echo "nsys: ${NSYS:-none}" | tee -a "$RES/log.txt"
if [ -n "$NSYS" ]; then
    echo "== nsys $(date +%T)" | tee -a "$RES/log.txt"
    timeout 40 "$NSYS" profile --cuda-graph-trace=node -t cuda -o "$RES/nsys_graph" -f true \
        python3 plain_loop.py "$ws" --steps "$STEPS" --repeat 2 >"$RES/nsys_plain.json" 2>>"$RES/log.txt"
    timeout 25 "$NSYS" export --type sqlite -o "$RES/nsys_graph.sqlite" -f true "$RES/nsys_graph.nsys-rep" >>"$RES/log.txt" 2>&1
    [ -f "$RES/nsys_graph.sqlite" ] && python3 - "$RES/nsys_graph.sqlite" >"$RES/nsys_graph.txt" 2>&1 <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
cols = [r[1] for r in db.execute("PRAGMA table_info(CUPTI_ACTIVITY_KIND_KERNEL)")]
print("columns:", cols)
q = ("SELECT s.value, k.graphNodeId, k.graphId, k.end - k.start FROM CUPTI_ACTIVITY_KIND_KERNEL k "
     "JOIN StringIds s ON s.id = k.shortName ORDER BY k.start")
rows = list(db.execute(q)) if "graphNodeId" in cols else []
print("kernels:", len(rows), "with a graph node id:", sum(1 for r in rows if r[1]))
for r in rows[-40:]:
    print(r)
PY
    rm -f "$RES/nsys_graph.nsys-rep"
    xz -9 "$RES/nsys_graph.sqlite" 2>/dev/null
fi
}
[ "$EXTRAS" = 1 ] && extras
python3 - "$RES" "${PAIR[@]}" <<'PY' | tee "$RES/summary.txt"
import json, statistics, sys
from pathlib import Path
res = Path(sys.argv[1])
print((res / "env.txt").read_text().strip())
for stem in sys.argv[2:]:
    try:
        t = json.loads((res / f"{stem}_timeline.json").read_text())
    except (OSError, ValueError) as exc:
        print(stem, "no timeline:", exc)
        continue
    dec = [s for s in t["meta"]["steps"] if s["name"] == "decode"] if "meta" in t else [s for s in t["steps"] if s["name"] == "decode"]
    print(f"{stem}: decode gpu_us median {statistics.median(s['gpu_us'] for s in dec):.1f}, "
          f"calls {dec[0].get('calls')}, calls_us {statistics.median(s['calls_us'] for s in dec):.1f}, "
          f"graph {[s.get('cuda_graph') for s in dec]}, saturated {[s.get('saturated') for s in dec]}")
for f in sorted(res.glob("*.steps.json")):
    raw = json.loads(f.read_text())
    print(f.name, [(s["name"], s["index"], s.get("cuda_graph"), s.get("profiled")) for s in raw["steps"] if s.get("profiled")])
PY
cp "$RES/summary.txt" "$OUT/summary.txt"
tar -czf "$OUT/graphs.tgz" -C "$RES" .
ls -l "$OUT"
