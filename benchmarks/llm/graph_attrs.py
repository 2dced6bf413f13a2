"""On the GPU host: what a report says of each launch that a CUDA graph's node could be told
by (issue 33 item 3): per launch its name, workload type and every metric whose name holds
"graph" or "node", as JSON lines.  Usage: python3 graph_attrs.py REPORT.ncu-rep"""

import glob
import json
import sys

try:
    import ncu_report
except ImportError:
    for d in sorted(glob.glob("/opt/nvidia/nsight-compute/*/extras/python"), reverse=True) + sorted(
        glob.glob("/usr/local/cuda*/nsight-compute*/extras/python")
    ):
        sys.path.insert(0, d)
    import ncu_report

ctx = ncu_report.load_report(sys.argv[1])
for r in range(ctx.num_ranges()):
    rng = ctx.range_by_idx(r)
    for i in range(rng.num_actions()):
        a = rng.action_by_idx(i)
        names = a.metric_names()
        found = {}
        for n in names:
            low = n.lower()
            if "graph" in low or "node" in low or low.startswith("launch__stream") or "api" in low:
                m = a.metric_by_name(n)
                try:
                    found[n] = m.value()
                except Exception as exc:  # noqa: BLE001
                    found[n] = repr(exc)
        print(
            json.dumps(
                {
                    "range": r,
                    "i": i,
                    "name": a.name(),
                    "workload": int(a.workload_type()),
                    "metrics": len(names),
                    "graph": found,
                }
            )
        )
