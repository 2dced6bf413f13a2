#!/usr/bin/env bash
# Issue 13 on the H200, from the repository root, with .device/timeline/ staged by
# stage_timeline.sh. The device returns at most 8 files, so everything goes into ONE archive,
# $OUT/timeline_results.tgz, beside a copy of the summary ($OUT/summary.txt):
#   env.txt                     GPU, driver, ncu, Python
#   check.json                  the runner's --check with kernelscope's runtime bundle
#   filter_probe.json           ncu's launch filters on small_cnn's first kernel (which of
#                               them select its second launch), with ncu's output
#   <ws>_timeline.json          the CUDA-event timeline (kernelscope's Timeline JSON)
#   <ws>_plain.json             a plain run of the runner (50 passes) for the overhead
#   <ws>_ncu_none.csv           ncu per-launch gpu__time_duration, clocks and caches untouched
#   <ws>_ncu_base.csv           the same with ncu's defaults (base clocks, caches flushed)
#   <ws>_compare.json           timeline (calibrated and raw) against ncu, call by call
#   select_<ws>.json            "profile this kernel": the selection and what ncu profiled
#   select_<ws>_call<N>.ncu-rep the one-launch profile
#   progress_<ws>.json          profiling progress against the real launch sequence
#   nsys_<ws>.json              when nsys is installed: Nsight Systems against the timeline
#   summary.txt                 the figures
set -uo pipefail
OUT=${OUT:?set OUT to the result folder}
KS_ROOT=$(pwd)
KS_WORK=${KS_WORK:-/tmp/ks-timeline}
RES="$KS_WORK/results"
rm -rf "$RES"
mkdir -p "$KS_WORK/rt" "$KS_WORK/pkg/kernelscope" "$KS_WORK/ws" "$RES"
marker=$(tar -xzOf .device/timeline/runtime.tar.gz kernelscope-runtime.json)
tvm_version=$(echo "$marker" | python3 -c 'import json, sys; print(json.load(sys.stdin)["tvm"])')
tag=$(echo "$marker" | python3 -c 'import json, sys; print(json.load(sys.stdin)["python"])' | tr -d .)
name="tvm-$tvm_version-cp$tag"
if [ ! -d "$KS_WORK/rt/$name" ]; then
    mkdir -p "$KS_WORK/rt/$name" && tar -xzf .device/timeline/runtime.tar.gz -C "$KS_WORK/rt/$name"
fi
[ -n "$(ls -A "$KS_WORK/ws")" ] || tar -xzf .device/timeline/ws.tgz -C "$KS_WORK/ws"
ln -sfn "$KS_ROOT/core" "$KS_WORK/pkg/kernelscope/core"
# kernelscope from this checkout; TVM only from the runtime folder, found as the runner finds
# what `kernelscope remote-install` installs
export PYTHONPATH="$KS_WORK/pkg" KERNELSCOPE_RUNTIME_ROOT="$KS_WORK/rt" PYTHONUNBUFFERED=1
unset TVM_USE_RUNTIME_LIB
{
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
    ncu --version | tail -1
    python3 --version
    command -v nsys && nsys --version
} >"$RES/env.txt" 2>&1
runner="$(python3 -c 'from kernelscope.core.profiling.runner_app import runner_path; print(runner_path())')"
python3 "$runner" --check --tvm-version "$tvm_version" |
    sed 's/^KERNELSCOPE_RESULT //' >"$RES/check.json" 2>&1
python3 - "$KS_WORK" "$RES" <<'PY'
import csv, io, json, re, shutil, statistics, subprocess, sys, time
from pathlib import Path

from kernelscope.core.profiling import ProfileRequest, launch_sequence, profile_workspace
from kernelscope.core.profiling import runner as model_runner
from kernelscope.core.profiling.runner_app import runner_path
from kernelscope.core.profiling.run_ncu import _expected_launches
from kernelscope.core.timeline import TimelineRequest, measure_timeline, read_nsys
from kernelscope.core.workspace import Workspace

work, out = Path(sys.argv[1]), Path(sys.argv[2])
runner = str(runner_path())
summary = []
PROF = re.compile(r'==PROF== Profiling "([^"]+)" - (\d+)')


