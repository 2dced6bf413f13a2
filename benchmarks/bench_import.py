"""Benchmark the Nsight Compute import against the targets of issues 3 and 15.

    python benchmarks/bench_import.py [--quick] [--runs N] [REPORT.ncu-rep ...]

Data: the fixtures in tests/data/ncu (cnn: 4 launches, 8.5 MB, the largest report there; mlp:
5 launches of a ``--set full`` profile), plus synthetic data written to benchmarks/out/:

* ``mlp_x12.ncu-rep``: the mlp report's results repeated 12 times, a 60-launch ``--set full``
  report (the kernel-list target is stated for 60 launches);
* ``cnn_x20.ncu-rep``: the cnn report 20 times over (80 launches, 20x its size);
* ``small_cnn_x12.ncu-rep``: the H200 small_cnn report 12 times over (48 launches, each kernel
  12 times), whose build is ``tests/data/ws_small_cnn``: a kernel's per-line data with that
  workspace and without (as a report from elsewhere; the line tables come from the report's
  cubins either way), alternately, medians of ``--runs``, and against the kernel list;
* ``cnn_x20_source_sass.csv`` / ``cnn_x20_source_cuda_sass.csv``: the cnn Source-page exports
  20 times over (each copy reads as 4 more launches), 22 and 33 MB.

A report is a sequence of length-prefixed protobuf messages; a profiled result is a header
message (field 2 = 1) followed by its payload, so appending copies of those pairs makes a valid
report with more launches (checked with ncu_report before timing anything).

Every "cold" figure runs in a fresh Python process with an empty kernelscope cache (the OS
file cache and Python's bytecode caches are warm, as in an installed kernelscope); "cached"
figures run in a fresh process on the cache the cold run left.

Issue 15's comparisons, each a whole process, best of ``--runs`` alternating runs, with the
ratio printed (on the 60-launch report and any REPORT given):

* ``kernelscope kernels REPORT`` against a plain loop over ncu_report's actions (load the
  report, every action's name and duration): target <= 0.5, cached <= 0.3 s;
* ``kernelscope hot REPORT`` (the whole model's hot lines) against a plain per-PC loop (every
  action's per-PC sample counts and ``source_info``, summed per line): target <= 0.5.
"""

from __future__ import annotations

import argparse
import json
import os
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from paths_support import H200_REPORT as SMALL_CNN  # noqa: E402
from paths_support import data_path  # noqa: E402

MLP, CNN = data_path("ncu/mlp"), data_path("ncu/cnn")  # stored compressed: unpacked copies
OUT = Path(__file__).resolve().parent / "out"
SMALL_CNN_WS = ROOT / "tests" / "data" / "ws_small_cnn"

PLAIN_LIST = """
import sys, ncu_report
ctx = ncu_report.load_report(sys.argv[1])
rng = ctx.range_by_idx(0)
for i in range(rng.num_actions()):
    a = rng.action_by_idx(i)
    print(a.name(), a.metric_by_name("gpu__time_duration.sum").as_double())
"""
PLAIN_HOT = """
import sys, ncu_report
from collections import Counter
ctx = ncu_report.load_report(sys.argv[1])
rng = ctx.range_by_idx(0)
lines = Counter()
for i in range(rng.num_actions()):
    a = rng.action_by_idx(i)
    m = a.metric_by_name("smsp__pcsamp_sample_count")
    if m is None or not m.has_correlation_ids():
        continue
    ids = m.correlation_ids()
    for k in range(m.num_instances()):
        si = a.source_info(ids.as_uint64(k))
        if si is not None:
            lines[(a.name(), si.file_name(), si.line())] += m.as_uint64(k)
for (kernel, path, line), n in lines.most_common(20):
    print(n, kernel, path, line)
"""

# What the window does with an uncached report, without Qt: the kernel list at once (first),
# the hottest kernel's view as soon as the child has read it, then the rest.
OPEN = """
import json, resource, sys, threading, time
t0 = time.perf_counter()
from kernelscope.core.view import open_document
marks, threads = {}, []

def first(session):
    marks["list"] = time.perf_counter() - t0
    name = max(session.document.summaries, key=lambda s: s.duration_ns or 0.0).name
    def show():
        session.kernel(name)
        marks["kernel"] = time.perf_counter() - t0
    threads.append(threading.Thread(target=show))
    threads[-1].start()

open_document(sys.argv[1], read_in_child=True, first=first)
marks["all"] = time.perf_counter() - t0
for t in threads:
    t.join()
marks["child MB"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
marks["opener MB"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
marks["ncu_report loaded"] = "ncu_report" in sys.modules
print(json.dumps(marks))
"""

