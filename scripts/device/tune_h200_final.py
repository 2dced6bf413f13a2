"""tune_h200.py's end-to-end modes (on the GPU): ``e2e`` times every staged TVM workspace
(nnfusion_gpu.py's run-tvm: 20 warm-up runs, median of 100), ``nnfusion`` builds every staged
NNFusion project (constants made again from the model), times it the same way and times each
of its operators (nnfusion_optimes.py, a second, instrumented copy)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path.cwd()
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "scripts" / "device"))
import nnfusion_gpu  # noqa: E402  (the checkout's: run-tvm, run-nnfusion, build_project)


def _input(shape: list[int], work: Path, name: str) -> Path:
    x = np.random.default_rng(2024).standard_normal(shape).astype(np.float32)
    path = work / f"{name}.x.npy"
    np.save(path, x)
    return path


def _child(args: list[str], timeout: int = 300) -> tuple[bool, str]:
    proc = subprocess.run([sys.executable, *args], capture_output=True, text=True,
                          timeout=timeout, check=False)  # fmt: skip
    return proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]


def e2e(stage: Path, work: Path, res: Path, say) -> dict:  # noqa: ANN001
    from tune_h200 import workspaces

    report: dict = {}
    for ws in workspaces(stage, work):
        manifest = json.loads((ws / "manifest.json").read_text())
        x = _input(manifest["inputs"][0]["shape"], work, ws.stem)
        out = work / f"{ws.stem}.tvm.npz"
        ok, text = _child([nnfusion_gpu.__file__, "run-tvm", str(ws), str(x), str(out)])
        if ok:
            outs, timing = nnfusion_gpu._load(out)
            report[ws.stem] = {"ok": True, "timing": timing, "out_path": str(out)}
            say(res, f"e2e {ws.stem}: median {timing['median_ms']:.3f} ms")
        else:
            report[ws.stem] = {"ok": False, "error": text}
            say(res, f"e2e {ws.stem}: FAILED {text[-500:]}")
    for name, run in report.items():  # a tuned build computes what the default one does
        base = report.get(name.removesuffix("_tuned"))
        if name.endswith("_tuned") and run["ok"] and base and base["ok"]:
            run["vs_default"] = nnfusion_gpu._compare(
                nnfusion_gpu._first(Path(run["out_path"])),
                nnfusion_gpu._first(Path(base["out_path"])),
            )
            say(res, f"e2e {name} against {name.removesuffix('_tuned')}: {run['vs_default']}")
    (res / "e2e.json").write_text(json.dumps(report, indent=1))
    return report


def nnfusion(stage: Path, work: Path, res: Path, say) -> dict:  # noqa: ANN001
    import tune_h200

    sys.path.insert(0, str(HERE))
    import nnfusion_constants

    nv = nnfusion_gpu._nvidia_paths(work)
    libs = [nv["libdir"], *(str(Path(nv[k]).parent) for k in ("cudnn_so", "cublas_so") if k in nv)]
    os.environ["LD_LIBRARY_PATH"] = os.pathsep.join(
        [*libs, *filter(None, [os.environ.get("LD_LIBRARY_PATH")])]
    )
    projects = sorted(p for p in (work / "nnfusion").iterdir() if p.is_dir())
    onnx = tune_h200.model_onnx(stage, work, "resnet50.onnx")
    plain, timed = {}, {}
    for p in projects:
        plain[p.name] = work / "nnf" / p.name
        shutil.copytree(p, plain[p.name])
        nnfusion_constants.unpack(onnx, plain[p.name])
        timed[p.name] = work / "nnf" / f"{p.name}_timed"
        shutil.copytree(plain[p.name], timed[p.name])
        subprocess.run([sys.executable, str(HERE / "nnfusion_optimes.py"), "instrument",
                        str(timed[p.name])], check=True)  # fmt: skip
    import concurrent.futures

    todo = [*plain.values(), *timed.values()]
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(todo)) as pool:
        builds = dict(zip(todo, pool.map(lambda d: nnfusion_gpu.build_project(d, nv), todo),
                          strict=True))  # fmt: skip
    x = _input([1, 3, 224, 224], work, "resnet50_nnf")
    report: dict = {}
    for name in plain:
        entry: dict = {}
        b = builds[plain[name]]
        if b["ok"]:
            out = work / f"{name}.npz"
            ok, text = _child([nnfusion_gpu.__file__, "run-nnfusion", str(plain[name]), b["lib"],
                               str(x), str(out)])  # fmt: skip
            if ok:
                outs, timing = nnfusion_gpu._load(out)
                entry.update(ok=True, timing=timing, build=b["how"], out_path=str(out))
                say(res, f"nnfusion {name}: median {timing['median_ms']:.3f} ms")
            else:
                entry.update(ok=False, error=text)
                say(res, f"nnfusion {name}: run FAILED {text[-800:]}")
        else:
            entry.update(ok=False, error=b["log"][-3000:])
            say(res, f"nnfusion {name}: build FAILED {b['log'][-1500:]}")
        bt = builds[timed[name]]
        if bt["ok"]:
            ok, text = _child([str(HERE / "nnfusion_optimes.py"), "run", str(timed[name]),
                               bt["lib"], str(x), str(res / f"{name}_optimes.json")])  # fmt: skip
            say(res, f"optimes {name}: {'ok' if ok else 'FAILED'} {text[-800:]}")
        else:
            say(res, f"optimes {name}: build FAILED {bt['log'][-1500:]}")
        tvm = work / "resnet50.tvm.npz"
        if entry.get("ok") and tvm.is_file():  # against TVM's build of the same model
            entry["vs_tvm"] = nnfusion_gpu._compare(
                nnfusion_gpu._first(Path(entry["out_path"])), nnfusion_gpu._first(tvm)
            )
            say(res, f"nnfusion {name} against TVM's resnet50: {entry['vs_tvm']}")
        report[name] = entry
    (res / "nnfusion.json").write_text(json.dumps(report, indent=1))
    return report