def say(text):
    print(text, flush=True)
    summary.append(text)


def ncu_durations(ws, tag, extra):
    """Per-launch gpu__time_duration (us) in launch order, one pass, no warm-up."""
    rep = work / f"{ws.path.stem}_{tag}"
    cmd = ["ncu", "--metrics", "gpu__time_duration.sum", *extra, "-f", "-o", str(rep),
           sys.executable, runner, str(ws.path), "--warmup", "0", "--iterations", "1"]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    text = subprocess.run(["ncu", "-i", f"{rep}.ncu-rep", "--csv", "--page", "raw", "--print-units", "base", "--metrics",
                           "gpu__time_duration.sum"], check=True, capture_output=True, text=True).stdout
    (out / f"{ws.path.stem}_ncu_{tag}.csv").write_text(text)
    rows = list(csv.DictReader(io.StringIO(text)))[1:]  # a units row under the header
    unit = list(csv.DictReader(io.StringIO(text)))[0]["gpu__time_duration.sum"]
    scale = {"ns": 1e-3, "nsecond": 1e-3, "us": 1.0, "usecond": 1.0, "ms": 1e3, "msecond": 1e3,
             "s": 1e6, "second": 1e6}[unit]
    return [(r["Kernel Name"], float(r["gpu__time_duration.sum"].replace(",", "")) * scale)
            for r in sorted(rows, key=lambda r: int(r["ID"]))]


def compare(timeline, ncu, tag):
    launches = [k for c in timeline.calls for k in c.kernels]
    names = [n for n, _ in ncu]
    rows, i = [], 0
    for c in timeline.calls:
        got = ncu[i : i + len(c.kernels)]
        i += len(c.kernels)
        ncu_us = sum(d for _, d in got)
        raw = c.raw_us if c.raw_us is not None else c.duration_us
        rows.append({"index": c.index, "kernels": c.kernels, "timeline_us": c.duration_us,
                     "raw_us": raw, "min_us": c.min_us, "max_us": c.max_us, "ncu_us": ncu_us,
                     "diff_us": c.duration_us - ncu_us, "raw_diff_us": raw - ncu_us,
                     "ratio": c.duration_us / ncu_us if ncu_us else None})
    result = {"order_matches": launches == names, "calls": len(rows),
              "ncu_sum_us": sum(d for _, d in ncu), "rows": rows}
    for key, label in (("timeline_us", "calibrated"), ("raw_us", "raw")):
        diffs = [r[key] - r["ncu_us"] for r in rows]
        ratios = [r[key] / r["ncu_us"] for r in rows if r["ncu_us"]]
        result[label] = {
            "sum_us": sum(r[key] for r in rows), "median_diff_us": statistics.median(diffs),
            "median_abs_diff_us": statistics.median(abs(d) for d in diffs),
            "max_abs_diff_us": max(abs(d) for d in diffs),
            "within_0_5_us": sum(abs(d) <= 0.5 for d in diffs),
            "median_ratio": statistics.median(ratios)}
        r = result[label]
        say(f"  vs ncu ({tag}, {label}): order {'matches' if result['order_matches'] else 'DIFFERS'}; "
            f"sum {r['sum_us']:.1f} us vs {result['ncu_sum_us']:.1f} us; per call median diff "
            f"{r['median_diff_us']:+.2f} us, median |diff| {r['median_abs_diff_us']:.2f} us, max "
            f"{r['max_abs_diff_us']:.2f} us, {r['within_0_5_us']}/{len(rows)} within 0.5 us, "
            f"median ratio {r['median_ratio']:.3f}")
    return result


