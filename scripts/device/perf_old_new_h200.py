"""Issue 23 items 2, 3 and 7 on the H200 host: old code against new, alternating in one run.

Run by ``perf_old_new_h200.sh`` (which sets PP_OLD / PP_NEW, the PYTHONPATHs of the two
versions, RES and KS_WORK); the benchmark helpers are the staged ``bench_import.py`` (this
branch's). Steps (``KS_STEPS=item3,item2,phases,profile,item7`` picks some): the whole model's
hot lines cold, old and new, against the plain per-PC ncu_report loop, and the kernel list
against the plain action loop (3 rounds, best and each); a kernel's per-line data with its
workspace and through NVIDIA's reader; the line child alone, given its launches and not; a
cProfile of the new ``hot``; the window's open path without Qt at 60, 250 and 500 launches.
Each step's lines are appended to RES/perf23b.txt as it ends.
"""

from __future__ import annotations

import io
import json
import os
import pstats
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path.cwd()
STAGE = Path(__file__).resolve().parent
sys.path[:0] = [str(STAGE), str(ROOT / "benchmarks")]  # the staged one first
import bench_import as bi  # noqa: E402  (this branch's, staged)

bi.ROOT, bi.DATA, bi.OUT = ROOT, ROOT / "tests/data/ncu", ROOT / "benchmarks/out"
bi.SMALL_CNN = ROOT / "tests/data/h200/small_cnn_h200.ncu-rep"
bi.SMALL_CNN_WS = ROOT / "tests/data/ws_small_cnn"
RES = Path(os.environ["RES"])
LOG = RES / "perf23b.txt"
PP = {"old": os.environ["PP_OLD"], "new": os.environ["PP_NEW"]}


def out(text: str) -> None:
    with open(LOG, "a") as f:
        f.write(text + "\n")
    print(text, flush=True)


def load() -> str:
    return open("/proc/loadavg").read().split()[0]


def use(who: str) -> None:
    os.environ["PYTHONPATH"] = PP[who]


def whole(cmd: list[str], cache: bool = True) -> float:
    with tempfile.TemporaryDirectory() as c:
        env = bi.child_env(c if cache else None)
        t = time.perf_counter()
        p = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if p.returncode:
            raise SystemExit(f"{cmd[:4]} failed: {p.stderr[-2000:]}")
        return time.perf_counter() - t


def step(name: str, fn) -> None:
    only = os.environ.get("KS_STEPS")
    if only and fn.__name__ not in only.split(","):
        return
    t = time.perf_counter()
    out(f"\n## {name} (load {load()})")
    try:
        fn()
    except BaseException as exc:  # noqa: BLE001
        out(f"FAILED: {exc!r}"[:3000])
    out(f"(step {time.perf_counter() - t:.1f} s, load {load()})")


def main() -> None:
    files = bi.make_data()
    squeeze = Path(sys.argv[1])
    for who in PP:
        use(who)
        bi.compile_kernelscope()
    ks = [sys.executable, "-m", "kernelscope.core.cli"]

    def item3() -> None:
        for report in (files["mlp_x12"], squeeze):
            t: dict[str, list[float]] = {}
            for _ in range(3):
                t.setdefault("plain hot", []).append(
                    whole([sys.executable, "-c", bi.PLAIN_HOT, str(report)])
                )
                for who in ("old", "new"):
                    use(who)
                    t.setdefault(f"{who} hot", []).append(whole([*ks, "hot", str(report)]))
                t.setdefault("plain list", []).append(
                    whole([sys.executable, "-c", bi.PLAIN_LIST, str(report)])
                )
                use("new")
                t.setdefault("new kernels", []).append(whole([*ks, "kernels", str(report)]))
            b = {k: min(v) for k, v in t.items()}
            out(
                f"{report.name}: "
                + ", ".join(f"{k} {' / '.join(f'{x:.3f}' for x in v)}" for k, v in t.items())
            )
            out(
                f"{report.name}: best: plain per-PC loop {b['plain hot']:.3f} s, hot cold "
                f"old {b['old hot']:.3f} s ({b['old hot'] / b['plain hot']:.2f}), "
                f"new {b['new hot']:.3f} s ({b['new hot'] / b['plain hot']:.2f}); "
                f"plain list {b['plain list']:.3f} s, kernels cold new "
                f"{b['new kernels']:.3f} s ({b['new kernels'] / b['plain list']:.2f})"
            )

    def item2() -> None:
        use("new")
        for row in bi.build_lines(files["small_cnn_x12"], 3):
            out(f"{row[0]}: {row[1]}: {row[2]:.3f}")

    def phases() -> None:
        use("new")
        lk = json.dumps([[0, list(range(0x100, 0x4000, 16))]])
        code = (
            "import sys, time, json; t=time.perf_counter(); "
            "from kernelscope.core.ncu.line_child import LineChild; "
            "c=LineChild(sys.argv[1], launches=json.loads(sys.argv[3])); "
            "c.lines(json.loads(sys.argv[2])); "
            "print(time.perf_counter()-t)"
        )
        for keep in ("[0]", "[]", "[0]", "[]"):
            p = subprocess.run(
                [sys.executable, "-c", code, str(files["mlp_x12"]), lk, keep],
                env=bi.child_env(),
                capture_output=True,
                text=True,
            )
            out(
                f"line child, mlp_x12, launches given {keep}: "
                f"{p.stdout.strip() or p.stderr[-800:]} s"
            )

    def profile() -> None:
        use("new")
        prof = RES / "hot_new.prof"
        with tempfile.TemporaryDirectory() as c:
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "cProfile",
                    "-o",
                    str(prof),
                    *ks[1:],
                    "hot",
                    str(files["mlp_x12"]),
                ],
                env=bi.child_env(c),
                capture_output=True,
            )
        for sort in ("cumulative", "tottime"):
            s = io.StringIO()
            pstats.Stats(str(prof), stream=s).sort_stats(sort).print_stats(30)
            (RES / f"profile_hot_new_{sort}.txt").write_text(s.getvalue())

    def item7() -> None:
        use("new")
        mlp = bi.DATA / "mlp/mlp.ncu-rep"
        big = {60: files["mlp_x12"]}
        for times in (50, 100):
            dst = Path(os.environ["KS_WORK"]) / f"mlp_x{times}.ncu-rep"
            bi.repeat_report(mlp, dst, times)
            big[times * 5] = dst
        for n, report in big.items():
            with tempfile.TemporaryDirectory() as cache:
                t = time.perf_counter()
                p = subprocess.run(
                    [sys.executable, "-c", bi.OPEN, str(report)],
                    env=bi.child_env(cache),
                    capture_output=True,
                    text=True,
                )
                wall = time.perf_counter() - t
            if p.returncode:
                out(f"{n} launches: FAILED rc {p.returncode}: {p.stderr[-2500:]}")
                continue
            m = json.loads(p.stdout.strip().splitlines()[-1])
            out(
                f"{n} launches ({report.stat().st_size / 1e6:.0f} MB), open as the window does "
                f"(no Qt): kernel list {m['list']:.3f} s, hottest kernel {m['kernel']:.3f} s, "
                f"all read {m['all']:.3f} s, child peak {m['child MB']:.0f} MB, opener peak "
                f"{m['opener MB']:.0f} MB, whole process {wall:.2f} s"
            )

    step("item 3: hot lines, old/new against the plain per-PC loop (3 runs, alternating)", item3)
    step("item 2: a kernel's lines, cold, new", item2)
    step("the line child alone, new", phases)
    step("cProfile of hot, new", profile)
    step("item 7: open as the window does without Qt, new", item7)


if __name__ == "__main__":
    main()
