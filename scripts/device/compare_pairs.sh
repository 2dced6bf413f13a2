#!/usr/bin/env bash
# Profile pairs for `kernelscope diff` (issue 11), written to $OUT. Needs the workspaces
# cnn3_b8, cnn3_b2, cnn3x_b8 (tests/data/compare/README.md says how they were built) and
# optionally squeezenet_b1 / squeezenet_b4 in .device/ws.tgz.
source "$(dirname "$0")/env.sh"
python3 - "$KS_WORK/ws" "$OUT" <<'PY'
import shutil, sys, time
from pathlib import Path
from kernelscope.core.profiling import ProfileRequest, profile_workspace

ws_root, out = Path(sys.argv[1]), Path(sys.argv[2])
sections = ["SpeedOfLight", "LaunchStats", "Occupancy", "SourceCounters", "WarpStateStats"]
runs = [  # (workspace, report name)
    ("cnn3_b8", "cnn3_b8_run1"), ("cnn3_b8", "cnn3_b8_run2"), ("cnn3_b2", "cnn3_b2"),
    ("cnn3x_b8", "cnn3x_b8"), ("squeezenet_b1", "squeezenet_b1_run1"),
    ("squeezenet_b1", "squeezenet_b1_run2"), ("squeezenet_b4", "squeezenet_b4"),
]
for ws, name in runs:
    path = ws_root / f"{ws}.kscope"
    if not path.is_dir():
        print("skip", ws); continue
    start = time.perf_counter()
    req = ProfileRequest(workspace=path, set=None, sections=sections, name=name)
    result = profile_workspace(req, lambda step, f, msg: None)
    shutil.copy(result.report, out / f"{name}.ncu-rep")
    print(f"{name}: {result.launches} launches, {time.perf_counter() - start:.1f} s", flush=True)
PY
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ncu --version | tail -1