def filter_probe(ws):
    """ncu's filters on the first kernel's second launch (warm-up 1 + 1 pass): which select it."""
    seq = launch_sequence(ws)
    first = seq[0]
    variants = {
        "regex_anchored": ["--kernel-name", f"regex:^{first}$", "--launch-skip", "1", "--launch-count", "1"],
        "regex_plain": ["--kernel-name", f"regex:{first}", "--launch-skip", "1", "--launch-count", "1"],
        "exact_name": ["--kernel-name", first, "--launch-skip", "1", "--launch-count", "1"],
        "kernel_id": ["--kernel-id", f"::{first}:2"],
        "before_match": ["--kernel-name", first, "--launch-skip-before-match", str(len(seq)), "--launch-count", "1"],
        "position_only": ["--launch-skip", str(len(seq)), "--launch-count", "1"],
        "regex_anchored_no_skip": ["--kernel-name", f"regex:^{first}$"],
    }
    found = {"kernel": first, "launches_per_pass": len(seq)}
    for tag, extra in variants.items():
        proc = subprocess.run(["ncu", "--metrics", "gpu__time_duration.sum", *extra, "-f", "-o",
                               str(work / f"probe_{tag}"), sys.executable, runner, str(ws.path),
                               "--warmup", "1", "--iterations", "1"], capture_output=True, text=True)
        text = proc.stdout + proc.stderr
        found[tag] = {"args": extra, "code": proc.returncode, "profiled": PROF.findall(text),
                      "ncu_lines": [ln for ln in text.splitlines() if ln.startswith("==")][:20]}
    (out / "filter_probe.json").write_text(json.dumps(found, indent=1))
    say("filter probe (" + first + "): " + "; ".join(
        f"{t} {found[t]['profiled']}" for t in variants))


