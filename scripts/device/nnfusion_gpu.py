"""On the GPU machine: NNFusion's generated CUDA projects (with kernelscope's kernel DB and
without it) and the TVM builds of the same models, run on the same input with the same
weights, compared with onnxruntime's outputs and timed.

usage: python3 scripts/device/nnfusion_gpu.py STAGE_DIR OUT_DIR      (nnfusion_gpu.sh runs it)
       python3 scripts/device/nnfusion_gpu.py run-nnfusion PROJECT LIB X.npy RESULT.npz
       python3 scripts/device/nnfusion_gpu.py run-tvm WORKSPACE X.npy RESULT.npz

STAGE_DIR is what scripts/device/nnfusion_stage.sh wrote on the build machine: models.json,
the packed projects (sources without Constant/, see nnfusion_constants.py), the small models'
ONNX files and ws.tgz (the TVM workspaces without their weights). ResNet-50's ONNX is made
again here by benchmarks/resnet_onnx.py (seeded); every weight and every rebuilt constant is
checked against the digests taken on the build machine. Each model runs in its own process,
so a crash in one generated project is a recorded failure, not the end of the run.
Needs: python3 with numpy, onnx, onnxruntime and torch (for device memory and its cuDNN and
cuBLAS wheels), nvcc, optionally cmake; TVM's runtime through scripts/device/env.sh.
"""

from __future__ import annotations

import concurrent.futures
import ctypes
import glob
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
WARMUP, ITERATIONS = 20, 100
ARCH = os.environ.get("KS_CUDA_ARCH", "90")


# --- timing ---------------------------------------------------------------------------


def _timed(call, sync) -> dict:  # noqa: ANN001
    for _ in range(WARMUP):
        call()
    sync()
    times = []
    for _ in range(ITERATIONS):
        start = time.perf_counter()
        call()
        sync()
        times.append((time.perf_counter() - start) * 1000)
    return {
        "median_ms": float(np.median(times)),
        "mean_ms": float(np.mean(times)),
        "min_ms": float(np.min(times)),
        "iterations": ITERATIONS,
        "warmup": WARMUP,
    }


# --- one NNFusion project, in its own process ------------------------------------------


class _DevicePointer:
    """A raw CUDA pointer torch can read (``__cuda_array_interface__``)."""

    def __init__(self, ptr: int, shape: list[int]) -> None:
        self.__cuda_array_interface__ = {
            "shape": tuple(shape), "typestr": "<f4", "data": (ptr, False), "version": 2,
        }  # fmt: skip


def run_nnfusion(project: Path, lib_path: Path, x_path: Path, result: Path) -> None:
    import torch

    info = json.loads((project / "para_info.json").read_text())

    def order(group: dict) -> list[dict]:
        def index(v: dict) -> int:
            return int(v["id"].split("[")[1].split("]")[0])

        return sorted(group.values(), key=index)

    inputs, outputs = order(info["input"]), order(info["output"])
    lib = ctypes.CDLL(str(lib_path))
    lib.kernel_entry.restype = ctypes.c_int
    lib.kernel_entry.argtypes = [ctypes.c_void_p] * len(inputs) + [
        ctypes.POINTER(ctypes.c_void_p)
    ] * len(outputs)
    here = os.getcwd()
    os.chdir(project)  # cuda_init reads ./Constant/*.bin
    try:
        torch.cuda.init()
        lib.cuda_init()
    finally:
        os.chdir(here)
    x = torch.from_numpy(np.load(x_path)).cuda()
    outs = [ctypes.c_void_p() for _ in outputs]

    def call() -> None:
        lib.kernel_entry(ctypes.c_void_p(x.data_ptr()), *[ctypes.byref(o) for o in outs])

    call()
    torch.cuda.synchronize()
    values = [
        torch.as_tensor(_DevicePointer(o.value, out["shape"]), device="cuda").cpu().numpy()
        for o, out in zip(outs, outputs, strict=True)
    ]
    timing = _timed(call, torch.cuda.synchronize)
    np.savez(result, *values, timing=json.dumps(timing))
    lib.cuda_free()


# --- the TVM build, in its own process --------------------------------------------------


