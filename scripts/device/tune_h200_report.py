"""Here, after tune_h200.sh's runs: issue 21's tables (per kernel and end to end) in Markdown
and one JSON, from the tuned workspaces' manifests (each tuned kernel's trials, best and
default µs as the batch rounds measured them on the H200) and what the final run wrote.

usage: python tune_h200_report.py RESULTS_DIR OUT.json MODEL=TUNED_WS...
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def kernels(tuned_ws: Path) -> list[dict]:
    manifest = json.loads((tuned_ws / "manifest.json").read_text())
    rows: dict[str, dict] = {}  # per PrimFunc (a tuned schedule may launch several kernels)
    for k in manifest["kernels"]:
        t = k.get("tuned")
        if t and k["primfunc"] not in rows:
            launches = manifest["calls"].count(k["primfunc"])
            rows[k["primfunc"]] = {"kernel": k["primfunc"], "launches": launches,
                                   "trials": t["trials"], "default_us": t["default_us"],
                                   "tuned_us": t["best_us"], "measured_on": t.get("measured_on"),
                                   "cuda_kernels": []}  # fmt: skip
        if t:
            rows[k["primfunc"]]["cuda_kernels"].append(k["name"])
    return sorted(rows.values(), key=lambda r: -(r["default_us"] - r["tuned_us"]) * r["launches"])


def main(argv: list[str]) -> int:
    res, out = Path(argv[0]), Path(argv[1])
    models = dict(a.split("=", 1) for a in argv[2:])
    e2e = json.loads((res / "e2e.json").read_text())
    nnf = json.loads((res / "nnfusion.json").read_text())
    summary: dict = {"kernels": {}, "end_to_end_ms": {}}
    lines = ["| model | kernel | launches | trials | default µs | tuned µs | speedup |",
             "| --- | --- | --- | --- | --- | --- | --- |"]  # fmt: skip
    for model, ws in models.items():
        rows = kernels(Path(ws))
        summary["kernels"][model] = rows
        for r in rows:
            lines.append(f"| {model} | {r['kernel']} | {r['launches']} | {r['trials']} | "
                         f"{r['default_us']:.2f} | {r['tuned_us']:.2f} | "
                         f"{r['default_us'] / r['tuned_us']:.2f}x |")  # fmt: skip
    lines += ["", "| model | run | median ms | min ms |", "| --- | --- | --- | --- |"]
    runs = [(m, f"TVM default ({m}.kscope)", e2e.get(m)) for m in models]
    runs += [(m, f"TVM tuned ({m}_tuned.kscope)", e2e.get(f"{m}_tuned")) for m in models]
    runs += [
        ("resnet50", "NNFusion + tuned kernel DB", nnf.get("nnfusion_db")),
        ("resnet50", "NNFusion without DB (cuDNN/cuBLAS)", nnf.get("nnfusion_nodb")),
    ]
    for model, what, run in runs:
        if run and run.get("ok"):
            t = run["timing"]
            summary["end_to_end_ms"][f"{model}: {what}"] = t
            lines.append(f"| {model} | {what} | {t['median_ms']:.3f} | {t['min_ms']:.3f} |")
        else:
            lines.append(f"| {model} | {what} | failed | |")
    out.write_text(json.dumps(summary, indent=1))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
