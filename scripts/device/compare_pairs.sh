#!/usr/bin/env bash
# Profile pairs for `kernelscope diff` (issue 11), written to $OUT. Needs the workspaces
# cnn3_b8, cnn3_b2, cnn3x_b8, cnn3_b1 (tests/data/compare/README.md says how they were built) and
# optionally squeezenet_b1 / squeezenet_b4 in .device/ws.tgz. Arguments: the report names to
# make (default: all), e.g. `bash scripts/device/compare_pairs.sh cnn3_b8_nosource cnn3_b8_3passes`.
source "$(dirname "$0")/env.sh"
python3 - "$KS_WORK/ws" "$OUT" "$@" <<'PY'
import shutil, sys, time
from pathlib import Path
from kernelscope.core.profiling import ProfileRequest, profile_workspace

ws_root, out = Path(sys.argv[1]), Path(sys.argv[2])
sections = ["SpeedOfLight", "LaunchStats", "Occupancy", "SourceCounters", "WarpStateStats"]
runs = [  # (workspace, report name, sections, model iterations)
    ("cnn3_b8", "cnn3_b8_run1", sections, 1), ("cnn3_b8", "cnn3_b8_run2", sections, 1),
    ("cnn3_b2", "cnn3_b2", sections, 1), ("cnn3x_b8", "cnn3x_b8", sections, 1),
    ("cnn3_b1", "cnn3_b1", sections, 1),  # batch 1: a GEMV where batch 8 has a GEMM
    ("squeezenet_b1", "squeezenet_b1_run1", sections, 1),
    ("squeezenet_b1", "squeezenet_b1_run2", sections, 1),
    ("squeezenet_b4", "squeezenet_b4", sections, 1),
    # a report without SourceCounters (kernel level only) and one of three model passes
    ("cnn3_b8", "cnn3_b8_nosource", ["SpeedOfLight", "LaunchStats"], 1),
    ("cnn3_b8", "cnn3_b8_3passes", sections, 3),
]
only = set(sys.argv[3:])  # report names to make; all when none are given
for ws, name, secs, iterations in runs:
    path = ws_root / f"{ws}.kscope"
    if not path.is_dir() or (only and name not in only):
        print("skip", name); continue
    start = time.perf_counter()
    req = ProfileRequest(
        workspace=path, set=None, sections=secs, name=name, iterations=iterations
    )
    result = profile_workspace(req, lambda step, f, msg: None)
    shutil.copy(result.report, out / f"{name}.ncu-rep")
    print(f"{name}: {result.launches} launches, {time.perf_counter() - start:.1f} s", flush=True)
PY
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ncu --version | tail -1