TARGETS = {
    "kernel list, cold (60 launches)": 1.0,
    "kernel list, cached": 0.2,
    "per-line data of one kernel": 0.15,
    "25 MB source CSV parsed": 2.0,
    "hot lines of the whole model, cold": 3.0,
}


# ---- synthetic data ---------------------------------------------------------------------------
def _blocks(data: bytes) -> list[bytes]:
    out, off = [], 4
    while off < len(data):
        (size,) = struct.unpack_from("<I", data, off)
        out.append(data[off : off + 4 + size])
        off += 4 + size
    if off != len(data):
        raise ValueError("not a sequence of length-prefixed messages")
    return out


def _is_result_header(block: bytes) -> bool:
    # protobuf: field 1 (varint, any value), then field 2 (varint) == 1
    body = block[4:]
    if len(body) < 4 or body[0] != 0x08:
        return False
    i = 1
    while body[i] & 0x80:
        i += 1
    return body[i + 1 : i + 3] == b"\x10\x01"


def repeat_report(src: Path, dst: Path, times: int) -> int:
    """Append ``times - 1`` more copies of every result (header + payload) to the report."""
    data = src.read_bytes()
    blocks = _blocks(data)
    results = [
        blocks[i] + blocks[i + 1] for i in range(len(blocks) - 1) if _is_result_header(blocks[i])
    ]
    dst.write_bytes(data + b"".join(results) * (times - 1))
    return len(results) * times


def repeat_text(src: Path, dst: Path, times: int) -> None:
    text = src.read_bytes()
    with open(dst, "wb") as f:
        for _ in range(times):
            f.write(text)


def make_data() -> dict[str, Path]:
    OUT.mkdir(exist_ok=True)
    files = {
        "mlp_x12": OUT / "mlp_x12.ncu-rep",
        "cnn_x20": OUT / "cnn_x20.ncu-rep",
        "small_cnn_x12": OUT / "small_cnn_x12.ncu-rep",
        "sass_x20": OUT / "cnn_x20_source_sass.csv",
        "cuda_sass_x20": OUT / "cnn_x20_source_cuda_sass.csv",
    }
    import ncu_report

    for key, src, times in (
        ("mlp_x12", MLP / "mlp.ncu-rep", 12),
        ("cnn_x20", CNN / "cnn.ncu-rep", 20),
        ("small_cnn_x12", SMALL_CNN, 12),
    ):
        if not files[key].is_file():
            want = repeat_report(src, files[key], times)
            got = ncu_report.load_report(str(files[key])).range_by_idx(0).num_actions()
            if got != want:
                raise SystemExit(
                    f"synthetic {files[key].name}: ncu_report sees {got} launches, not {want}"
                )
    if not files["sass_x20"].is_file():
        repeat_text(CNN / "source_sass.csv", files["sass_x20"], 20)
    if not files["cuda_sass_x20"].is_file():
        repeat_text(CNN / "source_cuda_sass.csv", files["cuda_sass_x20"], 20)
    return files


# ---- one measurement per process --------------------------------------------------------------
def _measure(case: str, paths: list[str]) -> dict[str, float]:
    """Runs in a child process; the cache folder comes from KERNELSCOPE_CACHE_DIR."""
    t0 = time.perf_counter()
    from kernelscope.core.ncu import Profile

    imported = time.perf_counter()
    out: dict[str, float] = {"import s": imported - t0}
    if case == "csv":
        from kernelscope.core.ncu.csv_merge import import_csvs

        data = import_csvs(paths)
        out["parse s"] = time.perf_counter() - imported
        out["launches"] = len(data.launches)
        out["rows"] = sum(len(t) for t in data.tables.values())
        return out
    workspace = None
    if case == "build":  # the report, then the workspace that built it
        from kernelscope.core.workspace import Workspace

        workspace = Workspace.open(paths.pop())
    profile = Profile.open(paths if len(paths) > 1 else paths[0], workspace=workspace)
    kernels = profile.kernels()
    t1 = time.perf_counter()
    out["kernel list s"] = t1 - imported
    out["launches"] = len(profile.launches)
    # the costliest kernel's per-line data: its first launch, then all its launches combined
    # (numpy's import, which the first per-instruction table needs, counted in and apart)
    import numpy  # noqa: F401

    out["numpy import s"] = time.perf_counter() - t1
    biggest = max(kernels, key=lambda k: k.duration_ns or 0.0)
    first = biggest.first.id
    own = profile.source_files(biggest.name, launch=first)[0]
    profile.lines(biggest.name, own, launch=first)
    t2 = time.perf_counter()
    out["lines of one launch s"] = t2 - t1
    lines = profile.lines(biggest.name, own)
    t3 = time.perf_counter()
    out["lines of one kernel s"] = t3 - t1
    out["launches of that kernel"] = len(biggest.launches)
    out["line count"] = len(lines)
    # NVIDIA's reader loaded the report here (imported is not enough: where it is Nsight
    # Compute's own, a reader that may load it imports it first, before numpy)
    out["ncu_report loaded"] = profile._loader.reader._ctx is not None
    t2 = t3
    if case == "full":
        hot = profile.hot_lines(top=20)
        out["hot lines s"] = time.perf_counter() - t2
        out["open + hot lines s"] = time.perf_counter() - imported
        out["top line samples"] = hot[0].value
    return out


