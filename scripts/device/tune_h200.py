"""On the H200, run by tune_h200.sh (which unpacks the stage and sets PYTHONPATH to the
runtime-only TVM and the staged kernelscope): issue 21's measurements.

usage: python3 tune_h200.py STAGE WORK RESULTS MODE...
       MODE: profile[:NAME] | rounds | e2e | nnfusion
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path.cwd()  # the checkout (benchmarks/resnet_onnx.py, scripts/device/nnfusion_gpu.py)
SECTIONS = ["SpeedOfLight", "LaunchStats", "Occupancy", "SourceCounters",
            "SpeedOfLight_RooflineChart"]  # fmt: skip


def say(res: Path, text: str) -> None:
    print(text, flush=True)
    with open(res / "summary.txt", "a") as f:
        f.write(text + "\n")


def model_onnx(stage: Path, work: Path, name: str) -> Path:
    """The workspace's model: staged (no initializers), or ResNet-50 made again (seeded)."""
    if (stage / name).is_file():
        return stage / name
    path = work / name
    if not path.is_file():
        sys.path.insert(0, str(ROOT / "benchmarks"))
        from resnet_onnx import make_resnet50

        make_resnet50(path)
    return path


def workspaces(stage: Path, work: Path) -> list[Path]:
    """Every staged workspace, with its params.npz made again from its model."""
    out = []
    for ws in sorted((work / "ws").glob("*.kscope")):
        manifest = json.loads((ws / "manifest.json").read_text())
        if not (ws / "params.npz").is_file():
            onnx = model_onnx(stage, work, manifest["model"])
            subprocess.run([sys.executable, str(stage / "params_from_onnx.py"), str(onnx),
                            str(ws / "params.npz")], check=True)  # fmt: skip
        out.append(ws)
    return out


def profile(stage: Path, work: Path, res: Path, only: str = "") -> None:
    from kernelscope.core.profiling import ProfileRequest, profile_workspace

    for ws in workspaces(stage, work):
        if only and only not in ws.name:
            continue
        start = time.perf_counter()
        req = ProfileRequest(workspace=ws, set=None, sections=SECTIONS, name=ws.stem)
        try:
            result = profile_workspace(req, lambda *_: None)
        except Exception as exc:  # one failure is a result; go on with the next
            say(res, f"profile {ws.name}: FAILED {type(exc).__name__}: {exc}")
            continue
        shutil.copy(result.report, res / f"{ws.stem}.ncu-rep")
        say(res, f"profile {ws.name}: {result.launches} launches, "
                 f"{time.perf_counter() - start:.1f} s")  # fmt: skip


def rounds(stage: Path, work: Path, res: Path) -> None:
    measure = work / "pkg" / "kernelscope" / "core" / "tuning" / "batch_measure.py"
    for folder in sorted((work / "rounds").iterdir()):
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, str(measure), str(folder)], capture_output=True,
                              text=True, check=False)  # fmt: skip
        (res / f"{folder.name}_stderr.txt").write_text(proc.stderr[-20000:])
        if (folder / "results.json").is_file():
            shutil.copy(folder / "results.json", res / f"{folder.name}_results.json")
        say(res, f"round {folder.name}: rc {proc.returncode}, {proc.stdout.strip()}, "
                 f"{time.perf_counter() - start:.1f} s")  # fmt: skip


def main(argv: list[str]) -> int:
    stage, work, res = Path(argv[0]), Path(argv[1]), Path(argv[2])
    for mode in argv[3:]:
        if mode == "profile":
            profile(stage, work, res)
        elif mode == "rounds":
            rounds(stage, work, res)
        elif mode in ("e2e", "nnfusion"):
            import tune_h200_final

            getattr(tune_h200_final, mode)(stage, work, res, say)
        elif mode.startswith("profile:"):
            profile(stage, work, res, mode.split(":", 1)[1])
        else:
            say(res, f"unknown mode {mode}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main(sys.argv[1:]))