def run_tvm(workspace: Path, x_path: Path, result: Path) -> None:
    from kernelscope.core.profiling.runner import model as runner
    from kernelscope.core.profiling.runner.tvm_runtime import import_tvm

    manifest = json.loads((workspace / "manifest.json").read_text())
    inputs = workspace / "inputs.npz"
    np.savez(inputs, **{manifest["inputs"][0]["name"]: np.load(x_path)})
    arrays = runner._arrays(manifest, workspace, inputs, 0)
    tvm, tvm_ffi = import_tvm()
    runner.install_cubin(tvm_ffi, workspace, manifest["files"])
    device = tvm.cuda(0)
    lib = tvm.runtime.load_module(str(workspace / manifest["files"]["library"]))
    vm = tvm.runtime.vm.VirtualMachine(lib, device)
    func = vm[manifest["entry"]]
    args = [tvm.runtime.tensor(a, device) for a in arrays]
    out = func(*args)
    device.sync()
    outs = list(out) if not hasattr(out, "numpy") else [out]
    values = [o.numpy() for o in outs]
    timing = _timed(lambda: func(*args), device.sync)
    np.savez(result, *values, timing=json.dumps(timing))


# --- building a generated project -------------------------------------------------------


def _nvidia_paths(work: Path) -> dict[str, str]:
    """cuDNN's and cuBLAS's headers and libraries from PyTorch's nvidia wheels (and the
    toolkit), with unversioned names for the linker."""
    import torch

    site = Path(torch.__file__).resolve().parent.parent
    cuda_home = Path(shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc").resolve().parent.parent
    roots = [str(site / "nvidia"), str(cuda_home)]
    found: dict[str, str] = {}
    for key, pattern in {
        "cudnn_h": "**/cudnn.h", "cublas_h": "**/cublas_v2.h",
        "cudnn_so": "**/libcudnn.so*", "cublas_so": "**/libcublas.so*",
        "cublaslt_so": "**/libcublasLt.so*",
    }.items():  # fmt: skip
        for root in roots:
            hits = sorted(glob.glob(f"{root}/{pattern}", recursive=True), key=len)
            if hits:
                found[key] = hits[0]
                break
    links = work / "nvlibs"
    links.mkdir(parents=True, exist_ok=True)
    for key, name in (("cudnn_so", "libcudnn.so"), ("cublas_so", "libcublas.so"),
                      ("cublaslt_so", "libcublasLt.so")):  # fmt: skip
        if key in found and not (links / name).exists():
            (links / name).symlink_to(found[key])
    found["libdir"] = str(links)
    return found


def _sh(cmd: list[str], cwd: Path, log: list[str]) -> bool:
    log.append("$ " + " ".join(cmd))
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    log.append((proc.stdout + proc.stderr)[-4000:])
    return proc.returncode == 0


def build_project(project: Path, nv: dict[str, str]) -> dict:
    """Its own CMakeLists (CUDA_ARCH for sm_90, cuDNN from the wheels); nvcc directly if
    CMake cannot (FindCUDA is deprecated in new CMake)."""
    start = time.perf_counter()
    log: list[str] = []
    gencode = f"-gencode arch=compute_{ARCH},code=sm_{ARCH}"
    incs = sorted({str(Path(nv[k]).parent) for k in ("cudnn_h", "cublas_h") if k in nv})
    build = project / "build"
    lib = build / "libnnfusion_naive_rt.so"
    how = "cmake"
    ok = bool(shutil.which("cmake")) and _sh(
        ["cmake", "-S", ".", "-B", "build", f"-DCUDA_ARCH={gencode}",
         "-DCMAKE_BUILD_TYPE=Release",
         f"-DCUDNN_INCLUDE_DIR={Path(nv.get('cudnn_h', '/nonexistent')).parent}",
         f"-DCUDNN_LIBRARY={nv['libdir']}/libcudnn.so",
         f"-DCMAKE_CUDA_FLAGS={' '.join('-I' + i for i in incs)}",
         f"-DCUDA_NVCC_FLAGS={' '.join('-I' + i for i in incs)}"],
        project, log,
    ) and _sh(["cmake", "--build", "build", "-j", "8"], project, log)  # fmt: skip
    if not ok or not lib.is_file():
        how = "nvcc"
        build.mkdir(exist_ok=True)
        ok = _sh(
            ["nvcc", "-O2", "-shared", "-Xcompiler", "-fPIC", "-cudart", "shared",
             "--expt-relaxed-constexpr", *gencode.split(), *[f"-I{i}" for i in incs],
             "nnfusion_rt.cu", "-o", str(lib), f"-L{nv['libdir']}", "-lcudnn", "-lcublas"],
            project, log,
        )  # fmt: skip
    return {
        "ok": ok and lib.is_file(),
        "how": how,
        "main_test": (build / "main_test").is_file(),
        "seconds": round(time.perf_counter() - start, 1),
        "lib": str(lib),
        "log": "\n".join(log)[-6000:],
    }


# --- the whole run ----------------------------------------------------------------------


def _compare(out: np.ndarray, ref: np.ndarray) -> dict:
    out, ref = np.asarray(out, dtype=np.float64).reshape(-1), ref.astype(np.float64).reshape(-1)
    if out.shape != ref.shape:
        return {"ok": False, "why": f"shape {out.shape} vs {ref.shape}"}
    scale = float(np.max(np.abs(ref))) or 1.0
    err = float(np.max(np.abs(out - ref)))
    return {
        "ok": bool(np.isfinite(out).all() and err <= 1e-3 * scale + 1e-5),
        "max_abs_err": err,
        "max_rel_err": err / scale,
        "ref_max_abs": scale,
    }


def _child(args: list[str], timeout: int = 300) -> tuple[bool, str]:
    proc = subprocess.run(
        [sys.executable, __file__, *args], capture_output=True, text=True, timeout=timeout,
        check=False,
    )  # fmt: skip
    return proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]


