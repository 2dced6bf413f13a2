"""Benchmark ``kernelscope share`` against issue 34's goals: the ten slowest kernels of a
MobileNetV2-sized report in at most 2 MB, written in at most 3 s.

    python benchmarks/bench_share.py [REPORT [BASELINE]]

Data, by default: the SqueezeNet demo's H200 report (resources/demo, ``--set full``: 39
launches of 27 kernels, 44 MB unpacked, every kernel a TVM file of about 1,700 lines), unpacked
into benchmarks/out/; and the cnn3 pair of tests/data/compare (batch 8 against its batch-2
baseline) for a page with the comparison.

Each figure is one ``kernelscope share`` in a fresh Python process, from the command line's
start to the page written, best of 3 (the machine is shared): "warm" on the cache a cold run
left (as after opening the report in the window or with any other command: the goal's figure),
"cold" with an empty kernelscope cache (the report read with NVIDIA's reader first), beside what
``kernelscope hot`` costs on a cold cache (reading the same per-instruction data). The page's
size is printed with what makes it up (source lines, SASS, Details...).
"""

from __future__ import annotations

import json
import lzma
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = Path(__file__).resolve().parent / "out"
DEMO = ROOT / "resources" / "demo" / "squeezenet_h200.ncu-rep.xz"
COMPARE = ROOT / "tests" / "data" / "compare"
GOAL_BYTES = 2_000_000
GOAL_SECONDS = 3.0
RUNS = 3


def _unpacked(packed: Path) -> Path:
    """``packed`` (``NAME.xz``, as the demo and tests/data store reports) unpacked into OUT."""
    OUT.mkdir(exist_ok=True)
    report = OUT / packed.name.removesuffix(".xz")
    if not report.is_file():
        with lzma.open(packed, "rb") as source, report.open("wb") as out:
            shutil.copyfileobj(source, out)
    return report


def _run(args: list[str], cache: Path) -> float:
    """Seconds one ``kernelscope ARGS`` took in a fresh process."""
    env = {"KERNELSCOPE_CACHE_DIR": str(cache), "PATH": "/usr/bin:/bin"}
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "kernelscope.core.cli", *args],
        check=True,
        env=env,
        stdout=subprocess.DEVNULL,
    )
    return time.perf_counter() - start


def _parts(page: Path) -> dict[str, int]:
    text = page.read_text(encoding="utf-8")
    block = re.search(r'<script type="application/json" id="ks-data">(.*?)</script>', text, re.S)
    assert block is not None
    data = json.loads(block.group(1))

    def size(value: object) -> int:
        return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())

    views = data["views"].values()
    return {
        "page": len(text.encode()),
        "source lines (each distinct line once)": size(data["texts"]),
        "SASS with per-instruction metrics": sum(size(v["sass"]) for v in views),
        "per-line metrics and stalls": sum(
            size(f["metrics"]) + size(f["stalls"]) for v in views for f in v["files"]
        ),
        "Details": size(data["details"]),
        "comparison": size(data["compare"]),
        "kernels with source and SASS": len(data["views"]),
    }


def measure(label: str, args: list[str]) -> bool:
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "page.html"
        share = ["share", *args, "-o", str(page)]
        cold, warm, hot = [], [], []
        for _ in range(RUNS):
            cache = Path(tmp) / "cache"
            shutil.rmtree(cache, ignore_errors=True)
            cold.append(_run(share, cache))
            warm.append(_run(share, cache))
            shutil.rmtree(cache)
            hot.append(_run(["hot", args[0]], cache))
        parts = _parts(page)
    size = parts.pop("page")
    ok = size <= GOAL_BYTES and min(warm) <= GOAL_SECONDS
    print(f"\n{label}")
    print(f"  page: {size / 1e6:.2f} MB (goal <= {GOAL_BYTES / 1e6:.0f} MB)")
    for name, value in parts.items():
        print(f"    {name}: {value / 1e3:.0f} KB" if name[0] != "k" else f"    {name}: {value}")
    print(f"  written, warm cache: {min(warm):.2f} s (best of {RUNS}; goal <= {GOAL_SECONDS} s)")
    print(f"  written, cold cache: {min(cold):.2f} s")
    print(f"    for comparison, kernelscope hot on a cold cache: {min(hot):.2f} s")
    print(f"  {'meets' if ok else 'MISSES'} the goals")
    return ok


def main() -> int:
    if len(sys.argv) > 1:
        args = [sys.argv[1]] + (["--baseline", sys.argv[2]] if len(sys.argv) > 2 else [])
        return 0 if measure(" ".join(args), args) else 1
    ok = measure("SqueezeNet demo report (--set full), top 10 kernels", [str(_unpacked(DEMO))])
    new, base = (_unpacked(COMPARE / f"{n}.ncu-rep.xz") for n in ("cnn3_b8_run1", "cnn3_b2"))
    pair = [str(new), "--baseline", str(base)]
    ok &= measure("cnn3 batch 8 against its batch-2 baseline, every kernel", pair)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
