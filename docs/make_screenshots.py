"""Regenerate the user guide's screenshots (docs/images/*.png) with ``kernelscope --screenshot``.

    python docs/make_screenshots.py            # every shot
    python docs/make_screenshots.py kernel     # only the named ones
    python docs/make_screenshots.py --list     # what there is

The shots need the demo workspace (SqueezeNet 1.1 built by TVM, with the H200 profile of that
build attached); it is built once into kernelscope's cache folder, and a rebuild of the
unchanged model is a cache hit. Screenshots render offscreen at a fixed size with the default
layout, so they do not depend on the machine's display or settings.

To add a shot for a new pane, add a ``Shot`` to ``SHOTS``: a name (the PNG's), what it shows
(the guide's alt text), what to open, and the extra ``kernelscope --screenshot`` arguments
that put the window in the state to show.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from kernelscope.core.environment import demo
from kernelscope.core.paths import cache_root

DOCS = Path(__file__).resolve().parent
IMAGES = DOCS / "images"
ROOT = DOCS.parent

DEMO_KERNEL = "fused_conv2d17_add9_relu9_kernel"  # holds the demo's hottest line (H200)


@dataclass(frozen=True)
class Shot:
    name: str  # docs/images/NAME.png
    shows: str  # what the picture shows (alt text in the guide)
    opens: str  # "" (nothing), "demo" (the demo workspace), "demo-report" (its .ncu-rep
    # alone), or a path relative to the repository
    args: tuple[str, ...] = ()  # more arguments of kernelscope --screenshot


SHOTS = (
    Shot("window", "kernelscope's window before anything is open", ""),
    Shot(
        "kernel",
        "the demo's hottest kernel: its CUDA source beside its SASS, with the H200's "
        "per-line metrics and the hot-lines panel",
        "demo",
        ("--kernel", DEMO_KERNEL, "--line", "52"),
    ),
    Shot(
        "kernel-dark",
        "the same kernel with the dark palette",
        "demo",
        ("--kernel", DEMO_KERNEL, "--line", "52", "--palette", "dark"),
    ),
    Shot(
        "report",
        "an Nsight Compute report opened on its own: the sources it embeds beside the SASS",
        "demo-report",
    ),
    Shot(  # the demo's report has no roofline counters; the test mlp's (--set full) has
        "roofline",
        "the Roofline pane: each kernel of a small MLP at DRAM, L2 and L1 under the H200's "
        "ceilings, sized by its share of the time",
        "tests/data/ncu/mlp/mlp.ncu-rep",
        ("--kernel", "fused_matmul1_add1", "--pane", "roofline"),
    ),
    Shot(
        "compare",
        "compare mode: a batch-2 build against its batch-8 baseline, kernel by kernel, the "
        "two sources of a kernel side by side and the lines that regressed most",
        "tests/data/compare/cnn3_b2.ncu-rep",
        (
            "--baseline",
            "tests/data/compare/cnn3_b8_run1.ncu-rep",
            "--kernel",
            "matmul",
            "--line",
            "23",
            "--ranking",
            "regressions",
        ),
    ),
)


def _kernelscope(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "kernelscope.core.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen", **(env or {})},
    )


def _check(proc: subprocess.CompletedProcess, what: str) -> None:
    if proc.returncode != 0:
        raise SystemExit(f"{what} failed:\n{proc.stderr}")


def demo_workspace() -> Path:
    """The demo built into the cache, with its H200 report attached (built once)."""
    files = demo()
    ws = cache_root() / "docs" / "squeezenet1_1.kscope"
    _check(_kernelscope("build", str(files.model), "-o", str(ws)), "building the demo")
    if not (ws / "profiles" / files.report.name).exists():
        _check(_kernelscope("import", str(files.report), "-w", str(ws)), "importing its report")
    return ws


def take(shot: Shot, ws: Path | None, scratch: Path) -> Path:
    out = IMAGES / f"{shot.name}.png"
    cwd, env = ROOT, None
    target: list[str] = []
    if shot.opens == "demo":
        assert ws is not None
        cwd, target = ws.parent, [ws.name]  # relative, so no machine's path shows
    elif shot.opens == "demo-report":
        # alone, as someone who has only the report sees it: sources from the report, not
        # from this machine's build cache
        report = shutil.copy(demo().report, scratch)
        cwd, target, env = scratch, [Path(report).name], {"KERNELSCOPE_CACHE_DIR": str(scratch)}
    elif shot.opens:
        target = [shot.opens]
    proc = _kernelscope("--screenshot", str(out), *target, *shot.args, cwd=cwd, env=env)
    _check(proc, shot.name)
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="shots to take (default: all)")
    parser.add_argument("--list", action="store_true", help="list the shots")
    args = parser.parse_args(argv)
    if args.list:
        for shot in SHOTS:
            print(f"{shot.name:12} {shot.shows}")
        return 0
    unknown = set(args.names) - {s.name for s in SHOTS}
    if unknown:
        parser.error(f"no shot called {', '.join(sorted(unknown))} (see --list)")
    shots = [s for s in SHOTS if not args.names or s.name in args.names]
    IMAGES.mkdir(exist_ok=True)
    ws = demo_workspace() if any(s.opens.startswith("demo") for s in shots) else None
    for shot in shots:
        with tempfile.TemporaryDirectory(prefix="kernelscope-shot.") as scratch:
            print(take(shot, ws, Path(scratch)).relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