def _load(result: Path) -> tuple[list[np.ndarray], dict]:
    with np.load(result) as data:
        outs = [data[k] for k in data.files if k.startswith("arr_")]
        return outs, json.loads(str(data["timing"]))


def _model_onnx(entry: dict, stage: Path, work: Path) -> Path:
    if entry.get("make") == "resnet50":
        sys.path.insert(0, str(ROOT / "benchmarks"))
        from resnet_onnx import make_resnet50

        path = work / "resnet50.onnx"
        if not path.is_file():
            make_resnet50(path)
        return path
    return stage / entry["onnx"]


def _params(entry: dict, onnx_path: Path, workspace: Path) -> None:
    """The TVM workspace's params.npz from the model's initializers (checked by digest)."""
    import hashlib

    import onnx
    from onnx import numpy_helper

    inits = {
        i.name: numpy_helper.to_array(i)
        for i in onnx.load(str(onnx_path), load_external_data=True).graph.initializer
    }
    manifest = json.loads((workspace / "manifest.json").read_text())
    values = {}
    for w in manifest["weights"]:
        value = inits[w["name"]].astype(w["dtype"])
        digest = hashlib.sha256(value.tobytes()).hexdigest()
        if digest != entry["params"].get(w["name"]):
            raise SystemExit(f"{w['name']}: the weights made here differ from the build's")
        values[w["name"]] = value
    np.savez(workspace / "params.npz", **values)