probed = False
for ws_dir in sorted((work / "ws").glob("*.kscope")):
    ws = Workspace.open(ws_dir)
    stem = ws_dir.stem
    if not probed:
        probed = True
        try:
            filter_probe(ws)
        except Exception as exc:
            say(f"filter probe FAILED: {type(exc).__name__}: {exc}")
    say(f"== {stem}: {len(ws.manifest.calls)} calls recorded at build time")
    try:
        t0 = time.perf_counter()
        tl = measure_timeline(TimelineRequest(ws_dir, warmup=5, repeat=20, name="h200"))
        wall = time.perf_counter() - t0
        shutil.copy(tl.meta["file"], out / f"{stem}_timeline.json")
        m = tl.meta
        say(f"  timeline: {len(tl.calls)} calls, {tl.kernel_time_us:.1f} us in kernels "
            f"(raw {m['raw_kernel_us']:.1f} us, event record {m['event_overhead_us']:.2f} us "
            f"[{m['record_cost_us']['min']:.2f}-{m['record_cost_us']['max']:.2f}] off each), span "
            f"{tl.span_us:.1f} us; plain pass GPU {m['plain_gpu_us']:.1f} us, wall "
            f"{m['plain_wall_ms']:.3f} ms; enqueue plain {m['plain_enqueue_ms']:.3f} ms vs "
            f"instrumented {m['timeline_enqueue_ms']:.3f} ms; saturated {all(m['saturated'])}; "
            f"raw gaps median {m['gap_us']['median']:.2f} us max {m['gap_us']['max']:.2f} us; "
            f"command {wall:.1f} s")
        plain = subprocess.run([sys.executable, runner, str(ws_dir), "--warmup", "10",
                                "--iterations", "50"], capture_output=True, text=True)
        line = [ln for ln in plain.stdout.splitlines() if ln.startswith(model_runner.RESULT_TAG)]
        (out / f"{stem}_plain.json").write_text(line[-1][len(model_runner.RESULT_TAG):] if line else plain.stderr)
        if line:
            p = json.loads(line[-1][len(model_runner.RESULT_TAG):])
            say(f"  plain run: mean {p['mean_ms']:.3f} ms, min {p['min_ms']:.3f} ms per pass (wall)")
        res = {}
        for tag, extra in (("none", ["--clock-control", "none", "--cache-control", "none"]),
                           ("base", [])):
            res[tag] = compare(tl, ncu_durations(ws, tag, extra), tag)
        (out / f"{stem}_compare.json").write_text(json.dumps(res, indent=1))
    except Exception as exc:  # keep going with the next step/workspace
        say(f"  FAILED: {type(exc).__name__}: {exc}")
        continue

    # "profile this kernel": the last call of the kernel launched most often
    info = {}
    try:
        counts = {}
        for c in tl.calls:
            counts[c.kernels[0]] = counts.get(c.kernels[0], 0) + 1
        kernel = max(counts, key=lambda k: (counts[k], -min(c.index for c in tl.calls if c.kernels[0] == k)))
        index = max(c.index for c in tl.calls if c.kernels[0] == kernel)
        sel = tl.selection(index, warmup=1)
        info = {"call": index, "selection": sel.__dict__, "kernel_calls_per_pass": counts[kernel]}
        t0 = time.perf_counter()
        result = profile_workspace(ProfileRequest(
            workspace=ws_dir, set=None, sections=["SpeedOfLight", "LaunchStats"],
            launch_skip=sel.launch_skip, launch_count=1, warmup=1, iterations=1,
            expect_kernel=sel.kernel, name=f"call{index}"))
        shutil.copy(result.report, out / f"select_{stem}_call{index}.ncu-rep")
        profiled = PROF.findall(result.log)
        info.update({"profiled": profiled, "seconds": time.perf_counter() - t0})
        say(f"  profile call {index} ({kernel}, call {counts[kernel]} of it per pass): ncu "
            f"{' '.join(sel.ncu_arguments())} --warmup 1 profiled {profiled} in "
            f"{info['seconds']:.1f} s")
    except Exception as exc:
        info["error"] = str(exc)
        info["log"] = getattr(exc, "details", "")[-6000:]
        say(f"  profile this kernel FAILED: {type(exc).__name__}: {exc}")
    (out / f"select_{stem}.json").write_text(json.dumps(info, indent=1))

    # progress over the recorded launch sequence (the "Also fix")
    try:
        seen = []
        req = ProfileRequest(workspace=ws_dir, set=None, sections=["LaunchStats"], name="progress")
        expected = _expected_launches(ws, req)
        result = profile_workspace(req, progress=lambda s, f, m: seen.append((s, f)))
        fractions = [f for s, f in seen if s == "profile"]
        (out / f"progress_{stem}.json").write_text(json.dumps(
            {"expected": expected, "launches": result.launches, "fractions": fractions}))
        say(f"  progress: expected {expected} launches, ncu made {result.launches}; last "
            f"fraction {fractions[-1]:.3f}, first reaching 0.95 at launch "
            f"{next((i + 1 for i, f in enumerate(fractions) if f >= 0.95 - 1e-9), None)}")
    except Exception as exc:
        say(f"  progress FAILED: {type(exc).__name__}: {exc}")

    # Nsight Systems, when it is here: its kernel durations of the last pass
    if shutil.which("nsys"):
        try:
            rep = work / f"nsys_{stem}"
            subprocess.run(["nsys", "profile", "--trace", "cuda", "--force-overwrite", "true", "-o",
                            str(rep), sys.executable, runner, str(ws_dir), "--warmup", "5",
                            "--iterations", "1"], check=True, capture_output=True)
            ns = read_nsys(Path(f"{rep}.nsys-rep"))
            n = sum(len(c.kernels) for c in tl.calls)
            last = ns.calls[-n:]
            pairs = [(c.kernels[0], c.duration_us) for c in last]
            mine = [(k, c.duration_us / len(c.kernels)) for c in tl.calls for k in c.kernels]
            diffs = [abs(a[1] - b[1]) for a, b in zip(pairs, mine)]
            info = {"order_matches": [p[0] for p in pairs] == [m[0] for m in mine],
                    "nsys_sum_us": sum(d for _, d in pairs), "timeline_sum_us": tl.kernel_time_us,
                    "median_abs_diff_us": statistics.median(diffs), "pairs": list(zip(pairs, mine))}
            (out / f"nsys_{stem}.json").write_text(json.dumps(info, indent=1))
            say(f"  vs nsys: order {'matches' if info['order_matches'] else 'DIFFERS'}, sum "
                f"{info['nsys_sum_us']:.1f} vs {info['timeline_sum_us']:.1f} us, median |diff| "
                f"{info['median_abs_diff_us']:.2f} us")
        except Exception as exc:
            say(f"  nsys FAILED: {type(exc).__name__}: {exc}")

(out / "summary.txt").write_text("\n".join(summary) + "\n")
PY
cat "$RES/env.txt"
cp "$RES/summary.txt" "$OUT/summary.txt" 2>/dev/null
tar -czf "$OUT/timeline_results.tgz" -C "$RES" .
ls -l "$OUT"
