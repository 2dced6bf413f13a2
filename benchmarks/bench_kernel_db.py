"""Kernel DB benchmark: export 1,000 kernels (< 2 s), query a 100,000-row DB (< 50 ms).

    python benchmarks/bench_kernel_db.py [--rows 100000] [--kernels 1000]

The export runs the real path (workspace -> identifiers, Function JSON, sync counts -> one
transaction) over a synthetic workspace of TVM-shaped kernels: half element-wise Relu
kernels NNFusion can use, half copies of a real TVM softmax kernel (115 lines) that are
stored flagged. The query part fills a DB with ``rows`` entries and times each query kind.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

from kernelscope.core.kernel_db import DbEntry, KernelDB, export_workspace
from kernelscope.core.workspace import KernelInfo, Manifest, OpInfo, TensorInfo

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "ws_mlp" / "src"

RELU = """#include "../tvm_prelude.cuh"
extern "C" __global__ void __launch_bounds__(1024) {name}(float* __restrict__ T_relu_ptr, float* __restrict__ x_ptr) {{
  if (((((int)blockIdx.x) * 1024) + ((int)threadIdx.x)) < {n}) {{
    T_relu_ptr[((((int)blockIdx.x) * 1024) + ((int)threadIdx.x))] = max(x_ptr[((((int)blockIdx.x) * 1024) + ((int)threadIdx.x))], 0x0p+0f/*0.000000e+00*/);
  }}
}}
"""  # noqa: E501


def synthetic_workspace(root: Path, count: int) -> Path:
    kernels_dir = root / "src" / "kernels"
    kernels_dir.mkdir(parents=True)
    (root / "src" / "tvm_prelude.cuh").write_text((DATA / "tvm_prelude.cuh").read_text())
    softmax = (DATA / "kernels" / "softmax_kernel.cu").read_text()
    kernels = []
    for i in range(count):
        if i % 2:
            name, n = f"relu{i}_kernel", 1024 * (i + 1)
            text = RELU.format(name=name, n=n)
            t = TensorInfo(shape=[n], dtype="float32")
            ops = [OpInfo("relax.nn.relu", "relu", [t], t)]
            params = [TensorInfo([n], "float32", "T_relu"), TensorInfo([n], "float32", "x")]
            grid, block = [i + 1, 1, 1], [1024, 1, 1]
        else:
            name = f"softmax{i}_kernel"
            text = softmax.replace("softmax_kernel", name)
            t = TensorInfo(shape=[32, 1000], dtype="float32")
            ops = [OpInfo("relax.nn.softmax", "softmax", [t], t, {"axis": -1})]
            params = [TensorInfo([32, 1000], "float32", "T_softmax_norm"), t]
            grid, block = [32, 1, 1], [256, 1, 1]
        (kernels_dir / f"{name}.cu").write_text(text)
        kernels.append(
            KernelInfo(name, f"src/kernels/{name}.cu", name, grid, block, 0, params, ops)
        )
    manifest = Manifest(
        model="synthetic.onnx",
        model_sha256="0" * 64,
        model_format="onnx",
        entry="main",
        target={"kind": "cuda", "arch": "sm_90"},
        inputs=[],
        weights=[],
        params_mode="random",
        params_seed=0,
        versions={"tvm": "0.27.0.post1", "nvcc": "13.0"},
        nvcc_flags=[],
        cache_key="bench",
        timings={},
        kernels=kernels,
        files={"prelude": "src/tvm_prelude.cuh"},
    )
    (root / "manifest.json").write_text(json.dumps(asdict(manifest)))
    return root


def bench_export(tmp: Path, count: int) -> dict[str, float]:
    ws = synthetic_workspace(tmp / "ws.kscope", count)
    times = {f"relu{i}_kernel": ("NVIDIA H200", 1000.0 + i) for i in range(1, count, 2)}
    db = tmp / "export.db"
    start = time.perf_counter()
    report = export_workspace(ws, db, times=times)
    first = time.perf_counter() - start
    assert len(report.changes) == count
    start = time.perf_counter()
    export_workspace(ws, db, times=times)
    again = time.perf_counter() - start
    return {"first export s": first, "re-export (all unchanged) s": again}


def fill(db_path: Path, rows: int) -> None:
    ops = ["Convolution", "Dot", "MaxPool", "Relu", "Fused_Convolution_Add_Relu", "Softmax"]
    body = "{\n" + "  x[i] = y[i] * 2.0f;\n" * 40 + "}"
    with KernelDB.open(db_path, write=True) as db:
        for start in range(0, rows, 5000):
            batch = []
            for i in range(start, min(rows, start + 5000)):
                op = ops[i % len(ops)]
                shape = [1 + i % 16, 64 * (1 + i % 8), 56, 56 + i % 100]
                batch.append(
                    DbEntry(
                        key=f"{i:064x}",
                        identifier=f"{op}{','.join(map(str, shape))};{i}floatfloat",
                        op_type=op,
                        attributes={"input_shape": [shape]},
                        source="External",
                        device_type="CUDA_GPU",
                        function={"function_body": body, "grid_dim": [i % 97 + 1, 1, 1]},
                        tags=["KernelEmitter", "CudaEmitter", "BlockCudaEmitter"],
                        miscs={"external_profile": {"time": f"NVIDIA H200:{i % 1000};"}},
                        kernel_name=f"fused_{op.lower()}{i}_kernel",
                        usable=True,
                        relax_ops=["relax.nn.conv2d"] if "Conv" in op else ["relax.matmul"],
                        shapes=[shape],
                        provenance={"model": f"model{i % 50}.onnx"},
                        time_us=float(i % 1000),
                        device_name="NVIDIA H200" if i % 3 else "NVIDIA A100-SXM4-80GB",
                    )
                )
            db.write(batch)


def bench_queries(db_path: Path) -> dict[str, float]:
    queries = {
        "list first page (200)": {},
        "op filter": {"op": "Convolution"},
        "device filter": {"device": "NVIDIA A100-SXM4-80GB"},
        "shape filter": {"shape": [3, 192, 56, 58]},
        "text search (FTS)": {"search": "conv2d"},
        "text search, rare": {"search": "dot12345_kern"},
        "op + shape + search": {"op": "Convolution", "shape": [1, 64, 56, 56], "search": "model0"},
    }
    results: dict[str, float] = {}
    with KernelDB.open(db_path) as db:
        for label, filters in queries.items():
            samples = []
            for _ in range(7):
                start = time.perf_counter()
                db.list_entries(**filters, limit=200)
                db.count_entries(**filters)
                samples.append(time.perf_counter() - start)
            results[f"{label}: list+count ms"] = statistics.median(samples) * 1000
        start = time.perf_counter()
        db.get(f"{12345:064x}")
        results["get one entry ms"] = (time.perf_counter() - start) * 1000
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--kernels", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        for label, value in bench_export(tmp, args.kernels).items():
            print(f"export {args.kernels} kernels, {label}: {value:.2f}  (target < 2 s)")
        db_path = tmp / "big.db"
        start = time.perf_counter()
        fill(db_path, args.rows)
        print(f"filled {args.rows} rows in {time.perf_counter() - start:.1f} s")
        for label, value in bench_queries(db_path).items():
            print(f"{args.rows} rows, {label}: {value:.1f}  (target < 50 ms)")


if __name__ == "__main__":
    main()
