"""The summary of a profile-torch run folder for benchmarks/results/torch_h200/: each kernel of
the report with its source files and whether the report embeds them, the hottest lines, and
the run folder's sizes. Usage: python3 torch_summary.py RUN (kernelscope.core importable)."""

import json
import sys
from pathlib import Path

from kernelscope.core.ncu import Profile

run = Path(sys.argv[1])
report = next((run / "profiles").glob("*.ncu-rep"))
out = {"report_bytes": report.stat().st_size}
sizes = {}
for entry in sorted(run.iterdir()):
    files = [entry] if entry.is_file() else [p for p in entry.rglob("*") if p.is_file()]
    sizes[entry.name] = {"files": len(files), "bytes": sum(p.stat().st_size for p in files)}
out["run_folder"] = sizes
p = Profile.open(report)
kernels = []
for k in p.kernels():
    files = p.source_files(k.name)
    found = [p.source(f) for f in files]
    kernels.append(
        {
            "name": k.name,
            "launches": len(k.launches),
            "source_files": [f.path for f in found],
            "embedded": [f.origin == "embedded" for f in found],
            "lines": [len(f.lines) if f.text is not None else 0 for f in found],
        }
    )
out["kernels"] = kernels
out["facts"] = json.loads((run / "run.json").read_text())
hot = p.hot_lines(top=5)
out["hot_lines"] = [
    f"{Path(h.file).name}:{h.line} {h.value:g} samples ({h.kernel}): {h.source.strip()}"
    for h in hot
]
print(json.dumps(out, indent=1, default=str))