def child_env(cache: Path | str | None = None) -> dict[str, str]:
    """The environment of a timed process: with bytecode caches, as an installed kernelscope
    has them (with ``PYTHONDONTWRITEBYTECODE`` set, as in these sessions' shells, every
    process compiled kernelscope's modules anew: 0.2-0.3 s a process on the H200 host)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if cache is not None:
        env["KERNELSCOPE_CACHE_DIR"] = str(cache)
    return env


def compile_kernelscope() -> None:
    """Write the bytecode caches of kernelscope's core once (``child_env``)."""
    import kernelscope.core

    folder = Path(kernelscope.core.__file__).parent
    cmd = [sys.executable, "-m", "compileall", "-q", str(folder)]
    subprocess.run(cmd, env=child_env(), check=False, capture_output=True)


def baseline_tree(ref: str, into: Path, parts: tuple[str, ...] = ("core",)) -> Path:
    """A folder that, first on PYTHONPATH, makes ``kernelscope.core`` (and the other
    ``parts``: "viewer") that git revision's (``git archive``): the code measured against in
    the same run (``--baseline``)."""
    (into / "kernelscope").mkdir(parents=True)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", ref, *parts], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into / "kernelscope")], input=archive, check=True)
    return into


def run_child(
    case: str, paths: list[Path], cache: Path, pythonpath: Path | None = None
) -> dict[str, float]:
    env = child_env(cache)
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    cmd = [sys.executable, __file__, "--child", case, *map(str, paths)]
    t = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stderr}")
    result = json.loads(proc.stdout)
    result["process wall s"] = time.perf_counter() - t
    return result


def _whole(cmd: list[str], cache: Path | None = None) -> float:
    env = child_env(cache)
    t = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stderr}")
    return time.perf_counter() - t


def compare(report: Path, runs: int) -> list[tuple[str, str, float]]:
    """Issue 15's whole-process comparisons on one report, best of ``runs``."""
    ks = [sys.executable, "-m", "kernelscope.core.cli"]
    best: dict[str, float] = {}

    def keep(what: str, seconds: float) -> None:
        best[what] = min(best.get(what, seconds), seconds)

    for _ in range(runs):
        keep("plain list", _whole([sys.executable, "-c", PLAIN_LIST, str(report)]))
        with tempfile.TemporaryDirectory() as cache:
            keep("list cold", _whole([*ks, "kernels", str(report)], Path(cache)))
            keep("list warm", _whole([*ks, "kernels", str(report)], Path(cache)))
        keep("plain hot", _whole([sys.executable, "-c", PLAIN_HOT, str(report)]))
        with tempfile.TemporaryDirectory() as cache:
            keep("hot cold", _whole([*ks, "hot", str(report)], Path(cache)))
            keep("hot warm", _whole([*ks, "hot", str(report)], Path(cache)))
        with tempfile.TemporaryDirectory() as cache:
            env = child_env(cache)
            cmd = [sys.executable, "-c", OPEN, str(report)]
            proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
            opened = json.loads(proc.stdout.strip().splitlines()[-1])
            if opened.pop("ncu_report loaded"):
                raise SystemExit("opening as the window does loaded NVIDIA's reader")
            for key, value in opened.items():
                keep(f"open {key}", value)
    from kernelscope.core.ncu.rep.container import ReportFile

    with ReportFile(report) as decoded:
        name = f"{report.name} ({len(decoded)} launches), {report.stat().st_size / 1e6:.0f} MB"
    return [
        (name, "plain loop over ncu_report actions, whole process", best["plain list"]),
        (name, "kernelscope kernels, cold, whole process", best["list cold"]),
        (name, "  ratio to the plain loop (target <= 0.5)", best["list cold"] / best["plain list"]),
        (name, "kernelscope kernels, cached, whole process (<= 0.3)", best["list warm"]),
        (name, "plain per-PC loop (samples + source_info), whole process", best["plain hot"]),
        (name, "kernelscope hot (whole model), cold, whole process", best["hot cold"]),
        (
            name,
            "  ratio to the plain per-PC loop (target <= 0.5)",
            best["hot cold"] / best["plain hot"],
        ),
        (name, "kernelscope hot (whole model), cached, whole process", best["hot warm"]),
        (name, "open as the window does: kernel list (target < 1 s)", best["open list"]),
        (name, "open as the window does: hottest kernel's view", best["open kernel"]),
        (name, "open as the window does: all read by the child", best["open all"]),
        (name, "open as the window does: child peak MB (target < 400)", best["open child MB"]),
        (name, "open as the window does: opener's peak MB", best["open opener MB"]),
    ]


