#!/usr/bin/env bash
# On the build machine (not the GPU one), from the repository root: everything
# nnfusion_gpu.sh needs, in .device/nnfusion/ (plus stage.sh's runtime-only TVM), so that
# the GPU machine only compiles and runs. NNFusion runs here, on the models export-db
# --nnfusion-model writes (biases already broadcast: no slow constant folding, ~15 s for
# ResNet-50); the projects travel without their constants (nnfusion_constants.py).
#   bash scripts/device/nnfusion_stage.sh
# Env: KERNELSCOPE_NNFUSION  the nnfusion binary (default: ../shared/tools/nnfusion, unpacked
#                            into the user cache as .ci/run does)
#      KS_STAGE_WORK         scratch folder (default /tmp/ks-nnfusion-stage); steps whose
#                            output is there already are not redone
# Writes per model M (small_cnn: tests/nnfusion_models.residual_cnn; resnet50:
# benchmarks/resnet_onnx.py): M.export.txt, M.coverage-before.json, M.coverage.json
# (--build-missing), M.compile_{db,nodb}.json, the packed projects M-nnfusion_{db,nodb}/,
# ws.tgz (the TVM workspaces without weights), models.json.
set -euo pipefail
py=${KERNELSCOPE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/kernelscope/venv}/bin/python
ks() { nice -n 10 "$py" -m kernelscope.core.cli "$@"; }
S=.device/nnfusion
W=${KS_STAGE_WORK:-/tmp/ks-nnfusion-stage}
mkdir -p "$S" "$W"
if [ -z "${KERNELSCOPE_NNFUSION:-}" ]; then
    tools="${XDG_CACHE_HOME:-$HOME/.cache}/kernelscope-tools/nnfusion-00c1317"
    [ -x "$tools/nnfusion" ] || { mkdir -p "$tools" && tar xzf ../shared/tools/nnfusion/nnfusion-bin.tgz -C "$tools"; }
    export KERNELSCOPE_NNFUSION="$tools/nnfusion"
fi
"$py" - "$W" <<'PY'
import sys
from pathlib import Path
sys.path[:0] = ["tests", "benchmarks"]
from nnfusion_models import residual_cnn
from resnet_onnx import make_resnet50
from kernelscope.core.kernel_db import KernelDB
w = Path(sys.argv[1])
if not (w / "small_cnn.onnx").is_file():
    residual_cnn(w / "small_cnn.onnx")
if not (w / "resnet50.onnx").is_file():
    make_resnet50(w / "resnet50.onnx")
KernelDB.open(w / "empty.db", write=True).close()
PY
for m in small_cnn resnet50; do
    [ -f "$W/$m.kscope/manifest.json" ] || ks build "$W/$m.onnx" -o "$W/$m.kscope" >/dev/null
    if [ ! -f "$W/$m.db.done" ]; then
        rm -f "$W/$m.db"
        ks export-db "$W/$m.kscope" --db "$W/$m.db" --nnfusion-model "$W/$m.nnf.onnx" \
            --model "$W/$m.onnx" > "$S/$m.export.txt"
        ks nnfusion-coverage "$W/$m.nnf.onnx" --db "$W/$m.db" --json > "$S/$m.coverage-before.json"
        ks nnfusion-coverage "$W/$m.nnf.onnx" --db "$W/$m.db" --build-missing \
            --workspace "$W/$m-missing.kscope" --json > "$S/$m.coverage.json"
        touch "$W/$m.db.done"
    fi
    for kind in db nodb; do
        db="$W/$m.db"; [ $kind = db ] || db="$W/empty.db"
        if [ ! -f "$W/$m.nnfusion_$kind/nnfusion_rt/cuda_codegen/nnfusion_rt.cu" ]; then
            echo "NNFusion: $m ($kind)" >&2
            ks nnfusion-compile "$W/$m.nnf.onnx" --db "$db" -o "$W/$m.nnfusion_$kind" --json \
                > "$S/$m.compile_$kind.json"
        fi
        "$py" scripts/device/nnfusion_constants.py pack "$W/$m.onnx" \
            "$W/$m.nnfusion_$kind/nnfusion_rt/cuda_codegen" "$S/$m-nnfusion_$kind"
    done
done
cp "$W/small_cnn.onnx" "$S/small_cnn.onnx"
"$py" - "$W" "$S" <<'PY'
import hashlib, json, sys
from pathlib import Path
import numpy as np
w, s = Path(sys.argv[1]), Path(sys.argv[2])
models = []
for name in ("small_cnn", "resnet50"):
    manifest = json.loads((w / f"{name}.kscope" / "manifest.json").read_text())
    with np.load(w / f"{name}.kscope" / "params.npz") as p:
        params = {k: hashlib.sha256(p[k].tobytes()).hexdigest() for k in p.files}
    models.append({
        "name": name,
        "onnx": f"{name}.onnx",
        "make": "resnet50" if name == "resnet50" else None,
        "input": {"name": manifest["inputs"][0]["name"], "shape": manifest["inputs"][0]["shape"]},
        "workspace": f"{name}.kscope",
        "projects": {"nnfusion_db": f"{name}-nnfusion_db", "nnfusion_nodb": f"{name}-nnfusion_nodb"},
        "params": params,
    })
(s / "models.json").write_text(json.dumps(models, indent=1))
PY
# The runner needs the manifest, the library, the cubin and the source it was built from.
tar -czf "$S/ws.tgz" -C "$W" --exclude=params.npz --exclude=sass.json --exclude=build.log \
    --exclude=profiles --exclude=src/kernels --exclude=src/module.cu small_cnn.kscope resnet50.kscope
bash scripts/device/stage.sh
du -sh "$S" .device