def orchestrate(stage: Path, out: Path) -> int:
    import onnxruntime as ort

    sys.path.insert(0, str(HERE))
    import nnfusion_constants

    work = Path(os.environ.get("KS_WORK", "/tmp/ks-device")) / "nnfusion"
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    out.mkdir(parents=True, exist_ok=True)
    models = json.loads((stage / "models.json").read_text())
    with tarfile.open(stage / "ws.tgz") as tar:
        tar.extractall(work / "ws", filter="data")
    report: dict = {"environment": _environment(), "models": {}}
    nv = _nvidia_paths(work)
    report["environment"]["nvidia_paths"] = nv
    lib_dirs = [
        nv["libdir"],
        *(str(Path(nv[k]).parent) for k in ("cudnn_so", "cublas_so") if k in nv),
    ]
    os.environ["LD_LIBRARY_PATH"] = os.pathsep.join(
        [*lib_dirs, *filter(None, [os.environ.get("LD_LIBRARY_PATH")])]
    )
    projects = {}
    for entry in models:
        onnx_path = _model_onnx(entry, stage, work)
        for kind, folder in entry["projects"].items():
            target = work / folder
            shutil.copytree(stage / folder, target)
            nnfusion_constants.unpack(onnx_path, target)
            projects[(entry["name"], kind)] = target
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(projects)) as pool:
        builds = dict(
            zip(projects, pool.map(lambda p: build_project(p, nv), projects.values()), strict=True)
        )
    for entry in models:
        name = entry["name"]
        onnx_path = _model_onnx(entry, stage, work)
        rng = np.random.default_rng(2024)
        x = rng.standard_normal(entry["input"]["shape"]).astype(np.float32)
        x_path = work / f"{name}.x.npy"
        np.save(x_path, x)
        sess = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
        ref = sess.run(None, {entry["input"]["name"]: x})[0]
        result: dict = {"input_shape": list(x.shape), "runs": {}}
        ws = work / "ws" / entry["workspace"]
        try:
            _params(entry, onnx_path, ws)
            ok, text = _child(["run-tvm", str(ws), str(x_path), str(work / f"{name}.tvm.npz")])
        except SystemExit as exc:
            ok, text = False, str(exc)
        result["runs"]["tvm"] = _run_result(ok, text, work / f"{name}.tvm.npz", ref)
        for kind in entry["projects"]:
            build = builds[(name, kind)]
            res_path = work / f"{name}.{kind}.npz"
            if build["ok"]:
                ok, text = _child(["run-nnfusion", str(projects[(name, kind)]), build["lib"],
                                   str(x_path), str(res_path)])  # fmt: skip
            else:
                ok, text = False, "build failed"
            run = _run_result(ok, text, res_path, ref)
            run["build"] = {k: v for k, v in build.items() if k != "log" or not build["ok"]}
            result["runs"][kind] = run
        tvm_out = _first(work / f"{name}.tvm.npz")
        db_out = _first(work / f"{name}.nnfusion_db.npz")
        if tvm_out is not None and db_out is not None:
            result["nnfusion_db_vs_tvm"] = _compare(db_out, tvm_out)
        report["models"][name] = result
    (out / "nnfusion_gpu.json").write_text(json.dumps(report, indent=1))
    print(_table(report))
    return 0


def _first(path: Path) -> np.ndarray | None:
    if not path.is_file():
        return None
    return _load(path)[0][0]


def _run_result(ok: bool, text: str, path: Path, ref: np.ndarray) -> dict:
    if not ok or not path.is_file():
        return {"ok": False, "error": text}
    outs, timing = _load(path)
    return {"ok": True, "vs_onnxruntime": _compare(outs[0], ref), "timing": timing}


def _environment() -> dict:
    def out(cmd: list[str]) -> str:
        try:
            return subprocess.run(cmd, capture_output=True, text=True, check=False).stdout.strip()
        except OSError as exc:
            return str(exc)

    return {
        "gpu": out(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"]),
        "nvcc": out(["nvcc", "--version"]).splitlines()[-1:],
        "cmake": out(["cmake", "--version"]).splitlines()[:1],
    }


def _table(report: dict) -> str:
    lines = ["| model | run | built | output vs onnxruntime (max rel err) | median ms |",
             "|---|---|---|---|---|"]  # fmt: skip
    for name, result in report["models"].items():
        for kind, run in result["runs"].items():
            cmp = run.get("vs_onnxruntime", {})
            built = run.get("build", {}).get("how", "-") if kind != "tvm" else "kernelscope"
            verdict = (f"{'ok' if cmp.get('ok') else 'WRONG'} ({cmp.get('max_rel_err', 0):.1e})"
                       if run["ok"] else "FAILED")  # fmt: skip
            ms = f"{run['timing']['median_ms']:.3f}" if run["ok"] else "-"
            lines.append(f"| {name} | {kind} | {built} | {verdict} | {ms} |")
        if "nnfusion_db_vs_tvm" in result:
            c = result["nnfusion_db_vs_tvm"]
            err = c.get("max_rel_err", float("nan"))
            lines.append(f"| {name} | nnfusion_db vs tvm | | max rel err {err:.1e} | |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if argv[:1] == ["run-nnfusion"] and len(argv) == 5:
        run_nnfusion(Path(argv[1]), Path(argv[2]), Path(argv[3]), Path(argv[4]))
        return 0
    if argv[:1] == ["run-tvm"] and len(argv) == 4:
        run_tvm(Path(argv[1]), Path(argv[2]), Path(argv[3]))
        return 0
    if len(argv) == 2:
        return orchestrate(Path(argv[0]), Path(argv[1]))
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