def build_lines(
    report: Path, runs: int, baseline: Path | None = None
) -> list[tuple[str, str, float]]:
    """A kernel's per-line data, cold, with the workspace that built the report and without
    (a report from elsewhere: the line tables come from the cubins it embeds either way,
    never from NVIDIA's reader), alternately; medians, and each against the kernel list of
    the same process (issue 33 item 7: <= 1.5). ``baseline``: another kernelscope's code
    (``baseline_tree``), measured the same way without the workspace, alternately."""
    import statistics

    hows = ("with", "without", "baseline") if baseline is not None else ("with", "without")
    times: dict[str, list[float]] = {how: [] for how in (*hows, "numpy", "list")}
    ratios: dict[str, list[float]] = {how: [] for how in hows}
    launches = 0.0
    for run in range(runs + 1):  # the first round writes the bytecode caches, uncounted
        for how in hows:
            with tempfile.TemporaryDirectory() as cache:
                case, paths = (
                    ("build", [report, SMALL_CNN_WS]) if how == "with" else ("lines", [report])
                )
                res = run_child(case, paths, Path(cache), baseline if how == "baseline" else None)
            if res["ncu_report loaded"] and how != "baseline":
                raise SystemExit(f"{how} the workspace: NVIDIA's reader was loaded")
            if run:
                times[how].append(res["lines of one kernel s"])
                ratios[how].append(res["lines of one kernel s"] / res["kernel list s"])
                if how != "baseline":
                    times["numpy"].append(res["numpy import s"])
                    times["list"].append(res["kernel list s"])
            launches = res["launches of that kernel"]
    name = f"{report.name} ({report.stat().st_size / 1e6:.0f} MB), medians of {runs}"
    what = f"per-line data of one kernel ({launches:.0f} launches), cold"
    return [
        (name, "kernel list, cold", statistics.median(times["list"])),
        (name, f"{what}, with its workspace (target <= 0.15)", statistics.median(times["with"])),
        (name, f"{what}, a report from elsewhere", statistics.median(times["without"])),
        (
            name,
            "  of each: numpy's import (the first table needs it)",
            statistics.median(times["numpy"]),
        ),
        (
            name,
            "  with its workspace / kernel list (target <= 1.5)",
            statistics.median(ratios["with"]),
        ),
        (
            name,
            "  from elsewhere / kernel list (target <= 1.5)",
            statistics.median(ratios["without"]),
        ),
        *(
            [
                (name, f"{what}, from elsewhere, --baseline", statistics.median(times[how])),
                (
                    name,
                    "  --baseline: from elsewhere / its kernel list",
                    statistics.median(ratios[how]),
                ),
            ]
            if (how := "baseline") in hows
            else []
        ),
        *hot_against_list(report, runs, baseline),
    ]


