#!/usr/bin/env bash
# Issue 19 (items 2 and 7) on the H200, through the SSH path as a user with a GPU server has
# it: an sshd on 127.0.0.1 of the GPU host itself, kernelscope's commands with --host against
# it (the remote folder, the supervisor, the runner copied there, reports fetched back).
# Staged by stage_timeline_ssh.sh into STAGE (default .device/timeline_ssh); run from the
# repository root: bash STAGE/timeline_ssh_h200.sh probe|final
#   old = the checkout's kernelscope (before the fixes), new = STAGE/code.tgz (after)
#   probe: item 2 before (timeline --host --profile of a long-named call), the timeline's
#          residual against ncu taken apart (timeline_probe.py), ncu per launch, clocks and
#          caches untouched; one call's real ncu log and report for the tests
#   final: item 2 after, a whole pass under ncu in one replay pass (gpu__time_duration only,
#          clocks and caches untouched) kept in the workspace, then the timeline before and
#          after, twice, with its agreement
# Everything lands in $OUT (at most 8 files come back: one archive and the summary).
set -uo pipefail
MODE=${1:?probe or final}
OUT=${OUT:?set OUT}
STAGE=$(cd "${KS_STAGE:-$(dirname "$0")}" && pwd)
W=/tmp/ks-tlssh
RES=$W/results
rm -rf "$W"
mkdir -p "$W/rt" "$W/new/kernelscope" "$W/old/kernelscope" "$W/ws" "$W/site" "$W/bin" "$RES"
export PYTHONUNBUFFERED=1
say() { echo "$*" | tee -a "$RES/summary.txt"; }

