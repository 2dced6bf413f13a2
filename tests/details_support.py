"""Test data for the Details, roofline and headroom views: the mlp report and a workspace of
the same model with a kernel that the model never launches."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from ncu_support import MLP
from paths_support import DATA, H200_REPORT

from kernelscope.core.workspace import Workspace

WS_MLP = DATA / "ws_mlp"
WS_OPS = DATA / "ws_ops" / "mlp"
REPORT = MLP / "mlp.ncu-rep"
SMALL_SECTIONS = H200_REPORT  # five sections only
MATMUL = "fused_matmul1_add1_kernel"
SOFTMAX = "softmax_kernel"
RESHAPE = "reshape_kernel"


def unlaunched_workspace(root: Path, *, profiled: bool) -> Path:
    """The mlp test workspace with one more kernel that the model never launches (as TVM keeps
    a reshape that runs as a view), the operators and shapes of a real build of the model
    (tests/data/ws_ops/mlp), and the mlp report attached when ``profiled``."""
    ws = root / "ws"
    shutil.copytree(WS_MLP, ws)
    manifest = json.loads((ws / "manifest.json").read_text(encoding="utf-8"))
    built = json.loads((WS_OPS / "manifest.json").read_text(encoding="utf-8"))
    facts = {k["name"]: k for k in built["kernels"]}
    for k in manifest["kernels"]:
        k.update(ops=facts[k["name"]]["ops"], params=facts[k["name"]]["params"])
    reshape = dict(next(k for k in manifest["kernels"] if k["name"] == "transpose_kernel"))
    reshape.update(name=RESHAPE, file=f"src/kernels/{RESHAPE}.cu", launched=False)
    manifest["kernels"].insert(0, reshape)  # first in program order: the list puts it last
    (ws / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    source = (ws / "src" / "kernels" / "transpose_kernel.cu").read_text(encoding="utf-8")
    (ws / "src" / "kernels" / f"{RESHAPE}.cu").write_text(
        source.replace("transpose_kernel", RESHAPE), encoding="utf-8"
    )
    sass = json.loads((ws / "sass.json").read_text(encoding="utf-8"))
    sass[RESHAPE] = sass["transpose_kernel"]
    (ws / "sass.json").write_text(json.dumps(sass), encoding="utf-8")
    if profiled:
        Workspace.open(ws).attach_profile(REPORT)
    return ws