def hot_against_list(
    report: Path, runs: int, baseline: Path | None
) -> list[tuple[str, str, float]]:
    """Whole processes, cold (an empty cache each): ``kernelscope hot REPORT --kernel K``
    (the costliest kernel's hot lines, the report read without its workspace) against
    ``kernelscope kernels REPORT``; medians of ``runs``, alternately; with ``baseline``
    (another kernelscope's ``core``) the same for it."""
    import statistics

    from kernelscope.core.ncu import Profile

    kernel = max(Profile.open(report, use_cache=False).kernels(), key=lambda k: k.duration_ns or 0)
    ks = [sys.executable, "-m", "kernelscope.core.cli"]
    sides = {"this": None, "--baseline": baseline} if baseline is not None else {"this": None}
    times: dict[tuple[str, str], list[float]] = {}
    for _ in range(runs):
        for side, pythonpath in sides.items():
            for what, cmd in (
                ("kernels", [*ks, "kernels", str(report)]),
                ("hot", [*ks, "hot", str(report), "--kernel", kernel.name, "--top", "10"]),
            ):
                with tempfile.TemporaryDirectory() as cache:
                    env = child_env(cache)
                    if pythonpath is not None:
                        env["PYTHONPATH"] = str(pythonpath)
                    t = time.perf_counter()
                    subprocess.run(cmd, env=env, capture_output=True, check=True)
                    times.setdefault((side, what), []).append(time.perf_counter() - t)
    name = f"{report.name}, whole processes, cold, medians of {runs}"
    rows = []
    for side in sides:
        hot = statistics.median(times[(side, "hot")])
        listed = statistics.median(times[(side, "kernels")])
        rows += [
            (name, f"{side}: kernelscope kernels", listed),
            (name, f"{side}: kernelscope hot --kernel {kernel.name}", hot),
            (name, f"{side}:   hot / kernels (target <= 1.5)", hot / listed),
        ]
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true", help="skip the 20x report")
    parser.add_argument("--runs", type=int, default=3, help="runs of each comparison (best)")
    parser.add_argument("reports", nargs="*", type=Path, help="more .ncu-rep reports to compare")
    parser.add_argument(
        "--baseline", help="a git revision whose per-line figures are measured too (e.g. main)"
    )
    parser.add_argument(
        "--lines-only", action="store_true", help="only the per-line figures (--lines-of)"
    )
    parser.add_argument(
        "--lines-of", type=Path, help="the report of the per-line figures (default small_cnn_x12)"
    )
    args = parser.parse_args()
    if args.child:
        print(json.dumps(_measure(args.child[0], args.child[1:])))
        return
    files = make_data()
    compile_kernelscope()
    with tempfile.TemporaryDirectory() as tmp:
        base = baseline_tree(args.baseline, Path(tmp)) if args.baseline else None
        lines = build_lines(args.lines_of or files["small_cnn_x12"], args.runs, base)
    if args.lines_only:
        _print_rows(lines)
        return
    reports = {
        "cnn (fixture, 4 launches)": CNN / "cnn.ncu-rep",
        "mlp_x12 (60 launches)": files["mlp_x12"],
    }
    if not args.quick:
        reports["cnn_x20 (80 launches)"] = files["cnn_x20"]
    rows: list[tuple[str, str, float]] = []
    for report in [files["mlp_x12"], *args.reports]:
        rows += compare(report, args.runs)
    for label, report in reports.items():
        size = report.stat().st_size / 1e6
        with tempfile.TemporaryDirectory() as cache:
            cold = run_child("full", [report], Path(cache))
            warm = run_child("full", [report], Path(cache))
        name = f"{label}, {size:.0f} MB"
        n = cold["launches of that kernel"]
        rows += [
            (name, "kernel list, cold", cold["kernel list s"]),
            (name, "kernel list, cached", warm["kernel list s"]),
            (name, "per-line data of one launch, cold", cold["lines of one launch s"]),
            (
                name,
                f"per-line data of one kernel ({n} launches), cold (target < 0.15)",
                cold["lines of one kernel s"],
            ),
            (
                name,
                f"per-line data of one kernel ({n} launches), cached",
                warm["lines of one kernel s"],
            ),
            (name, "hot lines of the whole model, cold (open + hot)", cold["open + hot lines s"]),
            (name, "hot lines of the whole model, cached", warm["open + hot lines s"]),
            (name, "python + kernelscope import (not in the above)", cold["import s"]),
        ]
    rows += lines
    for key in ("sass_x20", "cuda_sass_x20"):
        path = files[key]
        with tempfile.TemporaryDirectory() as cache:
            res = run_child("csv", [path], Path(cache))
        rows.append(
            (
                f"{path.name}, {path.stat().st_size / 1e6:.0f} MB, {res['rows']:.0f} rows",
                "source CSV parsed",
                res["parse s"],
            )
        )
    _print_rows(rows)
    print("\ntargets (issue 3):", ", ".join(f"{k} < {v} s" for k, v in TARGETS.items()))


def _print_rows(rows: list[tuple[str, str, float]]) -> None:
    width = max(len(r[0]) for r in rows)
    wwhat = max(len(r[1]) for r in rows)
    print(f"{'data':<{width}}  {'what':<{wwhat}}  seconds ({os.cpu_count()} cores)")
    for data, what, secs in rows:
        print(f"{data:<{width}}  {what:<{wwhat}}  {secs:7.3f}")


if __name__ == "__main__":
    main()
