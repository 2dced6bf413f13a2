"""NNFusion's own GPU time per operator: the file ``kernelscope export-db --hold-back-against``
reads (the kernel DB's hold-back rule, docs/user-guide.md "Kernels NNFusion does better").

NNFusion writes a CUDA project (``nnfusion_rt.cu``) whose ``kernel_entry`` calls one function per
operator (cuDNN, cuBLAS or its own kernel). Three steps, one of them on the GPU:

  python3 scripts/nnfusion_optimes.py instrument CODEGEN_DIR          (here)
      appends ``kernel_entry_timed`` to CODEGEN_DIR/nnfusion_rt.cu: for every operator call of
      ``kernel_entry`` (NNFusion marks each with ``// name=OP``), a spin kernel that keeps the
      GPU busy past the host's own work (cuDNN's descriptor set-up, the launch), then a CUDA
      event, the call, an event; so an operator's time is its GPU time, not the host's gaps,
      and comparable with ``time_evaluator``'s. Build the project afterwards as usual (its
      CMakeLists). Instrumenting twice changes nothing.
  python3 scripts/nnfusion_optimes.py run CODEGEN_DIR LIB X.npy OUT.json [PASSES]   (GPU)
      (needs PyTorch) cuda_init, 20 plain runs (cuDNN picks its algorithms on the first), then
      PASSES (default 50) timed passes; OUT.json: per operator its call and median µs.
  python3 scripts/nnfusion_optimes.py times NODB_CODEGEN NODB.json [DB.json] OUT.json   (here)
      (with kernelscope) the operators mapped to the identifiers NNFusion looks up
      (``kernel_db.holdback.times_from_projects``); DB.json, the same project built with the
      DB and timed, gives the DB kernels' own times beside them. OUT.json is what
      ``export-db --hold-back-against`` reads.
"""

from __future__ import annotations

import ctypes
import json
import os
import re
import sys
from pathlib import Path

SPIN_NS = 200_000  # longer than any host set-up of one operator call
ENTRY = re.compile(r'^extern "C" int kernel_entry\((?P<params>[^)]*)\)\s*$', re.M)

SPIN = r"""
__global__ void ks_optimes_spin(unsigned long long ns)
{
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do { asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now)); } while (now - start < ns);
}
"""


def operator_calls(source: str) -> tuple[str, list[tuple[str, str]]]:
    """``kernel_entry``'s parameter list and its operator calls: (name, statement)."""
    m = ENTRY.search(source)
    if m is None:
        raise SystemExit("no kernel_entry in this nnfusion_rt.cu (not an NNFusion CUDA project?)")
    body = source[m.end() :]
    body = body[body.index("{") + 1 : body.index("\nreturn 0;")]
    calls: list[tuple[str, str]] = []
    name = ""
    for line in body.splitlines():
        text = line.strip()
        if text.startswith("// name="):
            name = text[len("// name=") :]
        elif text and not text.startswith("//") and name:
            calls.append((name, text))
    return m.group("params"), calls


def instrument(codegen: Path) -> int:
    path = codegen / "nnfusion_rt.cu"
    source = path.read_text()
    if "kernel_entry_timed" in source:
        return 0
    params, calls = operator_calls(source)
    names = [p.strip().split()[-1].lstrip("*") for p in params.split(",")]
    out = [SPIN, f'extern "C" int kernel_entry_timed({params}, float* ks_ms, int ks_passes)', "{",
           "    cudaEvent_t ks_a, ks_b;", "    cudaEventCreate(&ks_a); cudaEventCreate(&ks_b);",
           "    for (int ks_p = 0; ks_p < ks_passes; ++ks_p) {"]  # fmt: skip
    for i, (name, call) in enumerate(calls):
        out += [f"        // {name}",
                f"        ks_optimes_spin<<<1, 1>>>({SPIN_NS}ULL); cudaEventRecord(ks_a, 0);",
                f"        {call}",
                "        cudaEventRecord(ks_b, 0); cudaEventSynchronize(ks_b);",
                f"        cudaEventElapsedTime(&ks_ms[ks_p * {len(calls)} + {i}], ks_a, ks_b);",
                ]  # fmt: skip
    out += ["    }", "    cudaEventDestroy(ks_a); cudaEventDestroy(ks_b);",
            f"    (void){names[0]};", "    return 0;", "}"]  # fmt: skip
    path.write_text(source + "\n" + "\n".join(out) + "\n")
    (codegen / "optimes_ops.json").write_text(json.dumps(calls, indent=0))
    print(f"{path}: {len(calls)} operator calls timed by kernel_entry_timed")
    return 0


def run(codegen: Path, lib_path: Path, x_path: Path, out: Path, passes: int = 50) -> int:
    import numpy as np
    import torch

    calls = json.loads((codegen / "optimes_ops.json").read_text())
    info = json.loads((codegen / "para_info.json").read_text())
    n_out = len(info["output"])
    lib = ctypes.CDLL(str(lib_path))
    here = os.getcwd()
    os.chdir(codegen)  # cuda_init reads ./Constant/*.bin
    try:
        torch.cuda.init()
        lib.cuda_init()
    finally:
        os.chdir(here)
    x = torch.from_numpy(np.load(x_path)).cuda()
    outs = [ctypes.c_void_p() for _ in range(n_out)]
    args = [ctypes.c_void_p(x.data_ptr()), *[ctypes.byref(o) for o in outs]]
    for _ in range(20):
        lib.kernel_entry(*args)
    torch.cuda.synchronize()
    ms = (ctypes.c_float * (passes * len(calls)))()
    lib.kernel_entry_timed(*args, ms, ctypes.c_int(passes))
    torch.cuda.synchronize()
    times = np.array(ms[:], dtype=np.float64).reshape(passes, len(calls)) * 1000.0
    ops = [
        {"name": name, "call": call, "median_us": float(np.median(times[:, i])),
         "min_us": float(np.min(times[:, i]))}
        for i, (name, call) in enumerate(calls)
    ]  # fmt: skip
    device = torch.cuda.get_device_name(0)
    out.write_text(json.dumps({"device": device, "passes": passes, "spin_ns": SPIN_NS,
                               "operators": ops}, indent=1))  # fmt: skip
    lib.cuda_free()
    total = sum(o["median_us"] for o in ops)
    print(f"{codegen}: {len(ops)} operators, sum of medians {total:.1f} µs")
    return 0


def times(nodb_codegen: Path, nodb: Path, db: Path | None, out: Path) -> int:
    from kernelscope.core.kernel_db.holdback import times_from_projects

    measured = json.loads(nodb.read_text())
    with_db = json.loads(db.read_text())["operators"] if db else None
    source = (nodb_codegen / "nnfusion_rt.cu").read_text()
    found = times_from_projects(source, measured["operators"], measured["device"], with_db)
    out.write_text(json.dumps(found.as_json(), indent=1))
    print(f"{out}: {len(found.baseline)} operators without the DB, {len(found.rows)} with it")
    return 0


def main(a: list[str]) -> int:
    if a[:1] == ["instrument"] and len(a) == 2:
        return instrument(Path(a[1]))
    if a[:1] == ["times"] and len(a) in (4, 5):
        return times(Path(a[1]), Path(a[2]), Path(a[3]) if len(a) == 5 else None, Path(a[-1]))
    if a[:1] == ["run"] and len(a) in (5, 6):
        return run(Path(a[1]), Path(a[2]), Path(a[3]), Path(a[4]), *(int(v) for v in a[5:]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