# --- what the host has: the runtime where remote-install puts it, the workspace, kernelscope
marker=$(tar -xJOf "$STAGE/rt.txz" ./kernelscope-runtime.json)
tvm=$(echo "$marker" | python3 -c 'import json,sys; print(json.load(sys.stdin)["tvm"])')
pyt=$(echo "$marker" | python3 -c 'import json,sys; print(json.load(sys.stdin)["python"])' | tr -d .)
mkdir -p "$W/rt/tvm-$tvm-cp$pyt" && tar -xJf "$STAGE/rt.txz" -C "$W/rt/tvm-$tvm-cp$pyt"
tar -xzf "$STAGE/code.tgz" -C "$W/new/kernelscope"
ln -sfn "$(pwd)/core" "$W/old/kernelscope/core"
python3 -m pip install -q --no-index --no-deps --no-compile --target "$W/site" "$STAGE"/*.whl
tar -xzf "$STAGE/ws.tgz" -C "$W/ws"
WS=$W/ws/mobilenet_v2.kscope
python3 "$STAGE/params_from_onnx.py" "$STAGE/mobilenet_v2.onnx" "$WS/params.npz"
{
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
    ncu --version | tail -1
    python3 --version
    git log -1 --format='old (checkout): %h %s' 2>/dev/null
    cat "$STAGE/code.txt" 2>/dev/null
} >"$RES/env.txt" 2>&1

# --- an sshd on 127.0.0.1 (the host's own OpenSSH, else the one carried with the libraries
# a bare image lacks, used by sshd and ssh alone), and the keys made on the build machine
S=$W/sshd
mkdir -p "$S"
tar -xJf "$STAGE/ssh.txz" -C "$W"
cp "$W/sshmin/keys/"* "$S/" && chmod 600 "$S/host" "$S/user"
cp "$S/user.pub" "$S/authorized_keys"
command -v ssh >/dev/null || printf '#!/bin/sh\nLD_LIBRARY_PATH=%s exec %s "$@"\n' \
    "$W/sshmin/lib" "$W/sshmin/bin/ssh" >"$W/bin/ssh"
chmod +x "$W/bin/ssh" 2>/dev/null
SSHD=$(command -v sshd || { [ -x /usr/sbin/sshd ] && echo /usr/sbin/sshd; })
SSHD_LIBS=""
[ -n "$SSHD" ] || { SSHD=$W/sshmin/bin/sshd; SSHD_LIBS=$W/sshmin/lib; }
export PATH="$W/bin:$PATH"
echo "ssh: $(command -v ssh), sshd: $SSHD (carried libs: ${SSHD_LIBS:-none})" >>"$RES/env.txt"
LD_LIBRARY_PATH=$SSHD_LIBS ldd "$SSHD" | grep "not found" >>"$RES/env.txt"
mkdir -p /run/sshd && chmod 755 /run/sshd
id sshd >/dev/null 2>&1 || useradd --system --no-create-home --home-dir /run/sshd \
    --shell /usr/sbin/nologin sshd 2>/dev/null || echo 'sshd:x:74:74::/run/sshd:/usr/sbin/nologin' >>/etc/passwd
PORT=22022
cat >"$S/config" <<EOF
Port $PORT
ListenAddress 127.0.0.1
HostKey $S/host
PidFile $S/pid
AuthorizedKeysFile $S/authorized_keys
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
LogLevel ERROR
SetEnv PATH=$PATH
EOF
LD_LIBRARY_PATH=$SSHD_LIBS "$SSHD" -D -e -f "$S/config" 2>"$RES/sshd.log" &
SSHD_PID=$!
USER_AT=$(id -un)@127.0.0.1
SSH_OPTS=(-p $PORT -i "$S/user" --ssh-option=-oStrictHostKeyChecking=no
    --ssh-option=-oUserKnownHostsFile=/dev/null --ssh-option=-oLogLevel=ERROR
    --remote-python "$(command -v python3)")
SSH_ARGS=(--host "$USER_AT" "${SSH_OPTS[@]}")
RT_ARGS=(--remote-runtime-root "$W/rt")
for _ in $(seq 50); do
    ssh -oBatchMode=yes -p $PORT -i "$S/user" -oStrictHostKeyChecking=no \
        -oUserKnownHostsFile=/dev/null -oLogLevel=ERROR "$USER_AT" true 2>/dev/null && break
    sleep 0.2
done
ks() { # ks old|new ARGS...: kernelscope's CLI of that version
    local v=$1
    shift
    PYTHONPATH="$W/site:$W/$v" python3 -m kernelscope.core.cli "$@"
}
LONG_CALL=7 # fused_conv2d7_tir_isnan_where_add5_maximum3_tir_isnan_where_minimum3_kernel
PASS=55

if [ "$MODE" = probe ]; then
    say "== item 2 before: kernelscope timeline WS --host ... --profile $LONG_CALL (old)"
    ks old timeline "$WS" "${SSH_ARGS[@]}" "${RT_ARGS[@]}" --name before --profile $LONG_CALL \
        --set none >"$RES/item2_before.txt" 2>&1
    say "   exit $?: $(grep -iE 'error|profiled|hint' "$RES/item2_before.txt" | head -4)"
    say "== remote-check without the runtime root (old)"
    ks old remote-check "$USER_AT" "${SSH_OPTS[@]}" --no-probe >"$RES/remote_check_before.txt" 2>&1
    say "   $(grep -i 'tvm' "$RES/remote_check_before.txt" | head -3)"
    say "== the residual taken apart (timeline_probe.py, 20 passes each)"
    PYTHONPATH="$W/new" python3 -c "import shutil, sys; from kernelscope.core.profiling.runner_app import runner_path; shutil.copy(runner_path(), sys.argv[1])" "$W/model_runner.py"
    (cd "$W" && cp "$STAGE/timeline_probe.py" . && python3 timeline_probe.py "$WS" "$W/rt" \
        "$RES/probe.json" 20) 2>&1 | tail -3 | tee -a "$RES/summary.txt"
    for k in 1 2; do
        ncu --metrics gpu__time_duration.sum --clock-control none --cache-control none \
            --launch-skip $PASS --launch-count $PASS -f -o "$W/ncu_none$k" \
            python3 "$W/model_runner.py" "$WS" --warmup 1 --iterations 1 \
            --runtime-root "$W/rt" >"$RES/ncu_none$k.log" 2>&1
        ncu -i "$W/ncu_none$k.ncu-rep" --csv --page raw --print-units base \
            --metrics gpu__time_duration.sum >"$RES/ncu_none$k.csv" 2>&1
    done
    (cd "$W" && ncu --metrics gpu__time_duration.sum --clock-control none --cache-control none \
        -f -o "$W/ncu_spin" python3 timeline_probe.py --spin >"$RES/ncu_spin.log" 2>&1)
    ncu -i "$W/ncu_spin.ncu-rep" --csv --page raw --print-units base \
        --metrics gpu__time_duration.sum >"$RES/ncu_spin.csv" 2>&1
    # one long-named call as ncu prints it, and its report (test data)
    ncu --section LaunchStats --clock-control none --launch-skip $((PASS + LONG_CALL)) \
        --launch-count 1 -f -o "$RES/call$LONG_CALL" python3 "$W/model_runner.py" "$WS" \
        --warmup 1 --iterations 1 --runtime-root "$W/rt" >"$RES/call${LONG_CALL}_ncu_log.txt" 2>&1
    say "   ncu printed: $(grep '==PROF== Profiling' "$RES/call${LONG_CALL}_ncu_log.txt")"
else
    say "== item 2 after: kernelscope timeline WS --host ... --profile $LONG_CALL (new)"
    ks new timeline "$WS" "${SSH_ARGS[@]}" "${RT_ARGS[@]}" --name after --profile $LONG_CALL \
        --set none >"$RES/item2_after.txt" 2>&1
    say "   exit $?: $(grep -E '^call|^kernelscope profile|profiled' "$RES/item2_after.txt" | head -4)"
    say "== a whole pass under ncu, clocks and caches untouched (new, over SSH)"
    ks new profile "$WS" "${SSH_ARGS[@]}" "${RT_ARGS[@]}" --set none --metric gpu__time_duration.sum \
        --clock-control none --cache-control none --warmup 1 --launch-skip $PASS \
        --launch-count $PASS --name ncu_none --top 1 >"$RES/ncu_pass.txt" 2>&1
    say "   exit $?: $(grep profiled "$RES/ncu_pass.txt")"
    for k in 1 2; do
        for v in old new; do
            ks $v timeline "$WS" "${SSH_ARGS[@]}" "${RT_ARGS[@]}" --name "$v$k" --json \
                >"$RES/timeline_$v$k.json" 2>"$RES/timeline_$v$k.err"
        done
        ks new timeline "$WS/timelines/new$k.json" --calls >"$RES/timeline_new$k.txt" 2>&1
    done
    PYTHONPATH="$W/site:$W/new" python3 - "$WS" "$RES" <<'PY' | tee -a "$RES/summary.txt"
import json, statistics, sys
from pathlib import Path
from kernelscope.core.timeline import Timeline, ncu_agreement
ws, res = Path(sys.argv[1]), Path(sys.argv[2])
for k in (1, 2):
    for v in ("old", "new"):
        t = Timeline.load(ws / "timelines" / f"{v}{k}.json")
        a = ncu_agreement(t, ws)
        d = a.diffs
        print(f"run {k} {v}: {len(d)}/{len(t.calls)} calls against {a.report}: median diff "
              f"{statistics.median(d):+.2f} us, median |diff| {statistics.median(map(abs, d)):.2f} us, "
              f"{sum(abs(x) <= 1 for x in d)} within 1 us, {sum(abs(x) <= 0.5 for x in d)} within 0.5 us")
PY
fi
kill "$SSHD_PID" 2>/dev/null
wait "$SSHD_PID" 2>/dev/null
ls "$WS/profiles" "$WS/timelines" >>"$RES/env.txt" 2>&1
cp "$WS"/profiles/*.ncu-rep "$RES/" 2>/dev/null
cp "$WS"/timelines/*.json "$RES/" 2>/dev/null
cp "$RES/summary.txt" "$OUT/summary.txt"
tar -czf "$OUT/results_$MODE.tgz" -C "$RES" .
ls -la "$OUT"
