"""Regenerate the user guide's screenshots (docs/images/*.png) with ``kernelscope --screenshot``.

    python docs/make_screenshots.py            # every shot
    python docs/make_screenshots.py kernel     # only the named ones
    python docs/make_screenshots.py --list     # what there is

The shots need the demo workspace (SqueezeNet 1.1 built by TVM, with the H200 profile of that
build attached); it is built once into kernelscope's cache folder (as the welcome page's "Open
the demo" builds it), and a rebuild of the unchanged model is a cache hit. Screenshots render
offscreen at a fixed size with the default layout, so they do not depend on the machine's
display or settings; the welcome page and Help > About show what this machine has installed.

To add a shot for a new pane, add a ``Shot`` to ``SHOTS``: a name (the PNG's), what it shows
(the guide's alt text), what to open, the extra ``kernelscope --screenshot`` arguments that put
the window in the state to show (``--dialog about`` renders that dialog alone), and the
environment it needs (``QT_SCALE_FACTOR=2`` for a high-DPI check).
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

from kernelscope.core.environment import Demo, demo, prepare_demo, unpack_report
from kernelscope.core.paths import cache_root

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from paths_support import data_path  # noqa: E402

DOCS = Path(__file__).resolve().parent
IMAGES = DOCS / "images"
ROOT = DOCS.parent

DEMO_KERNEL = "fused_conv2d17_add9_relu9_kernel"  # holds the demo's hottest line (H200)


@dataclass(frozen=True)
class Shot:
    name: str  # docs/images/NAME.png
    shows: str  # what the picture shows (alt text in the guide)
    opens: str  # "" (nothing), "demo" (the demo workspace), "demo-report" (its .ncu-rep
    # alone), "inductor-run" (tests/data/inductor's torch.compile run folder with its report),
    # or a path relative to the repository
    args: tuple[str, ...] = ()  # more arguments of kernelscope --screenshot
    env: tuple[tuple[str, str], ...] = ()  # environment variables it runs with
    height: int = 0  # cut the picture to this many pixels from the top (a tall pane)


SHOTS = (
    Shot(
        "welcome",
        "the welcome page the window opens on: the demo, a model or a report to open, and "
        "what is installed, with what to do about what is missing",
        "",
    ),
    Shot("welcome-dark", "the welcome page with the dark palette", "", ("--palette", "dark")),
    Shot(
        "welcome-2x",
        "the welcome page at twice the scale (QT_SCALE_FACTOR=2), as on a high-DPI screen",
        "",
        env=(("QT_SCALE_FACTOR", "2"),),
    ),
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
    Shot(  # the test mlp's report is --set full: every section of the Details page
        "details",
        "the Details pane of one kernel: speed of light, occupancy, memory workload, warp "
        "stall reasons and NVIDIA's rules with their estimated speedups",
        "tests/data/ncu/mlp/mlp.ncu-rep",
        ("--kernel", "fused_matmul1_add1", "--pane", "details"),
        height=1300,
    ),
    Shot(
        "headroom",
        "the Headroom pane: the microseconds each of the demo's kernels could save, by TVM "
        "operator, with what holds it back",
        "demo",
        ("--pane", "headroom"),
    ),
    Shot(  # a small model, so that each kernel reads apart on the plot
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
    Shot(
        "inductor",
        "a torch.compile run folder: a Triton kernel's generated file with the H200's per-line "
        "samples beside the SASS of its cubin, and the cuBLAS launches in the kernel list",
        "inductor-run",
        ("--kernel", "gelu_view_7", "--line", "32"),
    ),
    Shot(
        "about",
        "Help > About: the versions of kernelscope and of what it runs on",
        "",
        ("--dialog", "about"),
    ),
    Shot(
        "about-dark",
        "Help > About with the dark palette",
        "",
        ("--dialog", "about", "--palette", "dark"),
    ),
    Shot(
        "user-guide",
        "Help > User Guide (F1): this guide, inside the app",
        "",
        ("--dialog", "user-guide"),
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
    return prepare_demo(
        Demo(
            files.model,
            cache_root() / "docs" / files.report.name,
            cache_root() / "docs" / "squeezenet1_1.kscope",
            files.packed,
        )
    )


def take(shot: Shot, ws: Path | None, scratch: Path) -> Path:
    out = IMAGES / f"{shot.name}.png"
    cwd, env = ROOT, dict(shot.env)
    target: list[str] = []
    if shot.opens == "demo":
        assert ws is not None
        cwd, target = ws.parent, [ws.name]  # relative, so no machine's path shows
    elif shot.opens == "demo-report":
        # alone, as someone who has only the report sees it: sources from the report, not
        # from this machine's build cache
        report = shutil.copy(unpack_report(demo()), scratch)
        cwd, target = scratch, [Path(report).name]
        env["KERNELSCOPE_CACHE_DIR"] = str(scratch)
    elif shot.opens == "inductor-run":
        run = shutil.copytree(ROOT / "tests/data/inductor/transformer", scratch / "transformer")
        shutil.copyfile(data_path("inductor/transformer_profile.ncu-rep"), run / "profile.ncu-rep")
        cwd, target = scratch, [run.name]
    elif shot.opens:
        # the reports of tests/data are stored compressed: their folders unpacked under the
        # same relative paths (workspaces beside them), so the window shows the same names
        for name in (shot.opens, *shot.args):
            folder = Path(name).parent
            if name.startswith("tests/data/") and not (scratch / folder).is_dir():
                shutil.copytree(data_path(str(folder.relative_to("tests/data"))), scratch / folder)
                cwd = scratch
        target = [shot.opens]
    proc = _kernelscope("--screenshot", str(out), *target, *shot.args, cwd=cwd, env=env)
    _check(proc, shot.name)
    if shot.height:
        from PIL import Image

        with Image.open(out) as image:
            cut = image.crop((0, 0, image.width, min(shot.height, image.height)))
        cut.save(out)
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
