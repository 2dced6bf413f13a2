"""Build benchmark: ResNet-50-size ONNX, the stock TVM path against kernelscope's build.

    python benchmarks/bench_build.py [--out DIR]

stock        tvm.compile + export_library + one nvcc call on TVM's whole source with TVM's
             own flags (what TVM's nvcc mode runs), no line info
cold         kernelscope build with an empty cache: the same plus split files, -lineinfo,
             nvdisasm line table, resource usage, manifest
warm         kernelscope build of the unchanged model again
cold, child  kernelscope cold as the CLI and the window run it: TVM in a child process
             (``build_in_child``), which imports TVM again (this process already has it)
Also times the ways of compiling the split sources (one unit with and without
--split-compile) so the choice in core/toolchain/nvcc.py can be checked on another machine.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from resnet_onnx import make_resnet50


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, help="keep the files here (default: a temp folder)")
    args = parser.parse_args()
    root = args.out or Path(tempfile.mkdtemp(prefix="ks-bench-build-"))
    root.mkdir(parents=True, exist_ok=True)
    os.environ["KERNELSCOPE_CACHE_DIR"] = str(root / "cache")

    from kernelscope.core.build.model_loader import load_model
    from kernelscope.core.build.pipeline import (
        BuildRequest,
        _cuda_source,
        _tvm_compile,
        build_in_child,
        build_model,
    )
    from kernelscope.core.toolchain import find_tool, nvcc

    model = make_resnet50(root / "resnet50.onnx")
    nvcc_path = find_tool("nvcc").require()
    arch = "sm_90"

    t0 = time.perf_counter()
    loaded = load_model(model)
    executable, _ = _tvm_compile(loaded, arch)
    executable.export_library(str(root / "stock.so"))
    source = root / "stock.cu"
    source.write_text(_cuda_source(executable))
    t_tvm = time.perf_counter() - t0
    _, t_nvcc = nvcc.compile_unit(nvcc_path, source, root / "stock.cubin", nvcc.tvm_flags(arch))
    stock = time.perf_counter() - t0

    t0 = time.perf_counter()
    ws = build_model(BuildRequest(model=model, output=root / "resnet50.kscope", arch=arch))
    cold = time.perf_counter() - t0
    t0 = time.perf_counter()
    build_model(BuildRequest(model=model, output=root / "resnet50.kscope", arch=arch))
    warm = time.perf_counter() - t0
    t0 = time.perf_counter()
    build_in_child(
        BuildRequest(model=model, output=root / "child.kscope", arch=arch, use_cache=False)
    )
    child = time.perf_counter() - t0
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import tvm"], check=True)
    tvm_import = time.perf_counter() - t0

    unit = ws.path / "src" / "module.cu"
    variants = {
        "one unit, -lineinfo": [*nvcc.tvm_flags(arch), "-lineinfo"],
        "one unit, -lineinfo, --split-compile 0": nvcc.kernelscope_flags(arch),
    }
    timings = {}
    for label, flags in variants.items():
        _, timings[label] = nvcc.compile_unit(nvcc_path, unit, root / "variant.cubin", flags)

    kernels = len(ws.manifest.kernels)
    print(f"ResNet-50-size ONNX, {kernels} kernels, {os.cpu_count()} cores, nvcc {nvcc_path}")
    print(f"stock path           {stock:6.1f} s  (TVM {t_tvm:.1f} s + nvcc {t_nvcc:.1f} s)")
    print(f"kernelscope cold     {cold:6.1f} s  ratio {cold / stock:.2f} (target <= 1.0)")
    print(f"kernelscope warm     {warm:6.2f} s  ratio {warm / cold:.3f} of cold (target <= 0.1)")
    print(
        f"cold, child process  {child:6.1f} s  (+{child - cold:.1f} s; a new interpreter "
        f"importing TVM alone takes {tvm_import:.1f} s)"
    )
    print(
        "kernelscope steps    " + ", ".join(f"{k} {v:.1f}s" for k, v in ws.manifest.timings.items())
    )
    for label, seconds in timings.items():
        print(f"nvcc {label:36} {seconds:6.1f} s")


if __name__ == "__main__":
    main()
